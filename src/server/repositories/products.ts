import { and, asc, desc, eq, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Product, Variant } from '../../shared/api';
import type { Queryable } from '../db/database';
import { escapeLike } from '../db/like';
import { categories, products, variants } from '../db/schema';

export interface Page {
  skip: number;
  limit: number;
}

/** A product as the storefront shows it, without its variants. */
export const productColumns = {
  id: products.id,
  art: products.art,
  name: products.name,
  description: products.description,
  big_description: products.bigDescription,
  image: products.image,
};

/** A variant row as both the catalogue and the order transaction read it. */
export const variantColumns = {
  id: variants.id,
  productId: variants.productId,
  color: variants.color,
  size: variants.size,
  price: variants.price,
  stock: variants.stock,
};

/** The rows with their products' variants, smallest first (the storefront's and the back office's). */
export async function withVariants<Row extends { id: number }>(
  db: Queryable,
  rows: Row[],
): Promise<(Row & { variants: Variant[] })[]> {
  if (rows.length === 0) return [];
  const variantRows = await db
    .select(variantColumns)
    .from(variants)
    .where(
      inArray(
        variants.productId,
        rows.map((row) => row.id),
      ),
    )
    .orderBy(asc(variants.size), asc(variants.id));
  const byProduct = new Map<number, Variant[]>(rows.map((row) => [row.id, []]));
  for (const { productId, price, ...variant } of variantRows) {
    byProduct.get(productId)?.push({ ...variant, price: Number(price) });
  }
  return rows.map((row) => ({ ...row, variants: byProduct.get(row.id) ?? [] }));
}

/**
 * How close (pg_trgm's word_similarity) a query must come to some words of a name to find it despite
 * a typo. The extension's default, 0.6, misses «медвдь» in «медведь» (0.57); at 0.5 «медведь большой»
 * found every «медведь …» (0.5), one word being enough.
 */
const TYPO_SIMILARITY = 0.55;

export function createProductsRepository(db: Queryable) {
  /**
   * One page of products in `order`. The page's ids are found first, from the ordering index
   * alone (an index-only scan once the table has been vacuumed), then only those rows are read.
   * Read in the same scan, every skipped product was fetched too: page 1001 of a category of
   * 12 500 products took 63 ms on PostgreSQL, 1.3 ms this way (bench/growth.ts).
   */
  async function page(
    where: SQL | undefined,
    order: SQL[],
    { skip, limit }: Page,
    on: Queryable = db,
  ): Promise<Product[]> {
    const pageIds = on
      .select({ id: products.id })
      .from(products)
      // Hidden products are not in the storefront's partial indexes, nor on its pages.
      .where(and(isNull(products.hiddenAt), where))
      .orderBy(...order)
      .limit(limit)
      .offset(skip);
    const rows = await on
      .select(productColumns)
      .from(products)
      .where(inArray(products.id, pageIds))
      .orderBy(...order);
    return withVariants(on, rows);
  }

  return {
    list(paging: Page): Promise<Product[]> {
      return page(undefined, [asc(products.id)], paging);
    },

    /** The managers' picks first, then most units ordered, then the shop's curated rank; documented in README. */
    listPopular(paging: Page): Promise<Product[]> {
      return page(
        undefined,
        [desc(products.popular), desc(products.unitsOrdered), asc(products.curatedRank), asc(products.id)],
        paging,
      );
    },

    /** `null` when there is no such category, an empty list when the page is past its end. */
    async listByCategory(category: string, paging: Page): Promise<Product[] | null> {
      const [found] = await db.select({ id: categories.id }).from(categories).where(eq(categories.name, category));
      if (!found) return null;
      return page(eq(products.categoryId, found.id), [asc(products.id)], paging);
    },

    /**
     * Products whose article is `query` or begins with it, whose name or description has its words
     * in any form (the Russian stemmer: «мишки» finds «Мишка»), or whose name has them with a typo
     * (trigrams). Article matches come first (the exact one before the prefixed), then name matches,
     * then description-only ones; within each, the closer match first. Every branch of the
     * condition has its own partial index (migration 0008), which PostgreSQL combines (BitmapOr).
     */
    search(query: string, paging: Page): Promise<Product[]> {
      // Functions of constants: PostgreSQL folds them once per query, not once per row.
      const text = sql`lower(${query})`;
      const words = sql`websearch_to_tsquery('russian', ${query})`;
      const art = sql`lower(${products.art})`;
      const name = sql`lower(${products.name})`;
      // LIKE's own wildcards in the query are literal: «mo_1» is not a pattern.
      const artPrefix = sql`${art} like lower(${escapeLike(query)}) || '%'`;
      const where = or(artPrefix, sql`${products.searchVector} @@ ${words}`, sql`${text} <% ${name}`);
      const order = [
        sql`case
          when ${art} = ${text} then 0
          when ${artPrefix} then 1
          when ts_filter(${products.searchVector}, '{a}') @@ ${words} then 2
          when ${text} <% ${name} then 3
          else 4 end`,
        sql`ts_rank(${products.searchVector}, ${words}) desc`,
        sql`word_similarity(${text}, ${name}) desc`,
        // Unique: the pages of one query never overlap. «mo-10» lists MO-10, MO-100, MO-1008 in order.
        asc(products.art),
      ];
      return db.transaction(async (tx) => {
        // `<%` reads its threshold from this setting; `true` keeps it to this transaction.
        await tx.execute(sql`select set_config('pg_trgm.word_similarity_threshold', ${String(TYPO_SIMILARITY)}, true)`);
        return page(where, order, paging, tx);
      });
    },

    async findByArt(art: string): Promise<Product | null> {
      const rows = await db
        .select(productColumns)
        .from(products)
        .where(and(eq(products.art, art), isNull(products.hiddenAt)));
      const [product] = await withVariants(db, rows);
      return product ?? null;
    },

    async categoryNames(): Promise<string[]> {
      const rows = await db
        .select({ name: categories.name })
        .from(categories)
        .orderBy(asc(categories.position), asc(categories.id));
      return rows.map((row) => row.name);
    },

    async findVariant(variantId: number) {
      const [row] = await db
        .select({
          id: variants.id,
          productId: variants.productId,
          stock: variants.stock,
          name: products.name,
          hidden: sql<boolean>`${products.hiddenAt} is not null`,
        })
        .from(variants)
        .innerJoin(products, eq(products.id, variants.productId))
        .where(eq(variants.id, variantId));
      return row ?? null;
    },
  };
}

export type ProductsRepository = ReturnType<typeof createProductsRepository>;
