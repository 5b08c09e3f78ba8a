import type { CartBulkLinePayload, Product, Variant } from '@shared/api';
import { rublesToKopecks } from '@shared/money';
import { unitPrice } from '@shared/pricing';
import { coloursOf } from './variants';

/** A row of the colour × size matrix: one colour, and its variant in each size (if it has one). */
export interface MatrixRow {
  colour: string;
  bySize: Map<number, Variant>;
}

export interface Matrix {
  sizes: number[];
  rows: MatrixRow[];
}

/** Colours in the order they first appear (as the colour choice shows them), sizes from the smallest. */
export function matrixOf(variants: Variant[]): Matrix {
  const sizes = [...new Set(variants.map((variant) => variant.size))].sort((a, b) => a - b);
  const rows = coloursOf(variants).map((colour) => ({
    colour,
    bySize: new Map(variants.filter((variant) => variant.color === colour).map((variant) => [variant.size, variant])),
  }));
  return { sizes, rows };
}

/** Variant id → pieces typed; a cell left at 0 is not in it. */
export type Quantities = Record<number, number>;

/**
 * What was typed into a cell, as whole pieces from 0. Not lowered to the stock: a quantity beyond it
 * stays as typed and the cell says so (overStock), so nothing changes without the buyer seeing it.
 */
export function wholePieces(typed: number | null): number {
  const pieces = Math.floor(typed ?? 0);
  return Number.isFinite(pieces) ? Math.max(0, pieces) : 0;
}

/** The variants whose cells ask for more than there is in stock. */
export const overStock = (variants: Variant[], quantities: Quantities): Variant[] =>
  variants.filter((variant) => (quantities[variant.id] ?? 0) > Math.max(0, variant.stock));

/** The non-empty cells as the lines of one bulk addition, in the order the matrix shows them. */
export function linesOf(product: Product, matrix: Matrix, quantities: Quantities): CartBulkLinePayload[] {
  return matrix.rows.flatMap((row) =>
    matrix.sizes.flatMap((size) => {
      const variant = row.bySize.get(size);
      const count = variant ? (quantities[variant.id] ?? 0) : 0;
      return variant && count > 0 ? [{ product_id: product.id, variant_id: variant.id, count }] : [];
    }),
  );
}

/**
 * Pieces and their price in kopecks (exact: prices have at most two decimals), each at the price by
 * quantity the cells reach: a cell's own count, or, for a product's tiers, all the cells' together
 * (what is already in the cart may lower it further; the cart says the price it applies).
 */
export function totalOf(variants: Variant[], quantities: Quantities): { pieces: number; kopecks: number } {
  const pieces = variants.reduce((sum, variant) => sum + (quantities[variant.id] ?? 0), 0);
  const kopecks = variants.reduce((sum, variant) => {
    const count = quantities[variant.id] ?? 0;
    if (variant.price === null || count === 0) return sum;
    const counted = variant.tiers_scope === 'product' ? pieces : count;
    return sum + rublesToKopecks(unitPrice(variant.price, variant.tiers, counted)) * count;
  }, 0);
  return { pieces, kopecks };
}

/**
 * The server names a refused line by its number in the request («Строка 3: …»); the matrix names
 * it by its cell, as the buyer sees it: «бежевый, 25 см: …».
 */
export function namedByCell(detail: string, lines: CartBulkLinePayload[], variants: Variant[]): string {
  const match = /^Строка (\d+): (.*)$/s.exec(detail);
  const variantId = match ? lines[Number(match[1]) - 1]?.variant_id : undefined;
  const variant = variants.find((candidate) => candidate.id === variantId);
  return variant ? `${variant.color}, ${variant.size} см: ${match![2]}` : detail;
}
