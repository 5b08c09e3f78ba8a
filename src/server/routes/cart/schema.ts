import { Type } from 'typebox';
import {
  CartAddBody,
  CartAdded,
  CartBulkBody,
  CartCountConflictSchema,
  CartCountQuery,
  CartSchema,
} from '../../../shared/schemas/cart';
import { CART_BULK_MAX_LINES, LIMITS } from '../../../shared/api';
import { DetailSchema, Id } from '../../../shared/schemas/common';
import { bearer, errors } from '../common-schemas';

export const getCart = {
  tags: ['cart'],
  summary: 'Корзина пользователя (строки в порядке добавления)',
  security: bearer,
  params: Type.Object({ user_id: Id }),
  response: { 200: CartSchema, ...errors(401, 403, 422) },
};

export const setCount = {
  tags: ['cart'],
  summary: 'Изменить количество в строке корзины (от 1 до 10 000; меньше 1 — удалите строку)',
  description:
    'С `expected` изменение условное: если в строке уже другое количество (её изменили в другой вкладке), ' +
    'ничего не меняется и ответ 409 содержит строку, как она есть сейчас.',
  security: bearer,
  querystring: CartCountQuery,
  response: { 200: DetailSchema, 409: CartCountConflictSchema, ...errors(401, 404, 422) },
};

export const addToCart = {
  tags: ['cart'],
  summary: 'Добавить вариант товара в корзину (тот же вариант складывается в одну строку)',
  security: bearer,
  body: CartAddBody,
  response: { 201: CartAdded, ...errors(401, 403, 409, 422) },
};

export const addManyToCart = {
  tags: ['cart'],
  summary: `Добавить в корзину несколько вариантов сразу (от 1 до ${CART_BULK_MAX_LINES} строк), всё или ничего`,
  description:
    `Вариант, который уже в корзине, прибавляется к своей строке (не больше ${LIMITS.maxCartCount} шт. в строке). ` +
    'Каждый вариант указывается один раз. Если хоть одна строка не подходит (нет такого варианта у товара, ' +
    'товар снят с продажи или его нет в наличии, повтор, превышен предел), корзина не меняется, ' +
    'а ответ называет строку: «Строка 3: …». Ответ — корзина целиком, как GET /api/v1/cart/{user_id}.',
  security: bearer,
  body: CartBulkBody,
  response: { 200: CartSchema, ...errors(401, 403, 409, 422) },
};

export const removeItem = {
  tags: ['cart'],
  summary: 'Удалить строку корзины',
  security: bearer,
  params: Type.Object({ item_id: Id }),
  response: { 200: DetailSchema, ...errors(401, 404, 422) },
};
