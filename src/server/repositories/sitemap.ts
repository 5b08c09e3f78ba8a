import { and, asc, count, eq, exists, isNull, sql } from 'drizzle-orm';
import type { Queryable } from '../db/database';
import { categories, products } from '../db/schema';
import type { Page } from './products';

/** What the sitemap lists: the storefront's categories and products, the hidden ones left out. */
export function createSitemapRepository(db: Queryable) {
  const visible = isNull(products.hiddenAt);
  return {
    /** Categories with a product on sale, in the catalogue's order: an empty one is no page to find. */
    async categoriesWithProducts(): Promise<string[]> {
      const rows = await db
        .select({ name: categories.name })
        .from(categories)
        .where(
          exists(
            db
              .select({ one: sql`1` })
              .from(products)
              .where(and(eq(products.categoryId, categories.id), visible)),
          ),
        )
        .orderBy(asc(categories.position), asc(categories.id));
      return rows.map((row) => row.name);
    },

    async visibleProductCount(): Promise<number> {
      const [row] = await db.select({ total: count() }).from(products).where(visible);
      return row?.total ?? 0;
    },

    /** One page of the visible products' articles, oldest product first. */
    async visibleArticles({ skip, limit }: Page): Promise<string[]> {
      const rows = await db
        .select({ art: products.art })
        .from(products)
        .where(visible)
        .orderBy(asc(products.id))
        .limit(limit)
        .offset(skip);
      return rows.map((row) => row.art);
    },
  };
}
