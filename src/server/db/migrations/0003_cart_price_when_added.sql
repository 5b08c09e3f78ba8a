-- Lines already in carts were added at today's price as far as anyone can tell.
ALTER TABLE "cart_items" ADD COLUMN "price_when_added" numeric(12, 2);--> statement-breakpoint
UPDATE "cart_items" SET "price_when_added" = "variants"."price" FROM "variants" WHERE "variants"."id" = "cart_items"."variant_id";--> statement-breakpoint
ALTER TABLE "cart_items" ALTER COLUMN "price_when_added" SET NOT NULL;
