import { Type } from 'typebox';
import { MISSING_PRODUCT_POLICIES } from '../exchange';
import { Id, Nullable, PageQuery } from './common';

// The back office's «Обмен с 1С» (/api/v1/admin/exchange): what to type into 1С, the accounts that
// may exchange, the mapping of 1С's price types and warehouses, the last exchanges with their files,
// and «send these orders again».

/** 1С's names of characteristics are short; a cap keeps the settings value small. */
export const CHARACTERISTIC_NAME_MAX = 100;
/** How many orders one «send again» takes. */
export const RESEND_MAX_ORDERS = 1000;
/** How many of a run's row errors the list shows (the rest are counted). */
export const RUN_ERRORS_SHOWN = 50;

const CharacteristicName = Type.String({ minLength: 1, maxLength: CHARACTERISTIC_NAME_MAX });

export const ExchangeSettingsSchema = Type.Object({
  color_characteristic: CharacteristicName,
  size_characteristic: CharacteristicName,
  missing_products: Type.Enum(MISSING_PRODUCT_POLICIES, {
    description: 'Товары 1С, которых нет в полной выгрузке: leave — оставить, hide — скрыть',
  }),
});

export const ExchangeAccountSchema = Type.Object({
  id: Type.Integer(),
  email: Type.String(),
  name: Nullable(Type.String()),
  is_manager: Type.Boolean({ description: 'У учётной записи есть и доступ в бэк-офис' }),
});

export const ExchangePriceTypeSchema = Type.Object({
  external_id: Type.String({ description: 'Ид типа цен в 1С' }),
  name: Type.String({ description: 'Как тип назван в 1С' }),
  price_type_id: Nullable(Type.Integer(), {
    description: 'Тип цен магазина, который он заполняет; null — не загружается',
  }),
  mapped_by_manager: Type.Boolean({ description: 'Сопоставлен менеджером (иначе — по совпадению названия)' }),
  last_seen_at: Type.String({ format: 'date-time' }),
});

export const ExchangeWarehouseSchema = Type.Object({
  external_id: Type.String({ description: 'Ид склада в 1С' }),
  name: Type.String(),
  used: Type.Boolean({ description: 'Остаток этого склада входит в остаток на сайте' }),
  last_seen_at: Type.String({ format: 'date-time' }),
});

export const ExchangeOverviewSchema = Type.Object({
  url: Type.String({ description: 'Адрес сайта для 1С (узел «Обмен с сайтами»)' }),
  file_limit: Type.Integer({ description: 'Наибольший файл (или часть файла) одного запроса, байт' }),
  files_keep_days: Type.Integer({ description: 'Сколько дней хранятся файлы обменов' }),
  allowed_ips: Type.Array(Type.String(), { description: 'С каких адресов можно обмениваться; пусто — с любых' }),
  accounts: Type.Array(ExchangeAccountSchema),
  settings: ExchangeSettingsSchema,
  price_types: Type.Array(ExchangePriceTypeSchema),
  warehouses: Type.Array(ExchangeWarehouseSchema),
  pending_orders: Type.Integer({ description: 'Заказы, которые уйдут в 1С при следующем обмене' }),
});

export const ExchangeAccountBody = Type.Object({ email: Type.String({ minLength: 3, maxLength: 254 }) });

export const ExchangeAccountParams = Type.Object({ id: Id });

export const ExchangeExternalParams = Type.Object({ external_id: Type.String({ minLength: 1, maxLength: 200 }) });

export const ExchangePriceTypeBody = Type.Object({
  price_type_id: Nullable(Id, { description: 'Тип цен магазина; null — не загружать этот тип' }),
});

export const ExchangeWarehouseBody = Type.Object({ used: Type.Boolean() });

export const ExchangeRunFileSchema = Type.Object({
  name: Type.String(),
  bytes: Type.Integer(),
  stage: Type.String({ description: 'received, staging, staged, applying, applied, failed' }),
  failure: Nullable(Type.String()),
});

export const ExchangeRunSchema = Type.Object({
  id: Type.String({ format: 'uuid' }),
  kind: Type.Union([Type.Literal('catalog'), Type.Literal('sale')]),
  status: Type.Union([
    Type.Literal('receiving'),
    Type.Literal('importing'),
    Type.Literal('done'),
    Type.Literal('failed'),
  ]),
  failure: Nullable(Type.String()),
  started_at: Type.String({ format: 'date-time' }),
  finished_at: Nullable(Type.String({ format: 'date-time' })),
  by_email: Nullable(Type.String()),
  files: Type.Array(ExchangeRunFileSchema),
  files_kept: Type.Boolean({ description: 'Файлы ещё хранятся и их можно скачать' }),
  categories_created: Type.Integer(),
  categories_updated: Type.Integer(),
  products_created: Type.Integer(),
  products_updated: Type.Integer(),
  products_hidden: Type.Integer(),
  products_linked_by_article: Type.Array(Type.String(), { description: 'Связаны по артикулу: «артикул → Ид»' }),
  variants_created: Type.Integer(),
  variants_updated: Type.Integer(),
  prices_set: Type.Integer(),
  variants_linked: Type.Integer({
    description: 'Варианты связанных по артикулу товаров, связанные по цвету и размеру',
  }),
  orders_sent: Type.Integer(),
  orders_updated: Type.Integer(),
  errors: Type.Array(Type.String(), { description: `Первые ${RUN_ERRORS_SHOWN} ошибок строк` }),
  errors_count: Type.Integer(),
});

export const ExchangeRunsQuery = PageQuery;

export const ExchangeRunListSchema = Type.Object({
  items: Type.Array(ExchangeRunSchema),
  total: Type.Integer(),
});

export const ExchangeRunFileParams = Type.Object({
  id: Type.String({ format: 'uuid' }),
  name: Type.String({ minLength: 1, maxLength: 255 }),
});

export const ExchangeResendBody = Type.Object({
  order_ids: Type.Array(Id, { minItems: 1, maxItems: RESEND_MAX_ORDERS }),
});

export const ExchangeResendSchema = Type.Object({
  resent: Type.Integer({ description: 'Сколько заказов уйдёт в 1С при следующем обмене' }),
  not_found: Type.Array(Type.Integer(), { description: 'Таких заказов нет' }),
});
