import { Type } from 'typebox';
import { AdminProductSchema, AdminVariantSchema, EntityParams } from '../../../shared/schemas/admin-catalogue';
import {
  PriceTypeBody,
  PriceTypeListSchema,
  PriceTypeParams,
  PriceTypePatchBody,
  PriceTypeSchema,
  ProductPricesBody,
  StorefrontSettingsSchema,
  VariantPricesBody,
} from '../../../shared/schemas/price-types';
import { errors, managersOnly } from '../common-schemas';

export const listPriceTypes = managersOnly({
  summary: 'Типы цен: по умолчанию, РРЦ, минимальная сумма заказа, сколько компаний покупают по каждому',
  response: { 200: PriceTypeListSchema },
});

export const createPriceType = managersOnly({
  summary: 'Новый тип цен (is_default — сделать типом по умолчанию: цены прежнего остаются его собственными)',
  body: PriceTypeBody,
  response: { 201: PriceTypeSchema, ...errors(409, 422) },
});

export const updatePriceType = managersOnly({
  summary: 'Переименовать тип цен, задать минимальную сумму заказа, сделать типом по умолчанию или РРЦ',
  params: PriceTypeParams,
  body: PriceTypePatchBody,
  response: { 200: PriceTypeSchema, ...errors(404, 409, 422) },
});

export const deletePriceType = managersOnly({
  summary: 'Удалить тип цен с его ценами (тип по умолчанию и назначенный компаниям — 409)',
  params: PriceTypeParams,
  response: { 204: Type.Null({ description: 'Удалено' }), ...errors(404, 409) },
});

export const putVariantPrices = managersOnly({
  summary: 'Цены варианта по типам цен и его цены по количеству (названные типы; остальные как были)',
  params: EntityParams,
  body: VariantPricesBody,
  response: { 200: AdminVariantSchema, ...errors(404, 422) },
});

export const putProductPrices = managersOnly({
  summary: 'Цены по количеству товара по типам цен: количество считается по всем его вариантам в корзине',
  params: EntityParams,
  body: ProductPricesBody,
  response: { 200: AdminProductSchema, ...errors(404, 422) },
});

export const getStorefrontSettings = managersOnly({
  summary: 'Настройки витрины: показывать ли цены гостям',
  response: { 200: StorefrontSettingsSchema },
});

export const putStorefrontSettings = managersOnly({
  summary: 'Показывать цены гостям (false — только после входа: в API, на странице и в фидах)',
  body: StorefrontSettingsSchema,
  response: { 200: StorefrontSettingsSchema },
});
