import { Readable } from 'node:stream';
import { and, desc, eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import type { AdminProduct, PriceType, Product } from '../../../shared/api';
import { PRICE_LIST_COLUMNS } from '../../../shared/schemas/admin-catalogue';
import { buildApp } from '../../app';
import { auditLog, priceListPreviews, priceTiers, products, variants } from '../../db/schema';
import {
  allProducts,
  json,
  quickShoppers,
  STARTUP_TIMEOUT,
  usesPostgres,
  type Shopper,
  type TestApp,
} from '../../../../test/server/helpers/test-app';
import { expectManagersOnly, newManager, openBackOffice } from '../../../../test/server/helpers/back-office';
import { windows1251 } from '../../../../test/server/helpers/windows-1251';
import { deflatedZeros, zipOf } from '../../../../test/server/helpers/zip';

interface ImportResult {
  dry_run: boolean;
  created: number;
  updated: number;
  unchanged: number;
  new_products: number;
  errors: { row: number; detail: string }[];
  preview: { id: string; expires_at: string } | null;
}

type Line = (string | number | null)[];

let shop: TestApp;
let buyer: Shopper;
let manager: Shopper;
/** Products no test has touched yet: each test takes its own. */
let untouched: Product[];
/** The shop's price types beside the default «Опт», made for these tests: «Крупный опт», then an RRP. */
let large: PriceType;
let rrp: PriceType;

const admin = (method: 'GET' | 'POST' | 'PATCH' | 'PUT', url: string, payload?: object) =>
  shop.app.inject({ method, url: `/api/v1/admin${url}`, headers: manager.headers, payload });

async function createType(fields: object): Promise<PriceType> {
  const response = await admin('POST', '/price-types', fields);
  expect(response.statusCode).toBe(201);
  return json<PriceType>(response);
}

beforeAll(async () => {
  ({ shop, buyer, manager } = await openBackOffice());
  // The demo catalogue's card data off: the export's rows are checked with the card's cells empty,
  // and the card's own tests below fill them in.
  const { db } = shop.app.database;
  await db.update(products).set({
    brand: null,
    material: null,
    filler: null,
    ageFrom: null,
    countryOfOrigin: null,
    tnved: null,
    conformityDocumentId: null,
  });
  await db.update(variants).set({
    barcode: null,
    marked: false,
    packageLengthMm: null,
    packageWidthMm: null,
    packageHeightMm: null,
    weightG: null,
  });
  untouched = await allProducts(shop.app);
  large = await createType({ name: 'Крупный опт' });
  rrp = await createType({ name: 'РРЦ', is_rrp: true });
}, STARTUP_TIMEOUT);
afterAll(() => shop.close());

const LARGE_COLUMN = 'Цена «Крупный опт» [krupnyy-opt]';
/** A marketplace card's columns, the product's then the variant's, as the export writes them. */
const CARD_COLUMNS = [
  'Бренд',
  'Материал',
  'Наполнитель',
  'Возраст от',
  'Страна производства',
  'ТН ВЭД',
  'Штрихкод',
  'Маркировка',
  'Длина упаковки, см',
  'Ширина упаковки, см',
  'Высота упаковки, см',
  'Вес, г',
];
/** A variant's card cells with nothing filled in, as exceljs reads them back: the marking says «нет». */
const EMPTY_CARD = [...Array<undefined>(7), 'нет', ...Array<undefined>(4)];
/** The export's header: the other types' columns after «Цена», by id, then the packaging, «Остаток» last. */
const exportHeader = () => [
  'Артикул',
  'Название',
  'Категория',
  'Цвет',
  'Размер',
  'Цена',
  LARGE_COLUMN,
  `Цена «РРЦ» [${rrp.code}]`,
  'Кратность',
  'Минимум',
  ...CARD_COLUMNS,
  'Остаток',
];

const exportAs = (format: string, who: Shopper | null = manager) =>
  shop.app.inject({
    method: 'GET',
    url: '/api/v1/admin/catalogue/export',
    query: { format },
    headers: who?.headers ?? {},
  });

function importFile(file: Buffer, dryRun: boolean, filename = 'price.xlsx', who: Shopper | null = manager) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(file)]), filename);
  return shop.app.inject({
    method: 'POST',
    url: '/api/v1/admin/catalogue/import',
    query: { dry_run: String(dryRun) },
    headers: who?.headers ?? {},
    payload: form,
  });
}

async function importResult(file: Buffer, dryRun: boolean): Promise<ImportResult> {
  const response = await importFile(file, dryRun);
  expect(response.statusCode).toBe(200);
  return json<ImportResult>(response);
}

/** The cells of every non-empty row of the first sheet, as exceljs reads them. */
function sheetLines(sheet: ExcelJS.Worksheet): Line[] {
  const lines: Line[] = [];
  sheet.eachRow((row) => lines.push((row.values as Line).slice(1)));
  return lines;
}

async function readXlsx(file: Buffer): Promise<Line[]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength) as ArrayBuffer);
  return sheetLines(workbook.worksheets[0]!);
}

