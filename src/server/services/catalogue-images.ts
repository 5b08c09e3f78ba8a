import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { Queryable } from '../db/database';
import { createImagesRepository } from '../repositories/images';

/**
 * Shown until a manager uploads a real picture for a new product, whether the price list or the
 * back office created it without one (assets/images).
 */
export const NEW_PRODUCT_IMAGE = 'no-photo.svg';

/**
 * The pictures GET /api/v1/image/{name} serves: a plain file name (no separators, no leading dot,
 * so it can never leave the image folder) of a picture type.
 */
export const IMAGE_NAME_PATTERN = '^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}\\.(svg|png|jpe?g|webp|avif|gif)$';
const SERVED_IMAGE_NAME = new RegExp(IMAGE_NAME_PATTERN);

/**
 * Whether a product or banner may show `name`: a picture uploaded in the back office (the images
 * table) or one of the shop's own files in the image folder (the demo catalogue's).
 */
export async function imageExists(db: Queryable, imageDir: string, name: string): Promise<boolean> {
  if (await createImagesRepository(db).exists(name)) return true;
  // Only a name the storefront's image route serves (which also keeps it inside the folder).
  if (!SERVED_IMAGE_NAME.test(name)) return false;
  return stat(path.join(imageDir, name)).then(
    (found) => found.isFile(),
    () => false,
  );
}
