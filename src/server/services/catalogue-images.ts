import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { Queryable } from '../db/database';
import { createImagesRepository } from '../repositories/images';

/**
 * Whether a product or banner may show `name`: a picture uploaded in the back office (the images
 * table) or one of the shop's own files in the image folder (the demo catalogue's).
 */
export async function imageExists(db: Queryable, imageDir: string, name: string): Promise<boolean> {
  if (await createImagesRepository(db).exists(name)) return true;
  // A plain file name only: a separator or a leading dot could reach outside the folder.
  if (name !== path.basename(name) || name.startsWith('.')) return false;
  return stat(path.join(imageDir, name)).then(
    (found) => found.isFile(),
    () => false,
  );
}