async function xlsxOf(lines: Line[]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Лист1');
  for (const line of lines) sheet.addRow(line);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

const product = async (art: string) =>
  json<Product>(await shop.app.inject({ method: 'GET', url: `/api/v1/products/${encodeURIComponent(art)}` }));

/** One exported line per variant of `item`, as the export writes them. */
const linesOf = (item: Product, category: string): Line[] =>
  item.variants.map((variant) => [
    item.art,
    item.name,
    category,
    variant.color,
    variant.size,
    variant.price,
    variant.stock,
  ]);

async function categoryOf(item: Product): Promise<string> {
  const exported = await readXlsx((await exportAs('xlsx')).rawPayload);
  return exported.find((line) => line[0] === item.art)![2] as string;
}

describe('GET /api/v1/admin/catalogue/export', () => {
  it('xlsx: one row per variant of every shown product, a column per other price type, the packaging, read back with exceljs', async () => {
    const hidden = untouched.shift()!;
    await shop.app.database.db.update(products).set({ hiddenAt: new Date() }).where(eq(products.id, hidden.id));
    const shown = (await allProducts(shop.app)).filter((item) => item.id !== hidden.id);
    const priced = untouched.shift()!;
    const [cheaper, other] = priced.variants;
    expect(
      (await admin('PUT', `/variants/${cheaper!.id}/prices`, [{ price_type_id: large.id, price: 812.4 }])).statusCode,
    ).toBe(200);
    expect((await admin('PATCH', `/products/${priced.id}`, { multiple: 6, min_quantity: 12 })).statusCode).toBe(200);

    const response = await exportAs('xlsx');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(response.headers['content-disposition']).toMatch(
      /^attachment; filename="(myagkiy-opt-price-list-\d{4}-\d{2}-\d{2}\.xlsx)"; filename\*=UTF-8''\1$/,
    );
    const [header, ...rows] = await readXlsx(response.rawPayload);
    expect(header).toEqual(exportHeader());
    expect(rows).toHaveLength(shown.reduce((sum, item) => sum + item.variants.length, 0));
    expect(rows.some((row) => row[0] === hidden.art)).toBe(false);

    const sample = shown[3]!;
    const variant = sample.variants[0]!;
    // exceljs reads an empty cell in the middle of a row as undefined: no price of that type.
    expect(rows).toContainEqual([
      sample.art,
      sample.name,
      expect.any(String),
      variant.color,
      variant.size,
      variant.price,
      undefined,
      undefined,
      1,
      1,
      ...EMPTY_CARD,
      variant.stock,
    ]);
    const ofPriced = rows.filter((row) => row[0] === priced.art);
    expect(ofPriced.find((row) => row[3] === cheaper!.color && row[4] === cheaper!.size)).toEqual([
      ...[priced.art, priced.name, expect.any(String), cheaper!.color, cheaper!.size, cheaper!.price],
      ...[812.4, undefined, 6, 12, ...EMPTY_CARD, cheaper!.stock],
    ]);
    expect(ofPriced.find((row) => row[3] === other!.color && row[4] === other!.size)!.slice(6, 10)).toEqual([
      undefined,
      undefined,
      6,
      12,
    ]);
  });

  it('csv: UTF-8 with BOM, «;» between fields, decimal comma, text quoted, formulas defused', async () => {
    const item = untouched.shift()!;
    const risky = '=HYPERLINK("http://evil.example";"Мишка")';
    await shop.app.database.db.update(products).set({ name: risky }).where(eq(products.id, item.id));

    const response = await exportAs('csv');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toMatch(/filename\*=UTF-8''myagkiy-opt-price-list-[\d-]+\.csv$/);
    const bytes = response.rawPayload;
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = bytes.toString('utf8').slice(1);
    expect(text.split('\r\n')[0]).toBe(
      `"Артикул";"Название";"Категория";"Цвет";Размер;Цена;${LARGE_COLUMN};Цена «РРЦ» [${rrp.code}];Кратность;Минимум;` +
        '"Бренд";"Материал";"Наполнитель";Возраст от;"Страна производства";"ТН ВЭД";"Штрихкод";"Маркировка";' +
        'Длина упаковки, см;Ширина упаковки, см;Высота упаковки, см;Вес, г;Остаток',
    );
    // The apostrophe keeps a spreadsheet from running the cell; the quotes inside are doubled.
    expect(text).toContain(`"'=HYPERLINK(""http://evil.example"";""Мишка"")"`);

    const workbook = new ExcelJS.Workbook();
    const sheet = await workbook.csv.read(Readable.from(Buffer.from(text)), {
      map: (value: string) => value,
      parserOptions: { delimiter: ';' },
    });
    const lines = sheetLines(sheet);
    expect(lines[0]).toEqual(exportHeader());
    const variant = item.variants[0]!;
    expect(lines).toContainEqual([
      item.art,
      `'${risky}`,
      expect.any(String),
      variant.color,
      String(variant.size),
      variant.price!.toFixed(2).replace('.', ','),
      '',
      '',
      '1',
      '1',
      ...EMPTY_CARD.map((cell) => cell ?? ''),
      String(variant.stock),
    ]);

    // The apostrophe comes off again on the way back in: the same file changes nothing.
    const result = await importResult(bytes, false);
    expect(result).toMatchObject({ created: 0, updated: 0, errors: [] });
    expect((await product(item.art)).name).toBe(risky);
  });

  it('a buyer → 403 and no token → 401', async () => {
    expect((await exportAs('xlsx', buyer)).statusCode).toBe(403);
    expect((await exportAs('csv', null)).statusCode).toBe(401);
    expect((await exportAs('pdf')).statusCode).toBe(422);
  });
});

describe('POST /api/v1/admin/catalogue/import', () => {
  it.each(['xlsx', 'csv'])('exporting then importing the same %s file changes nothing', async (format) => {
    const exported = (await exportAs(format)).rawPayload;
    const before = await readXlsx((await exportAs('xlsx')).rawPayload);
    const rows = before.length - 1;
    const auditBefore = await shop.app.database.db.$count(auditLog);
    expect(await importResult(exported, false)).toEqual({
      dry_run: false,
      created: 0,
      updated: 0,
      unchanged: rows,
      new_products: 0,
      errors: [],
      preview: null,
    });
    expect(await readXlsx((await exportAs('xlsx')).rawPayload)).toEqual(before);
    expect(await shop.app.database.db.$count(auditLog)).toBe(auditBefore);
  });

  it('a dry run counts what would change and changes nothing; the real run changes it and the storefront shows it at once', async () => {
    const changed = untouched.shift()!;
    const grown = untouched.shift()!;
    const category = await categoryOf(changed);
    const [first, ...rest] = linesOf(changed, category);
    const newPrice = 1234.5;
    const lines: Line[] = [
      [...PRICE_LIST_COLUMNS],
      [...first!.slice(0, 5), newPrice, 77],
      ...rest,
      // A new size of a product the shop has, and a product it does not have yet.
      [grown.art, grown.name, await categoryOf(grown), 'изумрудный', 99, '2 500,00', 5],
      ['NEW-IMPORT-1', 'Ёжик из прайс-листа', category, 'серый', 20, '799,9', 12],
      ['NEW-IMPORT-1', 'Ёжик из прайс-листа', category, 'серый', 30, 999, 3],
    ];
    const file = await xlsxOf(lines);
    // The storefront's cache holds the product before the import.
    expect((await product(changed.art)).variants[0]!.price).toBe(first![5]);

    const preview = await importResult(file, true);
    expect(preview).toEqual({
      dry_run: true,
      created: 3,
      updated: 1,
      unchanged: rest.length,
      new_products: 1,
      errors: [],
      preview: { id: expect.any(String), expires_at: expect.any(String) },
    });
    expect((await product(changed.art)).variants[0]!.price).toBe(first![5]);
    expect((await shop.app.inject({ method: 'GET', url: '/api/v1/products/NEW-IMPORT-1' })).statusCode).toBe(404);

    const applied = await importResult(file, false);
    expect(applied).toEqual({ ...preview, dry_run: false, preview: null });
    const after = await product(changed.art);
    expect(after.variants.find((variant) => variant.id === changed.variants[0]!.id)).toMatchObject({
      price: newPrice,
      stock: 77,
    });
    expect((await product(grown.art)).variants).toContainEqual(
      expect.objectContaining({ color: 'изумрудный', size: 99, price: 2500, stock: 5 }),
    );
    const created = await product('NEW-IMPORT-1');
    expect(created).toMatchObject({ name: 'Ёжик из прайс-листа', image: 'no-photo.svg' });
    expect(created.variants.map(({ size, price, stock }) => ({ size, price, stock }))).toEqual([
      { size: 20, price: 799.9, stock: 12 },
      { size: 30, price: 999, stock: 3 },
    ]);
    const picture = await shop.app.inject({ method: 'GET', url: `/api/v1/image/${created.image}` });
    expect(picture.statusCode).toBe(200);
    const inCategory = json<Product[]>(
      await shop.app.inject({
        method: 'GET',
        url: `/api/v1/products/categories/${encodeURIComponent(category)}`,
        query: { limit: '100' },
      }),
    );
    expect(inCategory.map((item) => item.art)).toContain('NEW-IMPORT-1');

    const [audit] = await shop.app.database.db.select().from(auditLog).orderBy(desc(auditLog.id)).limit(1);
    expect(audit).toMatchObject({
      action: 'catalogue.import',
      byUserId: manager.id,
      after: expect.objectContaining({ created: 3, updated: 1, new_products: ['NEW-IMPORT-1'] }),
    });
    expect(audit!.before).toEqual({
      [`«${changed.art}», ${first![3]}, ${first![4]} см`]: { price: first![5], stock: first![6] },
    });

    // The same file again: everything is now as it says.
    expect(await importResult(file, false)).toMatchObject({ created: 0, updated: 0, unchanged: lines.length - 1 });
  });

  it('a new name or category of a known article updates the product and counts its rows as updated', async () => {
    const item = untouched.shift()!;
    const lines = linesOf(item, 'Подушки и пледы').map((line) => [line[0]!, 'Новое имя', ...line.slice(2)]);
    const result = await importResult(await xlsxOf([[...PRICE_LIST_COLUMNS], ...lines]), false);
    expect(result).toMatchObject({ created: 0, updated: item.variants.length, unchanged: 0, errors: [] });
    expect((await product(item.art)).name).toBe('Новое имя');
    const pillows = json<Product[]>(
      await shop.app.inject({
        method: 'GET',
        url: `/api/v1/products/categories/${encodeURIComponent('Подушки и пледы')}`,
        query: { limit: '100' },
      }),
    );
    expect(pillows.map((product) => product.art)).toContain(item.art);
  });

  it('is all or nothing: one bad row among good ones and nothing changes, every problem listed with its row', async () => {
    const item = untouched.shift()!;
    const other = untouched.shift()!;
    const category = await categoryOf(item);
    const [good, second] = linesOf(item, category);
    const lines: Line[] = [
      [...PRICE_LIST_COLUMNS],
      [...good!.slice(0, 5), 5555, 55], // row 2: a good change
      [...second!.slice(0, 5), 'abc', 1], // row 3
      ['NEW-BAD-1', 'Кот', category, 'белый', 25.5, 100, -1], // row 4: size and stock
      ['NEW-BAD-2', 'Кот', 'Нет такой категории', 'белый', 25, '100,123', 1], // row 5: price; category
      [...good!.slice(0, 5), 5555, 55], // row 6: the same variant again
      [null, null, null, null, null, null, null], // an empty row is skipped
      [other.art, other.name, 'Нет такой категории', other.variants[0]!.color, other.variants[0]!.size, 10, 1], // row 8
    ];
    const before = await product(item.art);
    const auditBefore = await shop.app.database.db.$count(auditLog);
    for (const dryRun of [true, false]) {
      const result = await importResult(await xlsxOf(lines), dryRun);
      expect(result).toEqual({
        dry_run: dryRun,
        created: 0,
        updated: 0,
        unchanged: 0,
        new_products: 0,
        preview: null,
        errors: [
          { row: 3, detail: expect.stringMatching(/^Столбец «Цена»: «abc» — нужна цена в рублях больше нуля/) },
          { row: 4, detail: expect.stringMatching(/^Столбец «Размер»: «25.5» — нужно целое число/) },
          { row: 4, detail: expect.stringMatching(/^Столбец «Остаток»: «-1» — нужно целое число штук, 0 или больше/) },
          { row: 5, detail: expect.stringMatching(/^Столбец «Цена»: «100,123»/) },
          { row: 6, detail: `Вариант «${item.art}», ${good![3]}, ${good![4]} см уже есть в строке 2` },
          { row: 8, detail: expect.stringMatching(/^Столбец «Категория»: категории «Нет такой категории» нет/) },
        ],
      });
    }
    expect(await product(item.art)).toEqual(before);
    expect(await shop.app.database.db.$count(auditLog)).toBe(auditBefore);
  });

  it("reads a number cell as the spreadsheet shows it: large prices and a formula's float noise, to the kopeck", async () => {
    const category = await categoryOf(untouched[0]!);
    const lines: Line[] = [
      [...PRICE_LIST_COLUMNS],
      ['NEW-PRICE-1', 'Слон', category, 'серый', 20, 1_073_876_541.64, 1],
      ['NEW-PRICE-1', 'Слон', category, 'серый', 30, 1.1 * 3, 1], // 3.3000000000000003
      ['NEW-PRICE-1', 'Слон', category, 'серый', 40, 10.005, 1], // a fraction of a kopeck: refused
    ];
    const refused = await importResult(await xlsxOf(lines), false);
    expect(refused.errors).toEqual([
      { row: 4, detail: expect.stringMatching(/^Столбец «Цена»: «10.005» — нужна цена/) },
    ]);

    expect(await importResult(await xlsxOf(lines.slice(0, 3)), false)).toMatchObject({ created: 2, errors: [] });
    expect((await product('NEW-PRICE-1')).variants.map((variant) => variant.price)).toEqual([1_073_876_541.64, 3.3]);
  });

  it('lists at most 100 errors, the last saying how many more there are', async () => {
    const bad = Array.from({ length: 150 }, (_, i): Line => [`BAD-${i}`, 'Кот', 'Мишки', 'белый', 10, 0, 1]);
    const { errors } = await importResult(await xlsxOf([[...PRICE_LIST_COLUMNS], ...bad]), true);
    expect(errors).toHaveLength(100);
    expect(errors[98]).toEqual({ row: 100, detail: expect.stringMatching(/^Столбец «Цена»: «0»/) });
    expect(errors[99]).toEqual({ row: 101, detail: 'И ещё ошибок: 51. Исправьте эти и загрузите файл снова' });
  });

  it('a header without the needed columns, a file with no rows, an article of a deleted product → errors', async () => {
    const missing = await importResult(
      await xlsxOf([
        ['Артикул', 'Название', 'Цена'],
        ['MO-1', 'Мишка', 100],
      ]),
      true,
    );
    expect(missing.errors).toEqual([
      { row: 1, detail: expect.stringMatching(/^В заголовке нет столбцов: «Категория», «Цвет», «Размер», «Остаток»/) },
    ]);
    expect((await importResult(await xlsxOf([[...PRICE_LIST_COLUMNS]]), true)).errors).toEqual([
      { row: 1, detail: 'В файле нет строк с товарами' },
    ]);

    const deleted = untouched.shift()!;
    const category = await categoryOf(deleted);
    await shop.app.database.db.update(products).set({ hiddenAt: new Date() }).where(eq(products.id, deleted.id));
    const result = await importResult(await xlsxOf([[...PRICE_LIST_COLUMNS], ...linesOf(deleted, category)]), false);
    expect(result.errors[0]).toEqual({ row: 2, detail: expect.stringMatching(/удалён из витрины/) });
  });

  it('a CSV from Excel in Windows-1251 with «;» and a comma-separated one both read', async () => {
    const item = untouched.shift()!;
    const category = await categoryOf(item);
    const variant = item.variants[0]!;
    const row = [item.art, item.name, category, variant.color, variant.size, '4 321,00', variant.stock];
    const semicolons = [PRICE_LIST_COLUMNS.join(';'), row.join(';')].join('\r\n');
    const cp1251 = windows1251(semicolons);
    expect(await importResult(cp1251, true)).toMatchObject({ updated: 1, errors: [] });

    const commas = [PRICE_LIST_COLUMNS.join(','), row.map((cell) => `"${cell}"`).join(',')].join('\n');
    expect(await importResult(Buffer.from(commas), false)).toMatchObject({ updated: 1, errors: [] });
    expect((await product(item.art)).variants.find((found) => found.id === variant.id)!.price).toBe(4321);
  });

  it('not a spreadsheet → 415, no file → 422, a buyer → 403, no token → 401', async () => {
    const pdf = Buffer.from('%PDF-1.4\n%\u00e2\u00e3\u00cf\u00d3\n1 0 obj<<>>endobj\n\u0000\u0000trailer\n%%EOF');
    const refused = await importFile(pdf, true, 'price.xlsx');
    expect(refused.statusCode).toBe(415);
    expect(refused.json()).toEqual({ detail: expect.stringMatching(/XLSX или CSV/) });
    const brokenZip = await importFile(Buffer.from('PK\u0003\u0004 not really a zip'), true);
    expect(brokenZip.statusCode).toBe(422);
    // 200 MB of zeros in a file of 200 KB: refused before exceljs would inflate it into memory.
    const bomb = zipOf([
      { name: 'xl/sharedStrings.xml', deflated: await deflatedZeros(200 * 1024 * 1024), declaredSize: 1000 },
    ]);
    const refusedBomb = await importFile(bomb, true);
    expect(refusedBomb.statusCode).toBe(422);
    expect(refusedBomb.json()).toEqual({ detail: expect.stringMatching(/распаковывается больше чем в 100 МБ/) });

    const form = new FormData();
    form.append('note', 'нет файла');
    const none = await shop.app.inject({
      method: 'POST',
      url: '/api/v1/admin/catalogue/import',
      headers: manager.headers,
      payload: form,
    });
    expect(none.statusCode).toBe(422);

    const file = await xlsxOf([[...PRICE_LIST_COLUMNS]]);
    expect((await importFile(file, false, 'a.xlsx', buyer)).statusCode).toBe(403);
    expect((await importFile(file, false, 'a.xlsx', null)).statusCode).toBe(401);
  });
});

interface PreviewChanges {
  price_types: { code: string; name: string }[];
  packaging: boolean;
  card: boolean;
  items: Record<string, unknown>[];
  total: number;
}

const previewCall = (method: 'GET' | 'POST', id: string, tail: string, who: Shopper = manager, query = {}) =>
  shop.app.inject({
    method,
    url: `/api/v1/admin/catalogue/import/previews/${id}${tail}`,
    headers: who.headers,
    query,
  });

async function changesPage(id: string, skip: number, limit: number): Promise<PreviewChanges> {
  const response = await previewCall('GET', id, '/changes', manager, { skip: String(skip), limit: String(limit) });
  expect(response.statusCode).toBe(200);
  return json<PreviewChanges>(response);
}

describe('the dry run’s preview: which rows change, paged, as XLSX, and applied as checked', () => {
  /** A file changing the first variant of `item`, adding a size to it and a new product of two sizes. */
  async function changingFile(item: Product, art: string) {
    const category = await categoryOf(item);
    const [first, ...rest] = linesOf(item, category);
    const lines: Line[] = [
      [...PRICE_LIST_COLUMNS],
      [...first!.slice(0, 5), 1111.5, 11],
      ...rest,
      [item.art, item.name, category, 'лиловый', 77, 700, 7],
      [art, 'Енот из проверки', category, 'серый', 20, '500,5', 5],
      [art, 'Енот из проверки', category, 'серый', 30, 600, 6],
    ];
    return { file: await xlsxOf(lines), category, first: first!, rest };
  }

  it('lists each changed and new row with old → new price and stock, page by page, and as XLSX read back', async () => {
    const item = untouched.shift()!;
    const { file, category, first, rest } = await changingFile(item, 'PREVIEW-1');
    const checked = await importResult(file, true);
    expect(checked).toMatchObject({ created: 3, updated: 1, unchanged: rest.length, new_products: 1 });
    const id = checked.preview!.id;

    const summary = await previewCall('GET', id, '');
    expect(summary.statusCode).toBe(200);
    expect(summary.json()).toEqual({
      id,
      created: 3,
      updated: 1,
      unchanged: rest.length,
      new_products: 1,
      expires_at: checked.preview!.expires_at,
    });

    const all = await changesPage(id, 0, 100);
    expect(all.total).toBe(4);
    // A file of the old columns only: no price types', no packaging, no card.
    expect(all).toMatchObject({ price_types: [], packaging: false, card: false });
    expect(all.items).toEqual([
      {
        row: 2,
        kind: 'updated',
        new_product: false,
        art: item.art,
        name: item.name,
        category,
        color: first[3],
        size: first[4],
        price: 1111.5,
        stock: 11,
        old_name: item.name,
        old_category: category,
        old_price: first[5],
        old_stock: first[6],
        prices: [],
        multiple: null,
        min_quantity: null,
        old_multiple: null,
        old_min_quantity: null,
        card_changes: [],
      },
      expect.objectContaining({
        row: 3 + rest.length,
        kind: 'created',
        new_product: false,
        color: 'лиловый',
        price: 700,
        stock: 7,
        old_price: null,
        old_stock: null,
      }),
      expect.objectContaining({ row: 4 + rest.length, art: 'PREVIEW-1', new_product: true, price: 500.5, stock: 5 }),
      expect.objectContaining({ row: 5 + rest.length, art: 'PREVIEW-1', new_product: true, size: 30, price: 600 }),
    ]);
    // Pages of two: the same rows in the same order, none twice.
    const pages = [await changesPage(id, 0, 2), await changesPage(id, 2, 2), await changesPage(id, 4, 2)];
    expect(pages.map((page) => page.items.length)).toEqual([2, 2, 0]);
    expect(pages.flatMap((page) => page.items)).toEqual(all.items);

    const download = await previewCall('GET', id, '/changes.xlsx');
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(download.headers['content-disposition']).toMatch(
      /filename\*=UTF-8''myagkiy-opt-price-list-changes-[\d-]+\.xlsx$/,
    );
    const [header, ...rows] = await readXlsx(download.rawPayload);
    expect(header).toEqual([
      'Строка',
      'Что',
      'Артикул',
      'Цвет',
      'Размер',
      'Цена было',
      'Цена стало',
      'Остаток было',
      'Остаток стало',
      'Название было',
      'Название',
      'Категория была',
      'Категория',
    ]);
    expect(rows).toEqual([
      [
        2,
        'изменение',
        item.art,
        first[3],
        first[4],
        first[5],
        1111.5,
        first[6],
        11,
        item.name,
        item.name,
        category,
        category,
      ],
      // exceljs reads an empty cell in the middle of a row as undefined.
      [
        3 + rest.length,
        'новый вариант',
        item.art,
        'лиловый',
        77,
        undefined,
        700,
        undefined,
        7,
        undefined,
        item.name,
        undefined,
        category,
      ],
      [
        4 + rest.length,
        'новый товар',
        'PREVIEW-1',
        'серый',
        20,
        undefined,
        500.5,
        undefined,
        5,
        undefined,
        'Енот из проверки',
        undefined,
        category,
      ],
      [
        5 + rest.length,
        'новый товар',
        'PREVIEW-1',
        'серый',
        30,
        undefined,
        600,
        undefined,
        6,
        undefined,
        'Енот из проверки',
        undefined,
        category,
      ],
    ]);
    // The check changed nothing in the catalogue.
    expect((await product(item.art)).variants[0]!.price).toBe(first[5]);
  });

  it('«Применить» applies exactly what was checked, once; the preview is gone after it', async () => {
    const item = untouched.shift()!;
    const { file, first } = await changingFile(item, 'PREVIEW-2');
    const { preview } = await importResult(file, true);
    const applied = await previewCall('POST', preview!.id, '/apply');
    expect(applied.statusCode).toBe(200);
    expect(applied.json()).toMatchObject({ dry_run: false, created: 3, updated: 1, new_products: 1, errors: [] });
    expect((await product(item.art)).variants.find((variant) => variant.id === item.variants[0]!.id)).toMatchObject({
      price: 1111.5,
      stock: 11,
      color: first[3],
    });
    expect((await product('PREVIEW-2')).variants).toHaveLength(2);
    const [audit] = await shop.app.database.db.select().from(auditLog).orderBy(desc(auditLog.id)).limit(1);
    expect(audit).toMatchObject({ action: 'catalogue.import', byUserId: manager.id });

    const again = await previewCall('POST', preview!.id, '/apply');
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual({ detail: 'Проверка файла не найдена или устарела: загрузите файл снова' });
    expect((await previewCall('GET', preview!.id, '/changes')).statusCode).toBe(404);
  });

  it('a price edited after the check: «Применить» says the catalogue changed and writes nothing', async () => {
    const item = untouched.shift()!;
    const { file } = await changingFile(item, 'PREVIEW-3');
    const { preview } = await importResult(file, true);
    // Another manager changes the stock of a row the file leaves as it is.
    const untouchedVariant = item.variants.at(-1)!;
    const edited = await shop.app.inject({
      method: 'PATCH',
      url: `/api/v1/admin/variants/${untouchedVariant.id}`,
      headers: manager.headers,
      payload: { stock: untouchedVariant.stock + 1 },
    });
    expect(edited.statusCode).toBe(200);

    const refused = await previewCall('POST', preview!.id, '/apply');
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      detail: 'Каталог изменился после проверки файла: проверьте файл снова и посмотрите изменения',
    });
    expect((await shop.app.inject({ method: 'GET', url: '/api/v1/products/PREVIEW-3' })).statusCode).toBe(404);
    expect((await product(item.art)).variants[0]!.price).toBe(item.variants[0]!.price);
  });

  it('another manager’s preview, an expired one, an unknown or malformed id → 404/422; buyers and strangers refused', async () => {
    const item = untouched.shift()!;
    const { file } = await changingFile(item, 'PREVIEW-4');
    const { preview } = await importResult(file, true);
    const id = preview!.id;
    const colleague = await newManager(shop.app);
    for (const [method, tail] of [
      ['GET', ''],
      ['GET', '/changes'],
      ['GET', '/changes.xlsx'],
      ['POST', '/apply'],
    ] as const) {
      const answer = await previewCall(method, id, tail, colleague);
      expect([tail, answer.statusCode]).toEqual([tail, 404]);
      expect(answer.json()).toEqual({ detail: expect.stringMatching(/^Проверка файла не найдена/) });
    }
    expect((await previewCall('GET', '00000000-0000-4000-8000-000000000000', '/changes')).statusCode).toBe(404);
    expect((await previewCall('GET', 'not-a-uuid', '/changes')).statusCode).toBe(422);
    await expectManagersOnly(shop.app, buyer, [
      ['GET', `/api/v1/admin/catalogue/import/previews/${id}`],
      ['GET', `/api/v1/admin/catalogue/import/previews/${id}/changes`],
      ['GET', `/api/v1/admin/catalogue/import/previews/${id}/changes.xlsx`],
      ['POST', `/api/v1/admin/catalogue/import/previews/${id}/apply`],
    ]);

    // A new check by the same manager replaces the earlier preview.
    const { preview: next } = await importResult(file, true);
    expect((await previewCall('GET', id, '')).statusCode).toBe(404);
    // Past its expiry it is gone for its owner too.
    await shop.app.database.db
      .update(priceListPreviews)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(priceListPreviews.id, next!.id));
    expect((await previewCall('GET', next!.id, '/changes')).statusCode).toBe(404);
    expect((await previewCall('POST', next!.id, '/apply')).statusCode).toBe(404);
  });

  it('a file with errors, or one that changes nothing, keeps no preview', async () => {
    const item = untouched.shift()!;
    const category = await categoryOf(item);
    const same = await importResult(await xlsxOf([[...PRICE_LIST_COLUMNS], ...linesOf(item, category)]), true);
    expect(same).toMatchObject({ created: 0, updated: 0, preview: null });
    const bad = await importResult(
      await xlsxOf([[...PRICE_LIST_COLUMNS], ['PREVIEW-5', 'Кот', category, 'белый', 10, 0, 1]]),
      true,
    );
    expect(bad).toMatchObject({ preview: null, errors: [expect.anything()] });
  });
});

