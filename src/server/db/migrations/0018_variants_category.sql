DROP INDEX "variants_color_product_idx";--> statement-breakpoint
ALTER TABLE "variants" ADD COLUMN "category_id" integer;--> statement-breakpoint
-- variants.category_id is its product's category, kept by the database as products.min_price is:
-- a variant takes it when written (per row, before the write: a bulk insert writes each row once),
-- and a product moved to another category takes its variants along. An order's stock changes
-- name neither column, so they fire neither trigger.
CREATE FUNCTION "variants_category_of_product"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW."category_id" := (SELECT p."category_id" FROM "products" p WHERE p."id" = NEW."product_id");
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER "variants_category_on_write" BEFORE INSERT OR UPDATE OF "product_id", "category_id" ON "variants"
  FOR EACH ROW EXECUTE FUNCTION "variants_category_of_product"();--> statement-breakpoint
CREATE FUNCTION "variants_follow_product_category"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "variants" SET "category_id" = NEW."category_id" WHERE "product_id" = NEW."id";
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "products_category_moves_variants" AFTER UPDATE OF "category_id" ON "products"
  FOR EACH ROW WHEN (OLD."category_id" IS DISTINCT FROM NEW."category_id")
  EXECUTE FUNCTION "variants_follow_product_category"();--> statement-breakpoint
UPDATE "variants" SET "category_id" = p."category_id" FROM "products" p WHERE p."id" = "variants"."product_id";--> statement-breakpoint
CREATE INDEX "variants_category_color_product_idx" ON "variants" USING btree ("category_id","color","product_id");
