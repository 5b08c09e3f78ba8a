// Putting lines in the buyer's cart: which lines are refused and why (an unknown variant, a product
// off sale, nothing in stock, a variant listed twice, over a limit), decided in the transaction
// that holds the buyer's cart lock and writes them (repositories/cart.ts).
import type { Cart, CartBulkLinePayload, CartItem } from '../../shared/api';
import { LIMITS } from '../../shared/limits';
import { packagingProblem } from '../../shared/pricing';
import type { BuyerLimits } from '../config';
import type { Database, Queryable } from '../db/database';
import {
  CartCountLimitError,
  CartLinesLimitError,
  DomainError,
  DuplicateLineError,
  LineRefusedError,
  PackagingError,
  SoldOutError,
} from '../domain/domain-errors';
import { priceCart } from '../domain/cart-pricing';
import type { Member } from '../domain/company-member';
import { onSale } from '../domain/on-sale';
import { TierIndex } from '../domain/wholesale-price';
import { createCartRepository, type CartRepository } from '../repositories/cart';
import { createPriceTypesRepository } from '../repositories/price-types';

/** The buyer's cart, priced in their company's price type. */
async function pricedCart(db: Queryable, member: Pick<Member, 'userId' | 'priceTypeId'>): Promise<Cart> {
  const priceTypes = createPriceTypesRepository(db);
  const { defaultTypeId } = await priceTypes.catalogueTypes();
  const typeId = member.priceTypeId ?? defaultTypeId;
  const [{ revision, lines }, type] = await Promise.all([
    createCartRepository(db).read(member.userId, typeId === defaultTypeId ? null : typeId),
    priceTypes.find(typeId),
  ]);
  const tiers = await priceTypes.tiers(
    [typeId, defaultTypeId],
    [...new Set(lines.map((line) => line.productId))],
    lines.map((line) => line.variantId),
  );
  return priceCart(
    lines,
    { types: { typeId, defaultTypeId }, tiers: new TierIndex(tiers), minOrderSum: type?.minOrderSum ?? '0' },
    revision,
  );
}

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
  member: Pick<Member, 'userId' | 'priceTypeId'>,
  lines: readonly CartBulkLinePayload[],
  refuse: Refuse,
  maxCartLines: number,
): Promise<number[]> {
  const { userId } = member;
  await cart.lockAdditions(userId);
  const variantIds = lines.map((line) => line.variant_id);
  const [stocked, inCart] = await Promise.all([
    cart.stockedVariants(variantIds, member.priceTypeId),
    cart.countsByVariant(userId),
  ]);
  const byId = new Map(stocked.map((variant) => [variant.id, variant]));
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
    // The line's count once added, in cartons: a count beyond the stock is still checkout's to refuse.
    const packaging = { multiple: variant.multiple, min_quantity: variant.minQuantity };
    const problem = packagingProblem((inCart.get(line.variant_id) ?? 0) + line.count, packaging, variant.stock);
    if (problem) throw refuse(index, new PackagingError(variant.productName, problem));
    return {
      userId,
      productId: line.product_id,
      variantId: line.variant_id,
      count: line.count,
      priceWhenAdded: variant.typePrice ?? variant.price,
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

/** A count change: made, or not because the line is not the buyer's, or holds another count now (with it). */
export type CountChange = { status: 'set' } | { status: 'not-found' } | { status: 'conflict'; item: CartItem };

export function createCartService(db: Database, { maxCartLines }: Pick<BuyerLimits, 'maxCartLines'>) {
  return {
    view: (member: Pick<Member, 'userId' | 'priceTypeId'>) => pricedCart(db, member),

    /**
     * Sets a line's count, refused (PackagingError) when it breaks the product's packaging; with
     * `expected`, only while the line still holds that count (another tab may have changed it).
     */
    async setCount(
      member: Pick<Member, 'userId' | 'priceTypeId'>,
      itemId: number,
      count: number,
      expected?: number,
    ): Promise<CountChange> {
      const cart = createCartRepository(db);
      const line = await cart.line(member.userId, itemId);
      if (!line) return { status: 'not-found' };
      const problem = packagingProblem(count, { multiple: line.multiple, min_quantity: line.minQuantity }, line.stock);
      if (problem) throw new PackagingError(line.name, problem);
      const result = await cart.setCount(member.userId, itemId, count, expected);
      if (result.status !== 'conflict') return result;
      const item = (await pricedCart(db, member)).items.find((candidate) => candidate.id === itemId);
      return item ? { status: 'conflict', item } : { status: 'not-found' };
    },

    /**
     * One line, as «В корзину» adds it: the cart line's id, or the domain error that says why not
     * (nothing written).
     */
    async add(member: Pick<Member, 'userId' | 'priceTypeId'>, line: CartBulkLinePayload): Promise<number> {
      const [itemId] = await db.transaction((tx) =>
        addLines(createCartRepository(tx), member, [line], (_index, reason) => reason, maxCartLines),
      );
      return itemId!;
    },

    /**
     * Lines of a list (the product page's matrix, a reorder, a quick order), all or nothing: a
     * refused line throws LineRefusedError naming it («Строка 3: …»), a list with more new lines
     * than the cart has room for CartLinesLimitError, and the cart stays as it was. A variant may
     * be listed once.
     */
    addMany(member: Pick<Member, 'userId' | 'priceTypeId'>, lines: readonly CartBulkLinePayload[]): Promise<number[]> {
      return db.transaction((tx) =>
        addLines(
          createCartRepository(tx),
          member,
          lines,
          (index, reason) => new LineRefusedError(index + 1, reason),
          maxCartLines,
        ),
      );
    },
  };
}
