import { Type } from 'typebox';
import { LIMITS, ORDER_STATUSES } from '../../../shared/api';
import { bearer, errors, Id, Nullable } from '../common-schemas';

const OptionalText = (maxLength: number) => Type.Optional(Nullable(Type.String({ maxLength })));
const Status = Type.Enum(ORDER_STATUSES);

const OrderSummarySchema = Type.Object({
  id: Type.Integer(),
  total_price: Type.Number(),
  status: Status,
  created_at: Type.String({ format: 'date-time' }),
  items_count: Type.Integer({ description: 'Всего единиц товара в заказе' }),
});

const StatusSchema = Type.Object({ id: Type.Integer(), status: Status });

export const placeOrder = {
  tags: ['order'],
  summary: 'Оформить заказ: цены берутся из базы, остатки списываются в той же транзакции',
  security: bearer,
  headers: Type.Object({
    'idempotency-key': Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, pattern: '^[\\x21-\\x7E]+$', description: 'Повтор с тем же ключом вернёт тот же заказ' }),
    ),
  }),
  body: Type.Object({
    user_id: Id,
    address: Type.String({ maxLength: LIMITS.addressMax }),
    items: Type.Array(
      Type.Object({ product_id: Id, variant_id: Id, quantity: Type.Integer({ minimum: LIMITS.minQuantity, maximum: 1_000_000 }) }),
      { minItems: 1, maxItems: 1000 },
    ),
    company_name: OptionalText(LIMITS.companyNameMax),
    company_inn: OptionalText(100),
    company_kpp: OptionalText(100),
    contact_name: OptionalText(LIMITS.nameMax),
    contact_phone: OptionalText(LIMITS.nameMax),
  }),
  response: { 201: OrderSummarySchema, ...errors(401, 403, 409, 422) },
};

export const listOrders = {
  tags: ['order'],
  summary: 'Заказы пользователя, новые первыми',
  security: bearer,
  params: Type.Object({ user_id: Id }),
  response: { 200: Type.Array(OrderSummarySchema), ...errors(401, 403, 422) },
};

export const cancelOrder = {
  tags: ['order'],
  summary: 'Отменить заказ, пока он не отправлен; товар возвращается на склад',
  security: bearer,
  params: Type.Object({ id: Id }),
  response: { 200: StatusSchema, ...errors(401, 404, 409, 422) },
};

export const orderStatus = {
  tags: ['order'],
  summary: 'Статус заказа',
  security: bearer,
  params: Type.Object({ id: Id }),
  response: { 200: StatusSchema, ...errors(401, 404, 422) },
};
