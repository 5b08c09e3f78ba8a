ALTER TABLE "products" ADD COLUMN "min_price" numeric(12, 2);--> statement-breakpoint
-- products.min_price is kept by the database itself, as search_vector is: every writer of variants
-- (the back office, the price-list import, the seed, a bulk insert) keeps it right without knowing.
-- Inserts and deletes recompute the products they touched once per statement (a bulk insert of
-- 750 000 variants is one update); an update only when a price changed. The IS DISTINCT FROM
-- leaves a product whose lowest price stayed the same unwritten.
CREATE FUNCTION "products_min_price_of_changed_variants"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "products" SET "min_price" = lowest.price
  FROM (
    SELECT changed.product_id, (SELECT min(v."price") FROM "variants" v WHERE v."product_id" = changed.product_id) AS price
    FROM (SELECT DISTINCT "product_id" AS product_id FROM changed_variants) changed
  ) lowest
  WHERE "products"."id" = lowest.product_id AND "products"."min_price" IS DISTINCT FROM lowest.price;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "variants_inserted_min_price" AFTER INSERT ON "variants" REFERENCING NEW TABLE AS changed_variants
  FOR EACH STATEMENT EXECUTE FUNCTION "products_min_price_of_changed_variants"();--> statement-breakpoint
CREATE TRIGGER "variants_deleted_min_price" AFTER DELETE ON "variants" REFERENCING OLD TABLE AS changed_variants
  FOR EACH STATEMENT EXECUTE FUNCTION "products_min_price_of_changed_variants"();--> statement-breakpoint
-- Transition tables cannot go with a column list: the update trigger would run for every stock
-- change of every order. A price (or, never done, a product) change runs it per row instead.
CREATE FUNCTION "products_min_price_of_changed_variant"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "products" SET "min_price" = (SELECT min(v."price") FROM "variants" v WHERE v."product_id" = "products"."id")
  WHERE "products"."id" IN (NEW."product_id", OLD."product_id");
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "variants_price_changed_min_price" AFTER UPDATE OF "price", "product_id" ON "variants"
  FOR EACH ROW WHEN (OLD."price" IS DISTINCT FROM NEW."price" OR OLD."product_id" <> NEW."product_id")
  EXECUTE FUNCTION "products_min_price_of_changed_variant"();--> statement-breakpoint
UPDATE "products" SET "min_price" = (SELECT min(v."price") FROM "variants" v WHERE v."product_id" = "products"."id");--> statement-breakpoint
CREATE INDEX "products_category_new_idx" ON "products" USING btree ("category_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE hidden_at is null;--> statement-breakpoint
CREATE INDEX "products_category_name_idx" ON "products" USING btree ("category_id",translate(lower("name"), 'ё', 'е'),"id") WHERE hidden_at is null;--> statement-breakpoint
CREATE INDEX "products_category_price_asc_idx" ON "products" USING btree ("category_id","min_price","id") WHERE hidden_at is null;--> statement-breakpoint
CREATE INDEX "products_category_price_desc_idx" ON "products" USING btree ("category_id","min_price" DESC NULLS LAST,"id") WHERE hidden_at is null;--> statement-breakpoint
CREATE INDEX "products_name_words_idx" ON "products" USING gin (to_tsvector('russian', "name")) WHERE hidden_at is null;--> statement-breakpoint
CREATE INDEX "variants_color_product_idx" ON "variants" USING btree ("color","product_id");