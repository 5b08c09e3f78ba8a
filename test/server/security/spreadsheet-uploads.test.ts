/**
 * Spreadsheets a buyer or a manager uploads: an archive that hides entries from the
 * zip-bomb guard, and imports that would hold the server's event loop or be sent without end.
 */
import { crc32, deflateRawSync } from 'node:zlib';
import ExcelJS from 'exceljs';
import type { CartImportResult } from '../../../src/shared/api';
import { CART_IMPORT_MAX_LINES, QUICK_ORDER_COLUMNS } from '../../../src/shared/cart-import';
import { PRICE_LIST_COLUMNS } from '../../../src/shared/schemas/admin-catalogue';
import { loadConfig } from '../../../src/server/config';
import { readUploadedQuickOrder } from '../../../src/server/services/quick-order';
import { unpackZip } from '../../../src/server/services/zip-limits';
import {
  allProducts,
  createTestApp,
  json,
  quickShoppers,
  STARTUP_TIMEOUT,
  type Shopper,
  type TestApp,
} from '../helpers/test-app';
import { openBackOffice } from '../helpers/back-office';
import { deflatedZeros, withUncountedEntry, zipOf } from '../helpers/zip';

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

async function xlsxOf(rows: (string | number | null)[][]): Promise<Buffer> {
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

/** A quick order of `lines` lines beside `extraColumns` columns of text, as a buyer's own file may have. */
async function wideQuickOrder(lines: number, extraColumns: number): Promise<Buffer> {
  const extra = Array.from({ length: extraColumns }, (_, column) => `Примечание ${column + 1}`);
  const rows: (string | number)[][] = [[...QUICK_ORDER_COLUMNS, ...extra]];
  for (let line = 1; line <= lines; line += 1) {
    rows.push([`NO-${line}`, 'коричневый', 90, 1, ...extra.map((note) => `${note}, строка ${line}`)]);
  }
  return xlsxOf(rows);
}

describe('reading a spreadsheet', () => {
  it('leaves the event loop free while a large file is read', async () => {
    const file = await wideQuickOrder(CART_IMPORT_MAX_LINES, 8);
    // The share of the time the event loop spent running code rather than waiting for events: on
    // a busy machine a timer may fire late with the loop idle, and this is not counted.
    const before = performance.eventLoopUtilization();
    const started = performance.now();
    expect(await readUploadedQuickOrder(file)).toHaveLength(CART_IMPORT_MAX_LINES);
    const readMs = performance.now() - started;
    const { utilization } = performance.eventLoopUtilization(before);
    // exceljs takes about half a second for such a file, on the server's thread nearly all of it
    // busy (measured: 1.0); in a thread of its own the server's thread only starts it and takes the
    // rows in (0.08).
    expect(readMs).toBeGreaterThan(200);
    expect(utilization).toBeLessThan(0.4);
  });

  it('refuses a file with more cells than the budget before exceljs builds them', async () => {
    // 3 000 lines of 100 columns: 300 000 cells, under the row limit and 16 MB unpacked.
    const rows: (string | number | null)[][] = [[...QUICK_ORDER_COLUMNS, ...Array<number>(96).fill(0)]];
    for (let line = 1; line <= 3000; line += 1)
      rows.push(['NO-1', 'коричневый', 90, 1, ...Array<number>(96).fill(line)]);
    const response = await uploadQuickOrder(buyer, await xlsxOf(rows));
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({ detail: expect.stringContaining('слишком много ячеек') });

    const csv = `${QUICK_ORDER_COLUMNS.join(';')}\r\n${`NO-1;коричневый;90;1${';0'.repeat(200)}\r\n`.repeat(2000)}`;
    const csvResponse = await upload('/api/v1/cart/import', buyer, Buffer.from(csv));
    expect(csvResponse.statusCode).toBe(422);
    expect(csvResponse.json()).toEqual({ detail: expect.stringContaining('слишком много ячеек') });
  });
  it('refuses a sheet whose merged cells are never closed as broken, without scanning it over and over', async () => {
    // A million opening tags in 12 MB: a pattern looking for each one's closing tag read to the end
    // of the sheet every time, and the read ran into its time limit («слишком сложный»).
    const workbook = await xlsxOf([[...QUICK_ORDER_COLUMNS], ['NO-1', 'коричневый', 90, 1]]);
    const parts = unpackZip(workbook, 16 * MB)!;
    const sheetName = [...parts.keys()].find((name) => name.startsWith('xl/worksheets/sheet'))!;
    const sheet = parts.get(sheetName)!.toString('utf8');
    parts.set(sheetName, Buffer.from(sheet.replace('</worksheet>', `${'<mergeCells>'.repeat(1_000_000)}</worksheet>`)));
    const entries = [...parts].map(([name, content]) => ({
      name,
      deflated: deflateRawSync(content),
      declaredSize: content.length,
      crc: crc32(content),
    }));
    const response = await uploadQuickOrder(buyer, zipOf(entries));
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({ detail: expect.stringContaining('Файл XLSX повреждён') });
  });
});

describe('quick-order imports per buyer', () => {
  let shopDefaults: TestApp;
  beforeAll(async () => {
    shopDefaults = await createTestApp({ buyerLimits: loadConfig({}).buyerLimits });
  }, STARTUP_TIMEOUT);
  afterAll(() => shopDefaults?.close());

  const importText = (who: Shopper, dryRun: boolean) =>
    shopDefaults.app.inject({
      method: 'POST',
      url: '/api/v1/cart/import',
      query: { dry_run: String(dryRun) },
      headers: { ...who.headers, 'content-type': 'text/plain; charset=utf-8' },
      payload: 'NO-1 коричневый 90 1',
    });

  it('are counted, checks and additions alike, and refused beyond the limit with 429 and Retry-After', async () => {
    const [buyer, other] = (await quickShoppers(shopDefaults.app, 2)) as [Shopper, Shopper];
    // A buyer correcting a file a dozen times, and more, checking it and adding it each time, is
    // never held back: the line's problem is answered (200 for the check, 422 for the addition).
    for (let attempt = 0; attempt < 15; attempt += 1) {
      expect((await importText(buyer, true)).statusCode).toBe(200);
      expect((await importText(buyer, false)).statusCode).toBe(422);
    }
    const refused = await importText(buyer, true);
    expect(refused.statusCode).toBe(429);
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(600);
    expect(refused.json()).toEqual({
      detail: `Слишком много проверок быстрого заказа подряд: не больше 30 за 10 мин. Повторите через ${retryAfter} с`,
    });
    // A file is refused before it is read.
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(await wideQuickOrder(1, 0))]), 'file.xlsx');
    const file = await shopDefaults.app.inject({
      method: 'POST',
      url: '/api/v1/cart/import',
      query: { dry_run: 'true' },
      headers: buyer.headers,
      payload: form,
    });
    expect(file.statusCode).toBe(429);
    // Another buyer is not held back.
    expect((await importText(other, true)).statusCode).toBe(200);
  });
});
