// The marketplace kit (issue 41): a ZIP, written as it is sent, of the cards' XLSX (a sheet per
// marketplace), the photos as marketplaces take them and the conformity documents' PDFs.
import { once } from 'node:events';
import { createReadStream } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { PassThrough } from 'node:stream';
import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { ZipFile } from 'yazl';
import { MARKETPLACE_KIT_MAX_PRODUCTS } from '../../shared/marketplace-kit';
import { documentFileStem, KIT_PHOTO } from '../../shared/product-card';
import { MarketplaceKitsBusyError, MarketplaceKitTooLargeError } from '../domain/domain-errors';
import { fileSafe, photosOfCard, uniqueName, type KitPhoto, type ProductCard } from '../domain/marketplace-card';
import { kitPhotoJpeg } from '../marketplace/kit-photo';
import { kitRow } from '../marketplace/kit-sheets';
import { KIT_SHEETS, MAPPING_VERSION, MARKETPLACE_CATEGORY } from '../marketplace/mapping-v1';
import type { ProductCardsRepository } from '../repositories/product-cards';
import { IMAGE_NAME_PATTERN, NEW_PRODUCT_IMAGE } from './catalogue-images';
import { marketplacePhotoUrl, type MarketplacePhotoService, type MadeKitPhoto } from './marketplace-photos';
import { takePhotoWork } from './photo-work';
import { UPLOADED_IMAGE_NAME } from './uploaded-images';

export const KIT_SHEET_FILE = 'карточки.xlsx';
export const KIT_PHOTO_FOLDER = 'фото';
export const KIT_DOCUMENT_FOLDER = 'документы';

const SERVED_FILE_NAME = new RegExp(IMAGE_NAME_PATTERN);

/** A kit's temporary folder: its name's start, and the age past which no kit still uses it. */
const KIT_FOLDER_PREFIX = 'marketplace-kit-';
/** A day: far past any download's time (the sheet is read last), so only a folder a crash left is removed. */
export const STALE_KIT_FOLDER_MS = 24 * 60 * 60 * 1000;
/** How often a kit's start looks for stale folders. */
const STALE_SWEEP_INTERVAL_MS = 60 * 60 * 1000;
let lastSweepAt = 0;

/**
 * Removes the temporary folders of kits older than STALE_KIT_FOLDER_MS: those a process left when
 * it stopped in the middle of a kit (a finished or abandoned kit removes its own).
 */
export async function sweepStaleKitFolders(now = Date.now()): Promise<void> {
  const names = await readdir(tmpdir()).catch(() => []);
  for (const name of names.filter((entry) => entry.startsWith(KIT_FOLDER_PREFIX))) {
    const folder = path.join(tmpdir(), name);
    const found = await stat(folder).catch(() => null);
    if (found?.isDirectory() && now - found.mtimeMs > STALE_KIT_FOLDER_MS) {
      await rm(folder, { recursive: true, force: true }).catch(() => undefined);
    }
  }
}

/**
 * A cart's or an order's products, refused when more than one kit takes (a selection's limit is
 * its schema's): checked before any work, the detail says how to have them all.
 */
export function checkKitSize(productIds: readonly number[], of: 'cart' | 'order'): void {
  if (productIds.length > MARKETPLACE_KIT_MAX_PRODUCTS) {
    throw new MarketplaceKitTooLargeError(MARKETPLACE_KIT_MAX_PRODUCTS, productIds.length, of);
  }
}

export interface KitSources {
  cards: ProductCardsRepository;
  /** The uploaded pictures' photos, kept with their public addresses. */
  photos: Pick<MarketplacePhotoService, 'forKit'>;
  /** The shop's public address (publicOrigin), for the photos' addresses in the sheets. */
  origin: string;
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

function readme(productsCount: number, leftOut: readonly string[]): string {
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
    'розничная.',
    '',
    'В столбцах с фото — ссылки на эти же фотографии из папки «фото»: публичные и постоянные',
    '(по ссылке всегда тот же файл, без входа в магазин), маркетплейс скачает фото сам, когда вы',
    'загрузите таблицу. Если у фото нет ссылки (так бывает с картинками витрины и с фото,',
    'загруженными до появления ссылок), в столбце — имя файла из папки «фото»: загрузите его',
    'в личный кабинет сами. Последний столбец каждого листа, «Файлы фото в наборе», — не из',
    'шаблонов: в нём имена тех же фото в папке «фото», по порядку.',
    '',
    `${KIT_PHOTO_FOLDER}/ — фотографии JPEG, 3:4, не меньше ${KIT_PHOTO.width}×${KIT_PHOTO.height} пикселей,`,
    'на белом фоне; имена — артикул и номер фото (для фото отдельного цвета — артикул, цвет',
    'латиницей и номер: MO-1001_rozovyy_1.jpg). Если у двух цветов товара или у двух артикулов',
    'одинаковое имя латиницей, ко второму добавлено «-2», к третьему «-3».',
    '',
    `${KIT_DOCUMENT_FOLDER}/ — сертификаты и декларации соответствия (PDF), по номеру документа.`,
    '',
    ...(leftOut.length === 0
      ? []
      : ['Не вошли в набор (удалены, пока он собирался): скачайте набор ещё раз.', ...leftOut, '']),
  ].join('\r\n');
}

