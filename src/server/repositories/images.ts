import { eq } from 'drizzle-orm';
import type { Queryable } from '../db/database';
import { images } from '../db/schema';

export interface StoredImage {
  name: string;
  contentType: string;
  data: Buffer;
  width: number;
  height: number;
}

/** Pictures uploaded in the back office (re-encoded before they get here), shared by every server process. */
export function createImagesRepository(db: Queryable) {
  return {
    async save(image: StoredImage, byUserId: number | null): Promise<void> {
      // Names are derived from the content, so the same picture uploaded twice is one row.
      await db
        .insert(images)
        .values({ ...image, byUserId })
        .onConflictDoNothing({ target: images.name });
    },

    async find(name: string): Promise<StoredImage | null> {
      const [row] = await db
        .select({
          name: images.name,
          contentType: images.contentType,
          data: images.data,
          width: images.width,
          height: images.height,
        })
        .from(images)
        .where(eq(images.name, name));
      return row ?? null;
    },

    async exists(name: string): Promise<boolean> {
      const [row] = await db.select({ name: images.name }).from(images).where(eq(images.name, name));
      return row !== undefined;
    },
  };
}

export type ImagesRepository = ReturnType<typeof createImagesRepository>;
