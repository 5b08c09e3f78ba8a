CREATE TABLE "cart_revisions" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"revision" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "cart_revisions" ADD CONSTRAINT "cart_revisions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Every statement that writes cart lines bumps their accounts' revisions once, in its own
-- transaction, whoever runs it (the cart's routes, the quick order, an order taking its lines out,
-- an operator's SQL). An account being deleted (its lines going by the cascade) gets no row.
CREATE FUNCTION bump_cart_revisions() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    INSERT INTO cart_revisions (user_id, revision)
    SELECT DISTINCT user_id, 1 FROM old_lines WHERE EXISTS (SELECT FROM users WHERE users.id = old_lines.user_id)
    ON CONFLICT (user_id) DO UPDATE SET revision = cart_revisions.revision + 1;
  ELSE
    INSERT INTO cart_revisions (user_id, revision)
    SELECT DISTINCT user_id, 1 FROM new_lines
    ON CONFLICT (user_id) DO UPDATE SET revision = cart_revisions.revision + 1;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER cart_items_bump_revision_on_insert AFTER INSERT ON cart_items
REFERENCING NEW TABLE AS new_lines FOR EACH STATEMENT EXECUTE FUNCTION bump_cart_revisions();
--> statement-breakpoint
CREATE TRIGGER cart_items_bump_revision_on_update AFTER UPDATE ON cart_items
REFERENCING NEW TABLE AS new_lines FOR EACH STATEMENT EXECUTE FUNCTION bump_cart_revisions();
--> statement-breakpoint
CREATE TRIGGER cart_items_bump_revision_on_delete AFTER DELETE ON cart_items
REFERENCING OLD TABLE AS old_lines FOR EACH STATEMENT EXECUTE FUNCTION bump_cart_revisions();