/**
 * The kit's photo of a picture: an uploaded one's as its public address answers it (or, for one
 * without a master, made from its display copy, with no address); the shop's own file's made here.
 * Null when it is gone (the photo is then left out).
 */
async function kitPhoto(sources: KitSources, image: string): Promise<MadeKitPhoto | null> {
  if (UPLOADED_IMAGE_NAME.test(image)) return sources.photos.forKit(image);
  if (!SERVED_FILE_NAME.test(image)) return null;
  const data = await readFile(path.join(sources.imageDir, image)).catch(() => null);
  return data && { data: (await kitPhotoJpeg(data, image.endsWith('.svg'))).data, linked: false };
}

/** Every picture the card names: its cover, its own set and its colours' sets. */
const imagesOf = (card: ProductCard) => [
  ...(card.cover === null ? [] : [card.cover]),
  ...card.ownPhotos,
  ...[...card.colourPhotos.values()].flat(),
];

/**
 * The kit of these products (ids of products that exist; the caller checked the caller may see
 * them and their count), as a ZIP stream. The kit holds a place of the process's photo work
 * (services/photo-work.ts) until its download is over: MarketplaceKitsBusyError when none is free.
 * Nothing is held whole: the cards are read CARD_BATCH products at a time, the XLSX is written row
 * by row to a temporary file, and each photo and PDF is read and made only once the client has
 * taken the one before. A client gone stops the work and removes the temporary folder.
 */
