-- pg_trgm ships with PostgreSQL's contrib (trusted: the database owner may create it); PGlite loads it from
-- @electric-sql/pglite/contrib/pg_trgm (src/server/db/database.ts).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "search_vector" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('russian', "products"."name"), 'A') || setweight(to_tsvector('russian', coalesce("products"."description", '')), 'B')) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "products_search_idx" ON "products" USING gin ("search_vector") WHERE hidden_at is null;--> statement-breakpoint
CREATE INDEX "products_name_trgm_idx" ON "products" USING gin (lower("name") gin_trgm_ops) WHERE hidden_at is null;--> statement-breakpoint
CREATE INDEX "products_art_lower_idx" ON "products" USING btree (lower("art") text_pattern_ops) WHERE hidden_at is null;