// How 1С's records become what the exchange stages and applies: pure, so the rules (a size out of
// «25 см», a price per piece out of a price per carton, a category's name) are read in one place.
import type { ExchangeRunStats, ExchangeSettings } from '../../shared/exchange';

/** A name and value pair as 1С writes it (a ХарактеристикаТовара). */
interface NamedValue {
  name: string;
  value: string;
}

/** What the mapping reads of a Товар (commerceml/records.ts ProductRecord). */
interface ProductRecord {
  article: string;
  name: string;
  description: string;
  descriptionIsHtml: boolean;
  groupIds: string[];
  unitCoefficient: number | null;
  deleted: boolean;
  line?: number;
}

/** What the mapping reads of a Предложение (commerceml/records.ts OfferRecord). */
interface OfferRecord {
  productId: string;
  barcode: string;
  characteristics: NamedValue[];
  prices: { priceTypeId: string; unitPrice: number; coefficient: number }[] | null;
  quantity: number | null;
  warehouses: { warehouseId: string; quantity: number }[];
  unitCoefficient: number | null;
  deleted: boolean;
  line?: number;
}

/** A Товар as staged (exchange_staged_products.record): what the shop keeps of it, with its line. */
export interface StagedProduct {
  article: string;
  name: string;
  /** Plain text: an HTML description is kept as its text. */
  description: string;
  /** The first Группа's Ид, null without one. */
  groupId: string | null;
  /** The first Картинка's stored picture (images.name), null without one or when it could not be read. */
  image: string | null;
  /** Why its picture could not be kept (a row error), null when it was or there is none. */
  pictureProblem: string | null;
  unitCoefficient: number | null;
  deleted: boolean;
  /** The file's СодержитТолькоИзменения: a full file hides or leaves the 1С products it omits. */
  changesOnly: boolean;
  line: number | null;
}

/** A price of a Предложение as staged: for one piece, in the 1С type's own Ид. */
export interface StagedPrice {
  priceTypeId: string;
  price: number;
  /** The type's Налог/УчтеноВСумме (null: no Налог given). */
  taxIncluded: boolean | null;
}

/** A Предложение as staged (exchange_staged_offers.record). */
export interface StagedOffer {
  productId: string;
  /** From ХарактеристикиТовара by the names in the exchange's settings; null when not given. */
  color: string | null;
  size: number | null;
  barcode: string;
  /** Null in a rests file (prices untouched). */
  prices: StagedPrice[] | null;
  quantity: number | null;
  warehouses: { warehouseId: string; quantity: number }[];
  unitCoefficient: number | null;
  deleted: boolean;
  line: number | null;
}

/** The value of the named characteristic, the name compared without case and outer spaces. */
export function characteristicValue(values: NamedValue[], name: string): string | null {
  const wanted = name.trim().toLowerCase();
  const found = values.find((value) => value.name.trim().toLowerCase() === wanted);
  const value = found?.value.trim() ?? '';
  return value === '' ? null : value;
}

/** A size (height, cm) as 1С writes it: the first whole number of the value («25 см», «Рост 30»). */
export function sizeOfValue(value: string): number | null {
  const digits = /\d+/.exec(value);
  if (!digits) return null;
  const size = Number(digits[0]);
  return Number.isSafeInteger(size) && size <= 2_147_483_647 ? size : null;
}

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  laquo: '«',
  raquo: '»',
  mdash: '—',
  ndash: '–',
  hellip: '…',
};

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, body: string) => {
    if (body[0] === '#') {
      const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : Number(body.slice(1));
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
    }
    return NAMED_ENTITIES[body.toLowerCase()] ?? entity;
  });
}

/**
 * An HTML description as plain text: paragraphs and line breaks as new lines, every tag dropped,
 * entities decoded. The storefront shows descriptions as text, so no markup reaches a page.
 */