export function marketplaceKit(sources: KitSources, productIds: readonly number[]): Readable {
  const givePlaceBack = takePhotoWork();
  if (givePlaceBack === null) throw new MarketplaceKitsBusyError();
  if (Date.now() - lastSweepAt > STALE_SWEEP_INTERVAL_MS) {
    lastSweepAt = Date.now();
    void sweepStaleKitFolders();
  }
  const zip = new ZipFile();
  const output = zip.outputStream as PassThrough;
  // Aborted once the download is over, read whole or given up: any work after it is for nobody.
  const over = new AbortController();
  let folder: string | null = null;
  const finish = () => {
    if (over.signal.aborted) return;
    over.abort();
    givePlaceBack();
    if (folder) void rm(folder, { recursive: true, force: true });
  };
  output.once('close', finish);
  output.once('end', finish);
  zip.on('error', (error: Error) => output.destroy(error));

  /** Once the client has taken what the ZIP has written so far; rejects once the download is over. */
  async function clientCaughtUp(): Promise<void> {
    over.signal.throwIfAborted();
    if (output.writableNeedDrain) await once(output, 'drain', { signal: over.signal });
  }

  async function fill(): Promise<void> {
    const made = await mkdtemp(path.join(tmpdir(), KIT_FOLDER_PREFIX));
    if (over.signal.aborted) return void (await rm(made, { recursive: true, force: true }));
    folder = made;
    const sheetFile = path.join(made, KIT_SHEET_FILE);
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: sheetFile, useStyles: true });
    const sheets = KIT_SHEETS.map((sheet) => {
      const worksheet = workbook.addWorksheet(sheet.name);
      worksheet.columns = sheet.columns.map(({ header }) => ({ header, width: Math.max(14, header.length + 2) }));
      worksheet.getRow(1).font = { bold: true };
      return { sheet, worksheet };
    });
    const documents = new Set<number>();
    // Names taken in the ZIP: two articles or document numbers may read the same as file names.
    const photoStems = new Set<string>();
    const documentNames = new Set<string>();
    const leftOut: string[] = [];
    for await (const batch of sources.cards.cardBatches(productIds, sources.rrpTypeId)) {
      over.signal.throwIfAborted();
      const uploads = await sources.cards.uploadedNames(
        batch.flatMap(imagesOf).filter((image) => UPLOADED_IMAGE_NAME.test(image)),
      );
      for (const card of batch) {
        const photos = await availablePhotos({ ...card, fileArt: uniqueName(photoStems, fileSafe(card.art)) }, uploads);
        // The pictures whose photo has a public address: the sheets give it rather than the file's name.
        const linked = new Set<string>();
        for (const photo of photos.files) {
          await clientCaughtUp();
          const name = `${KIT_PHOTO_FOLDER}/${photo.file}`;
          // Checked above; a picture deleted in the seconds since is left out.
          const made = await kitPhoto(sources, photo.image);
          if (made === null) leftOut.push(name);
          // A JPEG does not deflate: stored as it is.
          else zip.addBuffer(made.data, name, { compress: false });
          if (made?.linked) linked.add(photo.image);
        }
        const photoCell = (photo: KitPhoto) =>
          linked.has(photo.image) ? marketplacePhotoUrl(sources.origin, photo.image) : photo.file;
        for (const { sheet, worksheet } of sheets) {
          for (const variant of photos.card.variants) {
            worksheet.addRow(kitRow(sheet, photos.card, variant, photoCell)).commit();
          }
        }
        const document = card.document;
        if (document && !documents.has(document.id)) {
          documents.add(document.id);
          await clientCaughtUp();
          const name = `${KIT_DOCUMENT_FOLDER}/${uniqueName(documentNames, documentFileStem(document.number), '.pdf')}`;
          const pdf = await sources.cards.documentPdf(document.id);
          // A document deleted since is left out. Stored: a PDF's streams are compressed already,
          // and a stored entry is written at once, so the next waits for the client to take it.
          if (pdf === null) leftOut.push(name);
          else zip.addBuffer(pdf, name, { compress: false });
        }
      }
    }
    for (const { worksheet } of sheets) worksheet.commit();
    await workbook.commit();
    over.signal.throwIfAborted();
    // Last in the ZIP: the sheet is complete only once every batch was read, the README once
    // every file was (it names those left out).
    zip.addReadStreamLazy(KIT_SHEET_FILE, (callback) => callback(null, createReadStream(sheetFile)));
    zip.addBuffer(Buffer.from(readme(productIds.length, leftOut)), 'README.txt');
    zip.end();
  }

  /**
   * The card with only the photos that can be had (an upload deleted since, a file gone from the
   * folder and the «no photo» placeholder are left out), and their files; `uploads` are the
   * uploaded names known to exist.
   */
  async function availablePhotos(
    card: ProductCard,
    uploads: Set<string>,
  ): Promise<{ card: ProductCard; files: KitPhoto[] }> {
    const missing = new Set<string>();
    for (const image of new Set(imagesOf(card))) {
      const exists =
        image !== NEW_PRODUCT_IMAGE &&
        (UPLOADED_IMAGE_NAME.test(image) ? uploads.has(image) : await shopFileExists(image));
      if (!exists) missing.add(image);
    }
    if (missing.size === 0) return { card, files: photosOfCard(card) };
    const kept = (set: string[]) => set.filter((image) => !missing.has(image));
    const available: ProductCard = {
      ...card,
      // A card with no photo left names none in the sheets.
      cover: card.cover !== null && missing.has(card.cover) ? null : card.cover,
      ownPhotos: kept(card.ownPhotos),
      colourPhotos: new Map([...card.colourPhotos].map(([colour, set]) => [colour, kept(set)])),
    };
    return { card: available, files: photosOfCard(available) };
  }

  async function shopFileExists(image: string): Promise<boolean> {
    if (!SERVED_FILE_NAME.test(image)) return false;
    return stat(path.join(sources.imageDir, image)).then(
      (found) => found.isFile(),
      () => false,
    );
  }

  fill()
    .catch((error: unknown) => {
      if (!over.signal.aborted) output.destroy(error as Error);
    })
    .finally(() => {
      // Given up mid-way: the folder made meanwhile goes too (finish() may have run before it was).
      if (over.signal.aborted && folder) void rm(folder, { recursive: true, force: true });
    });
  return output;
}
