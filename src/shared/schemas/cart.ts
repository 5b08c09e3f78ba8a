import { Type } from 'typebox';
import { CART_BULK_MAX_LINES, LIMITS } from '../limits';
import { CART_EXPORT_FORMATS } from '../cart-import';
import { Defaulted, Id, Nullable } from './common';
import { PackagingFields, PriceTierSchema, TIER_SCOPES, UnprovenHeld } from './products';

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
    ...PackagingFields,
  }),
  // SPEC §3 has only the price; colour, size and stock let the buyer check each line.
  variant: Type.Object({
    price: Type.Number({ description: 'Цена за штуку сейчас по типу цен компании, ₽' }),
    color: Type.String(),
    size: Type.Number({ description: 'Размер, см' }),
    stock: Type.Integer({ description: 'Остаток на складе сейчас, шт.' }),
    unproven_held: UnprovenHeld,
  }),
  variant_id: Type.Integer(),
  price_when_added: Type.Number({ description: 'Цена, когда вариант положили в корзину, ₽' }),
  unit_price: Type.Number({
    description: 'Цена за штуку с учётом цены по количеству, ₽ (item_total = unit_price × count)',
  }),
  tier: Nullable(PriceTierSchema, { description: 'Достигнутая цена по количеству; null — не достигнута' }),
  next_tier: Nullable(
    Type.Object({ ...PriceTierSchema.properties, missing: Type.Integer({ description: 'Сколько штук не хватает' }) }),
    { description: 'Следующая цена по количеству и сколько до неё' },
  ),
  tiers_scope: Type.Enum(TIER_SCOPES),
  packaging_problem: Nullable(Type.String(), {
    description: 'Почему количество не подходит к кратности или минимуму товара; null — подходит',
  }),
  fit_count: Nullable(Type.Integer(), { description: 'Количество, до которого округлить строку («Округлить до N»)' }),
  // Beyond SPEC §3: a product a manager has hidden stays in the cart, but cannot be ordered.
  available: Type.Boolean({ description: 'false: товар снят с продажи, заказать его нельзя' }),
});

export const CartSchema = Type.Object({
  items: Type.Array(CartItemSchema),
  total_price: Type.Number(),
  min_order_sum: Type.Number({ description: 'Минимальная сумма заказа по типу цен компании, ₽; 0 — нет' }),
  missing_sum: Type.Number({ description: 'Сколько не хватает до минимальной суммы заказа, ₽' }),
  // Beyond SPEC §3: an order made from this cart sends it back as `cart_version`.
  version: Type.Integer({ minimum: 0, description: 'Версия корзины: растёт с каждым её изменением' }),
});

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

/** `?dry_run=true` (the default) only reads and checks the lines; `false` adds them, all or nothing. */
export const CartImportQuery = Type.Object({ dry_run: Defaulted(Type.Boolean({ default: true })) });

/**
 * One line of a quick order as the server read it: what it found in the text or file (null where
 * a field is missing or unreadable), the variant it names, and the problem, if any, in Russian.
 */
export const CartImportLineSchema = Type.Object({
  line: Type.Integer({ description: 'Номер строки в тексте или в файле (в файле заголовок — строка 1)' }),
  art: Nullable(Type.String()),
  color: Nullable(Type.String()),
  size: Nullable(Type.Integer({ description: 'Размер, см' })),
  count: Nullable(Type.Integer()),
  product_id: Nullable(Type.Integer()),
  variant_id: Nullable(Type.Integer()),
  // Beyond the list: what the preview shows beside the line.
  name: Nullable(Type.String({ description: 'Название товара' })),
  price: Nullable(Type.Number({ description: 'Цена за штуку сейчас по типу цен компании, ₽' })),
  multiple: Nullable(Type.Integer({ description: 'Кратность товара' })),
  min_quantity: Nullable(Type.Integer({ description: 'Минимум штук в строке' })),
  stock: Nullable(Type.Integer({ description: 'Остаток на складе сейчас, шт.' })),
  unproven_held: Nullable(UnprovenHeld),
  error: Nullable(Type.String({ description: 'Что не так со строкой; null — строку можно добавить' })),
});

export const CartImportResultSchema = Type.Object({
  lines: Type.Array(CartImportLineSchema),
  valid: Type.Integer(),
  invalid: Type.Integer(),
});

export const CartExportQuery = Type.Object({
  format: Defaulted(
    Type.Union(
      CART_EXPORT_FORMATS.map((format) => Type.Literal(format)),
      { default: 'xlsx' },
    ),
  ),
});
