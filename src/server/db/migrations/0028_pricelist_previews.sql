CREATE TABLE "price_list_preview_rows" (
	"preview_id" uuid NOT NULL,
	"row" integer NOT NULL,
	"kind" text NOT NULL,
	"new_product" boolean NOT NULL,
	"art" text NOT NULL,
	"name" text NOT NULL,
	"category" text NOT NULL,
	"color" text NOT NULL,
	"size" integer NOT NULL,
	"price" numeric(12, 2) NOT NULL,
	"stock" integer NOT NULL,
	"old_name" text,
	"old_category" text,
	"old_price" numeric(12, 2),
	"old_stock" integer,
	CONSTRAINT "price_list_preview_rows_preview_id_row_pk" PRIMARY KEY("preview_id","row")
);
--> statement-breakpoint
CREATE TABLE "price_list_previews" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" integer NOT NULL,
	"created" integer NOT NULL,
	"updated" integer NOT NULL,
	"unchanged" integer NOT NULL,
	"new_products" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "price_list_preview_rows" ADD CONSTRAINT "price_list_preview_rows_preview_id_price_list_previews_id_fk" FOREIGN KEY ("preview_id") REFERENCES "public"."price_list_previews"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "price_list_previews" ADD CONSTRAINT "price_list_previews_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "price_list_previews_user_idx" ON "price_list_previews" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "price_list_previews_expiry_idx" ON "price_list_previews" USING btree ("expires_at");