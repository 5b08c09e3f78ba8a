/**
 * The share of a variant's stock one order line of an unproven buyer may take
 * (MAX_STOCK_SHARE_PERCENT): the server refuses beyond it, the storefront says it where the
 * quantity is typed (issue 35, item 2).
 */

/**
 * The most pieces of a variant one order may take: `sharePercent` of its stock at the moment of
 * ordering (what is on sale before this order takes its share), rounded down, and at least one
 * piece, so that the last piece on the shelf can still be bought.
 */
export const maxPiecesPerOrder = (stock: number, sharePercent: number): number =>
  Math.max(1, Math.floor((stock * sharePercent) / 100));

/**
 * What the storefront says beside a quantity one order may not take whole, or null when it may (or
 * the buyer is proven: `sharePercent` null). A quantity beyond the stock is the stock's to say.
 */
export function lineShareNote(quantity: number, stock: number, sharePercent: number | null): string | null {
  if (sharePercent === null || stock <= 0 || quantity > stock) return null;
  const max = maxPiecesPerOrder(stock, sharePercent);
  return quantity > max
    ? `Не больше ${max} шт. за один заказ, пока у вас нет оплаченных заказов: для большего объёма напишите менеджеру`
    : null;
}
