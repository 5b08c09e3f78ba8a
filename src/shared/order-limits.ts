/**
 * What one order line of an unproven buyer (no paid order, not trusted by a manager) may take of a
 * variant: the server refuses beyond it, the storefront says it where the quantity is typed.
 */
import { roundDownToMultiple } from './pricing';

/** GET /auth/user's order_limits as a line needs them: null fields fall on proven buyers not at all. */
export interface LineLimits {
  /** MAX_STOCK_SHARE_PERCENT: the share of a variant's stock one order line may take. */
  line_share_percent: number | null;
  /** UNPROVEN_STOCK_SHARE_PERCENT: the share the unpaid orders of all unproven buyers may hold together. */
  unproven_pool_percent: number | null;
}

/** A variant as the catalogue, the cart and the quick order answer it. */
export interface VariantStock {
  /** Free stock, pieces. */
  stock: number;
  /** What unpaid orders of unproven buyers hold of it, pieces (not in `stock`). */
  unproven_held: number;
}

/**
 * The most pieces of a variant one order may take: `sharePercent` of its stock at the moment of
 * ordering (what is on sale before this order takes its share), rounded down, and at least one
 * piece, so that the last piece on the shelf can still be bought.
 */
export const maxPiecesPerOrder = (stock: number, sharePercent: number): number =>
  Math.max(1, Math.floor((stock * sharePercent) / 100));

/**
 * The most pieces of a variant the unpaid orders of all unproven buyers together may hold:
 * `sharePercent` of what is free plus what they hold already, rounded down, and at least one piece,
 * as maxPiecesPerOrder. The rest stays for buyers who have paid an order or whom a manager trusts.
 */
export const unprovenPoolSize = (stock: number, unprovenHeld: number, sharePercent: number): number =>
  Math.max(1, Math.floor(((stock + unprovenHeld) * sharePercent) / 100));

/** What is left of the unproven buyers' pool of a variant for one more of their orders, pieces. */
export const unprovenPoolLeft = (stock: number, unprovenHeld: number, sharePercent: number): number =>
  Math.max(0, unprovenPoolSize(stock, unprovenHeld, sharePercent) - unprovenHeld);

/**
 * The most pieces of `variant` one order line of a buyer under `limits` may take now, below the
 * stock, or null when the stock is the only bound (a proven buyer, a visitor, or limits above it).
 */
export function maxPiecesForLine(variant: VariantStock, limits: LineLimits | null): number | null {
  const bounds = [
    limits?.line_share_percent == null ? variant.stock : maxPiecesPerOrder(variant.stock, limits.line_share_percent),
    limits?.unproven_pool_percent == null
      ? variant.stock
      : unprovenPoolLeft(variant.stock, variant.unproven_held, limits.unproven_pool_percent),
  ];
  const max = Math.min(...bounds);
  return max < variant.stock ? max : null;
}

/**
 * What the storefront says beside a quantity one order may not take whole, or null when it may. A
 * quantity beyond the stock is the stock's to say. The limit is said in whole cartons of `multiple`
 * pieces: a count between them is never accepted.
 */
export function lineLimitNote(
  quantity: number,
  variant: VariantStock,
  limits: LineLimits | null,
  multiple = 1,
): string | null {
  if (variant.stock <= 0 || quantity > variant.stock) return null;
  const cap = maxPiecesForLine(variant, limits);
  if (cap === null) return null;
  const max = roundDownToMultiple(cap, multiple);
  if (quantity <= max) return null;
  return max === 0
    ? 'Пока у вас нет оплаченных заказов, этот вариант сейчас заказать нельзя: его остаток ждёт покупателей с оплаченными заказами, напишите менеджеру'
    : `Не больше ${max} шт. за один заказ, пока у вас нет оплаченных заказов: для большего объёма напишите менеджеру`;
}