describe('the price types’ columns and the packaging', () => {
  const header = (...columns: string[]): Line => [...PRICE_LIST_COLUMNS.slice(0, 6), ...columns, 'Остаток'];
  const adminProduct = async (id: number) => json<AdminProduct>(await admin('GET', `/products/${id}`));
  /** The variant's own price in `type`, or null when it has none there. */
  const ownPrice = (item: AdminProduct, variantId: number, type: PriceType) =>
    item.variants.find((variant) => variant.id === variantId)!.prices.find((price) => price.price_type_id === type.id)
      ?.price ?? null;
  async function setPrices(variantId: number, prices: object[]) {
    expect((await admin('PUT', `/variants/${variantId}/prices`, prices)).statusCode).toBe(200);
  }
  /** An untouched product of at least two variants. */
  function productOfTwo(): Product {
    const index = untouched.findIndex((item) => item.variants.length >= 2);
    return untouched.splice(index, 1)[0]!;
  }
  const lastAudit = async () =>
    (await shop.app.database.db.select().from(auditLog).orderBy(desc(auditLog.id)).limit(1))[0]!;

  it('a renamed type’s column is found by its code: an empty cell removes a price, a filled one sets it, a type without a column stays; the packaging is set; preview, XLSX and journal per type', async () => {
    const item = productOfTwo();
    const [dropped, priced] = item.variants as [Product['variants'][number], Product['variants'][number]];
    const category = await categoryOf(item);
    await setPrices(dropped.id, [{ price_type_id: large.id, price: 900, tiers: [{ from: 10, price: 850 }] }]);
    await setPrices(priced.id, [{ price_type_id: rrp.id, price: 1999 }]);
    // The type is renamed after the file was made: its column keeps the old name and the code.
    expect((await admin('PATCH', `/price-types/${large.id}`, { name: 'Крупный опт 2027' })).statusCode).toBe(200);
    try {
      const lines: Line[] = [
        header(LARGE_COLUMN, 'Кратность', 'Минимум'),
        [item.art, item.name, category, dropped.color, dropped.size, dropped.price, null, 6, 12, dropped.stock],
        [item.art, item.name, category, priced.color, priced.size, priced.price, '850,50', 6, 12, priced.stock],
        ['NEW-TYPES-1', 'Жираф', category, 'жёлтый', 40, 1500, 1350, 2, 4, 10],
      ];
      const checked = await importResult(await xlsxOf(lines), true);
      expect(checked).toMatchObject({ created: 1, updated: 2, new_products: 1, errors: [] });
      const id = checked.preview!.id;

      const page = await changesPage(id, 0, 100);
      expect(page).toMatchObject({
        price_types: [{ code: 'krupnyy-opt', name: 'Крупный опт 2027' }],
        packaging: true,
        card: false,
        total: 3,
      });
      expect(page.items).toEqual([
        expect.objectContaining({
          row: 2,
          kind: 'updated',
          prices: [{ code: 'krupnyy-opt', price: null, old_price: 900 }],
          ...{ multiple: 6, min_quantity: 12, old_multiple: 1, old_min_quantity: 1 },
        }),
        expect.objectContaining({
          row: 3,
          kind: 'updated',
          prices: [{ code: 'krupnyy-opt', price: 850.5, old_price: null }],
        }),
        expect.objectContaining({
          row: 4,
          kind: 'created',
          new_product: true,
          prices: [{ code: 'krupnyy-opt', price: 1350, old_price: null }],
          ...{ multiple: 2, min_quantity: 4, old_multiple: null, old_min_quantity: null },
        }),
      ]);
      const [changesHeader, firstChange] = await readXlsx((await previewCall('GET', id, '/changes.xlsx')).rawPayload);
      expect(changesHeader).toEqual([
        ...['Строка', 'Что', 'Артикул', 'Цвет', 'Размер', 'Цена было', 'Цена стало'],
        ...['Цена «Крупный опт 2027» было', 'Цена «Крупный опт 2027» стало'],
        ...['Кратность была', 'Кратность стала', 'Минимум был', 'Минимум стал'],
        ...['Остаток было', 'Остаток стало', 'Название было', 'Название', 'Категория была', 'Категория'],
      ]);
      expect(firstChange).toEqual([
        ...[2, 'изменение', item.art, dropped.color, dropped.size, dropped.price, dropped.price],
        ...[900, undefined, 1, 6, 1, 12],
        ...[dropped.stock, dropped.stock, item.name, item.name, category, category],
      ]);
      // The check changed nothing yet.
      expect(ownPrice(await adminProduct(item.id), dropped.id, large)).toBe(900);

      expect((await previewCall('POST', id, '/apply')).statusCode).toBe(200);
      const after = await adminProduct(item.id);
      expect(after).toMatchObject({ multiple: 6, min_quantity: 12 });
      expect(ownPrice(after, dropped.id, large)).toBeNull();
      // Its tiers in the type went with the price, as the back office's price form removes them.
      expect(
        await shop.app.database.db.$count(
          priceTiers,
          and(eq(priceTiers.variantId, dropped.id), eq(priceTiers.priceTypeId, large.id)),
        ),
      ).toBe(0);
      expect(ownPrice(after, priced.id, large)).toBe(850.5);
      expect(ownPrice(after, priced.id, rrp)).toBe(1999);
      const created = await adminProduct((await product('NEW-TYPES-1')).id);
      expect(created).toMatchObject({ multiple: 2, min_quantity: 4 });
      expect(ownPrice(created, created.variants[0]!.id, large)).toBe(1350);

      const audit = await lastAudit();
      const droppedKey = `«${item.art}», ${dropped.color}, ${dropped.size} см`;
      const pricedKey = `«${item.art}», ${priced.color}, ${priced.size} см`;
      expect(audit.before).toEqual({
        [droppedKey]: { prices: { 'krupnyy-opt': 900 }, multiple: 1, min_quantity: 1 },
        [pricedKey]: { prices: { 'krupnyy-opt': null }, multiple: 1, min_quantity: 1 },
      });
      expect((audit.after as { changes: object }).changes).toEqual({
        '«NEW-TYPES-1», жёлтый, 40 см': {
          price: 1500,
          prices: { 'krupnyy-opt': 1350 },
          stock: 10,
          multiple: 2,
          min_quantity: 4,
        },
        [droppedKey]: { prices: { 'krupnyy-opt': null }, multiple: 6, min_quantity: 12 },
        [pricedKey]: { prices: { 'krupnyy-opt': 850.5 }, multiple: 6, min_quantity: 12 },
      });
    } finally {
      await admin('PATCH', `/price-types/${large.id}`, { name: 'Крупный опт' });
    }
  });

  it('an old file of the seven columns changes what it has and leaves the types’ prices and the packaging', async () => {
    const item = productOfTwo();
    const [first] = item.variants;
    await setPrices(first!.id, [{ price_type_id: large.id, price: 700 }]);
    expect((await admin('PATCH', `/products/${item.id}`, { multiple: 3, min_quantity: 6 })).statusCode).toBe(200);
    const [line, ...rest] = linesOf(item, await categoryOf(item));
    const file = await xlsxOf([[...PRICE_LIST_COLUMNS], [...line!.slice(0, 5), 777, 5], ...rest]);
    expect(await importResult(file, false)).toMatchObject({ updated: 1, unchanged: rest.length, errors: [] });
    const after = await adminProduct(item.id);
    expect(after).toMatchObject({ multiple: 3, min_quantity: 6 });
    expect(after.variants.find((variant) => variant.id === first!.id)).toMatchObject({ price: 777, stock: 5 });
    expect(ownPrice(after, first!.id, large)).toBe(700);
  });

  it('the header refuses the whole file: an unknown code naming its column, the default type’s, one type twice, «Кратность» without «Минимум»', async () => {
    const item = untouched.shift()!;
    const variant = item.variants[0]!;
    const category = await categoryOf(item);
    const line = (...cells: Line): Line => [item.art, item.name, category, variant.color, variant.size, 1, ...cells, 1];
    const before = await adminProduct(item.id);
    const auditBefore = await shop.app.database.db.$count(auditLog);
    const refusals = [
      [header('Цена «Опт для своих» [svoi]'), line(500)],
      [header('Цена «Оптовая» []'), line(500)],
      [header('Цена «Опт» [opt]'), line(500)],
      [header(LARGE_COLUMN, 'Крупный опт [KRUPNYY-OPT]'), line(500, 500)],
      [header('Кратность'), line(6)],
    ];
    const errors = [];
    for (const lines of refusals) errors.push((await importResult(await xlsxOf(lines), false)).errors);
    expect(errors).toEqual([
      [
        {
          row: 1,
          detail:
            'Столбец «Цена «Опт для своих» [svoi]»: типа цен с кодом «svoi» нет. Столбец цены типа называется, как в выгрузке: Цена «Название» [код]; коды — в разделе «Типы цен»',
        },
      ],
      [
        {
          row: 1,
          detail: expect.stringMatching(/^Столбец «Цена «Оптовая» \[\]»: в квадратных скобках нет кода типа цен/),
        },
      ],
      [{ row: 1, detail: 'Столбец «Цена «Опт» [opt]»: «Опт» — тип цен по умолчанию, его цены — в столбце «Цена»' }],
      [
        {
          row: 1,
          detail: `Столбцы «${LARGE_COLUMN}» и «Крупный опт [KRUPNYY-OPT]» — оба для типа цен «Крупный опт»: оставьте один`,
        },
      ],
      [
        {
          row: 1,
          detail: 'В заголовке есть столбец «Кратность», но нет «Минимум»: кратность и минимум задаются только вместе',
        },
      ],
    ]);
    expect(await adminProduct(item.id)).toEqual(before);
    expect(await shop.app.database.db.$count(auditLog)).toBe(auditBefore);
  });

  it('a bad price of a type refuses the whole file, every row’s problem listed, and nothing changes', async () => {
    const item = untouched.shift()!;
    const variant = item.variants[0]!;
    const category = await categoryOf(item);
    const bad = (art: string, price: string | number): Line => [art, 'Кот', category, 'белый', 20, 100, price, 1];
    const lines: Line[] = [
      header(LARGE_COLUMN),
      [item.art, item.name, category, variant.color, variant.size, 4444, 4000, 44], // row 2: a good change
      bad('NEW-TYPE-BAD-1', 0), // row 3
      bad('NEW-TYPE-BAD-2', -5), // row 4
      bad('NEW-TYPE-BAD-3', '12,345'), // row 5
      bad('NEW-TYPE-BAD-4', 'дорого'), // row 6
    ];
    const before = await adminProduct(item.id);
    const auditBefore = await shop.app.database.db.$count(auditLog);
    const rule = 'нужна цена в рублях больше нуля, не более двух знаков после запятой (например, 1499,90)';
    for (const dryRun of [true, false]) {
      expect(await importResult(await xlsxOf(lines), dryRun)).toEqual({
        dry_run: dryRun,
        created: 0,
        updated: 0,
        unchanged: 0,
        new_products: 0,
        preview: null,
        errors: [
          { row: 3, detail: `Столбец «${LARGE_COLUMN}»: «0» — ${rule}` },
          { row: 4, detail: `Столбец «${LARGE_COLUMN}»: «-5» — ${rule}` },
          { row: 5, detail: `Столбец «${LARGE_COLUMN}»: «12,345» — ${rule}` },
          { row: 6, detail: `Столбец «${LARGE_COLUMN}»: «дорого» — ${rule}` },
        ],
      });
    }
    expect(await adminProduct(item.id)).toEqual(before);
    expect(await shop.app.database.db.$count(auditLog)).toBe(auditBefore);
    expect((await shop.app.inject({ method: 'GET', url: '/api/v1/products/NEW-TYPE-BAD-1' })).statusCode).toBe(404);
  });

  it('the packaging: whole numbers, the minimum a multiple of the кратность, the same on every row of a product', async () => {
    const item = productOfTwo();
    const [first, second] = item.variants;
    const category = await categoryOf(item);
    const packed = (art: string, size: number, multiple: Line[number], minimum: Line[number]): Line => [
      ...[art, 'Кот', category, 'белый', size, 100, multiple, minimum, 1],
    ];
    const lines: Line[] = [
      header('Кратность', 'Минимум'),
      [item.art, item.name, category, first!.color, first!.size, first!.price, 6, 12, first!.stock], // row 2
      [item.art, item.name, category, second!.color, second!.size, second!.price, 6, 18, second!.stock], // row 3
      packed('NEW-PACK-1', 20, 4, 6), // row 4
      packed('NEW-PACK-2', 20, 2.5, 5), // row 5
      packed('NEW-PACK-3', 20, 0, null), // row 6
    ];
    const before = await adminProduct(item.id);
    const result = await importResult(await xlsxOf(lines), false);
    expect(result.errors).toEqual([
      {
        row: 3,
        detail: `Столбцы «Кратность» и «Минимум»: у артикула «${item.art}» в строке 2 кратность 6 и минимум 12; у всех вариантов товара они одни`,
      },
      { row: 4, detail: 'Столбец «Минимум»: минимальное количество (6 шт.) должно быть кратно кратности (4)' },
      { row: 5, detail: 'Столбец «Кратность»: «2.5» — нужно целое число штук от 1 до 10\u00a0000' },
      { row: 6, detail: 'Столбец «Кратность»: «0» — нужно целое число штук от 1 до 10\u00a0000' },
      { row: 6, detail: 'Столбец «Минимум»: не заполнен; нужно целое число штук от 1 до 10\u00a0000' },
    ]);
    expect(await adminProduct(item.id)).toEqual(before);
  });

  it('a type’s price edited after the check: «Применить» says the catalogue changed and writes nothing', async () => {
    const item = productOfTwo();
    const [first, second] = item.variants;
    const category = await categoryOf(item);
    const lines: Line[] = [
      header(LARGE_COLUMN),
      [item.art, item.name, category, first!.color, first!.size, first!.price, 640, first!.stock],
      // Unchanged: no price of the type, as the shop has it now.
      [item.art, item.name, category, second!.color, second!.size, second!.price, null, second!.stock],
    ];
    const { preview, updated, unchanged } = await importResult(await xlsxOf(lines), true);
    expect({ updated, unchanged }).toEqual({ updated: 1, unchanged: 1 });
    await setPrices(second!.id, [{ price_type_id: large.id, price: 610 }]);
    const refused = await previewCall('POST', preview!.id, '/apply');
    expect(refused.statusCode).toBe(409);
    const after = await adminProduct(item.id);
    expect(ownPrice(after, first!.id, large)).toBeNull();
    expect(ownPrice(after, second!.id, large)).toBe(610);
  });
});

