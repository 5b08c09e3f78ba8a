import { and, asc, count, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { LIMITS } from '../../shared/limits';
import type { Queryable } from '../db/database';
import { cartItems, cartRevisions, products, variants } from '../db/schema';
import type { CartLineRow } from '../domain/cart-pricing';
import { priceInType, stockedVariantColumns } from './products';

// Advisory locks' two-key space: (this, user id) is one buyer's additions to the cart.
const CART_ADD_LOCK = 0x636172; // 'car'

/** A cart line as the service writes it: the price when added is today's. */
export interface NewCartLine {
  userId: number;
  productId: number;
  variantId: number;
  count: number;
  priceWhenAdded: string;
}

/** A variant of a product named by its article, as a quick order looks it up. */
export interface ArticleVariant {
  art: string;
  productId: number;
  productName: string;
  variantId: number;
  color: string;
  size: number;
  /** Decimal rubles, as stored: the default type's price. */
  price: string;
  /** Decimal rubles: the buyer's type's own price, or null. */
  typePrice: string | null;
  stock: number;
  unprovenHeld: number;
  multiple: number;
  minQuantity: number;
}

/** A conditional count change: written, or refused because the line now holds another count. */
export type SetCountResult = { status: 'set' } | { status: 'not-found' } | { status: 'conflict' };

export function createCartRepository(db: Queryable) {
  /** The lines with their variants' prices (the default type's and `typeId`'s own) and packaging. */
  function selectLines(where: SQL | undefined, typeId: number | null): Promise<CartLineRow[]> {
    return db
      .select({
        id: cartItems.id,
        count: cartItems.count,
        variantId: cartItems.variantId,
        priceWhenAdded: cartItems.priceWhenAdded,
        price: variants.price,
        typePrice: typeId === null ? sql<string | null>`null` : priceInType(typeId),
        color: variants.color,
        size: variants.size,
        stock: variants.stock,
        unprovenHeld: variants.unprovenHeld,
        productId: products.id,
        art: products.art,
        name: products.name,
        description: products.description,
        image: products.image,
        hidden: sql<boolean>`${products.hiddenAt} is not null`,
        multiple: products.multiple,
        minQuantity: products.minQuantity,
      })
      .from(cartItems)
      .innerJoin(variants, eq(variants.id, cartItems.variantId))
      .innerJoin(products, eq(products.id, cartItems.productId))
      .where(where)
      .orderBy(asc(cartItems.id));
  }

  return {
    /**
     * The cart's revision and its lines in the order they were first added, priced from `typeId`'s
     * own prices where it has them (null: the default type's alone). The revision is read before the
     * lines: a change landing between the two reads leaves an older version with the newer lines,
     * which an order then finds out of date (409), never the other way round.
     */
    async read(userId: number, typeId: number | null): Promise<{ revision: number; lines: CartLineRow[] }> {
      const [revision] = await db
        .select({ revision: cartRevisions.revision })
        .from(cartRevisions)
        .where(eq(cartRevisions.userId, userId));
      return { revision: revision?.revision ?? 0, lines: await selectLines(eq(cartItems.userId, userId), typeId) };
    },

    /** One of the buyer's lines, as `read` gives them; null when there is none. */
    async line(userId: number, itemId: number): Promise<CartLineRow | null> {
      const [line] = await selectLines(and(eq(cartItems.id, itemId), eq(cartItems.userId, userId)), null);
      return line ?? null;
    },

    /**
     * Queues the buyer's additions to the cart until the caller's transaction ends: one buyer's two
     * additions at once, from two tabs, would lock the same lines in their own orders and could
     * deadlock; they queue instead.
     */
    async lockAdditions(userId: number): Promise<void> {
      await db.execute(sql`select pg_advisory_xact_lock(${CART_ADD_LOCK}::int, ${userId}::int)`);
    },

    /**
     * The variants with their products' names, prices (the default type's and `typeId`'s own),
     * stock, packaging and sale state, in no order.
     */
    stockedVariants(variantIds: readonly number[], typeId: number | null) {
      return db
        .select({
          ...stockedVariantColumns,
          typePrice: typeId === null ? sql<string | null>`null` : priceInType(typeId),
        })
        .from(variants)
        .innerJoin(products, eq(products.id, variants.productId))
        .where(inArray(variants.id, [...variantIds]));
    },

    /** The buyer's cart lines, and how many of them are of `variantIds`. */
    async heldLines(userId: number, variantIds: readonly number[]): Promise<{ lines: number; listed: number }> {
      const [held] = await db
        .select({
          lines: count(),
          listed: count(sql`case when ${inArray(cartItems.variantId, [...variantIds])} then 1 end`),
        })
        .from(cartItems)
        .where(eq(cartItems.userId, userId));
      return held!;
    },

    /**
     * Writes the lines with one upsert: a variant already in the cart gets the count added, unless
     * that would go over LIMITS.maxCartCount; such a line is left as it was and is missing from
     * what is returned (the written lines' ids by variant).
     */
    async upsertLines(rows: readonly NewCartLine[]): Promise<Map<number, number>> {
      const written = await db
        .insert(cartItems)
        .values([...rows])
        .onConflictDoUpdate({
          target: [cartItems.userId, cartItems.variantId],
          set: { count: sql`${cartItems.count} + excluded.count`, priceWhenAdded: sql`excluded.price_when_added` },
          setWhere: sql`${cartItems.count} + excluded.count <= ${LIMITS.maxCartCount}`,
        })
        .returning({ id: cartItems.id, variantId: cartItems.variantId });
      return new Map(written.map((row) => [row.variantId, row.id]));
    },

    /**
     * Every variant of the products on sale whose article is one of `arts` in any case: one query
     * however many articles, in variant order. A product off sale is not found, as an unknown
     * article is: a buyer is shown neither its name nor its price and stock.
     */
    async variantsOfArticles(arts: readonly string[], typeId: number | null): Promise<ArticleVariant[]> {
      const lowered = [...new Set(arts.map((art) => art.toLowerCase()))];
      if (lowered.length === 0) return [];
      // A row a product, its variants as one JSON array (the price as text, as stored): the
      // embedded database's client decodes each row's fields one by one, and 37 000 variant rows
      // for 5 000 articles took it 1.1 s against 0.4–0.6 s for 5 000 product rows.
      // Named with its table: in a select list Drizzle writes a column alone, and `id` would be the variant's.
      const productId = sql`${products}.${sql.identifier(products.id.name)}`;
      const typePrice = typeId === null ? sql`null` : sql`${priceInType(typeId)}::text`;
      const variantsOfProduct = sql<[number, string, number, string, string | null, number, number][] | null>`(
        select json_agg(json_build_array(${variants.id}, ${variants.color}, ${variants.size},
          ${variants.price}::text, ${typePrice}, ${variants.stock}, ${variants.unprovenHeld}))
        from ${variants} where ${variants.productId} = ${productId})`;
      const found = await db
        .select({
          art: products.art,
          productId: products.id,
          productName: products.name,
          multiple: products.multiple,
          minQuantity: products.minQuantity,
          variants: variantsOfProduct,
        })
        .from(products)
        .where(and(inArray(sql`lower(${products.art})`, lowered), isNull(products.hiddenAt)));
      return found
        .flatMap(({ variants: ofProduct, ...product }) =>
          (ofProduct ?? []).map(([variantId, color, size, price, typePrice, stock, unprovenHeld]) => ({
            ...product,
            variantId,
            color,
            size,
            price,
            typePrice,
            stock,
            unprovenHeld,
          })),
        )
        .sort((a, b) => a.variantId - b.variantId);
    },

    /** The pieces of each variant in the buyer's cart, by variant id. */
    async countsByVariant(userId: number): Promise<Map<number, number>> {
      const rows = await db
        .select({ variantId: cartItems.variantId, count: cartItems.count })
        .from(cartItems)
        .where(eq(cartItems.userId, userId));
      return new Map(rows.map((row) => [row.variantId, row.count]));
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
      const [line] = expected === undefined ? [] : await selectLines(ownLine, null);
      return line ? { status: 'conflict' } : { status: 'not-found' };
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
