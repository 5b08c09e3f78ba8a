import { Type } from 'typebox';
import {
  ExchangeAccountBody,
  ExchangeAccountParams,
  ExchangeAccountSchema,
  ExchangeExternalParams,
  ExchangeOverviewSchema,
  ExchangePriceTypeBody,
  ExchangePriceTypeSchema,
  ExchangeResendBody,
  ExchangeResendSchema,
  ExchangeRunFileParams,
  ExchangeRunListSchema,
  ExchangeRunsQuery,
  ExchangeSettingsSchema,
  ExchangeWarehouseBody,
  ExchangeWarehouseSchema,
} from '../../../shared/schemas/exchange';
import { DownloadLinkQuery } from '../../../shared/schemas/marketplace-kit';
import { errors, fileAnswer, managersOnly } from '../common-schemas';

export const overview = managersOnly({
  summary: 'Обмен с 1С: адрес для 1С, учётные записи обмена, настройки, типы цен и склады 1С, заказы к отправке',
  response: { 200: ExchangeOverviewSchema },
});

export const putSettings = managersOnly({
  summary: 'Настройки обмена: характеристики цвета и размера, товары 1С, которых нет в полной выгрузке',
  body: ExchangeSettingsSchema,
  response: { 200: ExchangeSettingsSchema, ...errors(422) },
});

export const grantAccount = managersOnly({
  summary: 'Разрешить обмен с 1С учётной записи (по e-mail); она входит в 1С своим паролем',
  body: ExchangeAccountBody,
  response: { 201: ExchangeAccountSchema, ...errors(404, 422) },
});

export const revokeAccount = managersOnly({
  summary: 'Запретить обмен с 1С учётной записи; её сеансы обмена заканчиваются сразу',
  params: ExchangeAccountParams,
  response: { 204: Type.Null({ description: 'Запрещено' }), ...errors(404) },
});

export const mapPriceType = managersOnly({
  summary: 'Какой тип цен магазина заполняет тип цен 1С (null — не загружать) со следующей выгрузки цен',
  params: ExchangeExternalParams,
  body: ExchangePriceTypeBody,
  response: { 200: ExchangePriceTypeSchema, ...errors(404, 422) },
});

export const setWarehouse = managersOnly({
  summary: 'Учитывать ли склад 1С в остатке на сайте со следующей выгрузки остатков',
  params: ExchangeExternalParams,
  body: ExchangeWarehouseBody,
  response: { 200: ExchangeWarehouseSchema, ...errors(404, 422) },
});

export const runs = managersOnly({
  summary: 'Последние обмены, новые первыми: файлы, что создано, обновлено, скрыто, ошибки',
  querystring: ExchangeRunsQuery,
  response: { 200: ExchangeRunListSchema, ...errors(422) },
});

export const runFile = managersOnly({
  summary: 'Файл обмена (хранится EXCHANGE_FILES_KEEP_DAYS дней) для поддержки',
  params: ExchangeRunFileParams,
  querystring: DownloadLinkQuery,
  response: {
    200: fileAnswer('Файл как его прислала 1С; имя — в Content-Disposition', ['application/octet-stream']),
    ...errors(404, 422),
  },
});

export const resend = managersOnly({
  summary: 'Отправить выбранные заказы в 1С снова при следующем обмене',
  body: ExchangeResendBody,
  response: { 200: ExchangeResendSchema, ...errors(422) },
});
