CREATE TABLE "marketplace_photos" (
	"name" text PRIMARY KEY NOT NULL,
	"data" "bytea" NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "marketplace_photos" ADD CONSTRAINT "marketplace_photos_name_images_name_fk" FOREIGN KEY ("name") REFERENCES "public"."images"("name") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "product_photos_image_idx" ON "product_photos" USING btree ("image");--> statement-breakpoint
CREATE INDEX "products_image_idx" ON "products" USING btree ("image");