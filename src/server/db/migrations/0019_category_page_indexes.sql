DROP INDEX "products_category_name_idx";--> statement-breakpoint
CREATE INDEX "variants_category_product_idx" ON "variants" USING btree ("category_id","product_id","size","price");--> statement-breakpoint
CREATE INDEX "products_category_name_idx" ON "products" USING btree ("category_id",translate(lower("name"), 'ё', 'е'),"id","name") WHERE hidden_at is null;