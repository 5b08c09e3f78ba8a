ALTER TABLE "mail_outbox" ADD COLUMN "sheet_order_id" integer;--> statement-breakpoint
ALTER TABLE "order_status_history" ADD COLUMN "carrier" text;--> statement-breakpoint
ALTER TABLE "order_status_history" ADD COLUMN "tracking_number" text;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD CONSTRAINT "mail_outbox_sheet_order_id_orders_id_fk" FOREIGN KEY ("sheet_order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;