describe('the marketplace card’s columns', () => {
  const productCard = async (id: number) =>
    (
      await shop.app.database.db
        .select({
          brand: products.brand,
          material: products.material,
          filler: products.filler,
          ageFrom: products.ageFrom,
          countryOfOrigin: products.countryOfOrigin,
          tnved: products.tnved,
        })
        .from(products)
        .where(eq(products.id, id))
    )[0]!;
  const variantCard = async (id: number) =>
    (
      await shop.app.database.db
        .select({
          barcode: variants.barcode,
          marked: variants.marked,
          lengthMm: variants.packageLengthMm,
          widthMm: variants.packageWidthMm,
          heightMm: variants.packageHeightMm,
          weightG: variants.weightG,
        })
        .from(variants)
        .where(eq(variants.id, id))
    )[0]!;
  let category: string;
  beforeAll(async () => {
    category = await categoryOf(untouched[0]!);
  });
  /** A product of two variants of its own, made by an import (the seed's are the other tests'). */
  async function productOfTwo(art: string): Promise<Product> {
    const made = await xlsxOf([
      [...PRICE_LIST_COLUMNS],
      [art, 'Зайка для маркетплейса', category, 'белый', 25, 990, 4],
      [art, 'Зайка для маркетплейса', category, 'серый', 35, 1290, 2],
    ]);
    expect(await importResult(made, false)).toMatchObject({ created: 2, errors: [] });
    return product(art);
  }
  const setBarcode = (variantId: number, barcode: string) =>
    shop.app.database.db.update(variants).set({ barcode }).where(eq(variants.id, variantId));

  it(
    'imported, exported and imported back; a column left out changes nothing, an empty cell clears its field',
    async () => {
      const item = await productOfTwo('CARD-1');
      const [first, second] = item.variants as [Product['variants'][number], Product['variants'][number]];
      // 1С's own code, not an EAN-13: kept while the file keeps it.
      await setBarcode(first.id, '2000000012345');
      const [firstLine, secondLine, ...rest] = linesOf(item, category);
      const product = ['Мягкий Опт', 'Плюш', 'Холлофайбер', 3, 'Россия', '9503 00 410 0'];
      const file = await xlsxOf([
        [...PRICE_LIST_COLUMNS, ...CARD_COLUMNS],
        [...firstLine!, ...product, '2000000012345', 'Да', 25.5, '20', '15,5', 450],
        // A number cell, as Excel makes of a typed EAN-13.
        [...secondLine!, ...product, 4607001234562, 'нет', null, null, null, null],
        ...rest.map((line) => [...line, ...product]),
      ]);
      const dryRun = await importResult(file, true);
      expect(dryRun).toMatchObject({ updated: item.variants.length, errors: [] });
      expect((await productCard(item.id)).brand).toBeNull();

      expect(await importResult(file, false)).toMatchObject({ updated: item.variants.length, errors: [] });
      expect(await productCard(item.id)).toEqual({
        brand: 'Мягкий Опт',
        material: 'Плюш',
        filler: 'Холлофайбер',
        ageFrom: 3,
        countryOfOrigin: 'Россия',
        tnved: '9503004100',
      });
      expect(await variantCard(first.id)).toEqual({
        barcode: '2000000012345',
        marked: true,
        lengthMm: 255,
        widthMm: 200,
        heightMm: 155,
        weightG: 450,
      });
      expect(await variantCard(second.id)).toEqual({
        barcode: '4607001234562',
        marked: false,
        lengthMm: null,
        widthMm: null,
        heightMm: null,
        weightG: null,
      });

      const exported = await readXlsx((await exportAs('xlsx')).rawPayload);
      const cardStart = exportHeader().indexOf('Бренд');
      const exportedFirst = exported.find(
        (line) => line[0] === item.art && line[3] === first.color && line[4] === first.size,
      )!;
      expect(exportedFirst.slice(cardStart, cardStart + CARD_COLUMNS.length)).toEqual([
        ...['Мягкий Опт', 'Плюш', 'Холлофайбер', 3, 'Россия', '9503004100'],
        ...['2000000012345', 'да', 25.5, 20, 15.5, 450],
      ]);
      // The export imports back as it is: nothing changes.
      for (const format of ['xlsx', 'csv']) {
        const again = await importResult((await exportAs(format)).rawPayload, true);
        expect([format, again.updated, again.created, again.errors]).toEqual([format, 0, 0, []]);
      }

      // A file of the seven columns leaves the card as it is; one of «Бренд» alone, emptied, clears the brand only.
      expect(
        await importResult(await xlsxOf([[...PRICE_LIST_COLUMNS], ...linesOf(item, category)]), false),
      ).toMatchObject({
        updated: 0,
        errors: [],
      });
      expect((await productCard(item.id)).brand).toBe('Мягкий Опт');
      const cleared = await xlsxOf([
        [...PRICE_LIST_COLUMNS, 'Бренд'],
        ...linesOf(item, category).map((line) => [...line, null]),
      ]);
      expect(await importResult(cleared, false)).toMatchObject({ updated: item.variants.length, errors: [] });
      expect(await productCard(item.id)).toMatchObject({ brand: null, material: 'Плюш', tnved: '9503004100' });
      expect((await variantCard(first.id)).barcode).toBe('2000000012345');
    },
    STARTUP_TIMEOUT,
  );

  it(
    'the check names the card fields a row changes, old → new as the price list writes them; the changes XLSX too',
    async () => {
      const item = await productOfTwo('CARD-4');
      const other = await productOfTwo('CARD-5');
      const [first] = item.variants as [Product['variants'][number]];
      const { db } = shop.app.database;
      await db.update(products).set({ brand: 'Плюшевый мир' }).where(eq(products.id, item.id));
      await db
        .update(variants)
        .set({ barcode: '2000000012345', packageLengthMm: 255 })
        .where(eq(variants.id, first.id));
      await db.update(variants).set({ packageLengthMm: 255 }).where(eq(variants.id, other.variants[0]!.id));
      const [firstLine, secondLine] = linesOf(item, category);
      const [otherFirst, otherSecond] = linesOf(other, category);
      // Each line's card cells: the product's, then the variant's (barcode, marking, package, weight).
      const card = (brand: string | null, barcode: string | null, lengthCm: number | null) => [
        ...[brand, null, null, null, null, null],
        ...[barcode, 'нет', lengthCm, null, null, null],
      ];
      const header = [...PRICE_LIST_COLUMNS, ...CARD_COLUMNS];
      const checked = await importResult(
        await xlsxOf([
          header,
          // Only the brand and the first variant's barcode change; its package stays 25,5 cm.
          [...firstLine!, ...card('Мягкий Опт', '4607001111115', 25.5)],
          [...secondLine!, ...card('Мягкий Опт', null, null)],
          // A new colour of the same product: the product's brand changes, its own barcode is a first value.
          [item.art, item.name, category, 'розовый', 25, 990, 1, ...card('Мягкий Опт', '4607002222223', null)],
          // The stock alone changes: nothing of the card.
          [...otherFirst!.slice(0, 6), 99, ...card(null, null, 25.5)],
          // Nothing changes.
          [...otherSecond!, ...card(null, null, null)],
        ]),
        true,
      );
      expect(checked).toMatchObject({ created: 1, updated: 3, unchanged: 1, errors: [] });
      const id = checked.preview!.id;
      const page = await changesPage(id, 0, 100);
      expect(page).toMatchObject({ price_types: [], packaging: false, card: true, total: 4 });
      const brand = { column: 'Бренд', old_value: 'Плюшевый мир', value: 'Мягкий Опт' };
      expect(page.items.map(({ row, kind, card_changes: changes }) => ({ row, kind, changes }))).toEqual([
        {
          row: 2,
          kind: 'updated',
          changes: [brand, { column: 'Штрихкод', old_value: '2000000012345', value: '4607001111115' }],
        },
        { row: 3, kind: 'updated', changes: [brand] },
        { row: 4, kind: 'created', changes: [brand] },
        { row: 5, kind: 'updated', changes: [] },
      ]);
      // The changes file: the card's column last, empty where the card stays as it is.
      const [changesHeader, ...changes] = await readXlsx((await previewCall('GET', id, '/changes.xlsx')).rawPayload);
      const cardColumn = changesHeader!.length - 1;
      expect(changesHeader![cardColumn]).toBe('Карточка: что меняется');
      expect(changes.map((line) => [line[0], line[cardColumn]])).toEqual([
        [2, 'Бренд: Плюшевый мир → Мягкий Опт; Штрихкод: 2000000012345 → 4607001111115'],
        [3, 'Бренд: Плюшевый мир → Мягкий Опт'],
        [4, 'Бренд: Плюшевый мир → Мягкий Опт'],
        [5, undefined],
      ]);
      // The check changed nothing: the brand and the first variant's barcode are as before.
      expect((await productCard(item.id)).brand).toBe('Плюшевый мир');
      expect((await variantCard(first.id)).barcode).toBe('2000000012345');

      // A marking, a package side and a weight, old → new as the price list writes them.
      const packed = await importResult(
        await xlsxOf([
          [...PRICE_LIST_COLUMNS, 'Маркировка', 'Длина упаковки, см', 'Вес, г'],
          [...otherFirst!, 'да', '30', 450],
        ]),
        true,
      );
      expect(packed).toMatchObject({ updated: 1, unchanged: 0, errors: [] });
      expect((await changesPage(packed.preview!.id, 0, 100)).items[0]!.card_changes).toEqual([
        { column: 'Маркировка', old_value: 'нет', value: 'да' },
        { column: 'Длина упаковки, см', old_value: '25,5', value: '30' },
        { column: 'Вес, г', old_value: null, value: '450' },
      ]);
      const [, packedChange] = await readXlsx(
        (await previewCall('GET', packed.preview!.id, '/changes.xlsx')).rawPayload,
      );
      expect(packedChange!.at(-1)).toBe('Маркировка: нет → да; Длина упаковки, см: 25,5 → 30; Вес, г: пусто → 450');
    },
    STARTUP_TIMEOUT,
  );

  it(
    'a bad value, a changed barcode that is no EAN-13 or is another variant’s: row errors, and nothing changes',
    async () => {
      const item = await productOfTwo('CARD-2');
      const other = await productOfTwo('CARD-3');
      const [first, second] = item.variants as [Product['variants'][number], Product['variants'][number]];
      await setBarcode(other.variants[0]!.id, '4600000000008');
      const [firstLine, secondLine] = linesOf(item, category);
      const header = [...PRICE_LIST_COLUMNS, ...CARD_COLUMNS];
      const card = (...cells: Line) => cells;
      const product = card('Бренд', 'Плюш', null, 3, 'Китай', '9503004100');
      const cases: [Line[], string[]][] = [
        [
          [[...firstLine!, ...product, '4607001234563', 'да', 10, 10, 10, 100]],
          ['Столбец «Штрихкод»: «4607001234563» — не EAN-13: нужно 13 цифр с верной контрольной цифрой'],
        ],
        [
          [[...firstLine!, ...product, '4600000000008', 'да', 10, 10, 10, 100]],
          ['Столбец «Штрихкод»: «4600000000008» уже у другого варианта'],
        ],
        [
          [
            [...firstLine!, ...product, '4607007654326', 'да', 10, 10, 10, 100],
            [...secondLine!, ...product, '4607007654326', 'да', 10, 10, 10, 100],
          ],
          ['Столбец «Штрихкод»: «4607007654326» уже указан в строке 2'],
        ],
        [
          [[...firstLine!, ...product, null, 'может быть', 0, -2, '1,25', 0]],
          [
            'Столбец «Маркировка»: «может быть» — нужно «да» или «нет»',
            'Столбец «Длина упаковки, см»: «0» — нужны сантиметры больше нуля и не более 500, с одним знаком после запятой (например, 12,5)',
            'Столбец «Ширина упаковки, см»: «-2» — нужны сантиметры больше нуля и не более 500, с одним знаком после запятой (например, 12,5)',
            'Столбец «Высота упаковки, см»: «1,25» — нужны сантиметры больше нуля и не более 500, с одним знаком после запятой (например, 12,5)',
            'Столбец «Вес, г»: «0» — нужно целое число граммов больше нуля, не более 1\u00a0000\u00a0000',
          ],
        ],
        [
          [
            [
              ...firstLine!,
              ...card('Бренд', 'Плюш', null, 19, 'Китай', '95030041'),
              null,
              'нет',
              null,
              null,
              null,
              null,
            ],
          ],
          [
            'Столбец «Возраст от»: «19» — нужно целое число лет от 0 до 18',
            'Столбец «ТН ВЭД»: «95030041» — нужен код из 10 цифр (например, 9503004100)',
          ],
        ],
        [
          [
            [...firstLine!, ...product, null, 'нет', null, null, null, null],
            [
              ...secondLine!,
              ...card('Другой', 'Плюш', null, 3, 'Китай', '9503004100'),
              null,
              'нет',
              null,
              null,
              null,
              null,
            ],
          ],
          [
            'Столбец «Бренд»: у артикула «' +
              item.art +
              '» в строке 2 — «Бренд»; у всех вариантов товара значение одно',
          ],
        ],
      ];
      for (const [lines, details] of cases) {
        const result = await importResult(await xlsxOf([header, ...lines]), false);
        expect(result.errors.map((error) => error.detail)).toEqual(details);
        expect(result.updated).toBe(0);
      }
      expect(await productCard(item.id)).toMatchObject({ brand: null, tnved: null });
      expect(await variantCard(first.id)).toMatchObject({ barcode: null, marked: false, lengthMm: null });
      expect((await variantCard(second.id)).barcode).toBeNull();
    },
    STARTUP_TIMEOUT,
  );
});

