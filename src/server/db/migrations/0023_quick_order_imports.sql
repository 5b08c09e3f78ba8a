CREATE TABLE "quick_order_imports" (
	"user_id" integer NOT NULL,
	"imported_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "quick_order_imports" ADD CONSTRAINT "quick_order_imports_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "quick_order_imports_user_idx" ON "quick_order_imports" USING btree ("user_id","imported_at");--> statement-breakpoint
CREATE INDEX "quick_order_imports_age_idx" ON "quick_order_imports" USING btree ("imported_at");