// The marketplace photos of uploaded pictures (issue 41): the kit's 3:4 JPEG of a product's
// picture, made once from its master and kept (repositories/marketplace-photos.ts), in the kit's
// ZIP and at a public address of its own that the kit's sheet gives the marketplaces to import.
import { API_PREFIX } from '../../shared/api';
import type { Queryable } from '../db/database';
import { MarketplacePhotosBusyError } from '../domain/domain-errors';
import { kitPhotoJpeg, type KitPhotoJpeg } from '../marketplace/kit-photo';
import { createImagesRepository } from '../repositories/images';
import { createMarketplacePhotosRepository } from '../repositories/marketplace-photos';
import { takePhotoWork } from './photo-work';
import { UPLOADED_IMAGE_STEM } from './uploaded-images';

/** A marketplace photo's file name in its address: its picture's stem and `.jpg` (GET /api/v1/image/marketplace/{file}). */
export const MARKETPLACE_PHOTO_FILE = `^${UPLOADED_IMAGE_STEM}\\.jpg$`;

/** The uploaded picture a marketplace photo's file name (MARKETPLACE_PHOTO_FILE) is of. */
export const pictureOfMarketplacePhoto = (file: string) => file.replace(/\.jpg$/, '.webp');

/** The public address of an uploaded picture's marketplace photo; `origin` is the shop's (publicOrigin). */
export const marketplacePhotoUrl = (origin: string, picture: string) =>
  `${origin}/${API_PREFIX}image/marketplace/${picture.replace(/\.webp$/, '.jpg')}`;

/** A kit's photo as made: its JPEG, and whether its public address answers these same bytes. */
export interface MadeKitPhoto {
  data: Buffer;
  linked: boolean;
}

/** The marketplace photo while a place of the process's photo work is held (all taken: 503). */
async function inPlaceOfPhotoWork(master: Buffer): Promise<KitPhotoJpeg> {
  const giveBack = takePhotoWork();
  if (giveBack === null) throw new MarketplacePhotosBusyError();
  try {
    return await kitPhotoJpeg(master, false);
  } finally {
    giveBack();
  }
}

export function createMarketplacePhotoService(db: Queryable) {
  const store = createMarketplacePhotosRepository(db);
  const pictures = createImagesRepository(db);
  /** Public addresses' photos being made in this process: requests for one at once share its making. */
  const linksUnderWay = new Map<string, Promise<KitPhotoJpeg | null>>();

  /**
   * The kept photo of `picture`, else one made from its master by `make` and kept; null unless
   * `picture` is an uploaded picture with a master that some product shows (its cover or a photo).
   */
  async function keptOrMade(picture: string, make: (master: Buffer) => Promise<KitPhotoJpeg>) {
    const kept = await store.find(picture);
    if (kept) return kept;
    const master = await store.productPhotoMaster(picture);
    return master && store.keep(picture, await make(master));
  }

  return {
    /**
     * What the public address of `picture`'s marketplace photo answers: the kept photo, else one
     * made now in a place of the process's photo work (none free: MarketplacePhotosBusyError) and
     * kept. Null for any picture that is not a product's with a master: nothing else is made.
     */
    forLink(picture: string): Promise<KitPhotoJpeg | null> {
      let underWay = linksUnderWay.get(picture);
      if (!underWay) {
        underWay = keptOrMade(picture, inPlaceOfPhotoWork).finally(() => linksUnderWay.delete(picture));
        linksUnderWay.set(picture, underWay);
      }
      return underWay;
    },

    /**
     * The kit's photo of an uploaded product picture, in the place of the photo work its kit holds:
     * the same as its public address (made and kept if need be), else — a picture uploaded before
     * masters were kept — made from its display copy, with no address. Null when it is gone.
     */
    async forKit(picture: string): Promise<MadeKitPhoto | null> {
      const photo = await keptOrMade(picture, (master) => kitPhotoJpeg(master, false));
      if (photo) return { data: photo.data, linked: true };
      const displayCopy = await pictures.find(picture);
      return displayCopy && { data: (await kitPhotoJpeg(displayCopy.data, false)).data, linked: false };
    },
  };
}

export type MarketplacePhotoService = ReturnType<typeof createMarketplacePhotoService>;
