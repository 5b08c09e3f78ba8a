import { Type } from 'typebox';
import { LIMITS, ORDER_MAX_LINES } from '../limits';
import { ORDER_STATUSES } from '../order-statuses';
import { CARRIER_NAMES, TRACKING_NUMBER_MAX, TRACKING_NUMBER_PATTERN } from '../carriers';
import { Id, Nullable } from './common';

const OptionalText = (maxLength: number) => Type.Optional(Nullable(Type.String({ maxLength })));
const Status = Type.Enum(ORDER_STATUSES);

/** An issued invoice: «Счёт на оплату № {number} от {date}»; its PDF is GET /api/v1/order/{id}/invoice. */
export const InvoiceRefSchema = Type.Object({
  number: Type.Integer({ description: 'Номер в году выставления' }),
  date: Type.String({ format: 'date', description: 'День выставления по московскому времени' }),
});

/** Who placed an order: the name stays after the employee leaves the company. */
export const PlacedBySchema = Type.Object({
  user_id: Nullable(Type.Integer(), { description: 'null — аккаунт удалён' }),
  name: Type.String({ description: 'Имя (или e-mail) сотрудника на момент заказа' }),
});

export const OrderSummarySchema = Type.Object({
  id: Type.Integer(),
  total_price: Type.Number(),
  status: Status,
  created_at: Type.String({ format: 'date-time' }),
  items_count: Type.Integer({ description: 'Всего единиц товара в заказе' }),
  invoice: Nullable(InvoiceRefSchema, { description: 'Счёт, когда он выставлен' }),
  placed_by: Nullable(PlacedBySchema, { description: 'Кто из сотрудников компании оформил заказ' }),
  legal_entity_id: Nullable(Type.String({ format: 'uuid' }), { description: 'Юрлицо, на которое оформлен заказ' }),
});

/** GET /api/v1/order/{user_id}: the company's orders, newest first; the total is in X-Total-Count. */
export const BuyerOrdersQuery = Type.Object({
  skip: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, description: 'Без него — все заказы' })),
  status: Type.Optional(Status),
  legal_entity_id: Type.Optional(Type.String({ format: 'uuid' })),
  placed_by: Type.Optional(Id),
});

export const OrderStatusSchema = Type.Object({ id: Type.Integer(), status: Status });

export const OrderItemSchema = Type.Object({
  product_id: Id,
  variant_id: Id,
  quantity: Type.Integer({ minimum: LIMITS.minQuantity, maximum: 1_000_000 }),
});

export const OrderCreateBody = Type.Object({
  user_id: Id,
  address: Type.String({ maxLength: LIMITS.addressMax }),
  items: Type.Array(OrderItemSchema, { minItems: 1, maxItems: ORDER_MAX_LINES }),
  // Beyond SPEC §3: the server cart's `version` the checkout showed. When the cart has
  // changed since, the order is refused (409) rather than placed from lines the buyer no longer has.
  cart_version: Type.Optional(Type.Integer({ minimum: 0, description: 'Версия корзины, из которой оформлен заказ' })),
  // Beyond SPEC §3: the company's legal entity to order for; the company_* fields then come from it.
  legal_entity_id: Type.Optional(Nullable(Type.String({ format: 'uuid' }), { description: 'Юрлицо компании' })),
  company_name: OptionalText(LIMITS.companyNameMax),
  // Checked by the handler (src/shared/requisites.ts), with the messages the checkout shows.
  company_inn: OptionalText(100),
  company_kpp: OptionalText(100),
  // Not in SPEC §3: the checkout's name and phone, kept with the order for the manager.
  contact_name: OptionalText(LIMITS.nameMax),
  contact_phone: OptionalText(LIMITS.phoneMax),
});

export const IdempotencyHeaders = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      pattern: '^[\\x21-\\x7E]+$',
      description: 'Повтор с тем же ключом вернёт тот же заказ',
    }),
  ),
});

