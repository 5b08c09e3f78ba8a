import sharp from 'sharp';
import { KIT_PHOTO } from '../../shared/product-card';

/** The largest canvas a kit photo gets (3:4): a bigger master is shrunk to fit it. */
const MAX_CANVAS_HEIGHT = 3200;
/** An SVG is drawn at least this high (its own size at 72 dpi is often a few hundred pixels). */
const SVG_HEIGHT = KIT_PHOTO.height;
/** Decoded pixels a source may have, as the upload allows (services/uploaded-images.ts). */
const MAX_SOURCE_PIXELS = 40_000_000;
const WHITE = { r: 255, g: 255, b: 255, alpha: 1 };

export interface KitPhotoSize {
  width: number;
  height: number;
}

/** A marketplace photo's JPEG and its size. */
export interface KitPhotoJpeg extends KitPhotoSize {
  data: Buffer;
}

/**
 * The 3:4 canvas a picture of this size goes on: at least KIT_PHOTO's 900×1200, else just large
 * enough to hold it whole (up to MAX_CANVAS_HEIGHT), its sides multiples of 3 and 4.
 */
export function kitCanvas({ width, height }: KitPhotoSize): KitPhotoSize {
  const needed = Math.max(KIT_PHOTO.height, height, Math.ceil((width * 4) / 3));
  const canvasHeight = Math.min(MAX_CANVAS_HEIGHT, Math.ceil(needed / 4) * 4);
  return { width: (canvasHeight / 4) * 3, height: canvasHeight };
}

/**
 * A marketplace photo from a picture: JPEG of KIT_PHOTO's quality on a white 3:4 canvas of at
 * least 900×1200, the picture centred, whole, never stretched and never enlarged (a small picture
 * keeps its size, with white around it; a wide one gets white above and below). An SVG is drawn
 * at a density that makes it at least 1200 px high first: a vector has no size to keep.
 */
export async function kitPhotoJpeg(source: Buffer, isSvg: boolean): Promise<KitPhotoJpeg> {
  let density: number | undefined;
  if (isSvg) {
    const { height = SVG_HEIGHT } = await sharp(source).metadata();
    density = Math.ceil((72 * SVG_HEIGHT) / height);
  }
  const decoder = () =>
    sharp(source, { density, limitInputPixels: MAX_SOURCE_PIXELS, failOn: 'error', autoOrient: true });
  const { width = 1, height = 1, autoOrient } = await decoder().metadata();
  const upright = autoOrient ?? { width, height };
  const canvas = kitCanvas(upright);
  const scale = Math.min(1, canvas.width / upright.width, canvas.height / upright.height);
  const drawn = { width: Math.round(upright.width * scale), height: Math.round(upright.height * scale) };
  const top = Math.floor((canvas.height - drawn.height) / 2);
  const left = Math.floor((canvas.width - drawn.width) / 2);
  const { data, info } = await decoder()
    .flatten({ background: WHITE })
    .resize(drawn.width, drawn.height, { fit: 'fill' })
    .extend({
      top,
      bottom: canvas.height - drawn.height - top,
      left,
      right: canvas.width - drawn.width - left,
      background: WHITE,
    })
    .jpeg({ quality: KIT_PHOTO.quality })
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}
