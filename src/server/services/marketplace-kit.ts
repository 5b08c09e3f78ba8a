// The marketplace kit (issue 41): a ZIP, written as it is sent, of the cards' XLSX (a sheet per
// marketplace), the photos as marketplaces take them and the conformity documents' PDFs.
import { createReadStream } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { ZipFile } from 'yazl';
import { KIT_PHOTO } from '../../shared/product-card';
import { photosOfCard, type KitPhoto, type ProductCard } from '../domain/marketplace-card';
import { kitPhotoJpeg } from '../marketplace/kit-photo';
import { kitRow } from '../marketplace/kit-sheets';
import { KIT_SHEETS, MAPPING_VERSION, MARKETPLACE_CATEGORY } from '../marketplace/mapping-v1';
import type { ProductCardsRepository } from '../repositories/product-cards';
import { IMAGE_NAME_PATTERN } from './catalogue-images';
import { UPLOADED_IMAGE_NAME } from './uploaded-images';

export const KIT_SHEET_FILE = 'карточки.xlsx';
export const KIT_PHOTO_FOLDER = 'фото';
export const KIT_DOCUMENT_FOLDER = 'документы';

const SERVED_FILE_NAME = new RegExp(IMAGE_NAME_PATTERN);

export interface KitSources {
  cards: ProductCardsRepository;
  /** The folder of the shop's own pictures (config.imageDir). */
  imageDir: string;
  /** The recommended retail price type (null: the shop keeps none). */
  rrpTypeId: number | null;
}

/** The kit's file name for an order, for the cart and for a selection. */
export const kitFileName = (of: { orderId: number } | 'cart' | 'selection') =>
  of === 'cart'
    ? 'marketplace-kit-cart.zip'
    : of === 'selection'
      ? 'marketplace-kit.zip'
      : `marketplace-kit-order-${of.orderId}.zip`;

/** A document's number as a file name keeps it («/» and the like as «-»). */
export const documentFileName = (number: string) =>
  `${KIT_DOCUMENT_FOLDER}/${number.replace(/[\\/:*?"<>|\s]+/g, '-')}.pdf`;

function readme(productsCount: number): string {
  return [
    'Карточки для маркетплейсов — «Мягкий Опт»',
    '',
    `Товаров: ${productsCount}. Категория маркетплейсов: «${MARKETPLACE_CATEGORY}».`,
    `Версия сопоставления полей: ${MAPPING_VERSION}.`,
    '',
    `${KIT_SHEET_FILE} — по листу на маркетплейс (Ozon, Wildberries), строка на вариант товара`,
    '(цвет и размер). Заголовки столбцов — как в шаблонах маркетплейсов; габариты упаковки',
    'и вес — в единицах шаблона (Ozon: мм и г, Wildberries: см и г). Штрихкод указан только',
    'там, где это GTIN (EAN-13 и др.); внутренние коды 1С не выгружаются. Цена — рекомендованная',
    'розничная. Столбцы с фото называют файлы из папки «фото»: загрузите их в личный кабинет.',
    '',
    `${KIT_PHOTO_FOLDER}/ — фотографии JPEG, 3:4, не меньше ${KIT_PHOTO.width}×${KIT_PHOTO.height} пикселей,`,
    'на белом фоне; имена — артикул и номер фото (для фото отдельного цвета — артикул, цвет',
    'латиницей и номер: MO-1001_rozovyy_1.jpg).',
    '',
    `${KIT_DOCUMENT_FOLDER}/ — сертификаты и декларации соответствия (PDF), по номеру документа.`,
    '',
  ].join('\r\n');
}

/**
 * The picture's bytes and whether it is an SVG: an uploaded one's master, else its display copy;
 * else the shop's own file. Null when it is gone (the photo is then left out).
 */
async function photoSource(sources: KitSources, image: string): Promise<{ data: Buffer; isSvg: boolean } | null> {
  if (UPLOADED_IMAGE_NAME.test(image)) {
    const uploaded = await sources.cards.uploadedPhoto(image);
    return uploaded && { data: uploaded.data, isSvg: false };
  }
  if (!SERVED_FILE_NAME.test(image)) return null;
  const data = await readFile(path.join(sources.imageDir, image)).catch(() => null);
  return data && { data, isSvg: image.endsWith('.svg') };
}

/** Every picture the card names: its cover, its own set and its colours' sets. */
const imagesOf = (card: ProductCard) => [card.cover, ...card.ownPhotos, ...[...card.colourPhotos.values()].flat()];

/** yazl's lazy entry from a promise of the entry's stream. */
const lazily =
  (open: () => Promise<NodeJS.ReadableStream>) => (callback: (error: unknown, stream: NodeJS.ReadableStream) => void) =>
    void open().then(
      (stream) => callback(null, stream),
      (error: unknown) => callback(error, Readable.from([])),
    );