describe(`the import beside other writers (${usesPostgres ? 'PostgreSQL' : 'PGlite'})`, () => {
  it('two imports creating the same new article at once: one creates it, the other finds it made', async () => {
    const category = await categoryOf(untouched[0]!);
    const file = await xlsxOf([
      [...PRICE_LIST_COLUMNS],
      ['TWICE-1', 'Лисёнок', category, 'рыжий', 25, 990, 4],
      ['TWICE-1', 'Лисёнок', category, 'рыжий', 35, 1290, 2],
    ]);
    const results = await Promise.all([importResult(file, false), importResult(file, false)]);
    expect(
      results.map(({ created, unchanged }) => ({ created, unchanged })).sort((a, b) => b.created - a.created),
    ).toEqual([
      { created: 2, unchanged: 0 },
      { created: 0, unchanged: 2 },
    ]);
    expect((await product('TWICE-1')).variants).toHaveLength(2);
  });

  it('an import and orders of the same variants at once: no deadlock, no 500, the stock is the last writer’s', async () => {
    const item = untouched.shift()!;
    const category = await categoryOf(item);
    const [buyerOne, buyerTwo] = await quickShoppers(shop.app, 2);
    const lines = linesOf(item, category).map((line): Line => [...line.slice(0, 5), 321, 50]);
    const file = await xlsxOf([[...PRICE_LIST_COLUMNS], ...lines]);
    const orderAll = (who: Shopper) =>
      shop.app.inject({
        method: 'POST',
        url: '/api/v1/order/',
        headers: who.headers,
        payload: {
          user_id: who.id,
          address: 'г. Тверь, ул. Советская, д. 3',
          // Highest id first: the order transaction sorts them itself.
          items: [...item.variants]
            .reverse()
            .map((variant) => ({ product_id: item.id, variant_id: variant.id, quantity: 1 })),
        },
      });
    const [imported, ...ordered] = await Promise.all([
      importFile(file, false),
      orderAll(buyerOne!),
      orderAll(buyerTwo!),
    ]);
    expect(imported.statusCode).toBe(200);
    expect(json<ImportResult>(imported).errors).toEqual([]);
    for (const answer of ordered) expect([201, 409]).toContain(answer.statusCode);
    const placed = ordered.filter((answer) => answer.statusCode === 201).length;
    const stocks = (await product(item.art)).variants.map((variant) => variant.stock);
    // Each order either went before the import (which then set 50) or after it (and took 1 of the 50).
    for (const stock of stocks) expect(stock).toBeGreaterThanOrEqual(50 - placed);
    expect(stocks.every((stock) => stock <= 50)).toBe(true);
  });

  (usesPostgres ? it : it.skip)(
    'another server process on the same database shows the imported price as soon as it is told',
    async () => {
      const other = await buildApp({ ...shop.config });
      try {
        await other.ready();
        const item = untouched.shift()!;
        const read = async () =>
          json<Product>(await other.inject({ method: 'GET', url: `/api/v1/products/${encodeURIComponent(item.art)}` }));
        expect((await read()).variants[0]!.price).toBe(item.variants[0]!.price);
        const [first] = linesOf(item, await categoryOf(item));
        expect(
          await importResult(await xlsxOf([[...PRICE_LIST_COLUMNS], [...first!.slice(0, 5), 4242.42, 9]]), false),
        ).toMatchObject({
          updated: 1,
        });
        const deadline = Date.now() + 5000;
        while ((await read()).variants[0]!.price !== 4242.42 && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        expect((await read()).variants[0]!.price).toBe(4242.42);
      } finally {
        await other.close();
      }
    },
    STARTUP_TIMEOUT,
  );
});
