CREATE TABLE "sign_in_attempts" (
	"client" text NOT NULL,
	"account" text,
	"failed" boolean DEFAULT true NOT NULL,
	"attempted_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "sign_in_attempts_client_idx" ON "sign_in_attempts" USING btree ("client","attempted_at");--> statement-breakpoint
CREATE INDEX "sign_in_attempts_account_failures_idx" ON "sign_in_attempts" USING btree ("account","attempted_at") WHERE failed;--> statement-breakpoint
CREATE INDEX "sign_in_attempts_age_idx" ON "sign_in_attempts" USING btree ("attempted_at");