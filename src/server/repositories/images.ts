import { eq } from 'drizzle-orm';
import type { Queryable } from '../db/database';
import { imageMasters, images } from '../db/schema';

export interface StoredImage {
  name: string;
  contentType: string;
  data: Buffer;
  width: number;
  height: number;
}

/** An uploaded picture's high-quality copy for the marketplace kit (JPEG). */
export interface ImageMaster {
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

    /** The picture's master; one it already has (the same picture uploaded again) stays. */
    async saveMaster(name: string, master: ImageMaster): Promise<void> {
      await db
        .insert(imageMasters)
        .values({ name, ...master })
        .onConflictDoNothing({ target: imageMasters.name });
    },

    async findMaster(name: string): Promise<ImageMaster | null> {
      const [row] = await db
        .select({ data: imageMasters.data, width: imageMasters.width, height: imageMasters.height })
        .from(imageMasters)
        .where(eq(imageMasters.name, name));
      return row ?? null;
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