/** What an order's line says, for the buyer and the back office alike: what was ordered, at the price of the day. */
export const OrderLineSchema = Type.Object({
  art: Type.String(),
  name: Type.String(),
  color: Type.String(),
  size: Type.Integer(),
  price: Type.Number({ description: 'Цена за штуку, применённая в заказе, ₽' }),
  quantity: Type.Integer(),
  item_total: Type.Number(),
  list_price: Nullable(Type.Number({ description: 'Цена за штуку без цены по количеству, ₽' })),
  price_type: Nullable(Type.String({ description: 'Тип цен, по которому оформлена строка' })),
  tier_from: Nullable(Type.Integer({ description: 'Цена по количеству «от N шт.»; null — не применялась' })),
});

/** One line of the buyer's order, with the ids to order it again (GET /api/v1/order/{user_id}/{id}). */
export const BuyerOrderLineSchema = Type.Object({
  product_id: Type.Integer(),
  variant_id: Type.Integer(),
  ...OrderLineSchema.properties,
});

const NullableText = Nullable(Type.String());

/** The carrier, as src/shared/carriers.ts names it. */
export const CarrierName = Type.Enum(CARRIER_NAMES);

export const TrackingNumber = Type.String({
  minLength: 1,
  maxLength: TRACKING_NUMBER_MAX,
  pattern: TRACKING_NUMBER_PATTERN,
  description: 'Трек-номер: латинские буквы, цифры, пробел и дефис',
});

/** How «Отправлен» went: the carrier, the number, and the carrier's page for it (null when it has none). */
export const TrackingSchema = Type.Object({
  carrier: CarrierName,
  number: Nullable(Type.String()),
  url: Nullable(Type.String({ format: 'uri' }), { description: 'Страница отслеживания у перевозчика' }),
});

/** 1С's version of the order when it differs from what was placed (shipped 18 of 24): shown beside the placed lines. */
export const OneCDocumentSchema = Type.Object({
  received_at: Type.String({ format: 'date-time', description: 'Когда пришли данные 1С' }),
  number: Type.String({ description: 'Номер документа в 1С' }),
  sum: Nullable(Type.Number({ description: 'Сумма по данным 1С, ₽' })),
  lines: Type.Array(
    Type.Object({
      article: Type.String(),
      name: Type.String(),
      price: Type.Number(),
      quantity: Type.Number(),
      sum: Type.Number(),
    }),
  ),
});

/** The buyer's own order, whole: lines, requisites and the statuses it went through. */
export const BuyerOrderSchema = Type.Object({
  id: Type.Integer(),
  created_at: Type.String({ format: 'date-time' }),
  status: Status,
  total_price: Type.Number(),
  items_count: Type.Integer({ description: 'Всего единиц товара в заказе' }),
  placed_by: Nullable(PlacedBySchema),
  legal_entity_id: Nullable(Type.String({ format: 'uuid' })),
  contact_name: NullableText,
  contact_phone: NullableText,
  address: Type.String(),
  company_name: NullableText,
  company_inn: NullableText,
  company_kpp: NullableText,
  lines: Type.Array(BuyerOrderLineSchema),
  history: Type.Array(
    Type.Object({
      at: Type.String({ format: 'date-time' }),
      status: Status,
      reason: Type.Optional(
        Type.String({ description: 'Почему магазин сам сменил статус (например, истёк срок резерва)' }),
      ),
      comment: Type.Optional(Type.String({ description: 'Комментарий менеджера к смене статуса' })),
      tracking: Type.Optional(TrackingSchema),
    }),
    { description: 'Статусы заказа по порядку, первым — «Создан» с моментом оформления' },
  ),
  invoice: Nullable(InvoiceRefSchema, { description: 'Счёт, когда он выставлен' }),
  can_cancel: Type.Boolean({ description: 'Покупатель ещё может отменить заказ' }),
  one_c: Nullable(OneCDocumentSchema, { description: 'Заказ по данным 1С, когда он отличается от оформленного' }),
});
