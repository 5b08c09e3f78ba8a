/**
 * Quick order: the lines a buyer pastes or uploads to fill the cart, and the cart's
 * own export, which the import reads back. Kept out of shared/api.ts, which the storefront's
 * first load carries whole: only the quick-order page and the server need these.
 */

/** The columns a quick-order file must name in its header row (in any order; others are ignored). */
export const QUICK_ORDER_COLUMNS = ['Артикул', 'Цвет', 'Размер', 'Количество'] as const;

/** Lines one import may hold, pasted or in a file (a header row and empty lines not counted). */
export const CART_IMPORT_MAX_LINES = 5_000;

/** An uploaded quick-order file: 5 000 lines of an .xlsx are well under 1 MB. */
export const CART_IMPORT_MAX_BYTES = 5 * 1024 * 1024;

/** The formats of the cart's export. */
export const CART_EXPORT_FORMATS = ['xlsx', 'csv'] as const;
export type CartExportFormat = (typeof CART_EXPORT_FORMATS)[number];

/** The columns of an order's lines in its spreadsheet, as the cart export names them too. */
export const ORDER_LINE_COLUMNS = ['Артикул', 'Название', 'Цвет', 'Размер', 'Цена', 'Количество', 'Сумма'] as const;
