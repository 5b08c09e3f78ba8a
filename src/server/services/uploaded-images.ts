import { createHash } from 'node:crypto';
import sharp, { type Metadata } from 'sharp';
import { UnsupportedFileTypeError, UploadRefusedError } from '../domain/domain-errors';
import type { Database } from '../db/database';
import { createAuditRepository } from '../repositories/audit';
import { createImagesRepository, type ImageMaster, type StoredImage } from '../repositories/images';

/** The largest picture a manager may upload, in bytes. */
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
/**
 * Decoded pixels allowed (width × height): 40 megapixels is more than any phone's photo, and a
 * decoded RGBA frame of that size (160 MB) is the most one upload may make the server hold.
 */
export const MAX_IMAGE_PIXELS = 40_000_000;
/** Pictures are stored no larger than this on either side: the storefront shows them far smaller. */
const MAX_SIDE = 1600;
const WEBP_QUALITY = 82;
/**
 * The master the marketplace kit's photos are made from: large enough for any marketplace's
 * zoom (they ask 900×1200 at least and take up to some 3000 a side), in a quality that a second
 * encoding barely marks.
 */
const MASTER_MAX_SIDE = 3000;
const MASTER_JPEG_QUALITY = 92;

/** An uploaded picture's name before its extension: `u-` + 32 hex digits of the stored bytes' SHA-256. */
export const UPLOADED_IMAGE_STEM = 'u-[0-9a-f]{32}';
/** Uploaded pictures are named by their stem + `.webp`. */
export const UPLOADED_IMAGE_NAME = new RegExp(`^${UPLOADED_IMAGE_STEM}\\.webp$`);

type AcceptedFormat = 'jpeg' | 'png' | 'webp' | 'avif';

const startsWith = (data: Buffer, bytes: number[], offset = 0) =>
  data.length >= offset + bytes.length && bytes.every((byte, i) => data[offset + i] === byte);
const ascii = (text: string) => [...text].map((char) => char.charCodeAt(0));

/** An AVIF file is an ISO-BMFF `ftyp` box whose major or compatible brands include avif/avis. */
function isAvif(data: Buffer): boolean {
  if (!startsWith(data, ascii('ftyp'), 4)) return false;
  const boxSize = data.readUInt32BE(0);
  if (boxSize < 16 || boxSize > Math.min(data.length, 256)) return false;
  for (let offset = 8; offset + 4 <= boxSize; offset += 4) {
    // Offset 12 is the minor version, not a brand.
    if (offset === 12) continue;
    const brand = data.toString('latin1', offset, offset + 4);
    if (brand === 'avif' || brand === 'avis') return true;
  }
  return false;
}

/**
 * The format the file's own first bytes declare; its name and the Content-Type the browser sent
 * are not asked. Nothing else (SVG, PDF, GIF, TIFF, HEIC…) ever reaches a decoder.
 */
export function sniffImageFormat(data: Buffer): AcceptedFormat | null {
  if (startsWith(data, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(data, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(data, ascii('RIFF')) && startsWith(data, ascii('WEBP'), 8)) return 'webp';
  if (isAvif(data)) return 'avif';
  return null;
}

const unsupported = () =>
  new UnsupportedFileTypeError('Неподдерживаемый формат изображения: загрузите JPEG, PNG, WebP или AVIF');
const unreadable = () =>
  new UploadRefusedError(
    'Изображение повреждено или обрезано: его не удалось прочитать. Сохраните его заново и загрузите ещё раз',
  );

/** What sharp's metadata calls the format we sniffed (AVIF is HEIF with the AV1 codec). */
function metadataMatches(format: AcceptedFormat, metadata: Metadata): boolean {
  if (format === 'avif') return metadata.format === 'heif' && metadata.compression === 'av1';
  return metadata.format === format;
}

/** The upload's pixels, turned upright by its EXIF orientation. */
const decoded = (upload: Buffer) =>
  sharp(upload, {
    // Again here, should the header and the pixel data disagree. 'error' refuses truncated and
    // corrupt pixel data instead of filling it with grey, and lets through the harmless warnings
    // (stray bytes between JPEG markers) that some cameras' files raise.
    limitInputPixels: MAX_IMAGE_PIXELS,
    failOn: 'error',
    autoOrient: true,
  });

/**
 * Decodes an uploaded picture and writes it anew as WebP: turned upright by its EXIF orientation,
 * shrunk to fit 1600×1600 (never enlarged), in sRGB, with no metadata (EXIF, GPS, ICC, XMP), so
 * not one uploaded byte is served as it came. Named by the hash of what is stored.
 */
export async function reencodeUploadedImage(upload: Buffer): Promise<StoredImage> {
  if (upload.length === 0) throw new UploadRefusedError('Файл пустой (0 байт): выберите изображение');
  const format = sniffImageFormat(upload);
  if (!format) throw unsupported();

  // The header only, with no pixel limit: the dimensions are checked below with a clear message.
  const metadata = await sharp(upload, { limitInputPixels: false })
    .metadata()
    .catch(() => {
      throw unreadable();
    });
  if (!metadataMatches(format, metadata)) throw unsupported();
  const { width = 0, height = 0 } = metadata;
  if (width * height > MAX_IMAGE_PIXELS) {
    throw new UploadRefusedError(
      `Изображение слишком большое: ${width}×${height} пикселей, допустимо не более ${MAX_IMAGE_PIXELS / 1_000_000} млн пикселей`,
    );
  }

  const { data, info } = await decoded(upload)
    .resize(MAX_SIDE, MAX_SIDE, { fit: 'inside', withoutEnlargement: true })
    .webp({ quality: WEBP_QUALITY })
    .toBuffer({ resolveWithObject: true })
    .catch(() => {
      throw unreadable();
    });
  const digest = createHash('sha256').update(data).digest('hex');
  return {
    name: `u-${digest.slice(0, 32)}.webp`,
    contentType: 'image/webp',
    data,
    width: info.width,
    height: info.height,
  };
}

/**
 * The upload's high-quality master for the marketplace kit (issue 41), from the same decoded
 * pixels as the display copy: JPEG of quality 92, upright, in sRGB, transparency on white, no
 * metadata, fitted inside 3000×3000 and never enlarged. Called after reencodeUploadedImage, which
 * has refused whatever is not a picture the shop reads.
 */
export async function uploadedImageMaster(upload: Buffer): Promise<ImageMaster> {
  const { data, info } = await decoded(upload)
    .resize(MASTER_MAX_SIDE, MASTER_MAX_SIDE, { fit: 'inside', withoutEnlargement: true })
    .flatten({ background: '#ffffff' })
    .toColourspace('srgb')
    .jpeg({ quality: MASTER_JPEG_QUALITY })
    .toBuffer({ resolveWithObject: true })
    .catch(() => {
      throw unreadable();
    });
  return { data, width: info.width, height: info.height };
}

export function createImageUploadService(db: Database) {
  return {
    /** Keeps an uploaded picture and its master, with the audit entry, in one transaction. */
    save(image: StoredImage, master: ImageMaster, byUserId: number): Promise<void> {
      return db.transaction(async (tx) => {
        const images = createImagesRepository(tx);
        await images.save(image, byUserId);
        await images.saveMaster(image.name, master);
        await createAuditRepository(tx).record({
          byUserId,
          action: 'image.upload',
          entity: 'image',
          entityId: image.name,
          after: {
            name: image.name,
            width: image.width,
            height: image.height,
            bytes: image.data.length,
            master: { width: master.width, height: master.height, bytes: master.data.length },
          },
        });
      });
    },
  };
}
