import type { Cart, Product } from '@shared/api';
import type { CheckoutItem } from '@shared/paths';

/** One line of the checkout, whether it came from the address's `items` or from the server cart. */
export interface CheckoutLine {
  art: string;
  productId: number;
  variantId: number;
  count: number;
  name: string;
  color: string;
  size: number;
  price: number;
}

/** The address's items with their products; `missing` names the first that has no such variant. */
export function linesOfItems(
  items: CheckoutItem[],
  products: Product[],
): { lines: CheckoutLine[] } | { missing: string } {
  const lines: CheckoutLine[] = [];
  for (const item of items) {
    const product = products.find((candidate) => candidate.art === item.art);
    const variant = product?.variants.find((candidate) => candidate.id === item.variantId);
    if (!product || !variant)
      return { missing: `Не удалось найти вариант с id=${item.variantId} для продукта ${item.art}` };
    const { color, size, price } = variant;
    lines.push({
      art: item.art,
      productId: product.id,
      variantId: item.variantId,
      count: item.count,
      name: product.name,
      color,
      size,
      price,
    });
  }
  return { lines };
}

/** The cart's lines that can be ordered, as they are saved (a product taken off sale is left out, as the cart says). */
export const linesOfCart = (cart: Cart): CheckoutLine[] =>
  cart.items
    .filter((item) => item.available)
    .map(({ product, variant, variant_id, count }) => ({
      art: product.art,
      productId: product.id,
      variantId: variant_id,
      count,
      name: product.name,
      color: variant.color,
      size: variant.size,
      price: variant.price,
    }));
