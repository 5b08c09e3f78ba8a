import { Type } from 'typebox';
import {
  AdminOrderListSchema,
  AdminOrderSchema,
  AdminOrdersQuery,
  AdminStatusChangeBody,
} from '../../../shared/schemas/admin';
import { Id } from '../../../shared/schemas/common';
import { InvoiceRefSchema, OrderStatusSchema } from '../../../shared/schemas/order';
import { SupplierRequisitesAnswer, SupplierRequisitesBody } from '../../../shared/schemas/settings';
import { bearer, errors } from '../common-schemas';

const OrderParams = Type.Object({ id: Id });

export const listOrders = {
  tags: ['admin'],
  summary: 'Заказы для менеджеров: фильтр, поиск, сортировка, страницы',
  security: bearer,
  querystring: AdminOrdersQuery,
  response: { 200: AdminOrderListSchema, ...errors(401, 403, 422) },
};

export const getOrder = {
  tags: ['admin'],
  summary: 'Заказ целиком: строки, покупатель, реквизиты, история статусов',
  security: bearer,
  params: OrderParams,
  response: { 200: AdminOrderSchema, ...errors(401, 403, 404, 422) },
};

export const changeStatus = {
  tags: ['admin'],
  summary: 'Перевести заказ в следующий статус; отмена возвращает товар на склад',
  security: bearer,
  params: OrderParams,
  body: AdminStatusChangeBody,
  response: { 200: OrderStatusSchema, ...errors(401, 403, 404, 409, 422) },
};

export const issueInvoice = {
  tags: ['admin'],
  summary: 'Выставить счёт: номер по порядку в году, заказ переходит в «Ожидает оплаты»',
  security: bearer,
  params: OrderParams,
  response: { 201: InvoiceRefSchema, ...errors(401, 403, 404, 409, 422) },
};

export const getSupplierRequisites = {
  tags: ['admin'],
  summary: 'Реквизиты продавца для счетов; null — ещё не заполнены',
  security: bearer,
  response: { 200: SupplierRequisitesAnswer, ...errors(401, 403) },
};

export const putSupplierRequisites = {
  tags: ['admin'],
  summary: 'Сохранить реквизиты продавца (ИНН, ОГРН, БИК и счета проверяются по контрольным числам)',
  security: bearer,
  body: SupplierRequisitesBody,
  response: { 200: SupplierRequisitesBody, ...errors(401, 403, 422) },
};