/**
 * The kit of these products (ids of products that exist; the caller checked the caller may see
 * them), as a ZIP stream. Nothing is held whole: the cards are read CARD_BATCH products at a time,
 * the XLSX is written row by row to a temporary file, and each photo and PDF is read and made only
 * when the ZIP comes to it, as fast as the client takes the download.
 */
export function marketplaceKit(sources: KitSources, productIds: readonly number[]): Readable {
  const zip = new ZipFile();
  const output = zip.outputStream as PassThrough;
  let folder: string | null = null;
  const cleanUp = () => {
    if (folder) void rm(folder, { recursive: true, force: true });
    folder = null;
  };
  output.once('close', cleanUp);
  output.once('end', cleanUp);
  zip.on('error', (error: Error) => output.destroy(error));

  async function fill(): Promise<void> {
    folder = await mkdtemp(path.join(tmpdir(), 'marketplace-kit-'));
    const sheetFile = path.join(folder, KIT_SHEET_FILE);
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: sheetFile, useStyles: true });
    const sheets = KIT_SHEETS.map((sheet) => {
      const worksheet = workbook.addWorksheet(sheet.name);
      worksheet.columns = sheet.columns.map(({ header }) => ({ header, width: Math.max(14, header.length + 2) }));
      worksheet.getRow(1).font = { bold: true };
      return { sheet, worksheet };
    });
    zip.addBuffer(Buffer.from(readme(productIds.length)), 'README.txt');
    const documents = new Set<number>();
    for await (const batch of sources.cards.cardBatches(productIds, sources.rrpTypeId)) {
      const uploads = await sources.cards.uploadedNames(
        batch.flatMap(imagesOf).filter((image) => UPLOADED_IMAGE_NAME.test(image)),
      );
      for (const card of batch) {
        const photos = await availablePhotos(card, uploads);
        for (const { sheet, worksheet } of sheets) {
          for (const variant of photos.card.variants) worksheet.addRow(kitRow(sheet, photos.card, variant)).commit();
        }
        for (const photo of photos.files) {
          zip.addReadStreamLazy(
            `${KIT_PHOTO_FOLDER}/${photo.file}`,
            // A JPEG does not deflate: stored as it is.
            { compress: false },
            lazily(async () => {
              // Checked above; a picture deleted in the seconds since ends the download with an error.
              const source = (await photoSource(sources, photo.image))!;
              return Readable.from([await kitPhotoJpeg(source.data, source.isSvg)]);
            }),
          );
        }
        const document = card.document;
        if (document && !documents.has(document.id)) {
          documents.add(document.id);
          zip.addReadStreamLazy(
            documentFileName(document.number),
            lazily(async () => Readable.from([(await sources.cards.documentPdf(document.id)) ?? Buffer.alloc(0)])),
          );
        }
      }
    }
    for (const { worksheet } of sheets) worksheet.commit();
    await workbook.commit();
    // Last in the ZIP: the sheet is complete only once every batch was read.
    zip.addReadStreamLazy(
      KIT_SHEET_FILE,
      lazily(async () => createReadStream(sheetFile)),
    );
    zip.end();
  }

  /**
   * The card with only the photos that can be had (an upload deleted since, a file gone from the
   * folder are left out), and their files; `uploads` are the uploaded names known to exist.
   */
  async function availablePhotos(
    card: ProductCard,
    uploads: Set<string>,
  ): Promise<{ card: ProductCard; files: KitPhoto[] }> {
    const missing = new Set<string>();
    for (const image of new Set(imagesOf(card))) {
      const exists = UPLOADED_IMAGE_NAME.test(image) ? uploads.has(image) : await shopFileExists(image);
      if (!exists) missing.add(image);
    }
    if (missing.size === 0) return { card, files: photosOfCard(card) };
    const kept = (set: string[]) => set.filter((image) => !missing.has(image));
    const available: ProductCard = {
      ...card,
      ownPhotos: kept(card.ownPhotos),
      colourPhotos: new Map([...card.colourPhotos].map(([colour, set]) => [colour, kept(set)])),
    };
    // A card whose cover is gone too keeps its name in the sheets, with no file behind it.
    return { card: available, files: photosOfCard(available).filter((photo) => !missing.has(photo.image)) };
  }

  async function shopFileExists(image: string): Promise<boolean> {
    if (!SERVED_FILE_NAME.test(image)) return false;
    return stat(path.join(sources.imageDir, image)).then(
      (found) => found.isFile(),
      () => false,
    );
  }

  fill().catch((error: unknown) => output.destroy(error as Error));
  return output;
}
