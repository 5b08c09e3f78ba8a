import { Type } from 'typebox';
import { Id } from '../../../shared/schemas/common';
import {
  BuyerOrderSchema,
  IdempotencyHeaders,
  OrderCreateBody,
  OrderStatusSchema,
  OrderSummarySchema,
  BuyerOrdersQuery,
} from '../../../shared/schemas/order';
import { SPREADSHEET_CONTENT_TYPES } from '../../services/spreadsheet-file';
import { bearer, errors, fileAnswer } from '../common-schemas';

export const placeOrder = {
  tags: ['order'],
  summary:
    'Оформить заказ: цены берутся из базы, остатки списываются в той же транзакции; ' +
    '409 — неоплаченных заказов или заказов за сутки уже сколько можно, 422 — строка берёт больше своей доли остатка',
  description:
    '403 — адрес почты не подтверждён (REQUIRE_EMAIL_CONFIRMATION). Для покупателя без оплаченных заказов, ' +
    'которого менеджер не отметил проверенным: доля остатка на строку (422), общий резерв новых покупателей ' +
    'по варианту (UNPROVEN_STOCK_SHARE_PERCENT, 409 с адресом менеджера), MAX_UNPAID_ORDERS; для проверенного — ' +
    'только остаток и MAX_UNPAID_ORDERS_TRUSTED. Какие ограничения действуют, говорит GET /auth/user. ' +
    'Ограничения — компании: её неоплаченные заказы и заказы за сутки всех сотрудников вместе. ' +
    'legal_entity_id — юрлицо компании (404, если его нет у компании); его реквизиты заменяют company_*. ' +
    '403 — бухгалтер компании (заказы оформляют владелец и закупщики) или компания заблокирована магазином.',
  security: bearer,
  headers: IdempotencyHeaders,
  body: OrderCreateBody,
  response: { 201: OrderSummarySchema, ...errors(401, 403, 404, 409, 422) },
};

export const listOrders = {
  tags: ['order'],
  summary: 'Заказы компании пользователя, новые первыми, с тем, кто оформил каждый',
  description:
    'Фильтры: status, legal_entity_id, placed_by (id сотрудника); страница: skip и limit (без limit — все). ' +
    'Сколько заказов нашёл фильтр — в заголовке X-Total-Count.',
  security: bearer,
  params: Type.Object({ user_id: Id }),
  querystring: BuyerOrdersQuery,
  response: {
    200: Type.Array(OrderSummarySchema, {
      headers: { 'x-total-count': Type.Integer({ description: 'Сколько заказов нашёл фильтр' }) },
    }),
    ...errors(401, 403, 422),
  },
};

export const buyerOrder = {
  tags: ['order'],
  summary: 'Заказ покупателя целиком: строки, реквизиты, история статусов; 404 для чужого',
  security: bearer,
  params: Type.Object({ user_id: Id, id: Id }),
  response: { 200: BuyerOrderSchema, ...errors(401, 404, 422) },
};

export const orderSheet = {
  tags: ['order'],
  summary: 'Заказ покупателя таблицей Excel: шапка с реквизитами, строки и итог; 404 для чужого',
  security: bearer,
  params: Type.Object({ user_id: Id, id: Id }),
  response: {
    200: fileAnswer('XLSX «Заказ № N»; имя файла — в Content-Disposition', [SPREADSHEET_CONTENT_TYPES.xlsx]),
    ...errors(401, 404, 422),
  },
};

export const cancelOrder = {
  tags: ['order'],
  summary: 'Отменить заказ компании, пока он не отправлен; товар возвращается на склад (бухгалтер — 403)',
  security: bearer,
  params: Type.Object({ id: Id }),
  response: { 200: OrderStatusSchema, ...errors(401, 403, 404, 409, 422) },
};

export const orderStatus = {
  tags: ['order'],
  summary: 'Статус заказа',
  security: bearer,
  params: Type.Object({ id: Id }),
  response: { 200: OrderStatusSchema, ...errors(401, 404, 422) },
};

export const invoicePdf = {
  tags: ['order'],
  summary: 'Счёт на оплату заказа (PDF) — покупателю заказа и менеджерам; 404, пока счёт не выставлен',
  security: bearer,
  params: Type.Object({ id: Id }),
  response: {
    200: fileAnswer('PDF «Счёт на оплату № N от …»; имя файла — в Content-Disposition', ['application/pdf']),
    ...errors(401, 404, 422),
  },
};
