-- Hidden products' articles too: a quick order looks articles up among all products (to say which
-- are off sale), and without them in the index it read every product and every variant.
DROP INDEX "products_art_lower_idx";--> statement-breakpoint
CREATE INDEX "products_art_lower_idx" ON "products" USING btree (lower("art") text_pattern_ops);
