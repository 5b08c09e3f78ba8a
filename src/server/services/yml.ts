// The text of a product feed in Yandex Market's YML (docs/decisions.md, «Фиды товаров»): the
// opening with the shop and its categories, a product's offers (one per variant, sharing the
// product's group_id), the closing. Pure: services/feeds.ts reads the rows and writes the file.
import { ageLabel, barcodeKind } from '../../shared/product-card';
import { productPath } from '../../shared/paths';
import type { FeedProductRow, FeedVariantRow } from '../repositories/feeds';
import type { PhotoSet } from '../repositories/product-photos';
import { NEW_PRODUCT_IMAGE } from './catalogue-images';
import { HTML_ESCAPES } from '../html';

/** Yandex Market takes at most this many pictures of an offer. */
export const MAX_PICTURES = 10;

/** Every character XML 1.0 forbids (control characters, lone surrogates, U+FFFE and U+FFFF). */
const NOT_IN_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** Text safe inside an element or a quoted attribute: what XML cannot hold dropped, the rest escaped. */
export function xmlText(text: string): string {
  return text.replace(NOT_IN_XML, '').replace(/[&<>"']/g, (character) => HTML_ESCAPES[character]!);
}

const element = (name: string, text: string, attributes = '') => `<${name}${attributes}>${xmlText(text)}</${name}>`;

const param = (name: string, value: string, unit?: string) =>
  element('param', value, ` name="${xmlText(name)}"${unit ? ` unit="${xmlText(unit)}"` : ''}`);

/** RFC 3339 with its offset, as yml_catalog's `date` wants it: 2026-11-29T02:45:00+00:00. */
export function ymlDate(date: Date): string {
  return `${date.toISOString().slice(0, 19)}+00:00`;
}

export interface FeedShop {
  name: string;
  company: string;
  /** The shop's origin: every address in the feed is absolute under it. */
  origin: string;
}

export function ymlOpening(shop: FeedShop, date: Date, categories: readonly { id: number; name: string }[]): string {
  const categoryList = categories.map((category) => element('category', category.name, ` id="${category.id}"`));
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<yml_catalog date="${ymlDate(date)}">\n<shop>\n` +
    `${element('name', shop.name)}\n${element('company', shop.company)}\n${element('url', `${shop.origin}/`)}\n` +
    `<currencies><currency id="RUR" rate="1"/></currencies>\n` +
    `<categories>\n${categoryList.join('\n')}\n</categories>\n<offers>\n`
  );
}

export const YML_CLOSING = '</offers>\n</shop>\n</yml_catalog>\n';

/** What a feed shows besides the catalogue's card: prices (absent: hidden from visitors) and the stock. */
export interface OfferOptions {
  origin: string;
  prices: boolean;
  count: boolean;
}

/** Rubles as YML writes them: a dot, kopecks only when there are any. */
const rubles = (decimal: string) => String(Number(decimal));

/** Millimetres as centimetres, grams as kilograms: up to three decimals, no trailing zeros. */
const scaled = (value: number, divisor: number) => String(Number((value / divisor).toFixed(3)));

const imageUrl = (origin: string, image: string) => `${origin}/api/v1/image/${encodeURIComponent(image)}`;

/**
 * The pictures of a colour: its own photos, then the product's set, then (with no photo at all)
 * the product's image; absolute, each once, at most MAX_PICTURES. The «no photo» placeholder is
 * no picture of the product: a product with only that has none.
 */
export function picturesOf(
  product: Pick<FeedProductRow, 'image'>,
  color: string,
  photoSets: readonly PhotoSet[],
  origin: string,
): string[] {
  const imagesOf = (setColor: string | null) => photoSets.find((set) => set.color === setColor)?.images ?? [];
  const images = [...new Set([...imagesOf(color), ...imagesOf(null)])];
  if (images.length === 0) images.push(product.image);
  return images
    .filter((image) => image !== NEW_PRODUCT_IMAGE)
    .slice(0, MAX_PICTURES)
    .map((image) => imageUrl(origin, image));
}

/** One offer per variant of the product, grouped by the product's id. */
export function productOffers(
  product: FeedProductRow,
  variants: readonly FeedVariantRow[],
  photoSets: readonly PhotoSet[],
  options: OfferOptions,
): string {
  const url = `${options.origin}${productPath(product.art)}`;
  return variants
    .map((variant) => {
      const lines = [
        `<offer id="${variant.id}" available="${variant.stock > 0}">`,
        `<group_id>${product.id}</group_id>`,
        element('name', `${product.name}, ${variant.color}, ${variant.size} см`),
        element('url', url),
      ];
      if (options.prices) lines.push(`<price>${rubles(variant.price)}</price>`);
      lines.push('<currencyId>RUR</currencyId>', `<categoryId>${product.categoryId}</categoryId>`);
      for (const picture of picturesOf(product, variant.color, photoSets, options.origin))
        lines.push(element('picture', picture));
      if (product.brand) lines.push(element('vendor', product.brand));
      lines.push(element('vendorCode', product.art));
      if (variant.barcode && barcodeKind(variant.barcode) === 'gtin') lines.push(element('barcode', variant.barcode));
      if (product.description) lines.push(element('description', product.description));
      if (product.countryOfOrigin) lines.push(element('country_of_origin', product.countryOfOrigin));
      if (variant.weightG !== null) lines.push(`<weight>${scaled(variant.weightG, 1000)}</weight>`);
      const sides = [variant.packageLengthMm, variant.packageWidthMm, variant.packageHeightMm];
      if (sides.every((side) => side !== null))
        lines.push(`<dimensions>${sides.map((side) => scaled(side, 10)).join('/')}</dimensions>`);
      if (options.count) lines.push(`<count>${variant.stock}</count>`);
      lines.push(param('Цвет', variant.color), param('Размер', String(variant.size), 'см'));
      if (product.material) lines.push(param('Материал', product.material));
      if (product.filler) lines.push(param('Наполнитель', product.filler));
      if (product.ageFrom !== null) lines.push(param('Возраст', ageLabel(product.ageFrom)));
      if (options.prices && variant.rrp !== null)
        lines.push(param('Рекомендованная розничная цена', rubles(variant.rrp), 'руб.'));
      lines.push('</offer>\n');
      return lines.join('\n');
    })
    .join('');
}
