ALTER TABLE "feed_files" ADD COLUMN "lease_id" text;--> statement-breakpoint
ALTER TABLE "feed_files" ADD COLUMN "failures" integer DEFAULT 0 NOT NULL;