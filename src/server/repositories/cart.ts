import { and, asc, eq, sql } from 'drizzle-orm';
import { LIMITS, type Cart } from '../../shared/api';
import type { Queryable } from '../db/database';
import { cartItems, products, variants } from '../db/schema';
import { kopecksToRubles, toKopecks } from '../money';

export type AddToCartResult = { status: 'added'; itemId: number } | { status: 'over-limit' };

export function createCartRepository(db: Queryable) {
  return {
    /** Lines in the order they were first added. */
    async get(userId: number): Promise<Cart> {
      const rows = await db
        .select({
          id: cartItems.id,
          count: cartItems.count,
          variantId: cartItems.variantId,
          price: variants.price,
          productId: products.id,
          art: products.art,
          name: products.name,
          description: products.description,
          image: products.image,
        })
        .from(cartItems)
        .innerJoin(variants, eq(variants.id, cartItems.variantId))
        .innerJoin(products, eq(products.id, cartItems.productId))
        .where(eq(cartItems.userId, userId))
        .orderBy(asc(cartItems.id));
      let totalKopecks = 0;
      const items = rows.map((row) => {
        const lineKopecks = toKopecks(row.price) * row.count;
        totalKopecks += lineKopecks;
        return {
          id: row.id,
          count: row.count,
          item_total: kopecksToRubles(lineKopecks),
          product: { id: row.productId, art: row.art, name: row.name, description: row.description, image: row.image },
          variant: { price: Number(row.price) },
          variant_id: row.variantId,
        };
      });
      return { items, total_price: kopecksToRubles(totalKopecks) };
    },

    /** Adding a variant that is already in the cart adds to that line instead of making a second one. */
    async add(userId: number, productId: number, variantId: number, count: number): Promise<AddToCartResult> {
      const [row] = await db
        .insert(cartItems)
        .values({ userId, productId, variantId, count })
        .onConflictDoUpdate({
          target: [cartItems.userId, cartItems.variantId],
          set: { count: sql`${cartItems.count} + excluded.count` },
          setWhere: sql`${cartItems.count} + excluded.count <= ${LIMITS.maxCartCount}`,
        })
        .returning({ id: cartItems.id });
      return row ? { status: 'added', itemId: row.id } : { status: 'over-limit' };
    },

    /** `false` when the line does not exist or belongs to someone else. */
    async setCount(userId: number, itemId: number, count: number): Promise<boolean> {
      const rows = await db
        .update(cartItems)
        .set({ count })
        .where(and(eq(cartItems.id, itemId), eq(cartItems.userId, userId)))
        .returning({ id: cartItems.id });
      return rows.length > 0;
    },

    async remove(userId: number, itemId: number): Promise<boolean> {
      const rows = await db
        .delete(cartItems)
        .where(and(eq(cartItems.id, itemId), eq(cartItems.userId, userId)))
        .returning({ id: cartItems.id });
      return rows.length > 0;
    },
  };
}

export type CartRepository = ReturnType<typeof createCartRepository>;
