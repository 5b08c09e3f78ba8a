CREATE TABLE "price_tiers" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "price_tiers_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"price_type_id" integer NOT NULL,
	"product_id" integer,
	"variant_id" integer,
	"from_quantity" integer NOT NULL,
	"price" numeric(12, 2) NOT NULL,
	CONSTRAINT "price_tiers_one_owner" CHECK (("price_tiers"."product_id" is null) <> ("price_tiers"."variant_id" is null)),
	CONSTRAINT "price_tiers_from_above_one" CHECK ("price_tiers"."from_quantity" >= 2),
	CONSTRAINT "price_tiers_price_positive" CHECK ("price_tiers"."price" > 0)
);
--> statement-breakpoint
CREATE TABLE "price_types" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "price_types_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"code" text NOT NULL,
	"name" text NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"is_rrp" boolean DEFAULT false NOT NULL,
	"min_order_sum" numeric(12, 2) DEFAULT '0' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "price_types_code_unique" UNIQUE("code"),
	CONSTRAINT "price_types_name_unique" UNIQUE("name"),
	CONSTRAINT "price_types_default_not_rrp" CHECK (not ("price_types"."is_default" and "price_types"."is_rrp")),
	CONSTRAINT "price_types_min_order_sum_non_negative" CHECK ("price_types"."min_order_sum" >= 0)
);
--> statement-breakpoint
CREATE TABLE "variant_prices" (
	"price_type_id" integer NOT NULL,
	"variant_id" integer NOT NULL,
	"price" numeric(12, 2) NOT NULL,
	CONSTRAINT "variant_prices_variant_id_price_type_id_pk" PRIMARY KEY("variant_id","price_type_id"),
	CONSTRAINT "variant_prices_price_positive" CHECK ("variant_prices"."price" > 0)
);
--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "price_type_id" integer;--> statement-breakpoint
ALTER TABLE "order_lines" ADD COLUMN "list_price" numeric(12, 2);--> statement-breakpoint
ALTER TABLE "order_lines" ADD COLUMN "price_type_id" integer;--> statement-breakpoint
ALTER TABLE "order_lines" ADD COLUMN "price_type_name" text;--> statement-breakpoint
ALTER TABLE "order_lines" ADD COLUMN "tier_from" integer;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "multiple" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "min_quantity" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "price_tiers" ADD CONSTRAINT "price_tiers_price_type_id_price_types_id_fk" FOREIGN KEY ("price_type_id") REFERENCES "public"."price_types"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "price_tiers" ADD CONSTRAINT "price_tiers_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "price_tiers" ADD CONSTRAINT "price_tiers_variant_id_variants_id_fk" FOREIGN KEY ("variant_id") REFERENCES "public"."variants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "variant_prices" ADD CONSTRAINT "variant_prices_price_type_id_price_types_id_fk" FOREIGN KEY ("price_type_id") REFERENCES "public"."price_types"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "variant_prices" ADD CONSTRAINT "variant_prices_variant_id_variants_id_fk" FOREIGN KEY ("variant_id") REFERENCES "public"."variants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "price_tiers_product_idx" ON "price_tiers" USING btree ("product_id","price_type_id","from_quantity");--> statement-breakpoint
CREATE UNIQUE INDEX "price_tiers_variant_idx" ON "price_tiers" USING btree ("variant_id","price_type_id","from_quantity");--> statement-breakpoint
CREATE UNIQUE INDEX "price_types_one_default_idx" ON "price_types" USING btree ("is_default") WHERE "price_types"."is_default";--> statement-breakpoint
CREATE UNIQUE INDEX "price_types_one_rrp_idx" ON "price_types" USING btree ("is_rrp") WHERE "price_types"."is_rrp";--> statement-breakpoint
CREATE INDEX "variant_prices_type_idx" ON "variant_prices" USING btree ("price_type_id","variant_id");--> statement-breakpoint
ALTER TABLE "companies" ADD CONSTRAINT "companies_price_type_id_price_types_id_fk" FOREIGN KEY ("price_type_id") REFERENCES "public"."price_types"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_lines" ADD CONSTRAINT "order_lines_price_type_id_price_types_id_fk" FOREIGN KEY ("price_type_id") REFERENCES "public"."price_types"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "companies_price_type_idx" ON "companies" USING btree ("price_type_id");--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_multiple_positive" CHECK ("products"."multiple" >= 1);--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_min_quantity_of_multiple" CHECK ("products"."min_quantity" >= 1 and "products"."min_quantity" % "products"."multiple" = 0);--> statement-breakpoint
-- The shop's one price until now becomes the default type's: variants.price keeps it.
INSERT INTO "price_types" ("code", "name", "is_default") VALUES ('opt', 'Опт', true);--> statement-breakpoint
-- Each process keeps which price type a signed-in buyer's catalogue answers are read in
-- (plugins/catalogue-cache.ts); whatever changes it (a company's type, an employee moving to
-- another company, a type made default or deleted) tells every process at commit, however written.
CREATE FUNCTION "announce_buyer_pricing_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('catalogue_changed', '');
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "companies_price_type_changed" AFTER UPDATE OF "price_type_id" ON "companies"
  FOR EACH ROW WHEN (OLD."price_type_id" IS DISTINCT FROM NEW."price_type_id")
  EXECUTE FUNCTION "announce_buyer_pricing_change"();--> statement-breakpoint
CREATE TRIGGER "users_company_changed" AFTER UPDATE OF "company_id" ON "users"
  FOR EACH ROW WHEN (OLD."company_id" IS DISTINCT FROM NEW."company_id")
  EXECUTE FUNCTION "announce_buyer_pricing_change"();--> statement-breakpoint
CREATE TRIGGER "price_types_changed" AFTER INSERT OR UPDATE OR DELETE ON "price_types"
  FOR EACH STATEMENT EXECUTE FUNCTION "announce_buyer_pricing_change"();
