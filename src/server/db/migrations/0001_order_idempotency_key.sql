ALTER TABLE "orders" ADD COLUMN "idempotency_key" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "request_digest" text;--> statement-breakpoint
CREATE UNIQUE INDEX "orders_user_idempotency_key_idx" ON "orders" USING btree ("user_id","idempotency_key");