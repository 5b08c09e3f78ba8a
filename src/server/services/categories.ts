// The back office's changes to the categories: each audited and announced in its own transaction
// (services/catalogue-change.ts); a name is unique, and only an empty category goes.
import type { AdminCategory, CategoryFields, CategoryPatch } from '../../shared/api';
import type { Database, Transaction } from '../db/database';
import { CatalogueItemNotFoundError, CategoryNameTakenError, CategoryNotEmptyError } from '../domain/domain-errors';
import { createAuditRepository } from '../repositories/audit';
import { createCategoriesRepository } from '../repositories/categories';
import { changeCatalogue } from './catalogue-change';

async function lockedCategory(tx: Transaction, id: number): Promise<AdminCategory> {
  const category = await createCategoriesRepository(tx).lock(id);
  if (!category) throw new CatalogueItemNotFoundError('Категория не найдена');
  return category;
}

export function createCategoryService(db: Database) {
  return {
    create(fields: CategoryFields, byUserId: number): Promise<AdminCategory> {
      return changeCatalogue(
        db,
        async (tx) => {
          const categories = createCategoriesRepository(tx);
          const after = (await categories.find(await categories.insert(fields)))!;
          const audit = createAuditRepository(tx);
          await audit.record({ byUserId, action: 'category.create', entity: 'category', entityId: after.id, after });
          return after;
        },
        { categories_name_unique: () => new CategoryNameTakenError(fields.name) },
      );
    },

    update(id: number, patch: CategoryPatch, byUserId: number): Promise<AdminCategory> {
      return changeCatalogue(
        db,
        async (tx) => {
          const categories = createCategoriesRepository(tx);
          const before = await lockedCategory(tx, id);
          await categories.update(id, patch);
          const after = (await categories.find(id))!;
          const audit = createAuditRepository(tx);
          await audit.record({ byUserId, action: 'category.update', entity: 'category', entityId: id, before, after });
          return after;
        },
        { categories_name_unique: () => new CategoryNameTakenError(patch.name ?? '') },
      );
    },

    /**
     * Only an empty category goes. Its row lock waits for any product being put into it, so the
     * count cannot miss one.
     */
    remove(id: number, byUserId: number): Promise<void> {
      return changeCatalogue(db, async (tx) => {
        const categories = createCategoriesRepository(tx);
        const before = await lockedCategory(tx, id);
        const held = await categories.productCount(id);
        if (held > 0) throw new CategoryNotEmptyError(before.name, held);
        await categories.remove(id);
        const audit = createAuditRepository(tx);
        await audit.record({ byUserId, action: 'category.delete', entity: 'category', entityId: id, before });
      });
    },
  };
}
