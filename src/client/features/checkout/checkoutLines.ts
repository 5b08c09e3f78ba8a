import type { Cart, Product } from '@shared/api';
import type { CheckoutItem } from '@shared/paths';
import { tierReached, tiersBelow } from '@shared/pricing';

/** One line of the checkout, whether it came from the address's `items` or from the server cart. */
export interface CheckoutLine {
  art: string;
  productId: number;
  variantId: number;
  count: number;
  name: string;
  color: string;
  size: number;
  /** A piece's price at this line's count (its price by quantity applied); null: shown after signing in. */
  price: number | null;
  /** The price by quantity applied: «цена от N шт.». */
  tierFrom: number | null;
}

/** Pieces of each product among `items`: a product's tiers count all its colours and sizes together. */
function piecesByProduct(items: CheckoutItem[]): Map<string, number> {
  const pieces = new Map<string, number>();
  for (const item of items) pieces.set(item.art, (pieces.get(item.art) ?? 0) + item.count);
  return pieces;
}

/** The address's items with their products; `missing` names the first that has no such variant. */
export function linesOfItems(
  items: CheckoutItem[],
  products: Product[],
): { lines: CheckoutLine[] } | { missing: string } {
  const lines: CheckoutLine[] = [];
  const productPieces = piecesByProduct(items);
  for (const item of items) {
    const product = products.find((candidate) => candidate.art === item.art);
    const variant = product?.variants.find((candidate) => candidate.id === item.variantId);
    if (!product || !variant)
      return { missing: `Не удалось найти вариант с id=${item.variantId} для продукта ${item.art}` };
    const { color, size, price, tiers, tiers_scope } = variant;
    const counted = tiers_scope === 'product' ? productPieces.get(item.art)! : item.count;
    const tier = price === null ? null : tierReached(tiersBelow(price, tiers), counted);
    lines.push({
      art: item.art,
      productId: product.id,
      variantId: item.variantId,
      count: item.count,
      name: product.name,
      color,
      size,
      price: tier?.price ?? price,
      tierFrom: tier?.from ?? null,
    });
  }
  return { lines };
}

/** The cart's lines that can be ordered, as they are saved (a product taken off sale is left out, as the cart says). */
export const linesOfCart = (cart: Cart): CheckoutLine[] =>
  cart.items
    .filter((item) => item.available)
    .map(({ product, variant, variant_id, count, unit_price, tier }) => ({
      art: product.art,
      productId: product.id,
      variantId: variant_id,
      count,
      name: product.name,
      color: variant.color,
      size: variant.size,
      price: unit_price,
      tierFrom: tier?.from ?? null,
    }));
