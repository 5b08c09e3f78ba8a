CREATE TABLE "exchange_files" (
	"run_id" uuid NOT NULL,
	"name" text NOT NULL,
	"bytes" numeric(16, 0) DEFAULT 0 NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"stage" text DEFAULT 'received' NOT NULL,
	"heartbeat_at" timestamp with time zone,
	"failure" text,
	CONSTRAINT "exchange_files_run_id_name_pk" PRIMARY KEY("run_id","name")
);
--> statement-breakpoint
CREATE TABLE "exchange_price_types" (
	"external_id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"price_type_id" integer,
	"mapped_by_manager" boolean DEFAULT false NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "exchange_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"by_user_id" integer,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"status" text DEFAULT 'receiving' NOT NULL,
	"failure" text,
	"stats" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"sent_orders" jsonb,
	"files_removed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "exchange_sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"cookie_hash" text NOT NULL,
	"user_id" integer NOT NULL,
	"client_ip" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"run_id" uuid,
	CONSTRAINT "exchange_sessions_cookie_hash_unique" UNIQUE("cookie_hash")
);
--> statement-breakpoint
CREATE TABLE "exchange_staged_groups" (
	"run_id" uuid NOT NULL,
	"external_id" text NOT NULL,
	"name" text NOT NULL,
	"parent_id" text,
	"path" text[] NOT NULL,
	CONSTRAINT "exchange_staged_groups_run_id_external_id_pk" PRIMARY KEY("run_id","external_id")
);
--> statement-breakpoint
CREATE TABLE "exchange_staged_offers" (
	"run_id" uuid NOT NULL,
	"file" text NOT NULL,
	"external_id" text NOT NULL,
	"record" jsonb NOT NULL,
	CONSTRAINT "exchange_staged_offers_run_id_file_external_id_pk" PRIMARY KEY("run_id","file","external_id")
);
--> statement-breakpoint
CREATE TABLE "exchange_staged_products" (
	"run_id" uuid NOT NULL,
	"file" text NOT NULL,
	"external_id" text NOT NULL,
	"record" jsonb NOT NULL,
	CONSTRAINT "exchange_staged_products_run_id_external_id_pk" PRIMARY KEY("run_id","external_id")
);
--> statement-breakpoint
CREATE TABLE "exchange_warehouses" (
	"external_id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"used" boolean DEFAULT true NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "categories" ADD COLUMN "external_id" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "exchange_changed_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "exchange_confirmed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "one_c_document" jsonb;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "external_id" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "exchange_access" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "variants" ADD COLUMN "external_id" text;--> statement-breakpoint
ALTER TABLE "variants" ADD COLUMN "barcode" text;--> statement-breakpoint
ALTER TABLE "exchange_files" ADD CONSTRAINT "exchange_files_run_id_exchange_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."exchange_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exchange_price_types" ADD CONSTRAINT "exchange_price_types_price_type_id_price_types_id_fk" FOREIGN KEY ("price_type_id") REFERENCES "public"."price_types"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exchange_runs" ADD CONSTRAINT "exchange_runs_by_user_id_users_id_fk" FOREIGN KEY ("by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exchange_sessions" ADD CONSTRAINT "exchange_sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exchange_sessions" ADD CONSTRAINT "exchange_sessions_run_id_exchange_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."exchange_runs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exchange_staged_groups" ADD CONSTRAINT "exchange_staged_groups_run_id_exchange_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."exchange_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exchange_staged_offers" ADD CONSTRAINT "exchange_staged_offers_run_id_exchange_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."exchange_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exchange_staged_products" ADD CONSTRAINT "exchange_staged_products_run_id_exchange_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."exchange_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "exchange_runs_started_idx" ON "exchange_runs" USING btree ("started_at" DESC NULLS LAST,"id");--> statement-breakpoint
CREATE INDEX "exchange_sessions_last_seen_idx" ON "exchange_sessions" USING btree ("last_seen_at");--> statement-breakpoint
CREATE INDEX "orders_exchange_pending_idx" ON "orders" USING btree ("exchange_changed_at","id") WHERE "orders"."exchange_confirmed_at" is null or "orders"."exchange_confirmed_at" < "orders"."exchange_changed_at";--> statement-breakpoint
ALTER TABLE "categories" ADD CONSTRAINT "categories_external_id_unique" UNIQUE("external_id");--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_external_id_unique" UNIQUE("external_id");--> statement-breakpoint
ALTER TABLE "variants" ADD CONSTRAINT "variants_external_id_unique" UNIQUE("external_id");--> statement-breakpoint
-- Orders finished before the exchange existed are not sent to 1С by its first query (nor counted as
-- held back from 1С's stock); the ones still under way are: 1С has not seen them.
UPDATE "orders" SET "exchange_confirmed_at" = "exchange_changed_at" WHERE "status" IN ('Доставлен', 'Отменён');
