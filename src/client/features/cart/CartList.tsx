import { startTransition, useEffect, useMemo, useState } from 'react';
import type { CartItem } from '@shared/api';
import { groupInBlocks, type BlockPlacement } from './cartBlocks';
import { CartProduct, type ProductGroup } from './CartProduct';

/** Products per block the browser may skip while off screen (about ten lines; bench/cart-paint.ts). */
const PRODUCTS_PER_BLOCK = 4;
/**
 * Blocks drawn with the page, and then added a batch at a time: a cart of 5 000 lines took about
 * 4 s to appear when every line was drawn before the first paint (docs/decisions.md, «A long cart»).
 */
const FIRST_BLOCKS = 10;
const BLOCKS_PER_BATCH = 20;

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
  const [drawn, setDrawn] = useState(FIRST_BLOCKS);
  const drawing = drawn < blocks.length;
  useEffect(() => {
    if (!drawing) return;
    // A task of its own per batch, and a transition: typing and clicks in the lines already drawn go first.
    const next = setTimeout(() => startTransition(() => setDrawn((count) => count + BLOCKS_PER_BATCH)));
    return () => clearTimeout(next);
  }, [drawing, drawn]);
  return (
    // The blocks between the list and its products are presentational: one list of every product.
    <ul className="cart-lines" role="list" aria-label="Товары в корзине" aria-busy={drawing}>
      {blocks.slice(0, drawn).map((block) => (
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
