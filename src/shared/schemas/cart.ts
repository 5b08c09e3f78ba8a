import { Type } from 'typebox';
import { CART_BULK_MAX_LINES, LIMITS } from '../api';
import { Id, Nullable } from './common';

const Count = Type.Integer({ minimum: LIMITS.minQuantity, maximum: LIMITS.maxCartCount });

export const CartItemSchema = Type.Object({
  id: Type.Integer(),
  count: Type.Integer(),
  item_total: Type.Number(),
  product: Type.Object({
    id: Type.Integer(),
    art: Type.String(),
    name: Type.String(),
    description: Nullable(Type.String()),
    image: Type.String(),
  }),
  // SPEC §3 has only the price; colour, size and stock let the buyer check each line (issue 17).
  variant: Type.Object({
    price: Type.Number({ description: 'Цена сейчас, ₽' }),
    color: Type.String(),
    size: Type.Number({ description: 'Размер, см' }),
    stock: Type.Integer({ description: 'Остаток на складе сейчас, шт.' }),
  }),
  variant_id: Type.Integer(),
  price_when_added: Type.Number({ description: 'Цена, когда вариант положили в корзину, ₽' }),
  // Beyond SPEC §3 (issue 18): a product a manager has hidden stays in the cart, but cannot be ordered.
  available: Type.Boolean({ description: 'false: товар снят с продажи, заказать его нельзя' }),
});

export const CartSchema = Type.Object({ items: Type.Array(CartItemSchema), total_price: Type.Number() });

/** A variant and how many to add: a variant already in the cart gets the count added. */
const CartLineFields = { product_id: Id, variant_id: Id, count: Count };

export const CartAddBody = Type.Object({ user_id: Id, ...CartLineFields });

export const CartBulkLine = Type.Object(CartLineFields);

/** All or nothing: one refused line (named «Строка N») leaves the cart as it was. */
export const CartBulkBody = Type.Object({
  user_id: Id,
  items: Type.Array(CartBulkLine, { minItems: 1, maxItems: CART_BULK_MAX_LINES }),
});

export const CartAdded = Type.Object({ id: Type.Integer(), detail: Type.String() });

export const CartCountQuery = Type.Object({
  item_id: Id,
  count: Count,
  // Optional, beyond SPEC §7: the count the client's change started from. When the line holds
  // another count now (another tab changed it), nothing is written and the answer is 409.
  expected: Type.Optional(Count),
});

/** 409 of a conditional count change: the line as it is now, to rebase the change on. */
export const CartCountConflictSchema = Type.Object({ detail: Type.String(), item: CartItemSchema });
