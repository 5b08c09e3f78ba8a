// The marketplace photos' store (db/schema.ts marketplacePhotos) and the masters they are made from.
import { and, eq, exists, or } from 'drizzle-orm';
import type { Queryable } from '../db/database';
import { imageMasters, marketplacePhotos, productPhotos, products } from '../db/schema';
import type { KitPhotoJpeg } from '../marketplace/kit-photo';

export function createMarketplacePhotosRepository(db: Queryable) {
  async function find(name: string): Promise<KitPhotoJpeg | null> {
    const [row] = await db
      .select({ data: marketplacePhotos.data, width: marketplacePhotos.width, height: marketplacePhotos.height })
      .from(marketplacePhotos)
      .where(eq(marketplacePhotos.name, name));
    return row ?? null;
  }

  return {
    find,

    /**
     * The master of the uploaded picture `name` when some product (hidden ones too) has it as its
     * cover or among its photos; null for any other name (a banner's, an unknown one, one without a master).
     */
    async productPhotoMaster(name: string): Promise<Buffer | null> {
      const [row] = await db
        .select({ data: imageMasters.data })
        .from(imageMasters)
        .where(
          and(
            eq(imageMasters.name, name),
            or(
              exists(db.select({ one: products.id }).from(products).where(eq(products.image, name))),
              exists(
                db.select({ one: productPhotos.productId }).from(productPhotos).where(eq(productPhotos.image, name)),
              ),
            ),
          ),
        );
      return row?.data ?? null;
    },

    /**
     * Keeps the photo unless one is stored already, and answers the one stored: of two processes
     * that rendered the same picture at once, both serve the first's bytes.
     */
    async keep(name: string, photo: KitPhotoJpeg): Promise<KitPhotoJpeg> {
      const [inserted] = await db
        .insert(marketplacePhotos)
        .values({ name, ...photo })
        .onConflictDoNothing({ target: marketplacePhotos.name })
        .returning({ name: marketplacePhotos.name });
      // A row is never deleted but with its picture, whose master this photo was just made from.
      return inserted ? photo : (await find(name))!;
    },
  };
}

export type MarketplacePhotosRepository = ReturnType<typeof createMarketplacePhotosRepository>;
