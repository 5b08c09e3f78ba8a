-- Search (issue 36, item 1): a typo compared with the names' words with «ё», «э» as «е» and «о» as
-- «а» (тэдди, единарог); articles compared without case, spaces, hyphens or Cyrillic look-alikes
-- (МО-1001, mo1001, MO 1001), and by their number alone (1001).
DROP INDEX "name_vocabulary_trgm_idx";--> statement-breakpoint
CREATE INDEX "name_vocabulary_typo_idx" ON "name_vocabulary" USING gin (translate("word", 'ёэо', 'ееа') gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "products_art_key_idx" ON "products" USING btree (regexp_replace(translate(lower("art"), 'авекмнорстух', 'abekmhopctyx'), '[^a-z0-9а-яё]', '', 'g') text_pattern_ops) WHERE hidden_at is null;--> statement-breakpoint
CREATE INDEX "products_art_number_idx" ON "products" USING btree (regexp_replace("art", '[^0-9]', '', 'g') text_pattern_ops) WHERE hidden_at is null;