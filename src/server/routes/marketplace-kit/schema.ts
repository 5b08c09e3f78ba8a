import { Type } from 'typebox';
import { Id } from '../../../shared/schemas/common';
import {
  DownloadLinkBody,
  DownloadLinkQuery,
  DownloadLinkSchema,
  KitSelectionBody,
  KitSelectionQuery,
} from '../../../shared/schemas/marketplace-kit';
import { bearer, errors, fileAnswer } from '../common-schemas';

const kitAnswer = fileAnswer(
  'ZIP: карточки.xlsx (листы Ozon и Wildberries), фото/ (JPEG 3:4), документы/ (PDF), README.txt; ' +
    'имя файла — в Content-Disposition',
  ['application/zip'],
);

const tags = ['marketplace-kit'];

export const orderKit = {
  tags,
  summary:
    'Карточки для маркетплейсов по заказу компании (ZIP); 404 для чужого заказа, 422 — в заказе больше 300 товаров, ' +
    '503 с Retry-After — сервер уже собирает другие наборы',
  security: bearer,
  params: Type.Object({ user_id: Id, id: Id }),
  querystring: DownloadLinkQuery,
  response: { 200: kitAnswer, ...errors(401, 403, 404, 422) },
};

export const cartKit = {
  tags,
  summary:
    'Карточки для маркетплейсов по товарам корзины (ZIP); 422 — корзина пуста или в ней больше 300 товаров, ' +
    '503 с Retry-After — сервер уже собирает другие наборы',
  security: bearer,
  params: Type.Object({ user_id: Id }),
  querystring: DownloadLinkQuery,
  response: { 200: kitAnswer, ...errors(401, 403, 422) },
};

export const selectionKit = {
  tags,
  summary: 'Карточки для маркетплейсов по выбранным товарам (до 300); 422 называет неизвестные и скрытые id',
  security: bearer,
  body: KitSelectionBody,
  response: { 200: kitAnswer, ...errors(401, 403, 422) },
};

export const selectionKitByLink = {
  tags,
  summary: 'То же по ссылке для скачивания: id товаров через запятую',
  security: bearer,
  querystring: KitSelectionQuery,
  response: { 200: kitAnswer, ...errors(401, 403, 422) },
};

export const downloadLink = {
  tags,
  summary:
    'Ссылка для скачивания браузером (без заголовка Authorization), на 90 секунд, только для путей наборов карточек; 422 — путь не из их числа',
  security: bearer,
  body: DownloadLinkBody,
  response: { 200: DownloadLinkSchema, ...errors(401, 422) },
};