export function plainTextOfHtml(html: string): string {
  const text = html
    .replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, '')
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|div|li|h[1-6]|tr)\s*>/gi, '\n')
    .replace(/<[^>]*>/g, '');
  return decodeEntities(text)
    .split('\n')
    .map((line) => line.replace(/[ \t\r\f\v]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** A Товар as the exchange stages it; its picture is filled in by the caller, which reads the file. */
export function stagedProductOf(record: ProductRecord, changesOnly: boolean): StagedProduct {
  return {
    article: record.article.trim(),
    name: record.name.trim(),
    description: record.descriptionIsHtml ? plainTextOfHtml(record.description) : record.description.trim(),
    groupId: record.groupIds[0] ?? null,
    image: null,
    pictureProblem: null,
    unitCoefficient: record.unitCoefficient,
    deleted: record.deleted,
    changesOnly,
    line: record.line ?? null,
  };
}

/** Kopecks, as the shop keeps money: a price of `coefficient` pieces divided for one. */
export function piecePrice(unitPrice: number, coefficient: number): number {
  const pieces = coefficient > 0 ? coefficient : 1;
  return Math.round((unitPrice * 100) / pieces) / 100;
}

/** A Предложение as the exchange stages it, its colour and size read by the settings' names. */
export function stagedOfferOf(
  record: OfferRecord,
  settings: Pick<ExchangeSettings, 'colorCharacteristic' | 'sizeCharacteristic'>,
  taxIncluded: ReadonlyMap<string, boolean | null>,
): StagedOffer {
  const sizeValue = characteristicValue(record.characteristics, settings.sizeCharacteristic);
  return {
    productId: record.productId,
    color: characteristicValue(record.characteristics, settings.colorCharacteristic),
    size: sizeValue === null ? null : sizeOfValue(sizeValue),
    barcode: record.barcode.trim(),
    prices:
      record.prices?.map((price) => ({
        priceTypeId: price.priceTypeId,
        price: piecePrice(price.unitPrice, price.coefficient),
        taxIncluded: taxIncluded.get(price.priceTypeId) ?? null,
      })) ?? null,
    quantity: record.quantity,
    warehouses: record.warehouses,
    unitCoefficient: record.unitCoefficient,
    deleted: record.deleted,
    line: record.line ?? null,
  };
}

export interface StagedGroup {
  externalId: string;
  name: string;
  parentId: string | null;
  path: string[];
}

/**
 * The name each 1С group's category takes. The shop's categories are flat and their names unique,
 * so a group is its own name, or «Родитель / Имя» when another category (the shop's own, or another
 * group's) has that name already, or its whole path when even that is taken; null when that too is
 * taken (a row error). `taken` maps each existing name (lower case) to the external id that holds it
 * (null: the shop's own category).
 */
export function categoryNames(
  groups: StagedGroup[],
  taken: ReadonlyMap<string, string | null>,
): { externalId: string; name: string | null }[] {
  const holders = new Map(taken);
  // A group's current name is free for it: released before anything is named.
  for (const [name, holder] of taken) {
    if (holder !== null && groups.some((group) => group.externalId === holder)) holders.delete(name);
  }
  const byId = new Map(groups.map((group) => [group.externalId, group]));
  return groups.map((group) => {
    const parent = group.parentId === null ? undefined : byId.get(group.parentId);
    const parentName = parent?.name ?? group.path.at(-2);
    const candidates = [
      group.name,
      ...(parentName === undefined ? [] : [`${parentName} / ${group.name}`]),
      group.path.join(' / '),
    ];
    const name = candidates.find((candidate) => {
      const holder = holders.get(candidate.toLowerCase());
      return holder === undefined || holder === group.externalId;
    });
    if (name === undefined) return { externalId: group.externalId, name: null };
    holders.set(name.toLowerCase(), group.externalId);
    return { externalId: group.externalId, name };
  });
}

type Counted = Exclude<keyof ExchangeRunStats, 'files' | 'productsLinkedByArticle' | 'errors'>;
const COUNTS: Counted[] = [
  'categoriesCreated',
  'categoriesUpdated',
  'productsCreated',
  'productsUpdated',
  'productsHidden',
  'variantsCreated',
  'variantsUpdated',
  'variantsLinked',
  'pricesSet',
  'ordersSent',
  'ordersUpdated',
];

/** An exchange's stats with one more file's added: counts summed, lists joined. */
export function mergeRunStats(base: ExchangeRunStats, added: ExchangeRunStats): ExchangeRunStats {
  const merged: ExchangeRunStats = { ...base };
  for (const key of COUNTS) {
    if (added[key] !== undefined) merged[key] = (base[key] ?? 0) + added[key];
  }
  if (added.productsLinkedByArticle?.length) {
    merged.productsLinkedByArticle = [...(base.productsLinkedByArticle ?? []), ...added.productsLinkedByArticle];
  }
  if (added.errors?.length) merged.errors = [...(base.errors ?? []), ...added.errors];
  return merged;
}

/** A row error as the exchange's log shows it: «import.xml, строка 12: …». */
export function rowError(file: string, line: number | null, reason: string): string {
  return `${file}${line === null ? '' : `, строка ${line}`}: ${reason}`;
}
