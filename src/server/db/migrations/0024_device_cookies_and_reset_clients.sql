-- Hand-written (drizzle-kit generated a bare NOT NULL, which fails on rows already there): the letters
-- sent in the hour before the migration keep counting towards their address's daily ceiling, under
-- an empty client hash that no client has; the default goes at once, so new rows must name their client.
ALTER TABLE "reset_requests" ADD COLUMN "client_hash" text NOT NULL DEFAULT '';--> statement-breakpoint
ALTER TABLE "reset_requests" ALTER COLUMN "client_hash" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "sign_in_attempts" ADD COLUMN "device" text;
