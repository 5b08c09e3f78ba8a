import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import { LIMITS, type Cart, type CartItem } from '../../shared/api';
import type { Queryable } from '../db/database';
import { cartItems, products, variants } from '../db/schema';
import { kopecksToRubles, toKopecks } from '../money';

export type AddToCartResult = { status: 'added'; itemId: number } | { status: 'over-limit' };

/** A conditional count change: written, or refused because the line now holds another count. */
export type SetCountResult = { status: 'set' } | { status: 'not-found' } | { status: 'conflict'; item: CartItem };

export function createCartRepository(db: Queryable) {
  async function selectLines(where: SQL | undefined): Promise<CartItem[]> {
    const rows = await db
      .select({
        id: cartItems.id,
        count: cartItems.count,
        variantId: cartItems.variantId,
        priceWhenAdded: cartItems.priceWhenAdded,
        price: variants.price,
        color: variants.color,
        size: variants.size,
        stock: variants.stock,
        productId: products.id,
        art: products.art,
        name: products.name,
        description: products.description,
        image: products.image,
        hiddenAt: products.hiddenAt,
      })
      .from(cartItems)
      .innerJoin(variants, eq(variants.id, cartItems.variantId))
      .innerJoin(products, eq(products.id, cartItems.productId))
      .where(where)
      .orderBy(asc(cartItems.id));
    return rows.map((row) => ({
      id: row.id,
      count: row.count,
      item_total: kopecksToRubles(toKopecks(row.price) * row.count),
      product: { id: row.productId, art: row.art, name: row.name, description: row.description, image: row.image },
      variant: { price: Number(row.price), color: row.color, size: row.size, stock: row.stock },
      variant_id: row.variantId,
      price_when_added: Number(row.priceWhenAdded),
      available: row.hiddenAt === null,
    }));
  }

  return {
    /** Lines in the order they were first added. */
    async get(userId: number): Promise<Cart> {
      const items = await selectLines(eq(cartItems.userId, userId));
      // Each line total is whole kopecks / 100, so rounding it back to kopecks is exact.
      // A line taken off sale cannot be ordered, so it is not in the total.
      const totalKopecks = items
        .filter((item) => item.available)
        .reduce((sum, item) => sum + Math.round(item.item_total * 100), 0);
      return { items, total_price: kopecksToRubles(totalKopecks) };
    },

    /** Adding a variant that is already in the cart adds to that line instead of making a second one. */
    async add(userId: number, productId: number, variantId: number, count: number): Promise<AddToCartResult> {
      const currentPrice = db.select({ price: variants.price }).from(variants).where(eq(variants.id, variantId));
      const [row] = await db
        .insert(cartItems)
        .values({ userId, productId, variantId, count, priceWhenAdded: sql`(${currentPrice})` })
        .onConflictDoUpdate({
          target: [cartItems.userId, cartItems.variantId],
          // The buyer adding it again has just seen today's price: that is the one to compare with.
          set: { count: sql`${cartItems.count} + excluded.count`, priceWhenAdded: sql`excluded.price_when_added` },
          setWhere: sql`${cartItems.count} + excluded.count <= ${LIMITS.maxCartCount}`,
        })
        .returning({ id: cartItems.id });
      return row ? { status: 'added', itemId: row.id } : { status: 'over-limit' };
    },

    /**
     * Sets the count; with `expected`, only if the line still holds that count (one atomic UPDATE,
     * so of two tabs changing the same count, one wins and the other learns the new count).
     */
    async setCount(userId: number, itemId: number, count: number, expected?: number): Promise<SetCountResult> {
      const ownLine = and(eq(cartItems.id, itemId), eq(cartItems.userId, userId));
      const rows = await db
        .update(cartItems)
        .set({ count })
        .where(expected === undefined ? ownLine : and(ownLine, eq(cartItems.count, expected)))
        .returning({ id: cartItems.id });
      if (rows.length > 0) return { status: 'set' };
      const [item] = expected === undefined ? [] : await selectLines(ownLine);
      return item ? { status: 'conflict', item } : { status: 'not-found' };
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
