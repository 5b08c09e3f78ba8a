import { Type } from 'typebox';
import {
  AdminOrderListSchema,
  AdminOrderSchema,
  AdminOrdersQuery,
  AdminStatusChangeBody,
} from '../../../shared/schemas/admin';
import { Id } from '../../../shared/schemas/common';
import { OrderStatusSchema } from '../../../shared/schemas/order';
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
