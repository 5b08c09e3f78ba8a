// The back office's changes to the home page's banners: each audited and announced in its own
// transaction (services/catalogue-change.ts); a banner that is not there is «not found».
import type { AdminBanner, BannerFields, BannerPatch } from '../../shared/api';
import type { Database, Transaction } from '../db/database';
import { CatalogueItemNotFoundError } from '../domain/domain-errors';
import { createAuditRepository } from '../repositories/audit';
import { createBannersRepository } from '../repositories/banners';
import { changeCatalogue } from './catalogue-change';

async function lockedBanner(tx: Transaction, id: number): Promise<AdminBanner> {
  const banner = await createBannersRepository(tx).lock(id);
  if (!banner) throw new CatalogueItemNotFoundError('Баннер не найден');
  return banner;
}

export function createBannerService(db: Database) {
  return {
    create(fields: BannerFields, byUserId: number): Promise<AdminBanner> {
      return changeCatalogue(db, async (tx) => {
        const after = await createBannersRepository(tx).insert(fields);
        await createAuditRepository(tx).record({
          byUserId,
          action: 'banner.create',
          entity: 'banner',
          entityId: after.id,
          after,
        });
        return after;
      });
    },

    update(id: number, patch: BannerPatch, byUserId: number): Promise<AdminBanner> {
      return changeCatalogue(db, async (tx) => {
        const before = await lockedBanner(tx, id);
        const after = await createBannersRepository(tx).update(id, patch);
        const audit = createAuditRepository(tx);
        await audit.record({ byUserId, action: 'banner.update', entity: 'banner', entityId: id, before, after });
        return after;
      });
    },

    remove(id: number, byUserId: number): Promise<void> {
      return changeCatalogue(db, async (tx) => {
        const before = await lockedBanner(tx, id);
        await createBannersRepository(tx).remove(id);
        const audit = createAuditRepository(tx);
        await audit.record({ byUserId, action: 'banner.delete', entity: 'banner', entityId: id, before });
      });
    },
  };
}
