import { Type } from 'typebox';
import { LIMITS } from '../../../shared/api';
import { errors, Nullable, PageQuery } from '../common-schemas';

export const VariantSchema = Type.Object({
  id: Type.Integer(),
  color: Type.String(),
  size: Type.Number({ description: 'Размер, см' }),
  price: Type.Number({ description: 'Цена, ₽' }),
  stock: Type.Integer({ description: 'Остаток, шт.' }),
});

export const ProductSchema = Type.Object({
  id: Type.Integer(),
  art: Type.String({ description: 'Артикул' }),
  name: Type.String(),
  description: Nullable(Type.String()),
  big_description: Nullable(Type.String()),
  image: Type.String({ description: 'Имя файла для GET /api/v1/image/{name}' }),
  variants: Type.Array(VariantSchema, { description: 'По возрастанию размера' }),
});

const ProductList = Type.Array(ProductSchema);

export const listProducts = {
  tags: ['products'],
  summary: 'Все товары',
  querystring: PageQuery,
  response: { 200: ProductList, ...errors(422) },
};

export const popularProducts = {
  tags: ['products'],
  summary: 'Популярные товары: больше всего заказанных, затем выбор магазина',
  querystring: PageQuery,
  response: { 200: ProductList, ...errors(422) },
};

export const categoryNames = {
  tags: ['products'],
  summary: 'Названия категорий',
  response: { 200: Type.Array(Type.String()) },
};

export const productsInCategory = {
  tags: ['products'],
  summary: 'Товары категории',
  params: Type.Object({ category: Type.String({ minLength: 1, maxLength: 200 }) }),
  querystring: PageQuery,
  response: { 200: ProductList, ...errors(404, 422) },
};

export const productByArt = {
  tags: ['products'],
  summary: 'Товар по артикулу, с вариантами',
  params: Type.Object({ art: Type.String({ minLength: 1, maxLength: LIMITS.artMax }) }),
  response: { 200: ProductSchema, ...errors(404, 422) },
};
