CREATE TABLE "reset_requests" (
	"address_hash" text NOT NULL,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "reset_requests_address_idx" ON "reset_requests" USING btree ("address_hash","requested_at");--> statement-breakpoint
CREATE INDEX "reset_requests_age_idx" ON "reset_requests" USING btree ("requested_at");