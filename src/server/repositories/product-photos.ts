import { asc, inArray, sql } from 'drizzle-orm';
import type { Queryable } from '../db/database';
import { productPhotos } from '../db/schema';

/** One product's photos of one colour (null: its own set), in order, the cover first. */
export interface PhotoSet {
  productId: number;
  color: string | null;
  images: string[];
}

/**
 * The photos of `productIds`, each product's own set first, then its colours by name. A product
 * without photo rows has no set here: its cover (products.image) is the caller's fallback.
 */
export async function photoSetsOf(db: Queryable, productIds: readonly number[]): Promise<PhotoSet[]> {
  if (productIds.length === 0) return [];
  const rows = await db
    .select({ productId: productPhotos.productId, color: productPhotos.color, image: productPhotos.image })
    .from(productPhotos)
    .where(inArray(productPhotos.productId, [...productIds]))
    .orderBy(asc(productPhotos.productId), sql`${productPhotos.color} asc nulls first`, asc(productPhotos.position));
  const sets: PhotoSet[] = [];
  for (const { productId, color, image } of rows) {
    const last = sets.at(-1);
    if (last && last.productId === productId && last.color === color) last.images.push(image);
    else sets.push({ productId, color, images: [image] });
  }
  return sets;
}
