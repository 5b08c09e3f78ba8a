/**
 * Spreadsheets a buyer or a manager uploads (issue 35): an archive that hides entries from the
 * zip-bomb guard, and imports that would hold the server's event loop or be sent without end.
 */
import ExcelJS from 'exceljs';
import type { CartImportResult } from '../../../src/shared/api';
import { QUICK_ORDER_COLUMNS } from '../../../src/shared/cart-import';
import { PRICE_LIST_COLUMNS } from '../../../src/shared/schemas/admin-catalogue';
import { allProducts, json, STARTUP_TIMEOUT, type Shopper, type TestApp } from '../helpers/test-app';
import { openBackOffice } from '../helpers/back-office';
import { deflatedZeros, withUncountedEntry } from '../helpers/zip';

const MB = 1024 * 1024;

let shop: TestApp;
let buyer: Shopper;
let manager: Shopper;

beforeAll(async () => {
  ({ shop, buyer, manager } = await openBackOffice());
}, STARTUP_TIMEOUT);
afterAll(() => shop.close());

function upload(url: string, who: Shopper, file: Buffer) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(file)]), 'file.xlsx');
  return shop.app.inject({ method: 'POST', url, query: { dry_run: 'true' }, headers: who.headers, payload: form });
}
const uploadQuickOrder = (who: Shopper, file: Buffer) => upload('/api/v1/cart/import', who, file);

async function xlsxOf(rows: (string | number)[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Лист');
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

describe('an archive whose end record counts fewer entries than its directory holds', () => {
  // 64 MB of zeros in 64 KB, four times what an upload may unpack into, behind a workbook that
  // is itself fine. The guard counted only the declared entries; exceljs inflated the hidden one too.
  let hiddenBomb: { name: string; deflated: Buffer; declaredSize: number };
  beforeAll(async () => {
    hiddenBomb = { name: 'docProps/custom.xml', deflated: await deflatedZeros(64 * MB), declaredSize: 64 * MB };
  });

  it('is refused by the quick order before exceljs reads it', async () => {
    const [product] = await allProducts(shop.app);
    const variant = product!.variants[0]!;
    const workbook = await xlsxOf([[...QUICK_ORDER_COLUMNS], [product!.art, variant.color, variant.size, 1]]);
    // The workbook alone is read: the refusal below is for the hidden entry.
    expect(json<CartImportResult>(await uploadQuickOrder(buyer, workbook)).valid).toBe(1);

    const attack = withUncountedEntry(workbook, hiddenBomb);
    expect(attack.length).toBeLessThan(MB);
    const response = await uploadQuickOrder(buyer, attack);
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({ detail: expect.stringContaining('Файл XLSX повреждён') });
  });

  it('is refused by the price list import', async () => {
    const workbook = await xlsxOf([[...PRICE_LIST_COLUMNS]]);
    const response = await upload('/api/v1/admin/catalogue/import', manager, withUncountedEntry(workbook, hiddenBomb));
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({ detail: expect.stringContaining('Файл XLSX повреждён') });
  });
});
