import type { OrderItemPayload } from '../../shared/api';
import { maxPiecesPerOrder, unprovenPoolLeft } from '../../shared/order-limits';
import { decimalToKopecks } from '../../shared/money';
import {
  DomainError,
  OutOfStockError,
  StockShareExceededError,
  UnprovenShareExceededError,
  VariantProductMismatchError,
} from './domain-errors';
import { onSale, type StockedVariant } from './on-sale';

export interface OrderedQuantity {
  productId: number;
  quantity: number;
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
    const variant = onSale(stocked.get(variantId), { variantId, productId: line.productId }, 'order');
    if (variant instanceof DomainError) throw variant;
    if (variant.stock < line.quantity) {
      throw new OutOfStockError(
        { name: variant.productName, color: variant.color, size: variant.size, stock: variant.stock },
        line.quantity,
      );
    }
    totalKopecks += decimalToKopecks(variant.price) * line.quantity;
    itemsCount += line.quantity;
    units.set(variant.productId, (units.get(variant.productId) ?? 0) + line.quantity);
    return { variant, quantity: line.quantity };
  });
  return { lines, totalKopecks, itemsCount, unitsByProduct: [...units].sort(([a], [b]) => a - b) };
}

/**
 * Throws for the first line that takes more than its share of the stock (BuyerLimits.maxStockSharePercent):
 * a larger wholesale order goes through a manager, whose address the refusal gives.
 */
export function assertWithinStockShare(lines: readonly PricedLine[], sharePercent: number, contactEmail: string): void {
  for (const { variant, quantity } of lines) {
    const max = maxPiecesPerOrder(variant.stock, sharePercent);
    if (quantity > max) {
      throw new StockShareExceededError(
        { name: variant.productName, color: variant.color, size: variant.size },
        max,
        contactEmail,
      );
    }
  }
}

/**
 * Throws for the first line of an unproven buyer's order that would take the unproven buyers'
 * holding of its variant (`unprovenHeld`, by variant id, read with the variant's row locked) past
 * its pool (BuyerLimits.unprovenStockSharePercent).
 */
export function assertWithinUnprovenPool(
  lines: readonly PricedLine[],
  unprovenHeld: ReadonlyMap<number, number>,
  sharePercent: number,
  contactEmail: string,
): void {
  for (const { variant, quantity } of lines) {
    const available = unprovenPoolLeft(variant.stock, unprovenHeld.get(variant.id) ?? 0, sharePercent);
    if (quantity > available) {
      throw new UnprovenShareExceededError(
        { name: variant.productName, color: variant.color, size: variant.size },
        available,
        contactEmail,
      );
    }
  }
}
