import type { OrderItemPayload } from '../../shared/api';
import { toKopecks } from '../money';
import { OutOfStockError, ProductHiddenError, ProductNotFoundError, VariantProductMismatchError } from './errors';

export interface OrderedQuantity {
  productId: number;
  quantity: number;
}

/** A variant as read (and locked) from the database when the order is placed. */
export interface StockedVariant {
  id: number;
  productId: number;
  productName: string;
  /** Taken off sale by a manager: it stays in carts but cannot be ordered. */
  productHidden: boolean;
  color: string;
  size: number;
  /** Decimal rubles, as stored. */
  price: string;
  stock: number;
}

export interface PricedLine {
  variant: StockedVariant;
  quantity: number;
}

export interface PricedOrder {
  lines: PricedLine[];
  totalKopecks: number;
  itemsCount: number;
  /** Units ordered per product, in product id order (the order their rows are updated in). */
  unitsByProduct: [productId: number, units: number][];
}

/** One line per variant: a buyer who lists a variant twice is ordering the sum. */
export function mergeLines(items: readonly OrderItemPayload[]): Map<number, OrderedQuantity> {
  const merged = new Map<number, OrderedQuantity>();
  for (const item of items) {
    const existing = merged.get(item.variant_id);
    if (existing && existing.productId !== item.product_id) throw new VariantProductMismatchError(item.variant_id);
    merged.set(item.variant_id, { productId: item.product_id, quantity: (existing?.quantity ?? 0) + item.quantity });
  }
  return merged;
}

/**
 * Prices the order from the database's prices and checks every line against the stock, in the
 * given variant order. Pure: the caller has locked the variants, and writes what this returns.
 */
export function priceOrder(
  variantIds: readonly number[],
  ordered: ReadonlyMap<number, OrderedQuantity>,
  stocked: ReadonlyMap<number, StockedVariant>,
): PricedOrder {
  let totalKopecks = 0;
  let itemsCount = 0;
  const units = new Map<number, number>();
  const lines = variantIds.map((variantId) => {
    const line = ordered.get(variantId)!;
    const variant = stocked.get(variantId);
    if (!variant || variant.productId !== line.productId) throw new ProductNotFoundError(variantId, line.productId);
    if (variant.productHidden) throw new ProductHiddenError(variant.productName);
    if (variant.stock < line.quantity) {
      throw new OutOfStockError(
        { name: variant.productName, color: variant.color, size: variant.size, stock: variant.stock },
        line.quantity,
      );
    }
    totalKopecks += toKopecks(variant.price) * line.quantity;
    itemsCount += line.quantity;
    units.set(variant.productId, (units.get(variant.productId) ?? 0) + line.quantity);
    return { variant, quantity: line.quantity };
  });
  return { lines, totalKopecks, itemsCount, unitsByProduct: [...units].sort(([a], [b]) => a - b) };
}
