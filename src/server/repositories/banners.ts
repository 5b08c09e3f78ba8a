import { asc, eq } from 'drizzle-orm';
import type { AdminBanner, Banner, BannerFields, BannerPatch } from '../../shared/api';
import type { Queryable } from '../db/database';
import { banners } from '../db/schema';
import { afterLast } from './catalogue-change';

const adminColumns = {
  id: banners.id,
  image: banners.image,
  url: banners.url,
  position: banners.position,
  active: banners.active,
};

/** The home page's banners; the back office's changes are the banner service's (services/banners.ts). */
export function createBannersRepository(db: Queryable) {
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

    /** The banner, locked for the rest of the caller's transaction; null when there is none. */
    async lock(id: number): Promise<AdminBanner | null> {
      const [banner] = await db.select(adminColumns).from(banners).where(eq(banners.id, id)).for('update');
      return banner ?? null;
    },

    /** Without a position the banner goes last; it is shown unless `active: false`. */
    async insert({ image, url, position, active }: BannerFields): Promise<AdminBanner> {
      const [after] = await db
        .insert(banners)
        .values({
          image,
          url: url ?? null,
          position: position ?? afterLast(banners.position),
          active: active ?? true,
        })
        .returning(adminColumns);
      return after!;
    },

    async update(id: number, patch: BannerPatch): Promise<AdminBanner> {
      const [after] = await db.update(banners).set(patch).where(eq(banners.id, id)).returning(adminColumns);
      return after!;
    },

    async remove(id: number): Promise<void> {
      await db.delete(banners).where(eq(banners.id, id));
    },
  };
}
