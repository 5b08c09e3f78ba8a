// What a marketplace card needs of a product (issue 41), and the rules its fields keep, for the back
// office's API and forms, the price list, the 1С exchange, the kit and the feeds alike.

import { pluralForm } from './plurals';

export const CONFORMITY_DOCUMENT_KINDS = ['certificate', 'declaration'] as const;
export type ConformityDocumentKind = (typeof CONFORMITY_DOCUMENT_KINDS)[number];

export const CONFORMITY_DOCUMENT_LABELS: Record<ConformityDocumentKind, string> = {
  certificate: 'Сертификат соответствия',
  declaration: 'Декларация о соответствии',
};

/** Toys are certified under the customs union's toy safety regulation. */
export const TOY_REGULATION = 'ТР ТС 008/2011';

/** Stuffed toys' ТН ВЭД ЕАЭС code: such goods are under Честный знак marking. */
export const STUFFED_TOY_TNVED = '9503004100';

export const PRODUCT_CARD_LIMITS = {
  textMax: 200,
  ageFromMax: 18,
  /** A package's side, in centimetres (one decimal: millimetres). */
  sideCmMax: 500,
  weightGMax: 1_000_000,
  documentNumberMax: 100,
  /** A conformity document's PDF, in bytes. */
  documentPdfMax: 20 * 1024 * 1024,
  /** Photos of one colour (or of the product's own set). */
  photosMax: 15,
  barcodeMax: 64,
} as const;

/** How the price list's check names a card field left empty, before or after a change: «Бренд: пусто → Мягкий Опт». */
export const EMPTY_CARD_VALUE = 'пусто';

/** The kit's photos: the marketplaces' 3:4, at least this size; a master under it is warned about. */
export const KIT_PHOTO = { width: 900, height: 1200, quality: 90 } as const;

/** A ТН ВЭД code as written (spaces between its groups allowed) reduced to its 10 digits, or null. */
export function normalizeTnved(text: string): string | null {
  const digits = text.replace(/\s+/g, '');
  return /^\d{10}$/.test(digits) ? digits : null;
}

/**
 * Whether `code` is a GTIN (EAN-8, UPC-A, EAN-13 or GTIN-14) whose last digit is its check digit:
 * from the right, the digits before it weigh 3, 1, 3, 1…, and the check digit brings the sum to a
 * multiple of ten.
 */
export function isValidGtin(code: string): boolean {
  if (!/^(\d{8}|\d{12}|\d{13}|\d{14})$/.test(code)) return false;
  return gtinCheckDigit(code.slice(0, -1)) === Number(code.at(-1));
}

/** The check digit that completes `digits` (a GTIN without its last digit) into a valid GTIN. */
export function gtinCheckDigit(digits: string): number {
  const sum = [...digits].reverse().reduce((total, digit, i) => total + Number(digit) * (i % 2 === 0 ? 3 : 1), 0);
  return (10 - (sum % 10)) % 10;
}

/** An EAN-13 a manager types: 13 digits with a right check digit. */
export function isValidEan13(code: string): boolean {
  return /^\d{13}$/.test(code) && isValidGtin(code);
}

/**
 * How the shop reads a variant's barcode: a GTIN a marketplace takes, or a code of 1С's own (an
 * internal or carton code) kept as it came but flagged, never put on a card as a barcode.
 */
export type BarcodeKind = 'gtin' | 'internal';

export const barcodeKind = (code: string): BarcodeKind => (isValidGtin(code) ? 'gtin' : 'internal');

/** «от 3 лет», «от 1 года», «с рождения»: a toy's age as the product page, the kit and the feeds write it. */
export function ageLabel(ageFrom: number): string {
  if (ageFrom === 0) return 'с рождения';
  return `от ${ageFrom} ${pluralForm(ageFrom, { one: 'года', few: 'лет', many: 'лет' })}`;
}

/**
 * A conformity document's number as a file name takes it («ЕАЭС N RU Д-CN.РА01.В.12345/26» as
 * «ЕАЭС_N_RU_Д-CN.РА01.В.12345_26»): «/», spaces and other characters no file system takes become «_».
 */
export const documentFileStem = (number: string) => number.replace(/[\\/:*?"<>|\s]+/g, '_');

/** A conformity document's PDF file name, the back office's download and the marketplace kit alike. */
export const documentFileName = (number: string) => `${documentFileStem(number)}.pdf`;

const centimetres = new Intl.NumberFormat('ru-RU', { maximumFractionDigits: 1 });

/** A package's sides, «30 × 20 × 15,5 см» (length × width × height). */
export const packageLabel = ({
  length_cm,
  width_cm,
  height_cm,
}: {
  length_cm: number;
  width_cm: number;
  height_cm: number;
}) => `${[length_cm, width_cm, height_cm].map((side) => centimetres.format(side)).join(' × ')} см`;

/**
 * Whether a photo of `width`×`height` is under what a marketplace takes. The kit pads a photo to
 * 3:4 (white fields, never cropping the toy) and fits it to KIT_PHOTO: the padded picture is as
 * wide as the photo or as 3/4 of its height, whichever is more, so it reaches 900×1200 without
 * enlarging when the photo is 900 wide or 1200 high. Only a photo short on both sides would be
 * blown up (blurry) — or sent under the size the marketplace asks for.
 */
export const isSmallForMarketplace = (width: number, height: number): boolean =>
  width < KIT_PHOTO.width && height < KIT_PHOTO.height;
/** A product's card fields, by their names in the API (null: not given). */
export interface ProductCardFields {
  brand: string | null;
  material: string | null;
  filler: string | null;
  age_from: number | null;
  country_of_origin: string | null;
  tnved: string | null;
}

/** A variant's card fields, by their names in the API: the package in millimetres and grams. */
export interface VariantCardFields {
  barcode: string | null;
  marked: boolean;
  package_length_mm: number | null;
  package_width_mm: number | null;
  package_height_mm: number | null;
  weight_g: number | null;
}

/** A package as the API writes it: its sides in centimetres. */
export interface PackageCm {
  length_cm: number;
  width_cm: number;
  height_cm: number;
}

/** A package kept in millimetres, in the API's centimetres; null while any side is unknown. */
export function packageInCentimetres(
  lengthMm: number | null,
  widthMm: number | null,
  heightMm: number | null,
): PackageCm | null {
  if (lengthMm === null || widthMm === null || heightMm === null) return null;
  return { length_cm: lengthMm / 10, width_cm: widthMm / 10, height_cm: heightMm / 10 };
}

/** The barcode a marketplace card may carry: a GTIN, never 1С's internal or carton code. */
export const cardBarcode = (barcode: string | null): string | null =>
  barcode !== null && barcodeKind(barcode) === 'gtin' ? barcode : null;

/**
 * The photos a product page shows for a colour: the colour's own set, else the product's own (the
 * first set, colour null), else its cover alone.
 */
export function pagePhotosOf(
  page: { photos: { color: string | null; images: string[] }[]; image: string },
  colour: string | undefined,
): string[] {
  return (page.photos.find((set) => set.color === colour) ?? page.photos[0])?.images ?? [page.image];
}
