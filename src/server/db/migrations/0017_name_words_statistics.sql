-- How many names hold a word. products_name_words_idx is partial (visible products only), and
-- PostgreSQL keeps no statistics for a partial index's expression, so it took every word for a rare
-- one: a word in every name («коллекция», «мягкий») read the whole index into a bitmap (13 ms on
-- the embedded database at 100 000 products) to keep 200 of its matches. Knowing the word is
-- everywhere, it reads products in an index's order and stops at the 200th (docs/decisions.md).
CREATE STATISTICS "products_name_words_stats" ON (to_tsvector('russian', "name")) FROM "products";
--> statement-breakpoint
-- Filled now, not at autovacuum's next visit (ANALYZE samples at most 30 000 rows).
ANALYZE "products";
