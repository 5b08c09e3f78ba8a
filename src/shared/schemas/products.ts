import { Type } from 'typebox';
import { LIMITS, ORDER_MAX_LINES } from '../limits';
import { CATALOGUE_LIMITS } from '../catalogue';
import { CATALOGUE_SORTS } from '../catalogue-sorts';
import { Nullable, PageQuery } from './common';
import { CONFORMITY_DOCUMENT_KINDS } from '../product-card';

/** What the storefront needs to say an unproven buyer's pool before checkout (shared/order-limits.ts). */
export const UnprovenHeld = Type.Integer({
  description: 'Сколько штук сверх остатка держат неоплаченные заказы покупателей без оплаченных заказов',
});

/** A price break: from `from` pieces, `price` ₽ a piece (src/shared/pricing.ts). */
export const PriceTierSchema = Type.Object({
  from: Type.Integer({ minimum: 2, maximum: LIMITS.maxCartCount, description: 'От скольки штук' }),
  price: Type.Number({ minimum: 0, maximum: CATALOGUE_LIMITS.priceMax, description: 'Цена за штуку, ₽' }),
});

export const TIER_SCOPES = ['product', 'variant'] as const;

export const VariantSchema = Type.Object({
  id: Type.Integer(),
  color: Type.String(),
  size: Type.Number({ description: 'Размер, см' }),
  price: Nullable(
    Type.Number({
      description: 'Цена за штуку для того, кто спрашивает: по типу цен его компании, гостю — по типу цен по умолчанию',
    }),
    { description: 'null — цены показываются только после входа' },
  ),
  tiers: Type.Array(PriceTierSchema, {
    description: 'Цены по количеству, по возрастанию from; пусто — нет (и когда цены скрыты)',
  }),
  tiers_scope: Type.Enum(TIER_SCOPES, {
    description:
      'product — количество считается по всем цветам и размерам модели в корзине вместе; variant — по строке',
  }),
  rrp: Nullable(Type.Number({ description: 'Рекомендованная розничная цена, ₽' })),
  stock: Type.Integer({ description: 'Остаток, шт.' }),
  unproven_held: UnprovenHeld,
});

/** Sold in multiples of `multiple` pieces, at least `min_quantity` in a line (1 and 1: any count). */
export const PackagingFields = {
  multiple: Type.Integer({ minimum: 1, description: 'Кратность: продаётся упаковками по столько штук' }),
  min_quantity: Type.Integer({ minimum: 1, description: 'Минимум штук в строке заказа (кратен кратности)' }),
};

export const ProductSchema = Type.Object({
  id: Type.Integer(),
  art: Type.String({ description: 'Артикул' }),
  name: Type.String(),
  description: Nullable(Type.String()),
  big_description: Nullable(Type.String()),
  image: Type.String({ description: 'Имя файла для GET /api/v1/image/{name}' }),
  ...PackagingFields,
  variants: Type.Array(VariantSchema, { description: 'По возрастанию размера' }),
});

/** A variant's package, in centimetres (one decimal). */
export const PackageSchema = Type.Object({
  length_cm: Type.Number(),
  width_cm: Type.Number(),
  height_cm: Type.Number(),
});

/** What a marketplace card needs of a variant, on its product's page (issue 41). */
export const VariantCardSchema = Type.Object({
  ...VariantSchema.properties,
  barcode: Nullable(Type.String({ description: 'GTIN (EAN-13): внутренние коды 1С не показываются' })),
  marked: Type.Boolean({ description: 'Подлежит маркировке «Честный знак»' }),
  package: Nullable(PackageSchema, { description: 'Упаковка: длина, ширина, высота, см' }),
  weight_g: Nullable(Type.Integer({ description: 'Вес в упаковке, г' })),
});

export const ConformityDocumentSummarySchema = Type.Object({
  kind: Type.Enum(CONFORMITY_DOCUMENT_KINDS, { description: 'certificate — сертификат, declaration — декларация' }),
  regulation: Type.String({ description: 'Технический регламент, например ТР ТС 008/2011' }),
  number: Type.String(),
  valid_from: Type.String({ format: 'date' }),
  valid_to: Type.String({ format: 'date' }),
});

export const PhotoSetSchema = Type.Object({
  color: Nullable(Type.String(), { description: 'null — фото товара в целом, иначе фото вариантов этого цвета' }),
  images: Type.Array(Type.String(), { description: 'Имена для GET /api/v1/image/{name}; первое — обложка' }),
});

/** The product page's answer: the product with its photos per colour and its characteristics. */
export const ProductPageSchema = Type.Object({
  ...ProductSchema.properties,
  variants: Type.Array(VariantCardSchema, { description: 'По возрастанию размера' }),
  photos: Type.Array(PhotoSetSchema, {
    description: 'Фото товара (color null) первыми, затем по цветам; никогда не пусто: хотя бы image',
  }),
  brand: Nullable(Type.String()),
  material: Nullable(Type.String()),
  filler: Nullable(Type.String({ description: 'Наполнитель' })),
  age_from: Nullable(Type.Integer({ description: 'Возраст от, лет' })),
  country_of_origin: Nullable(Type.String()),
  tnved: Nullable(Type.String({ description: 'Код ТН ВЭД ЕАЭС, 10 цифр' })),
  conformity_document: Nullable(ConformityDocumentSummarySchema),
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
