DROP INDEX "products_popular_idx";--> statement-breakpoint
CREATE INDEX "products_popular_idx" ON "products" USING btree ("units_ordered" DESC NULLS FIRST,"curated_rank","id");