import { asc, desc, eq, inArray } from 'drizzle-orm';
import type { Product, Variant } from '../../shared/api';
import type { Queryable } from '../db/database';
import { categories, products, variants } from '../db/schema';

export interface Page {
  skip: number;
  limit: number;
}

type ProductRow = Omit<Product, 'variants'>;

const productColumns = {
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

export function createProductsRepository(db: Queryable) {
  async function attachVariants(rows: ProductRow[]): Promise<Product[]> {
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

  return {
    async list({ skip, limit }: Page): Promise<Product[]> {
      const rows = await db.select(productColumns).from(products).orderBy(asc(products.id)).limit(limit).offset(skip);
      return attachVariants(rows);
    },

    /** Most units ordered first, then the shop's curated rank; documented in README. */
    async listPopular({ skip, limit }: Page): Promise<Product[]> {
      const rows = await db
        .select(productColumns)
        .from(products)
        .orderBy(desc(products.unitsOrdered), asc(products.curatedRank), asc(products.id))
        .limit(limit)
        .offset(skip);
      return attachVariants(rows);
    },

    /** `null` when there is no such category, an empty list when the page is past its end. */
    async listByCategory(category: string, { skip, limit }: Page): Promise<Product[] | null> {
      const [found] = await db.select({ id: categories.id }).from(categories).where(eq(categories.name, category));
      if (!found) return null;
      const rows = await db
        .select(productColumns)
        .from(products)
        .where(eq(products.categoryId, found.id))
        .orderBy(asc(products.id))
        .limit(limit)
        .offset(skip);
      return attachVariants(rows);
    },

    async findByArt(art: string): Promise<Product | null> {
      const rows = await db.select(productColumns).from(products).where(eq(products.art, art));
      const [product] = await attachVariants(rows);
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
        .select({ id: variants.id, productId: variants.productId, stock: variants.stock, name: products.name })
        .from(variants)
        .innerJoin(products, eq(products.id, variants.productId))
        .where(eq(variants.id, variantId));
      return row ?? null;
    },
  };
}

export type ProductsRepository = ReturnType<typeof createProductsRepository>;
