import { asc, count, eq, sql } from 'drizzle-orm';
import type { AdminCategory, CategoryFields, CategoryPatch } from '../../shared/api';
import type { Queryable } from '../db/database';
import { categories, products } from '../db/schema';
import { afterLast } from './catalogue-change';

const categoryColumns = {
  id: categories.id,
  name: categories.name,
  position: categories.position,
  // Hidden products too: they keep their category for the orders that hold them.
  // Table-qualified by hand: drizzle prints a one-table select's columns unqualified, and inside
  // the subquery a bare "id" would be the product's.
  products_count: sql<number>`(select count(*) from ${products} as p where p.category_id = ${categories}.id)::int`,
};

/** The back office's categories; their changes are the category service's (services/categories.ts). */
export function createCategoriesRepository(db: Queryable) {
  async function find(id: number, lock = false): Promise<AdminCategory | null> {
    const query = db.select(categoryColumns).from(categories).where(eq(categories.id, id));
    const [category] = lock ? await query.for('update') : await query;
    return category ?? null;
  }

  return {
    /** In the storefront's order. */
    list(): Promise<AdminCategory[]> {
      return db.select(categoryColumns).from(categories).orderBy(asc(categories.position), asc(categories.id));
    },

    find: (id: number) => find(id),

    /**
     * The category, locked for the rest of the caller's transaction; null when there is none. The
     * lock waits for any product being put into it (which holds a key-share lock on it).
     */
    lock: (id: number) => find(id, true),

    /** Without a position the category goes last. Returns its id. */
    async insert({ name, position }: CategoryFields): Promise<number> {
      const [created] = await db
        .insert(categories)
        .values({ name, position: position ?? afterLast(categories.position) })
        .returning({ id: categories.id });
      return created!.id;
    },

    async update(id: number, patch: CategoryPatch): Promise<void> {
      await db.update(categories).set(patch).where(eq(categories.id, id));
    },

    /** How many products (hidden ones too) are in the category. */
    async productCount(id: number): Promise<number> {
      const [held] = await db.select({ total: count() }).from(products).where(eq(products.categoryId, id));
      return held?.total ?? 0;
    },

    async remove(id: number): Promise<void> {
      await db.delete(categories).where(eq(categories.id, id));
    },
  };
}
