import { Type } from 'typebox';
import {
  AdminBuyerAnswer,
  AdminBuyerTrustBody,
  AdminOrderListSchema,
  AdminOrderSchema,
  AdminOrdersQuery,
  AdminStatusChangeBody,
} from '../../../shared/schemas/admin';
import { Id } from '../../../shared/schemas/common';
import { InvoiceRefSchema, OrderStatusSchema } from '../../../shared/schemas/order';
import { SupplierRequisitesAnswer, SupplierRequisitesBody } from '../../../shared/schemas/settings';
import { errors, managersOnly } from '../common-schemas';

const OrderParams = Type.Object({ id: Id });

export const listOrders = managersOnly({
  summary: 'Заказы для менеджеров: фильтр, поиск, сортировка, страницы',
  querystring: AdminOrdersQuery,
  response: { 200: AdminOrderListSchema, ...errors(422) },
});

export const getOrder = managersOnly({
  summary: 'Заказ целиком: строки, покупатель, реквизиты, история статусов',
  params: OrderParams,
  response: { 200: AdminOrderSchema, ...errors(404, 422) },
});

export const changeStatus = managersOnly({
  summary: 'Перевести заказ в следующий статус; отмена возвращает товар на склад',
  params: OrderParams,
  body: AdminStatusChangeBody,
  response: { 200: OrderStatusSchema, ...errors(404, 409, 422) },
});

export const issueInvoice = managersOnly({
  summary: 'Выставить счёт: номер по порядку в году, заказ переходит в «Ожидает оплаты»',
  params: OrderParams,
  response: { 201: InvoiceRefSchema, ...errors(404, 409, 422) },
});

export const getSupplierRequisites = managersOnly({
  summary: 'Реквизиты продавца для счетов; null — ещё не заполнены',
  response: { 200: SupplierRequisitesAnswer },
});

export const putSupplierRequisites = managersOnly({
  summary: 'Сохранить реквизиты продавца (ИНН, ОГРН, БИК и счета проверяются по контрольным числам)',
  body: SupplierRequisitesBody,
  response: { 200: SupplierRequisitesBody, ...errors(422) },
});

export const setBuyerTrusted = managersOnly({
  summary: 'Отметить покупателя как проверенного (или снять отметку); записывается в журнал',
  description:
    'Проверенный покупатель, как и покупатель с оплаченным заказом, заказывает любое количество в пределах остатка ' +
    'и держит до MAX_UNPAID_ORDERS_TRUSTED неоплаченных заказов. Уже оформленные заказы остаются на прежних условиях.',
  params: Type.Object({ id: Id }),
  body: AdminBuyerTrustBody,
  response: { 200: AdminBuyerAnswer, ...errors(404, 422) },
});
