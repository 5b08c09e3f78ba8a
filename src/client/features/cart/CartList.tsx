import { useMemo, useState } from 'react';
import type { CartItem } from '@shared/api';
import { groupInBlocks, type BlockPlacement } from './cartBlocks';
import { CartProduct, type ProductGroup } from './CartProduct';

/** Products per block the browser may skip while off screen (about ten lines; bench/cart-paint.ts). */
const PRODUCTS_PER_BLOCK = 4;

/** Lines of one product together, in the order the products first appear in the cart. */
function groupByProduct(items: CartItem[]): ProductGroup[] {
  const groups = new Map<number, ProductGroup>();
  for (const item of items) {
    const group = groups.get(item.product.id);
    if (group) group.lines.push(item);
    else groups.set(item.product.id, { product: item.product, lines: [item] });
  }
  return [...groups.values()];
}

/** The cart's products, in blocks the browser skips while they are off screen (cartBlocks.ts). */
export function CartList({ items }: { items: CartItem[] }) {
  const [placement] = useState<BlockPlacement>(() => new Map());
  const blocks = useMemo(
    () => groupInBlocks(groupByProduct(items), (group) => group.product.id, PRODUCTS_PER_BLOCK, placement),
    [items, placement],
  );
  return (
    // The blocks between the list and its products are presentational: one list of every product.
    <ul className="cart-lines" role="list" aria-label="Товары в корзине">
      {blocks.map((block) => (
        <li key={block.key} className="cart-lines-block" role="none">
          <ul role="none">
            {block.lines.map((group) => (
              <CartProduct key={group.product.id} group={group} />
            ))}
          </ul>
        </li>
      ))}
    </ul>
  );
}
