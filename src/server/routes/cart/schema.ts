import { Type } from 'typebox';
import {
  CartAddBody,
  CartAdded,
  CartBulkBody,
  CartCountConflictSchema,
  CartCountQuery,
  CartExportQuery,
  CartImportLineSchema,
  CartImportQuery,
  CartImportResultSchema,
  CartSchema,
} from '../../../shared/schemas/cart';
import { CART_BULK_MAX_LINES, LIMITS } from '../../../shared/limits';
import { CART_IMPORT_MAX_BYTES, CART_IMPORT_MAX_LINES, QUICK_ORDER_COLUMNS } from '../../../shared/cart-import';
import { ORDER_LINE_COLUMNS } from '../../../shared/cart-import';
import { SPREADSHEET_CONTENT_TYPES } from '../../services/spreadsheet-file';
import { DetailSchema, Id } from '../../../shared/schemas/common';
import { bearer, errors, fileAnswer } from '../common-schemas';
import { singleFileForm } from '../single-file-upload';

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
  description:
    'С `expected` изменение условное: если в строке уже другое количество (её изменили в другой вкладке), ' +
    'ничего не меняется и ответ 409 содержит строку, как она есть сейчас.',
  security: bearer,
  querystring: CartCountQuery,
  response: { 200: DetailSchema, 409: CartCountConflictSchema, ...errors(401, 404, 422) },
};

export const addToCart = {
  tags: ['cart'],
  summary: 'Добавить вариант товара в корзину (тот же вариант складывается в одну строку)',
  security: bearer,
  body: CartAddBody,
  response: { 201: CartAdded, ...errors(401, 403, 409, 422) },
};

export const addManyToCart = {
  tags: ['cart'],
  summary: `Добавить в корзину несколько вариантов сразу (от 1 до ${CART_BULK_MAX_LINES} строк), всё или ничего`,
  description:
    `Вариант, который уже в корзине, прибавляется к своей строке (не больше ${LIMITS.maxCartCount} шт. в строке). ` +
    'Каждый вариант указывается один раз. Если хоть одна строка не подходит (нет такого варианта у товара — ' +
    'снятый с продажи товар тоже не найден, — его нет в наличии, повтор, превышен предел), корзина не меняется, ' +
    'а ответ называет строку: «Строка 3: …». Ответ — корзина целиком, как GET /api/v1/cart/{user_id}.',
  security: bearer,
  body: CartBulkBody,
  response: { 200: CartSchema, ...errors(401, 403, 409, 422) },
};

export const removeItem = {
  tags: ['cart'],
  summary: 'Удалить строку корзины',
  security: bearer,
  params: Type.Object({ item_id: Id }),
  response: { 200: DetailSchema, ...errors(401, 404, 422) },
};

/**
 * A quick order refused as a whole (dry_run=false with a line that cannot go in): every line with
 * its problem, as a dry run answers them. Other 422s (nothing readable, too many lines) carry only `detail`.
 */
const CartImportRefusedSchema = Type.Object({
  detail: Type.String(),
  lines: Type.Optional(Type.Array(CartImportLineSchema)),
  valid: Type.Optional(Type.Integer()),
  invalid: Type.Optional(Type.Integer()),
});

const MAX_MEGABYTES = CART_IMPORT_MAX_BYTES / (1024 * 1024);

export const importToCart = {
  tags: ['cart'],
  summary:
    'Быстрый заказ: строки «артикул цвет размер количество» текстом или файлом XLSX/CSV; dry_run=true только проверяет',
  description:
    `Тело — текст (text/plain): строка на вариант, «MO-1008 коричневый 90 10»; значения через табуляцию, «;» ` +
    'или пробелы (тогда первое слово — артикул, последнее — количество, предпоследнее — размер, между ними — цвет). ' +
    `Пустые строки и первая строка-заголовок пропускаются. Или форма multipart/form-data с одним файлом \`file\` ` +
    `(XLSX или CSV в UTF-8 или Windows-1251, «;» или «,») до ${MAX_MEGABYTES} МБ: первая строка называет столбцы ` +
    `${QUICK_ORDER_COLUMNS.join(', ')} в любом порядке, другие столбцы и строка «Итого» пропускаются ` +
    `(выгрузка корзины загружается обратно). Не более ${CART_IMPORT_MAX_LINES} строк. Ответ называет каждую ` +
    'строку (номер в тексте или в файле), найденный вариант и ошибку, если строку нельзя добавить. ' +
    'С dry_run=false строки добавляются в корзину все или ни одной: вариант, который уже в корзине, ' +
    'прибавляется к своей строке; если хоть одна строка с ошибкой, ответ 422 со всеми строками, корзина не меняется. ' +
    'Проверки и добавления считаются на аккаунт (QUICK_ORDER_IMPORT_LIMIT за QUICK_ORDER_IMPORT_WINDOW_SECONDS): ' +
    'сверх этого 429 с Retry-After.',
  security: bearer,
  querystring: CartImportQuery,
  body: {
    content: {
      'text/plain': { schema: Type.String({ description: 'Строки быстрого заказа' }) },
      ...singleFileForm('Файл XLSX или CSV'),
    },
  },
  response: { 200: CartImportResultSchema, 422: CartImportRefusedSchema, ...errors(401, 409, 413, 415, 429) },
};

export const exportCart = {
  tags: ['cart'],
  summary: `Корзина файлом XLSX или CSV для Excel: ${ORDER_LINE_COLUMNS.join(', ')} и строка «Итого»`,
  description:
    'Строки товаров, снятых с продажи, не выгружаются (их нельзя заказать, и в итог корзины они не входят). ' +
    'Файл загружается обратно в корзину через POST /api/v1/cart/import.',
  security: bearer,
  params: Type.Object({ user_id: Id }),
  querystring: CartExportQuery,
  response: {
    200: fileAnswer('Файл «Корзина ДД.ММ.ГГГГ»; имя — в Content-Disposition', Object.values(SPREADSHEET_CONTENT_TYPES)),
    ...errors(401, 403, 422),
  },
};
