// What a checked price list would do to the shop as it is, worked out from the rows the import read
// (repositories/price-list.ts): the errors only the shop can see, the variants it creates, updates and
// leaves, the products whose packaging it changes, the preview's rows and the audit entry. Pure, so
// the same plan is checked again when a preview is applied.
import { kopecksToRubles } from '../../shared/money';
import type { Packaging } from '../../shared/pricing';
import { isValidEan13, type ProductCardFields, type VariantCardFields } from '../../shared/product-card';
import {
  changedFields,
  describeVariant,
  fieldsOf,
  rublesOrNone,
  samePackaging,
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
  packaging: Packaging;
  card: ProductCardFields;
}

export interface ExistingVariant {
  id: number;
  priceKopecks: number;
  stock: number;
  /** Its own prices in the types other than the default, in kopecks by type id. */
  typePrices: Map<number, number>;
  card: VariantCardFields;
}

/**
 * What changed in a row, field by field, for the audit log: `price` is the default type's, as in
 * the entries from before price types; `prices` the other types' by code (null: none of that type,
 * its buyers paying the default type's price), only those that changed.
 */
export type Change = Partial<Pick<PriceListRow, 'name' | 'category' | 'stock'>> & {
  price?: number;
  prices?: Record<string, number | null>;
  multiple?: number;
  min_quantity?: number;
} & Partial<ProductCardFields & VariantCardFields>;

function differences(row: PriceListRow, product: ExistingProduct, variant: ExistingVariant, typeIds: TypeIds) {
  const before: Change = {};
  const after: Change = {};
  if (product.name !== row.name) [before.name, after.name] = [product.name, row.name];
  if (product.category !== row.category) [before.category, after.category] = [product.category, row.category];
  if (variant.priceKopecks !== row.priceKopecks) {
    [before.price, after.price] = [kopecksToRubles(variant.priceKopecks), kopecksToRubles(row.priceKopecks)];
  }
  for (const { code, priceKopecks } of row.typePrices) {
    const old = variant.typePrices.get(typeIds.get(code)!) ?? null;
    if (old === priceKopecks) continue;
    (before.prices ??= {})[code] = rublesOrNone(old);
    (after.prices ??= {})[code] = rublesOrNone(priceKopecks);
  }
  if (variant.stock !== row.stock) [before.stock, after.stock] = [variant.stock, row.stock];
  if (row.packaging && product.packaging.multiple !== row.packaging.multiple) {
    [before.multiple, after.multiple] = [product.packaging.multiple, row.packaging.multiple];
  }
  if (row.packaging && product.packaging.min_quantity !== row.packaging.min_quantity) {
    [before.min_quantity, after.min_quantity] = [product.packaging.min_quantity, row.packaging.min_quantity];
  }
  for (const card of [changedFields(product.card, row.productCard), changedFields(variant.card, row.variantCard)]) {
    Object.assign(before, card?.before);
    Object.assign(after, card?.after);
  }
  return Object.keys(after).length === 0 ? null : { before, after };
}

/** The shop's price types other than the default, their ids by code. */
export type TypeIds = Map<string, number>;

export interface ShopState {
  categoryIds: Map<string, number>;
  typeIds: TypeIds;
  productsByArt: Map<string, ExistingProduct>;
  variantsByKey: Map<string, ExistingVariant>;
  /** The variants holding each barcode the rows give, by id. */
  barcodeHolders: Map<string, number[]>;
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
  /** Known products whose кратность or minimum the rows change, by product id. */
  packaging: Map<number, Packaging>;
  /** Known products whose card fields the rows change (the fields the file has), by product id. */
  productCards: Map<number, Partial<ProductCardFields>>;
}

/**
 * What is wrong with the barcode a row gives its variant, or null. Only a changed one is checked:
 * 1С sends its own internal and carton codes, which stay as they are while the file keeps them; a
 * manager types an EAN-13, which no other variant may hold.
 */
function barcodeProblem(
  row: NumberedRow,
  variant: ExistingVariant | undefined,
  holders: Map<string, number[]>,
  givenEarlier: Map<string, number>,
): string | null {
  const barcode = row.variantCard.barcode;
  if (barcode === undefined || barcode === null || barcode === variant?.card.barcode) return null;
  const column = `Столбец «${BARCODE_COLUMN}»: «${barcode}»`;
  if (!isValidEan13(barcode)) return `${column} — не EAN-13: нужно 13 цифр с верной контрольной цифрой`;
  if ((holders.get(barcode) ?? []).some((id) => id !== variant?.id)) return `${column} уже у другого варианта`;
  const earlier = givenEarlier.get(barcode);
  if (earlier !== undefined) return `${column} уже указан в строке ${earlier}`;
  givenEarlier.set(barcode, row.row);
  return null;
}

