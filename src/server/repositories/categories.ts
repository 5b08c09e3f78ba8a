import { asc, count, eq, sql } from 'drizzle-orm';
import type { AdminCategory, CategoryFields, CategoryPatch } from '../../shared/api';
import type { Database, Queryable, Transaction } from '../db/database';
import { categories, products } from '../db/schema';
import { CatalogueItemNotFoundError, CategoryNameTakenError, CategoryNotEmptyError } from '../domain/domain-errors';
import { createAuditRepository } from './audit';
import { afterLast, changeCatalogue } from './catalogue-change';

const CATEGORY_NOT_FOUND = 'Категория не найдена';

const categoryColumns = {
  id: categories.id,
  name: categories.name,
  position: categories.position,
  // Hidden products too: they keep their category for the orders that hold them.
  // Table-qualified by hand: drizzle prints a one-table select's columns unqualified, and inside
  // the subquery a bare "id" would be the product's.
  products_count: sql<number>`(select count(*) from ${products} as p where p.category_id = ${categories}.id)::int`,
};

async function findCategory(db: Queryable, id: number, lock = false): Promise<AdminCategory | null> {
  const query = db.select(categoryColumns).from(categories).where(eq(categories.id, id));
  const [category] = lock ? await query.for('update') : await query;
  return category ?? null;
}

/** The back office's categories; every change is audited and announced in its own transaction. */
export function createCategoriesRepository(db: Database) {
  async function lockedCategory(tx: Transaction, id: number): Promise<AdminCategory> {
    const category = await findCategory(tx, id, true);
    if (!category) throw new CatalogueItemNotFoundError(CATEGORY_NOT_FOUND);
    return category;
  }

  return {
    /** In the storefront's order. */
    list(): Promise<AdminCategory[]> {
      return db.select(categoryColumns).from(categories).orderBy(asc(categories.position), asc(categories.id));
    },

    /** Without a position the category goes last. */
    create({ name, position }: CategoryFields, byUserId: number): Promise<AdminCategory> {
      return changeCatalogue(
        db,
        async (tx) => {
          const [created] = await tx
            .insert(categories)
            .values({
              name,
              position: position ?? afterLast(categories.position),
            })
            .returning({ id: categories.id });
          const after = (await findCategory(tx, created!.id))!;
          const audit = createAuditRepository(tx);
          await audit.record({ byUserId, action: 'category.create', entity: 'category', entityId: after.id, after });
          return after;
        },
        { categories_name_unique: () => new CategoryNameTakenError(name) },
      );
    },

    update(id: number, patch: CategoryPatch, byUserId: number): Promise<AdminCategory> {
      return changeCatalogue(
        db,
        async (tx) => {
          const before = await lockedCategory(tx, id);
          await tx.update(categories).set(patch).where(eq(categories.id, id));
          const after = (await findCategory(tx, id))!;
          const audit = createAuditRepository(tx);
          await audit.record({ byUserId, action: 'category.update', entity: 'category', entityId: id, before, after });
          return after;
        },
        { categories_name_unique: () => new CategoryNameTakenError(patch.name ?? '') },
      );
    },

    /**
     * Only an empty category goes. Its row lock waits for any product being put into it (which
     * holds a key-share lock on it), so the count cannot miss one.
     */
    remove(id: number, byUserId: number): Promise<void> {
      return changeCatalogue(db, async (tx) => {
        const before = await lockedCategory(tx, id);
        const [held] = await tx.select({ total: count() }).from(products).where(eq(products.categoryId, id));
        if (held && held.total > 0) throw new CategoryNotEmptyError(before.name, held.total);
        await tx.delete(categories).where(eq(categories.id, id));
        const audit = createAuditRepository(tx);
        await audit.record({ byUserId, action: 'category.delete', entity: 'category', entityId: id, before });
      });
    },
  };
}

export type CategoriesRepository = ReturnType<typeof createCategoriesRepository>;
