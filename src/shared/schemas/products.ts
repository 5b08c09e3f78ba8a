import { Type } from 'typebox';
import { LIMITS, ORDER_MAX_LINES } from '../limits';
import { CATALOGUE_LIMITS } from '../catalogue';
import { CATALOGUE_SORTS } from '../catalogue-sorts';
import { Nullable, PageQuery } from './common';

/** What the storefront needs to say an unproven buyer's pool before checkout (shared/order-limits.ts). */
export const UnprovenHeld = Type.Integer({
  description: 'Сколько штук сверх остатка держат неоплаченные заказы покупателей без оплаченных заказов',
});

export const VariantSchema = Type.Object({
  id: Type.Integer(),
  color: Type.String(),
  size: Type.Number({ description: 'Размер, см' }),
  price: Type.Number({ description: 'Цена, ₽' }),
  stock: Type.Integer({ description: 'Остаток, шт.' }),
  unproven_held: UnprovenHeld,
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

export const CategoryParams = Type.Object({
  category: Type.String({ minLength: 1, maxLength: CATALOGUE_LIMITS.categoryNameMax }),
});

const Size = (description: string) => Type.Integer({ minimum: 0, maximum: CATALOGUE_LIMITS.sizeMax, description });
const Price = (description: string) => Type.Number({ minimum: 0, maximum: CATALOGUE_LIMITS.priceMax, description });

/**
 * A category page's optional filters and order. A product is listed when at least one of its
 * variants passes every variant filter at once; none given, the page is SPEC's (by id).
 */
export const CatalogueFiltersQuery = Type.Object({
  sort: Type.Optional(
    Type.Enum(CATALOGUE_SORTS, {
      description:
        'price_asc, price_desc: по наименьшей цене подходящих вариантов; name: по названию; new: новые первыми',
    }),
  ),
  color: Type.Optional(
    Type.String({ minLength: 1, maxLength: CATALOGUE_LIMITS.colorMax, description: 'Цвет варианта' }),
  ),
  size_min: Type.Optional(Size('Размер от, см')),
  size_max: Type.Optional(Size('Размер до, см')),
  price_min: Type.Optional(Price('Цена от, ₽')),
  price_max: Type.Optional(Price('Цена до, ₽')),
  in_stock: Type.Optional(Type.Boolean({ description: 'true: только варианты с остатком' })),
});

export const CategoryProductsQuery = Type.Object({ ...PageQuery.properties, ...CatalogueFiltersQuery.properties });

export const SearchQuery = Type.Object({
  q: Type.String({
    maxLength: LIMITS.searchQueryMax,
    description: 'Слова названия или описания, артикул или его начало',
  }),
  ...PageQuery.properties,
});

export const ArtParams = Type.Object({ art: Type.String({ minLength: 1, maxLength: LIMITS.artMax }) });

/** Products by their articles, in one request (the checkout's lines): as many as one order may have. */
export const ArtsBody = Type.Object({
  arts: Type.Array(Type.String({ minLength: 1, maxLength: LIMITS.artMax }), { minItems: 1, maxItems: ORDER_MAX_LINES }),
});

export const BannerSchema = Type.Object({ id: Type.Integer(), image: Type.String(), url: Nullable(Type.String()) });
