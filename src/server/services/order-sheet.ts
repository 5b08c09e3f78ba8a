import ExcelJS from 'exceljs';
import type { BuyerOrder } from '../../shared/api';
import { ORDER_LINE_COLUMNS } from '../../shared/cart-import';
import { formatMoscowDateTime } from '../../shared/dates';
import { XLSX_FORMATS } from './spreadsheet-file';

/** The spreadsheet's file name, the download's and the letters' attachment's. */
export const orderSheetFileName = (orderId: number) => `Заказ ${orderId}.xlsx`;

/** «Заказ № 12 от 24 ноября 2026 г. в 15:04» */
export const orderSheetTitle = (order: Pick<BuyerOrder, 'id' | 'created_at'>) =>
  `Заказ № ${order.id} от ${formatMoscowDateTime(order.created_at)}`;

/**
 * One order as an XLSX workbook: a heading (number, date, status, contact, address, requisites),
 * then a table of its lines with a header row and the total under the sums. Text goes into string
 * cells, which a spreadsheet never runs as a formula; prices and quantities are numbers.
 */
export async function writeOrderSheet(order: BuyerOrder): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet(`Заказ ${order.id}`);
  sheet.columns = [16, 40, 16, 10, 14, 12, 16].map((width) => ({ width }));

  sheet.addRow([orderSheetTitle(order)]).font = { bold: true, size: 14 };
  const heading: [string, string | null][] = [
    ['Статус', order.status],
    ['Контактное лицо', order.contact_name],
    ['Телефон', order.contact_phone],
    ['Адрес доставки', order.address],
    ['Организация', order.company_name],
    ['ИНН', order.company_inn],
    ['КПП', order.company_kpp],
  ];
  for (const [label, value] of heading) {
    if (value) sheet.addRow([label, value]).getCell(1).font = { bold: true };
  }
  sheet.addRow([]);

  sheet.addRow([...ORDER_LINE_COLUMNS]).font = { bold: true };
  for (const line of order.lines) {
    sheet.addRow([line.art, line.name, line.color, line.size, line.price, line.quantity, line.item_total]);
  }
  const total = sheet.addRow(['Итого', null, null, null, null, order.items_count, order.total_price]);
  total.font = { bold: true };
  sheet.getColumn(4).numFmt = XLSX_FORMATS.centimetres;
  for (const column of [5, 7]) sheet.getColumn(column).numFmt = XLSX_FORMATS.rubles;
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
