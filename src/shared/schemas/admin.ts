import { Type } from 'typebox';
import { ORDER_STATUSES } from '../order-statuses';
import { Defaulted, Nullable, PageQuery } from './common';
import {
  CarrierName,
  InvoiceRefSchema,
  OneCDocumentSchema,
  OrderLineSchema,
  TrackingNumber,
  TrackingSchema,
} from './order';

const Status = Type.Enum(ORDER_STATUSES);
const NullableText = Nullable(Type.String());
// A calendar day in Moscow time; whether the day exists (30 February) is checked by the handler.
const Day = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'День по московскому времени, ГГГГ-ММ-ДД' });

export const ADMIN_ORDER_SORTS = ['created_at_desc', 'created_at_asc', 'total_desc', 'total_asc'] as const;

export const AdminOrdersQuery = Type.Object({
  status: Type.Optional(Status),
  q: Type.Optional(
    Type.String({ maxLength: 200, description: 'Номер заказа, e-mail покупателя, название компании или ИНН' }),
  ),
  from: Type.Optional(Day),
  to: Type.Optional(Day),
  sort: Defaulted(Type.Enum(ADMIN_ORDER_SORTS, { default: 'created_at_desc' })),
  mine: Type.Optional(Type.Boolean({ description: 'Только заказы компаний, которые ведёт спрашивающий менеджер' })),
  ...PageQuery.properties,
});

export const AdminOrderListItemSchema = Type.Object({
  id: Type.Integer(),
  created_at: Type.String({ format: 'date-time' }),
  status: Status,
  total_price: Type.Number(),
  items_count: Type.Integer({ description: 'Всего единиц товара в заказе' }),
  user_email: Type.String({ description: 'E-mail покупателя; «удалено», когда покупатель удалил аккаунт' }),
  company_name: NullableText,
  company_inn: NullableText,
});

export const AdminOrderListSchema = Type.Object({
  items: Type.Array(AdminOrderListItemSchema),
  total: Type.Integer(),
});

export const StatusHistoryEntrySchema = Type.Object({
  at: Type.String({ format: 'date-time' }),
  from: Status,
  to: Status,
  by: Nullable(
    Type.Object({ id: Type.Integer(), email: Type.String() }, { description: 'null — из командной строки' }),
  ),
  comment: NullableText,
  reason: Type.Optional(
    Type.String({ description: 'Почему магазин сам сменил статус (например, истёк срок резерва); by — null' }),
  ),
  tracking: Type.Optional(TrackingSchema),
});

/** The buyer as the back office shows one: whether the limits of an unproven buyer fall on the account. */
function AdminBuyerSchema() {
  return Type.Object({
    id: Type.Integer(),
    email: Type.String(),
    trusted: Type.Boolean({ description: 'Менеджер отметил покупателя как проверенного' }),
    has_paid_order: Type.Boolean({ description: 'У покупателя есть оплаченный заказ' }),
  });
}

export const AdminBuyerAnswer = AdminBuyerSchema();

/** PUT /api/v1/admin/buyers/{id}/trusted. */
export const AdminBuyerTrustBody = Type.Object({
  trusted: Type.Boolean({
    description:
      'true — покупатель проверен: заказывает любое количество в пределах остатка, до MAX_UNPAID_ORDERS_TRUSTED неоплаченных заказов',
  }),
});

export const AdminOrderSchema = Type.Object({
  id: Type.Integer(),
  created_at: Type.String({ format: 'date-time' }),
  status: Status,
  total_price: Type.Number(),
  lines: Type.Array(OrderLineSchema),
  contact_name: NullableText,
  contact_phone: NullableText,
  address: Type.String(),
  company_name: NullableText,
  company_inn: NullableText,
  company_kpp: NullableText,
  user: Nullable(AdminBuyerSchema(), {
    description: 'Покупатель; null, когда он удалил аккаунт (заказ остаётся обезличенным)',
  }),
  history: Type.Array(StatusHistoryEntrySchema),
  next_statuses: Type.Array(Status, {
    description:
      'Статусы, в которые менеджер может перевести заказ (кроме «Ожидает оплаты»: его ставит выставление счёта)',
  }),
  invoice: Nullable(InvoiceRefSchema, { description: 'Счёт, когда он выставлен' }),
  company: Nullable(Type.Object({ id: Type.Integer(), name: Type.String() }), {
    description: 'Компания покупателя; null, когда она распущена',
  }),
  placed_by: Nullable(Type.String(), { description: 'Кто из сотрудников компании оформил заказ' }),
  one_c: Nullable(OneCDocumentSchema, { description: 'Заказ по данным 1С, когда он отличается от оформленного' }),
});

export const AdminStatusChangeBody = Type.Object({
  status: Status,
  comment: Type.Optional(
    Type.String({ maxLength: 1000, description: 'Видит покупатель: в истории заказа и в письме' }),
  ),
  carrier: Type.Optional(CarrierName),
  tracking_number: Type.Optional(TrackingNumber),
});
