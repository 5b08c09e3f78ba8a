import type { OrderItemPayload } from '../../shared/api';
import { maxPiecesPerOrder, unprovenPoolLeft } from '../../shared/order-limits';
import { rublesToDecimal, rublesToKopecks } from '../../shared/money';
import { packagingProblem, roundDownToMultiple } from '../../shared/pricing';
import {
  DomainError,
  OutOfStockError,
  PackagingError,
  StockShareExceededError,
  UnprovenShareExceededError,
  VariantProductMismatchError,
} from './domain-errors';
import { onSale, type StockedVariant } from './on-sale';
import {
  linePrice,
  priceSetOf,
  quantitiesByProduct,
  tierQuantity,
  type PriceTypes,
  type TierIndex,
} from './wholesale-price';

export interface OrderedQuantity {
  productId: number;
  quantity: number;
}

export interface PricedLine {
  variant: StockedVariant;
  quantity: number;
  /** Decimal rubles: a piece's price applied (the tier's when one is reached), as the line keeps it. */
  unitPrice: string;
  /** Decimal rubles: a piece's price in the type without the tier. */
  listPrice: string;
  priceTypeId: number;
  priceTypeName: string;
  /** The tier reached («от N шт.»), or null. */
  tierFrom: number | null;
}

/** What an order is priced in: the company's price type and the default, their tiers and names. */
export interface OrderPricing {
  types: PriceTypes;
  tiers: TierIndex;
  typeNames: ReadonlyMap<number, string>;
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
 * Prices the order in the company's price type and checks every line against the stock and the
 * product's packaging, in the given variant order: a product's tiers count all its lines in the
 * order together. Pure: the caller has locked the variants, and writes what this returns.
 */
export function priceOrder(
  variantIds: readonly number[],
  ordered: ReadonlyMap<number, OrderedQuantity>,
  stocked: ReadonlyMap<number, StockedVariant>,
  pricing: OrderPricing,
): PricedOrder {
  const checked = variantIds.map((variantId) => {
    const line = ordered.get(variantId)!;
    const variant = onSale(stocked.get(variantId), { variantId, productId: line.productId }, 'order');
    if (variant instanceof DomainError) throw variant;
    if (variant.stock < line.quantity) {
      throw new OutOfStockError(
        { name: variant.productName, color: variant.color, size: variant.size, stock: variant.stock },
        line.quantity,
      );
    }
    const problem = packagingProblem(
      line.quantity,
      { multiple: variant.multiple, min_quantity: variant.minQuantity },
      variant.stock,
    );
    if (problem) throw new PackagingError(variant.productName, problem);
    return { variant, quantity: line.quantity };
  });
  const byProduct = quantitiesByProduct(
    checked.map(({ variant, quantity }) => ({ productId: variant.productId, quantity })),
  );
  let totalKopecks = 0;
  let itemsCount = 0;
  const lines = checked.map(({ variant, quantity }): PricedLine => {
    const set = priceSetOf(variant, pricing.types, pricing.tiers);
    const { unit, tier } = linePrice(set, tierQuantity(set, quantity, byProduct.get(variant.productId)!));
    totalKopecks += rublesToKopecks(unit) * quantity;
    itemsCount += quantity;
    return {
      variant,
      quantity,
      unitPrice: rublesToDecimal(unit),
      listPrice: rublesToDecimal(set.onePiece),
      priceTypeId: set.typeId,
      priceTypeName: pricing.typeNames.get(set.typeId) ?? '',
      tierFrom: tier?.from ?? null,
    };
  });
  return { lines, totalKopecks, itemsCount, unitsByProduct: [...byProduct].sort(([a], [b]) => a - b) };
}

/** A cap on a line in whole cartons (the largest multiple below it), unless it leaves the whole stock. */
const inCartons = (cap: number, variant: StockedVariant) =>
  cap >= variant.stock ? cap : roundDownToMultiple(cap, variant.multiple);

/**
 * Throws for the first line that takes more than its share of the stock (BuyerLimits.maxStockSharePercent):
 * a larger wholesale order goes through a manager, whose address the refusal gives.
 */
export function assertWithinStockShare(
  lines: readonly Pick<PricedLine, 'variant' | 'quantity'>[],
  sharePercent: number,
  contactEmail: string,
): void {
  for (const { variant, quantity } of lines) {
    const max = inCartons(maxPiecesPerOrder(variant.stock, sharePercent), variant);
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
  lines: readonly Pick<PricedLine, 'variant' | 'quantity'>[],
  unprovenHeld: ReadonlyMap<number, number>,
  sharePercent: number,
  contactEmail: string,
): void {
  for (const { variant, quantity } of lines) {
    const available = inCartons(
      unprovenPoolLeft(variant.stock, unprovenHeld.get(variant.id) ?? 0, sharePercent),
      variant,
    );
    if (quantity > available) {
      throw new UnprovenShareExceededError(
        { name: variant.productName, color: variant.color, size: variant.size },
        available,
        contactEmail,
      );
    }
  }
}
