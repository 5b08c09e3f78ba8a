// Putting lines in the buyer's cart: which lines are refused and why (an unknown variant, a product
// off sale, nothing in stock, a variant listed twice, over a limit), decided in the transaction
// that holds the buyer's cart lock and writes them (repositories/cart.ts).
import type { CartBulkLinePayload } from '../../shared/api';
import { LIMITS } from '../../shared/limits';
import type { BuyerLimits } from '../config';
import type { Database } from '../db/database';
import {
  CartCountLimitError,
  CartLinesLimitError,
  DomainError,
  DuplicateLineError,
  LineRefusedError,
  SoldOutError,
} from '../domain/domain-errors';
import { onSale } from '../domain/on-sale';
import { createCartRepository, type CartRepository } from '../repositories/cart';

/** How a refused line is told: on its own as it is, in a list with its line number. */
type Refuse = (index: number, reason: DomainError) => DomainError;

/**
 * Puts the lines in the cart with one read of their variants and one upsert, or throws why the
 * first refused line cannot go in, or that the cart has no room for the new ones (beyond
 * `maxCartLines`: the variants not yet in the cart are new ones); all or nothing, under the buyer's
 * cart lock, so two additions at once cannot both take the last places. A variant already in the
 * cart gets the count added, up to LIMITS.maxCartCount; the line's price when added becomes today's,
 * which the buyer adding it has just seen. Returns the cart line ids, in the lines' order.
 */
async function addLines(
  cart: CartRepository,
  userId: number,
  lines: readonly CartBulkLinePayload[],
  refuse: Refuse,
  maxCartLines: number,
): Promise<number[]> {
  await cart.lockAdditions(userId);
  const variantIds = lines.map((line) => line.variant_id);
  const byId = new Map((await cart.stockedVariants(variantIds)).map((variant) => [variant.id, variant]));
  const firstIndexOf = new Map<number, number>();
  const rows = lines.map((line, index) => {
    const earlier = firstIndexOf.get(line.variant_id);
    if (earlier !== undefined) throw refuse(index, new DuplicateLineError(line.variant_id, earlier + 1));
    firstIndexOf.set(line.variant_id, index);
    const variant = onSale(
      byId.get(line.variant_id),
      { variantId: line.variant_id, productId: line.product_id },
      'cart',
    );
    if (variant instanceof DomainError) throw refuse(index, variant);
    // As with a single «В корзину»: what is out of stock is refused, a count beyond the stock is
    // checked at checkout, when the stock is taken.
    if (variant.stock === 0) throw refuse(index, new SoldOutError(variant.productName));
    return {
      userId,
      productId: line.product_id,
      variantId: line.variant_id,
      count: line.count,
      priceWhenAdded: variant.price,
    };
  });
  const held = await cart.heldLines(userId, variantIds);
  const adding = lines.length - held.listed;
  if (held.lines + adding > maxCartLines) throw new CartLinesLimitError(maxCartLines, held.lines, adding);
  const itemIdOf = await cart.upsertLines(rows);
  const overLimit = lines.findIndex((line) => !itemIdOf.has(line.variant_id));
  if (overLimit >= 0) throw refuse(overLimit, new CartCountLimitError(LIMITS.maxCartCount));
  return lines.map((line) => itemIdOf.get(line.variant_id)!);
}

export function createCartService(db: Database, { maxCartLines }: Pick<BuyerLimits, 'maxCartLines'>) {
  return {
    /**
     * One line, as «В корзину» adds it: the cart line's id, or the domain error that says why not
     * (nothing written).
     */
    async add(userId: number, line: CartBulkLinePayload): Promise<number> {
      const [itemId] = await db.transaction((tx) =>
        addLines(createCartRepository(tx), userId, [line], (_index, reason) => reason, maxCartLines),
      );
      return itemId!;
    },

    /**
     * Lines of a list (the product page's matrix, a reorder, a quick order), all or nothing: a
     * refused line throws LineRefusedError naming it («Строка 3: …»), a list with more new lines
     * than the cart has room for CartLinesLimitError, and the cart stays as it was. A variant may
     * be listed once.
     */
    addMany(userId: number, lines: readonly CartBulkLinePayload[]): Promise<number[]> {
      return db.transaction((tx) =>
        addLines(
          createCartRepository(tx),
          userId,
          lines,
          (index, reason) => new LineRefusedError(index + 1, reason),
          maxCartLines,
        ),
      );
    },
  };
}
