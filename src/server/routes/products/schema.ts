import { Type } from 'typebox';
import { PageQuery } from '../../../shared/schemas/common';
import {
  ArtParams,
  ArtsBody,
  CategoryParams,
  CategoryProductsQuery,
  ProductPageSchema,
  ProductSchema,
  SearchQuery,
} from '../../../shared/schemas/products';
import { SEARCH_READ_AS_HEADER } from '../../../shared/search';
import { errors } from '../common-schemas';

const ProductList = Type.Array(ProductSchema);

// The priced reads answer a visitor in the visitors' prices and a signed-in buyer in their company's;
// a bearer token no longer valid is 401 (the storefront renews the session and asks again).

export const listProducts = {
  tags: ['products'],
  summary: 'Все товары',
  querystring: PageQuery,
  response: { 200: ProductList, ...errors(401, 422) },
};

export const popularProducts = {
  tags: ['products'],
  summary: 'Популярные товары: больше всего заказанных, затем выбор магазина',
  querystring: PageQuery,
  response: { 200: ProductList, ...errors(401, 422) },
};

export const categoryNames = {
  tags: ['products'],
  summary: 'Названия категорий',
  response: { 200: Type.Array(Type.String()) },
};

export const productsInCategory = {
  tags: ['products'],
  summary: 'Товары категории, с фильтрами и сортировкой',
  description:
    'Без фильтров и sort — по id. Товар попадает в ответ, когда хотя бы один его вариант подходит под все фильтры ' +
    'вариантов сразу (цвет, размер, цена, наличие); в ответе все его варианты.',
  params: CategoryParams,
  querystring: CategoryProductsQuery,
  response: { 200: ProductList, ...errors(401, 404, 422) },
};

export const categoryColors = {
  tags: ['products'],
  summary: 'Цвета вариантов товаров категории (для фильтра), по алфавиту',
  params: CategoryParams,
  response: { 200: Type.Array(Type.String()), ...errors(404, 422) },
};

export const searchProducts = {
  tags: ['products'],
  summary:
    'Поиск: по артикулу (точно или по началу), по словам названия и описания в любой форме, с опечаткой в названии',
  description: 'Сначала совпадения артикула, затем названия, затем описания.',
  querystring: SearchQuery,
  response: {
    200: Type.Array(ProductSchema, {
      headers: {
        [SEARCH_READ_AS_HEADER]: {
          type: 'string',
          description:
            'Только когда по запросу, как он набран, ничего не нашлось и он прочитан в другой раскладке клавиатуры: что искали вместо него (например, «мишка» вместо «vbirf»), в кодировке URL',
        },
      },
    }),
    ...errors(401, 422),
  },
};

export const productsByArts = {
  tags: ['products'],
  summary: 'Товары по списку артикулов, с вариантами, одним запросом',
  description: 'Артикулы, которых нет в продаже, пропускаются. POST: список может быть длиннее, чем позволяет адрес.',
  body: ArtsBody,
  response: { 200: ProductList, ...errors(401, 422) },
};

export const productByArt = {
  tags: ['products'],
  summary: 'Товар по артикулу, с вариантами, фото по цветам и характеристиками для карточек маркетплейсов',
  params: ArtParams,
  response: { 200: ProductPageSchema, ...errors(401, 404, 422) },
};
