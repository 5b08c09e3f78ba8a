// The price list's rows, as the file holds them and as the shop compares them with its variants:
// shared by the file's reading and writing (services/price-list.ts) and the import's SQL
// (repositories/price-list.ts).

/** One variant of one product, a line of the price list. */
export interface PriceListRow {
  art: string;
  name: string;
  category: string;
  color: string;
  size: number;
  /** Whole kopecks: prices are compared and summed exactly. */
  priceKopecks: number;
  stock: number;
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

/** A previewed row beside what the shop has for it (repositories/price-list.ts). */
export interface PreviewedRow extends NumberedRow {
  kind: 'created' | 'updated' | 'unchanged';
  newProduct: boolean;
  oldName: string | null;
  oldCategory: string | null;
  oldPriceKopecks: number | null;
  oldStock: number | null;
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
