CREATE TABLE "conformity_documents" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "conformity_documents_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"kind" text NOT NULL,
	"regulation" text NOT NULL,
	"number" text NOT NULL,
	"valid_from" date NOT NULL,
	"valid_to" date NOT NULL,
	"pdf" "bytea" NOT NULL,
	"pdf_bytes" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "conformity_documents_number_unique" UNIQUE("number"),
	CONSTRAINT "conformity_documents_kind" CHECK ("conformity_documents"."kind" in ('certificate', 'declaration')),
	CONSTRAINT "conformity_documents_valid_range" CHECK ("conformity_documents"."valid_to" >= "conformity_documents"."valid_from")
);
--> statement-breakpoint
CREATE TABLE "image_masters" (
	"name" text PRIMARY KEY NOT NULL,
	"data" "bytea" NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "product_photos" (
	"product_id" integer NOT NULL,
	"color" text,
	"position" integer NOT NULL,
	"image" text NOT NULL,
	CONSTRAINT "product_photos_position_positive" CHECK ("product_photos"."position" >= 1)
);
--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "brand" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "material" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "filler" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "age_from" integer;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "country_of_origin" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "tnved" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "conformity_document_id" integer;--> statement-breakpoint
ALTER TABLE "variants" ADD COLUMN "marked" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "variants" ADD COLUMN "package_length_mm" integer;--> statement-breakpoint
ALTER TABLE "variants" ADD COLUMN "package_width_mm" integer;--> statement-breakpoint
ALTER TABLE "variants" ADD COLUMN "package_height_mm" integer;--> statement-breakpoint
ALTER TABLE "variants" ADD COLUMN "weight_g" integer;--> statement-breakpoint
ALTER TABLE "image_masters" ADD CONSTRAINT "image_masters_name_images_name_fk" FOREIGN KEY ("name") REFERENCES "public"."images"("name") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_photos" ADD CONSTRAINT "product_photos_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "product_photos_order_idx" ON "product_photos" USING btree ("product_id",coalesce("color", ''),"position");--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_conformity_document_id_conformity_documents_id_fk" FOREIGN KEY ("conformity_document_id") REFERENCES "public"."conformity_documents"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "products_conformity_document_idx" ON "products" USING btree ("conformity_document_id");--> statement-breakpoint
CREATE INDEX "variants_barcode_idx" ON "variants" USING btree ("barcode");--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_age_from_range" CHECK ("products"."age_from" between 0 and 18);--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_tnved_ten_digits" CHECK ("products"."tnved" ~ '^[0-9]{10}$');--> statement-breakpoint
ALTER TABLE "variants" ADD CONSTRAINT "variants_package_positive" CHECK ("variants"."package_length_mm" > 0 and "variants"."package_width_mm" > 0 and "variants"."package_height_mm" > 0 and "variants"."weight_g" > 0);