// What a checked price list would do to the shop as it is, worked out from the rows the import read
// (repositories/price-list.ts): the errors only the shop can see, the variants it creates, updates and
// leaves, the preview's rows and the audit entry. Pure, so the same plan is checked again when a
// preview is applied.
import { kopecksToRubles } from '../../shared/money';
import {
  describeVariant,
  variantKey,
  type NumberedRow,
  type PreviewedRow as PreviewRow,
  type PriceListRow,
  type RowError,
} from './price-list-rows';

/** Changes written into one audit entry at most; the counts are always there. */
const MAX_AUDITED_CHANGES = 1000;

export interface ExistingProduct {
  id: number;
  name: string;
  categoryId: number;
  category: string;
  hidden: boolean;
}

export interface ExistingVariant {
  id: number;
  priceKopecks: number;
  stock: number;
}

/** What changed in a row, field by field, for the audit log. */
export type Change = Partial<Pick<PriceListRow, 'name' | 'category' | 'stock'>> & { price?: number };

function differences(row: PriceListRow, product: ExistingProduct, variant: ExistingVariant) {
  const before: Change = {};
  const after: Change = {};
  if (product.name !== row.name) [before.name, after.name] = [product.name, row.name];
  if (product.category !== row.category) [before.category, after.category] = [product.category, row.category];
  if (variant.priceKopecks !== row.priceKopecks) {
    [before.price, after.price] = [kopecksToRubles(variant.priceKopecks), kopecksToRubles(row.priceKopecks)];
  }
  if (variant.stock !== row.stock) [before.stock, after.stock] = [variant.stock, row.stock];
  return Object.keys(after).length === 0 ? null : { before, after };
}

export interface ShopState {
  categoryIds: Map<string, number>;
  productsByArt: Map<string, ExistingProduct>;
  variantsByKey: Map<string, ExistingVariant>;
}

export interface UpdatedRow {
  row: NumberedRow;
  variant: ExistingVariant;
  before: Change;
  after: Change;
}

/** What the rows would do to the shop as it is: errors, or the variants to create and update. */
export interface ImportPlan {
  errors: RowError[];
  created: NumberedRow[];
  updated: UpdatedRow[];
  unchanged: NumberedRow[];
}

export function planImport(rows: NumberedRow[], { categoryIds, productsByArt, variantsByKey }: ShopState): ImportPlan {
  const plan: ImportPlan = { errors: [], created: [], updated: [], unchanged: [] };
  for (const row of rows) {
    const product = productsByArt.get(row.art);
    if (!categoryIds.has(row.category)) {
      plan.errors.push({
        row: row.row,
        detail: `Столбец «Категория»: категории «${row.category}» нет; создайте её в разделе «Категории» или исправьте название`,
      });
      continue;
    }
    if (product?.hidden) {
      plan.errors.push({
        row: row.row,
        detail: `Столбец «Артикул»: товар «${row.art}» удалён из витрины; его артикул занят, выберите другой`,
      });
      continue;
    }
    const variant = variantsByKey.get(variantKey(row));
    if (!product || !variant) {
      plan.created.push(row);
      continue;
    }
    const changes = differences(row, product, variant);
    if (changes) plan.updated.push({ row, variant, ...changes });
    else plan.unchanged.push(row);
  }
  return plan;
}

/** Every row of a plan without errors beside the shop's values for it, in the file's order. */
export function previewRowsOf(plan: ImportPlan, { productsByArt, variantsByKey }: ShopState): PreviewRow[] {
  const known = (row: NumberedRow, kind: PreviewRow['kind']): PreviewRow => {
    const product = productsByArt.get(row.art)!;
    const variant = variantsByKey.get(variantKey(row))!;
    return {
      ...row,
      kind,
      newProduct: false,
      oldName: product.name,
      oldCategory: product.category,
      oldPriceKopecks: variant.priceKopecks,
      oldStock: variant.stock,
    };
  };
  return [
    ...plan.created.map((row): PreviewRow => ({
      ...row,
      kind: 'created',
      newProduct: !productsByArt.has(row.art),
      oldName: null,
      oldCategory: null,
      oldPriceKopecks: null,
      oldStock: null,
    })),
    ...plan.updated.map(({ row }) => known(row, 'updated')),
    ...plan.unchanged.map((row) => known(row, 'unchanged')),
  ].sort((a, b) => a.row - b.row);
}

export const samePreview = (a: PreviewRow[], b: PreviewRow[]) =>
  a.length === b.length && a.every((row, index) => JSON.stringify(row) === JSON.stringify(b[index]));

export const newProductsOf = (plan: ImportPlan, { productsByArt }: ShopState) =>
  new Set(plan.created.filter((row) => !productsByArt.has(row.art)).map((row) => row.art)).size;

/** The audit entry of an applied import: the counts, and each changed variant's fields before and after. */
export function auditedImport({ created, updated, unchanged }: ImportPlan, newArticles: string[]) {
  const firstOnes = <T>(entries: [string, T][]) => Object.fromEntries(entries.slice(0, MAX_AUDITED_CHANGES));
  return {
    before: firstOnes(updated.map(({ row, before }) => [describeVariant(row), before])),
    after: {
      created: created.length,
      updated: updated.length,
      unchanged: unchanged.length,
      new_products: newArticles.slice(0, MAX_AUDITED_CHANGES),
      changes: firstOnes<Change>([
        ...created.map((row): [string, Change] => [
          describeVariant(row),
          { price: kopecksToRubles(row.priceKopecks), stock: row.stock },
        ]),
        ...updated.map(({ row, after }): [string, Change] => [describeVariant(row), after]),
      ]),
      ...(created.length + updated.length > MAX_AUDITED_CHANGES && { changes_truncated: true }),
    },
  };
}
