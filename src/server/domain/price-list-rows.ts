// The price list's rows, as the file holds them and as the shop compares them with its variants:
// shared by the file's reading and writing (services/price-list.ts) and the import's SQL
// (repositories/price-list.ts).
import { kopecksToRubles } from '../../shared/money';
import type { Packaging } from '../../shared/pricing';
import type { ProductCardFields, VariantCardFields } from '../../shared/product-card';

/** A price type as the price list names its column (price_types). */
export interface PriceListType {
  id: number;
  /** Stable across renames: the import finds a type's column by it. */
  code: string;
  name: string;
  isDefault: boolean;
}

/**
 * A variant's price in a type other than the default, by the type's code: whole kopecks, or null
 * when it has none of that type (its buyers then pay the default type's price).
 */
export interface TypePrice {
  code: string;
  priceKopecks: number | null;
}

/** One variant of one product, a line of the price list. */
export interface PriceListRow {
  art: string;
  name: string;
  category: string;
  color: string;
  size: number;
  /** The default price type's (variants.price), whole kopecks: prices are compared and summed exactly. */
  priceKopecks: number;
  /**
   * The other types' prices, in the order of the types' ids: every other type in the export; in
   * an import, the types the file has a column for (a type without one is left as it is).
   */
  typePrices: TypePrice[];
  stock: number;
  /** The product's кратность and minimum, on each of its rows; null when an imported file has no such columns. */
  packaging: Packaging | null;
  /** The product's card fields the file has a column for (all of them in the export), on each of its rows. */
  productCard: Partial<ProductCardFields>;
  /** The variant's card fields the file has a column for (all of them in the export). */
  variantCard: Partial<VariantCardFields>;
}

/** A line read from a file, with its row number there (the header is row 1 when it comes first). */
export interface NumberedRow extends PriceListRow {
  row: number;
}

export interface RowError {
  row: number;
  detail: string;
}

/** Identifies a variant in the file and in the database: article, colour and size. */
export const variantKey = (row: Pick<PriceListRow, 'art' | 'color' | 'size'>) =>
  `${row.art}\u0000${row.color}\u0000${row.size}`;
/** A variant as the audit log and a manager read it. */
export const describeVariant = (row: Pick<PriceListRow, 'art' | 'color' | 'size'>) =>
  `«${row.art}», ${row.color}, ${row.size} см`;

/** Kopecks as rubles, a price that may be missing staying missing. */
export const rublesOrNone = (kopecks: number | null) => (kopecks === null ? null : kopecksToRubles(kopecks));

/** `current`'s values of the fields `given` has. */
export function fieldsOf<Fields extends object>(current: Fields, given: Partial<Fields>): Partial<Fields> {
  return Object.fromEntries(
    Object.keys(given).map((field) => [field, current[field as keyof Fields]]),
  ) as Partial<Fields>;
}

/** The fields of `given` whose values differ from `current`'s, before and after; null when none does. */
export function changedFields<Fields extends object>(
  current: Fields,
  given: Partial<Fields>,
): { before: Partial<Fields>; after: Partial<Fields> } | null {
  const changed = (Object.keys(given) as (keyof Fields)[]).filter((field) => given[field] !== current[field]);
  if (changed.length === 0) return null;
  const pick = (values: Partial<Fields>) =>
    Object.fromEntries(changed.map((field) => [field, values[field]])) as Partial<Fields>;
  return { before: pick(current), after: pick(given) };
}

export const samePackaging = (a: Packaging | null, b: Packaging | null) =>
  a?.multiple === b?.multiple && a?.min_quantity === b?.min_quantity;

/** A previewed row beside what the shop has for it (repositories/price-list.ts). */
export interface PreviewedRow extends NumberedRow {
  kind: 'created' | 'updated' | 'unchanged';
  newProduct: boolean;
  oldName: string | null;
  oldCategory: string | null;
  oldPriceKopecks: number | null;
  oldStock: number | null;
  /** The variant's prices in the types of `typePrices`, one for one (null: none of that type, or a new variant). */
  oldTypePrices: (number | null)[];
  /**
   * The product's packaging at the check when the row gives one (a new variant of a known product
   * included: the packaging is the product's); null for a new product or a file without it.
   */
  oldPackaging: Packaging | null;
  /** The product's card fields of `productCard` at the check; null for a new product. */
  oldProductCard: Partial<ProductCardFields> | null;
  /** The variant's card fields of `variantCard` at the check; null for a new variant. */
  oldVariantCard: Partial<VariantCardFields> | null;
}

/** What an import did, or a dry run would do. */
export interface ImportOutcome {
  created: number;
  updated: number;
  unchanged: number;
  /** Articles the shop does not have yet among the created rows. */
  newProducts: number;
  errors: RowError[];
  /** The kept preview of a dry run that found something to change. */
  preview: { id: string; expiresAt: Date } | null;
}
