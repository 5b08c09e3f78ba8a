// A product as a marketplace card shows it (issue 41), and the kit's rules over it that touch no
// file: which photos a colour's card takes and what they are called.
import type { ConformityDocumentKind } from '../../shared/product-card';
import { latinSlug } from './transliteration';

export interface CardDocument {
  id: number;
  kind: ConformityDocumentKind;
  regulation: string;
  number: string;
  validFrom: string;
  validTo: string;
}

export interface CardVariant {
  id: number;
  color: string;
  /** The toy's height, in centimetres (as the storefront names sizes). */
  size: number;
  barcode: string | null;
  marked: boolean;
  packageLengthMm: number | null;
  packageWidthMm: number | null;
  packageHeightMm: number | null;
  weightG: number | null;
  /** The RRP type's price, decimal rubles as stored; null without an RRP type or a price in it. */
  rrp: string | null;
}

export interface ProductCard {
  id: number;
  art: string;
  name: string;
  description: string | null;
  category: string;
  brand: string | null;
  material: string | null;
  filler: string | null;
  ageFrom: number | null;
  countryOfOrigin: string | null;
  tnved: string | null;
  /** products.image: the photo of a product with none in product_photos; null when the kit has none to use. */
  cover: string | null;
  /** The article as the kit's file names take it, unique within the kit (the kit sets it); else fileSafe(art). */
  fileArt?: string;
  document: CardDocument | null;
  variants: CardVariant[];
  /** The product's own photos in order (product_photos with no colour). */
  ownPhotos: string[];
  /** Each colour's own photos in order, for the colours that have some. */
  colourPhotos: Map<string, string[]>;
}

/** One photo file of the kit: made from `image` (a name GET /api/v1/image serves), saved as `file`. */
export interface KitPhoto {
  image: string;
  file: string;
}

/**
 * A colour as a file name and an article take it: Latin letters (Russian transliterated), digits
 * and hyphens: «Светло-розовый» is `svetlo-rozovyy`. Marketplaces and sellers' 1С often refuse
 * Cyrillic in file names and articles.
 */
export function colourSlug(colour: string): string {
  return latinSlug(colour, 'e') || 'color';
}

/**
 * `name`, else `name-2`, `name-3`… (each before `extension`): the first that `taken` does not hold,
 * which it then holds. Compared regardless of case: a ZIP is unpacked on file systems that ignore it.
 */
export function uniqueName(taken: Set<string>, name: string, extension = ''): string {
  let unique = `${name}${extension}`;
  for (let n = 2; taken.has(unique.toLowerCase()); n += 1) unique = `${name}-${n}${extension}`;
  taken.add(unique.toLowerCase());
  return unique;
}

/**
 * Each colour's slug, unique within the card: «Розовый» and «розовый», «красный/белый» and
 * «красный-белый» share a slug, so the later colour (by the variants' order) takes `-2`, `-3`…
 */
export function colourSlugs(card: ProductCard): Map<string, string> {
  const taken = new Set<string>();
  const slugs = new Map<string, string>();
  for (const { color } of card.variants) {
    if (!slugs.has(color)) slugs.set(color, uniqueName(taken, colourSlug(color)));
  }
  return slugs;
}

const slugOf = (card: ProductCard, colour: string) => colourSlugs(card).get(colour) ?? colourSlug(colour);

/** An article as a file name takes it: letters, digits, «.», «_» and «-»; anything else as «-». */
export const fileSafe = (art: string) => art.replace(/[^\p{L}\p{N}._-]+/gu, '-');

/**
 * A colour's photos: its own set (`MO-1001_rozovyy_1.jpg`, …), else the product's own set
 * (`MO-1001_1.jpg`, …), else the product's cover alone (`MO-1001_1.jpg`), else none. A marketplace card is
 * one colour, so a colour without photos of its own shows the product's.
 */
export function photosOfColour(card: ProductCard, colour: string): KitPhoto[] {
  const art = card.fileArt ?? fileSafe(card.art);
  const own = card.colourPhotos.get(colour);
  if (own && own.length > 0) {
    const slug = slugOf(card, colour);
    return own.map((image, i) => ({ image, file: `${art}_${slug}_${i + 1}.jpg` }));
  }
  const set = card.ownPhotos.length > 0 ? card.ownPhotos : card.cover === null ? [] : [card.cover];
  return set.map((image, i) => ({ image, file: `${art}_${i + 1}.jpg` }));
}

/** Every photo file the card's colours take, each once (colours without their own share the product's). */
export function photosOfCard(card: ProductCard): KitPhoto[] {
  const files = new Map<string, KitPhoto>();
  for (const colour of new Set(card.variants.map((variant) => variant.color))) {
    for (const photo of photosOfColour(card, colour)) files.set(photo.file, photo);
  }
  return [...files.values()];
}

/**
 * The seller's article of one variant, unique within the kit: the product's article for a product
 * of one variant, else the article, the colour and the size (`MO-1001-rozovyy-25`). The schema
 * keeps no article per variant; the product's own one groups them (Ozon's «Объединить на одной
 * карточке», Wildberries' card).
 */
export function variantArticle(card: ProductCard, variant: CardVariant): string {
  if (card.variants.length === 1) return card.art;
  return `${card.art}-${slugOf(card, variant.color)}-${variant.size}`;
}

/** The seller's article of a colour (a Wildberries card is one colour, its sizes inside it). */
export function colourArticle(card: ProductCard, colour: string): string {
  const colours = new Set(card.variants.map((variant) => variant.color));
  return colours.size === 1 ? card.art : `${card.art}-${slugOf(card, colour)}`;
}
