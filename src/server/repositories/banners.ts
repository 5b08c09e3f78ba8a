import { asc, eq } from 'drizzle-orm';
import type { Banner } from '../../shared/api';
import type { Queryable } from '../db/database';
import { banners } from '../db/schema';

export function createBannersRepository(db: Queryable) {
  return {
    list(): Promise<Banner[]> {
      return db
        .select({ id: banners.id, image: banners.image, url: banners.url })
        .from(banners)
        .where(eq(banners.active, true))
        .orderBy(asc(banners.position), asc(banners.id));
    },
  };
}
