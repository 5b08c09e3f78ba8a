import { Type } from 'typebox';
import { CATALOGUE_LIMITS } from '../catalogue';
import { MAX_TIERS } from '../pricing';
import { Id, Nullable } from './common';
import { PriceTierSchema } from './products';

// The back office's wholesale prices: the supplier's price types (/api/v1/admin/price-types), a
// variant's and a product's prices per type, and the storefront's «цены только после входа».
// Prices, tiers and packaging are checked by src/shared/pricing.ts, whose messages are Russian.

export const PRICE_TYPE_NAME_MAX = 100;

const MinOrderSum = Type.Number({
  minimum: 0,
  maximum: CATALOGUE_LIMITS.priceMax,
  description: 'Минимальная сумма заказа, ₽; 0 — без минимума',
});

export const PriceTypeSchema = Type.Object({
  id: Type.Integer(),
  code: Type.String({
    description: 'Постоянный код типа: не меняется при переименовании (заголовки прайс-листа, обмен с 1С)',
  }),
  name: Type.String(),
  is_default: Type.Boolean({ description: 'Для гостей и компаний без назначенного типа' }),
  is_rrp: Type.Boolean({ description: 'Рекомендованная розничная: не продаётся и не назначается компаниям' }),
  min_order_sum: Type.Number({ description: 'Минимальная сумма заказа, ₽; 0 — без минимума' }),
  companies_count: Type.Integer({ description: 'Сколько компаний покупают по этому типу (назначен явно)' }),
});

export const PriceTypeListSchema = Type.Array(PriceTypeSchema);

export const PriceTypeBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: PRICE_TYPE_NAME_MAX }),
  is_default: Type.Optional(Type.Boolean()),
  is_rrp: Type.Optional(Type.Boolean()),
  min_order_sum: Type.Optional(MinOrderSum),
});

export const PriceTypePatchBody = Type.Partial(PriceTypeBody, { minProperties: 1 });

const Tiers = Type.Array(PriceTierSchema, { maxItems: MAX_TIERS, description: 'По возрастанию from' });

/** PUT /api/v1/admin/variants/{id}/prices: the variant's price and tiers in each type named (others as they were). */
export const VariantPricesBody = Type.Array(
  Type.Object({
    price_type_id: Id,
    price: Nullable(Type.Number({ minimum: 0, maximum: CATALOGUE_LIMITS.priceMax, description: 'Цена за штуку, ₽' }), {
      description:
        'null — цены этого типа у варианта нет (берётся цена типа по умолчанию); у типа по умолчанию не бывает',
    }),
    tiers: Type.Optional(Tiers),
  }),
  { maxItems: 100 },
);

/** PUT /api/v1/admin/products/{id}/prices: the product's tiers per type, counted over all its variants. */
export const ProductPricesBody = Type.Array(Type.Object({ price_type_id: Id, tiers: Tiers }), { maxItems: 100 });

/** A variant's prices as the back office shows them: one per type that has one. */
export const VariantPriceSchema = Type.Object({
  price_type_id: Type.Integer(),
  price: Type.Number(),
  tiers: Type.Array(PriceTierSchema),
});

export const ProductTiersSchema = Type.Object({ price_type_id: Type.Integer(), tiers: Type.Array(PriceTierSchema) });

export const StorefrontSettingsSchema = Type.Object({
  prices_for_visitors: Type.Boolean({
    description: 'false — цены показываются только после входа (в API, на странице, в фидах)',
  }),
});

export const PriceTypeParams = Type.Object({ id: Id });
