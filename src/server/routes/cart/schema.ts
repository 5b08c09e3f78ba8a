import { Type } from 'typebox';
import { LIMITS } from '../../../shared/api';
import { bearer, errors, Id, Nullable } from '../common-schemas';

const Count = Type.Integer({ minimum: LIMITS.minQuantity, maximum: LIMITS.maxCartCount });

const CartItemSchema = Type.Object({
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
  variant: Type.Object({ price: Type.Number() }),
  variant_id: Type.Integer(),
});

const CartSchema = Type.Object({ items: Type.Array(CartItemSchema), total_price: Type.Number() });
const Ok = Type.Object({ detail: Type.String() });

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
  security: bearer,
  querystring: Type.Object({ item_id: Id, count: Count }),
  response: { 200: Ok, ...errors(401, 404, 422) },
};

export const addToCart = {
  tags: ['cart'],
  summary: 'Добавить вариант товара в корзину (тот же вариант складывается в одну строку)',
  security: bearer,
  body: Type.Object({ user_id: Id, product_id: Id, variant_id: Id, count: Count }),
  response: { 201: Type.Object({ id: Type.Integer(), detail: Type.String() }), ...errors(401, 403, 409, 422) },
};

export const removeItem = {
  tags: ['cart'],
  summary: 'Удалить строку корзины',
  security: bearer,
  params: Type.Object({ item_id: Id }),
  response: { 200: Ok, ...errors(401, 404, 422) },
};
