import { asc, eq } from 'drizzle-orm';
import type { AdminBanner, Banner, BannerFields, BannerPatch } from '../../shared/api';
import type { Database, Queryable, Transaction } from '../db/database';
import { banners } from '../db/schema';
import { CatalogueItemNotFoundError } from '../domain/domain-errors';
import { createAuditRepository } from './audit';
import { afterLast, changeCatalogue } from './catalogue-change';

const adminColumns = {
  id: banners.id,
  image: banners.image,
  url: banners.url,
  position: banners.position,
  active: banners.active,
};

async function findBanner(db: Queryable, id: number, lock = false): Promise<AdminBanner | null> {
  const query = db.select(adminColumns).from(banners).where(eq(banners.id, id));
  const [banner] = lock ? await query.for('update') : await query;
  return banner ?? null;
}

async function lockedBanner(tx: Transaction, id: number): Promise<AdminBanner> {
  const banner = await findBanner(tx, id, true);
  if (!banner) throw new CatalogueItemNotFoundError('Баннер не найден');
  return banner;
}

export function createBannersRepository(db: Database) {
  return {
    /** The home page's: active banners only. */
    list(): Promise<Banner[]> {
      return db
        .select({ id: banners.id, image: banners.image, url: banners.url })
        .from(banners)
        .where(eq(banners.active, true))
        .orderBy(asc(banners.position), asc(banners.id));
    },

    /** The back office's: every banner, in the home page's order. */
    listAll(): Promise<AdminBanner[]> {
      return db.select(adminColumns).from(banners).orderBy(asc(banners.position), asc(banners.id));
    },

    /** Without a position the banner goes last; it is shown unless `active: false`. */
    create({ image, url, position, active }: BannerFields, byUserId: number): Promise<AdminBanner> {
      return changeCatalogue(db, async (tx) => {
        const [after] = await tx
          .insert(banners)
          .values({
            image,
            url: url ?? null,
            position: position ?? afterLast(banners.position),
            active: active ?? true,
          })
          .returning(adminColumns);
        const audit = createAuditRepository(tx);
        await audit.record({ byUserId, action: 'banner.create', entity: 'banner', entityId: after!.id, after });
        return after!;
      });
    },

    update(id: number, patch: BannerPatch, byUserId: number): Promise<AdminBanner> {
      return changeCatalogue(db, async (tx) => {
        const before = await lockedBanner(tx, id);
        const [after] = await tx.update(banners).set(patch).where(eq(banners.id, id)).returning(adminColumns);
        const audit = createAuditRepository(tx);
        await audit.record({ byUserId, action: 'banner.update', entity: 'banner', entityId: id, before, after });
        return after!;
      });
    },

    remove(id: number, byUserId: number): Promise<void> {
      return changeCatalogue(db, async (tx) => {
        const before = await lockedBanner(tx, id);
        await tx.delete(banners).where(eq(banners.id, id));
        const audit = createAuditRepository(tx);
        await audit.record({ byUserId, action: 'banner.delete', entity: 'banner', entityId: id, before });
      });
    },
  };
}
