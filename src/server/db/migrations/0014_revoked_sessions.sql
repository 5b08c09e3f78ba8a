CREATE TABLE "revoked_sessions" (
	"session_id" uuid PRIMARY KEY NOT NULL,
	"revoked_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "revoked_sessions_revoked_at_idx" ON "revoked_sessions" USING btree ("revoked_at");--> statement-breakpoint
-- An account's row gone by any way (the shop's deletion, an operator's SQL, a cascade) ends its
-- sessions in the same transaction: its access tokens are refused at once in every process, never
-- let through to writes that would break on the missing row.
CREATE FUNCTION revoke_deleted_account_sessions() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  revoked uuid;
BEGIN
  FOR revoked IN
    INSERT INTO revoked_sessions (session_id)
    SELECT DISTINCT family_id FROM refresh_tokens WHERE user_id = OLD.id
    ON CONFLICT DO NOTHING
    RETURNING session_id
  LOOP
    PERFORM pg_notify('sessions_revoked', revoked::text);
  END LOOP;
  RETURN OLD;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER users_revoke_sessions_on_delete BEFORE DELETE ON users
FOR EACH ROW EXECUTE FUNCTION revoke_deleted_account_sessions();
