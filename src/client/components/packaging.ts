import { LIMITS } from '@shared/limits';
import { fitToPackaging, packagingProblem, roundDownToMultiple, type Packaging } from '@shared/pricing';

/**
 * «Продаётся упаковками по 6 шт., минимум 12 шт.»: what the product page says of the packaging, or
 * null for a product sold by the piece. A minimum of one carton goes without saying.
 */
export function packagingNote({ multiple, min_quantity }: Packaging): string | null {
  const minimum = min_quantity > multiple ? `минимум ${min_quantity} шт.` : null;
  if (multiple > 1) return [`Продаётся упаковками по ${multiple} шт.`, minimum].filter(Boolean).join(', ');
  return minimum && `Продаётся поштучно, ${minimum}`;
}

/** The most pieces a line may hold in whole cartons (the cart's maximum rounded down). */
export const maxLineCount = ({ multiple }: Packaging) => roundDownToMultiple(LIMITS.maxCartCount, multiple);

/** A typed count as the packaging takes it, and what the buyer is told when it was raised to fit. */
export interface FittedCount {
  count: number;
  note: string | null;
}

/**
 * A typed count raised to the next one the packaging allows (lowered only at the cart's maximum:
 * the buyer asked for at least this many), with the note that says so. The whole stock left is
 * taken as typed, as the server takes it.
 */
export function fitTypedCount(typed: number, packaging: Packaging, stock: number): FittedCount {
  if (packagingProblem(typed, packaging, stock) === null) return { count: typed, note: null };
  const count = Math.min(maxLineCount(packaging), fitToPackaging(typed, packaging));
  const reason =
    typed % packaging.multiple !== 0
      ? `товар продаётся упаковками по ${packaging.multiple} шт.`
      : `минимальный заказ — ${packaging.min_quantity} шт.`;
  return { count, note: `Округлено до ${count} шт.: ${reason}` };
}

/** The next count up from `count` the packaging allows (+ in a stepper). */
export const nextCountUp = (count: number, packaging: Packaging) =>
  Math.min(maxLineCount(packaging), fitToPackaging(count + 1, packaging));

/**
 * The next count down from `count` the packaging allows (− in a stepper); 0, the deletion, below the
 * minimum, as − at one piece deletes a line sold by the piece.
 */
export function nextCountDown(count: number, { multiple, min_quantity }: Packaging): number {
  const down = roundDownToMultiple(count - 1, multiple);
  return down >= min_quantity ? down : 0;
}