/** The price list's column of a variant's barcode (services/price-list.ts). */
export const BARCODE_COLUMN = 'Штрихкод';

export function planImport(rows: NumberedRow[], shop: ShopState): ImportPlan {
  const { categoryIds, typeIds, productsByArt, variantsByKey, barcodeHolders } = shop;
  const plan: ImportPlan = {
    errors: [],
    created: [],
    updated: [],
    unchanged: [],
    packaging: new Map(),
    productCards: new Map(),
  };
  const changedBarcodes = new Map<string, number>();
  // The file's price types were the shop's when it was read; one deleted (or made the default) since is said once.
  const goneTypes = new Set<string>();
  for (const row of rows) {
    const product = productsByArt.get(row.art);
    const gone = row.typePrices.find(({ code }) => !typeIds.has(code));
    if (gone) {
      if (!goneTypes.has(gone.code)) {
        goneTypes.add(gone.code);
        plan.errors.push({
          row: row.row,
          detail: `Тип цен с кодом «${gone.code}» удалён или стал типом по умолчанию, пока файл загружался: загрузите файл снова`,
        });
      }
      continue;
    }
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
    const variant = product && variantsByKey.get(variantKey(row));
    const barcode = barcodeProblem(row, variant, barcodeHolders, changedBarcodes);
    if (barcode !== null) {
      plan.errors.push({ row: row.row, detail: barcode });
      continue;
    }
    // A new variant of a known product changes the product's packaging and card as well as its other rows do.
    if (product && row.packaging && !samePackaging(product.packaging, row.packaging)) {
      plan.packaging.set(product.id, row.packaging);
    }
    if (product && changedFields(product.card, row.productCard)) plan.productCards.set(product.id, row.productCard);
    if (!product || !variant) {
      plan.created.push(row);
      continue;
    }
    const changes = differences(row, product, variant, typeIds);
    if (changes) plan.updated.push({ row, variant, ...changes });
    else plan.unchanged.push(row);
  }
  return plan;
}

/** Every row of a plan without errors beside the shop's values for it, in the file's order. */
export function previewRowsOf(plan: ImportPlan, { typeIds, productsByArt, variantsByKey }: ShopState): PreviewRow[] {
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
      oldTypePrices: row.typePrices.map(({ code }) => variant.typePrices.get(typeIds.get(code)!) ?? null),
      oldPackaging: row.packaging && product.packaging,
      oldProductCard: fieldsOf(product.card, row.productCard),
      oldVariantCard: fieldsOf(variant.card, row.variantCard),
    };
  };
  return [
    ...plan.created.map((row): PreviewRow => {
      const product = productsByArt.get(row.art);
      return {
        ...row,
        kind: 'created',
        newProduct: !product,
        oldName: null,
        oldCategory: null,
        oldPriceKopecks: null,
        oldStock: null,
        oldTypePrices: row.typePrices.map(() => null),
        oldPackaging: (row.packaging && product?.packaging) ?? null,
        oldProductCard: product ? fieldsOf(product.card, row.productCard) : null,
        oldVariantCard: null,
      };
    }),
    ...plan.updated.map(({ row }) => known(row, 'updated')),
    ...plan.unchanged.map((row) => known(row, 'unchanged')),
  ].sort((a, b) => a.row - b.row);
}

/** JSON with every object's keys in order: rows compare alike however built or stored (jsonb reorders keys). */
const canonical = (value: unknown) =>
  JSON.stringify(value, (_key, inner: unknown) =>
    inner !== null && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner,
  );

export const samePreview = (a: PreviewRow[], b: PreviewRow[]) =>
  a.length === b.length && a.every((row, index) => canonical(row) === canonical(b[index]));

export const newProductsOf = (plan: ImportPlan, { productsByArt }: ShopState) =>
  new Set(plan.created.filter((row) => !productsByArt.has(row.art)).map((row) => row.art)).size;

/** What a new variant's row sets, for the audit log: its prices (the types it has one in), stock and packaging. */
function createdChange(row: NumberedRow): Change {
  const prices = row.typePrices.filter(({ priceKopecks }) => priceKopecks !== null);
  return {
    price: kopecksToRubles(row.priceKopecks),
    ...(prices.length > 0 && {
      prices: Object.fromEntries(prices.map(({ code, priceKopecks }) => [code, rublesOrNone(priceKopecks)])),
    }),
    stock: row.stock,
    ...(row.packaging && { multiple: row.packaging.multiple, min_quantity: row.packaging.min_quantity }),
    ...row.productCard,
    ...row.variantCard,
  };
}

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
        ...created.map((row): [string, Change] => [describeVariant(row), createdChange(row)]),
        ...updated.map(({ row, after }): [string, Change] => [describeVariant(row), after]),
      ]),
      ...(created.length + updated.length > MAX_AUDITED_CHANGES && { changes_truncated: true }),
    },
  };
}
