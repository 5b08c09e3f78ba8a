CREATE TABLE "companies" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "companies_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"blocked_at" timestamp with time zone,
	"first_paid_at" timestamp with time zone,
	"trusted_at" timestamp with time zone,
	"manager_id" integer,
	"default_legal_entity_id" uuid
);
--> statement-breakpoint
CREATE TABLE "company_invitations" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "company_invitations_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"company_id" integer NOT NULL,
	"email" text NOT NULL,
	"role" text NOT NULL,
	"token_hash" text NOT NULL,
	"invited_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"accepted_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "company_invitations_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "legal_entities" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" integer NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"inn" text NOT NULL,
	"kpp" text,
	"ogrn" text,
	"address" text DEFAULT '' NOT NULL,
	"bank_name" text,
	"bik" text,
	"account" text,
	"corr_account" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	"archived_at" timestamp with time zone,
	CONSTRAINT "legal_entities_kind_known" CHECK ("legal_entities"."kind" in ('ip', 'org'))
);
--> statement-breakpoint
CREATE TABLE "staff_profiles" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"contact_email" text,
	"phone" text,
	"messenger_url" text
);
--> statement-breakpoint
ALTER TABLE "addresses" DROP CONSTRAINT "addresses_user_id_users_id_fk";
--> statement-breakpoint
DROP INDEX "addresses_user_idx";--> statement-breakpoint
DROP INDEX "orders_user_unpaid_idx";--> statement-breakpoint
ALTER TABLE "addresses" ALTER COLUMN "user_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "addresses" ADD COLUMN "company_id" integer;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "company_id" integer;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "legal_entity_id" uuid;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "placed_by_name" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "company_id" integer;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "company_role" text;--> statement-breakpoint
-- Backfill, written by hand (keep it when the migration is regenerated or renumbered): every account
-- (a manager's too: managers shop in the storefront as well) becomes the owner of a company of one, numbered as the account, named by the requisites' company
-- name (else the contact's name, else the e-mail), with the account's standing; the requisites'
-- ИНН, КПП and name become its first legal entity (an ИНН of 12 digits an ИП's, any other an
-- organisation's, as the buyer typed it) and its default; the addresses and orders become the
-- company's, an order made out to that ИНН and КПП naming the entity, each order naming who placed
-- it. Managers get a profile for the buyers to see, named by their e-mail until edited.
INSERT INTO "companies" ("id", "name", "created_at", "first_paid_at", "trusted_at")
OVERRIDING SYSTEM VALUE
SELECT "u"."id",
  coalesce(nullif(btrim("r"."company_name"), ''), nullif(btrim("r"."contact_name"), ''), "u"."email"),
  "u"."created_at", "u"."first_paid_at", "u"."trusted_at"
FROM "users" "u" LEFT JOIN "requisites" "r" ON "r"."user_id" = "u"."id";--> statement-breakpoint
SELECT setval(pg_get_serial_sequence('companies', 'id'), coalesce((SELECT max("id") FROM "companies"), 0) + 1, false);--> statement-breakpoint
UPDATE "users" SET "company_id" = "id", "company_role" = 'owner';--> statement-breakpoint
ALTER TABLE "users" ALTER COLUMN "company_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ALTER COLUMN "company_role" SET NOT NULL;--> statement-breakpoint
INSERT INTO "legal_entities" ("company_id", "kind", "name", "inn", "kpp", "created_at")
SELECT "r"."user_id", CASE WHEN length("r"."company_inn") = 12 THEN 'ip' ELSE 'org' END,
  coalesce(nullif(btrim("r"."company_name"), ''), 'ИНН ' || "r"."company_inn"), "r"."company_inn", "r"."company_kpp",
  "r"."updated_at"
FROM "requisites" "r"
WHERE "r"."company_inn" IS NOT NULL;--> statement-breakpoint
UPDATE "companies" SET "default_legal_entity_id" = "le"."id"
FROM "legal_entities" "le" WHERE "le"."company_id" = "companies"."id";--> statement-breakpoint
UPDATE "addresses" SET "company_id" = "users"."company_id"
FROM "users" WHERE "users"."id" = "addresses"."user_id";--> statement-breakpoint
UPDATE "orders" SET "company_id" = "users"."company_id",
  "placed_by_name" = coalesce(nullif(btrim("orders"."contact_name"), ''), "users"."email")
FROM "users" WHERE "users"."id" = "orders"."user_id";--> statement-breakpoint
UPDATE "orders" SET "legal_entity_id" = "le"."id"
FROM "legal_entities" "le"
WHERE "le"."company_id" = "orders"."company_id" AND "le"."inn" = "orders"."company_inn"
  AND "le"."kpp" IS NOT DISTINCT FROM "orders"."company_kpp";--> statement-breakpoint
UPDATE "legal_entities" SET "last_used_at" = "used"."at"
FROM (SELECT "legal_entity_id", max("created_at") AS "at" FROM "orders" WHERE "legal_entity_id" IS NOT NULL GROUP BY "legal_entity_id") AS "used"
WHERE "used"."legal_entity_id" = "legal_entities"."id";--> statement-breakpoint
INSERT INTO "staff_profiles" ("user_id", "name") SELECT "id", "email" FROM "users" WHERE "role" = 'manager';--> statement-breakpoint
ALTER TABLE "addresses" ALTER COLUMN "company_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "companies" ADD CONSTRAINT "companies_manager_id_users_id_fk" FOREIGN KEY ("manager_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "companies" ADD CONSTRAINT "companies_default_legal_entity_id_legal_entities_id_fk" FOREIGN KEY ("default_legal_entity_id") REFERENCES "public"."legal_entities"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "company_invitations" ADD CONSTRAINT "company_invitations_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "company_invitations" ADD CONSTRAINT "company_invitations_invited_by_users_id_fk" FOREIGN KEY ("invited_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "legal_entities" ADD CONSTRAINT "legal_entities_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff_profiles" ADD CONSTRAINT "staff_profiles_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "companies_manager_idx" ON "companies" USING btree ("manager_id");--> statement-breakpoint
CREATE INDEX "company_invitations_company_idx" ON "company_invitations" USING btree ("company_id","email");--> statement-breakpoint
CREATE INDEX "legal_entities_company_idx" ON "legal_entities" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "legal_entities_inn_idx" ON "legal_entities" USING btree ("inn","kpp");--> statement-breakpoint
ALTER TABLE "addresses" ADD CONSTRAINT "addresses_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "addresses" ADD CONSTRAINT "addresses_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_legal_entity_id_legal_entities_id_fk" FOREIGN KEY ("legal_entity_id") REFERENCES "public"."legal_entities"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "addresses_company_idx" ON "addresses" USING btree ("company_id","id");--> statement-breakpoint
CREATE INDEX "orders_company_idx" ON "orders" USING btree ("company_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "orders_company_unpaid_idx" ON "orders" USING btree ("company_id") WHERE "orders"."status" in ('Создан', 'Ожидает оплаты');--> statement-breakpoint
CREATE INDEX "users_company_idx" ON "users" USING btree ("company_id");--> statement-breakpoint
ALTER TABLE "requisites" DROP COLUMN "company_name";--> statement-breakpoint
ALTER TABLE "requisites" DROP COLUMN "company_inn";--> statement-breakpoint
ALTER TABLE "requisites" DROP COLUMN "company_kpp";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "first_paid_at";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "trusted_at";--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_company_role_known" CHECK ("users"."company_role" in ('owner', 'purchaser', 'accountant'));