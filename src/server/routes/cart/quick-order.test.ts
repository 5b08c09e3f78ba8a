import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import type { Cart, CartImportResult, Product } from '../../../shared/api';
import { CART_IMPORT_MAX_BYTES, QUICK_ORDER_COLUMNS } from '../../../shared/cart-import';
import { products, variants } from '../../db/schema';
import { moscowDay } from '../../../shared/dates';
import { ORDER_LINE_COLUMNS } from '../../../shared/cart-import';
import {
  createTestApp,
  json,
  quickShoppers,
  STARTUP_TIMEOUT,
  type Shopper,
  type TestApp,
} from '../../../../test/server/helpers/test-app';
import { cartOf, cartProducts, inStock } from '../../../../test/server/helpers/cart';
import { windows1251 } from '../../../../test/server/helpers/windows-1251';

type Cells = (string | number | null)[];
type Variant = Product['variants'][number];

let shop: TestApp;
let catalogue: Awaited<ReturnType<typeof cartProducts>>;

beforeAll(async () => {
  shop = await createTestApp();
  catalogue = await cartProducts(shop.app);
}, STARTUP_TIMEOUT);
afterAll(() => shop.close());

const takeProduct = () => catalogue.takeProduct();

async function newShopper(): Promise<Shopper> {
  return (await quickShoppers(shop.app, 1))[0]!;
}

/** «MO-1008 коричневый 90 10», as a buyer types it. */
const typed = (product: Product, variant: Variant, count: number, separator = ' ') =>
  [product.art, variant.color, variant.size, count].join(separator);

const importText = (who: Shopper | null, text: string, dryRun: boolean | string = true) =>
  shop.app.inject({
    method: 'POST',
    url: '/api/v1/cart/import',
    query: { dry_run: String(dryRun) },
    headers: { ...who?.headers, 'content-type': 'text/plain; charset=utf-8' },
    payload: text,
  });

function importFile(who: Shopper, file: Buffer, filename: string, dryRun = true) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(file)]), filename);
  return shop.app.inject({
    method: 'POST',
    url: '/api/v1/cart/import',
    query: { dry_run: String(dryRun) },
    headers: who.headers,
    payload: form,
  });
}

async function imported(response: Awaited<ReturnType<typeof importText>>): Promise<CartImportResult> {
  expect(response.statusCode).toBe(200);
  return json<CartImportResult>(response);
}

const exportCart = (who: Shopper | null, format: string, userId = who?.id ?? 1) =>
  shop.app.inject({
    method: 'GET',
    url: `/api/v1/cart/${userId}/export`,
    query: { format },
    headers: who?.headers ?? {},
  });

const linesOfCart = (cart: Cart) => cart.items.map((item) => [item.variant_id, item.count]);

async function add(shopper: Shopper, product: Product, variant: Variant, count: number) {
  const response = await shop.app.inject({
    method: 'POST',
    url: '/api/v1/cart/add',
    headers: shopper.headers,
    payload: { user_id: shopper.id, product_id: product.id, variant_id: variant.id, count },
  });
  expect(response.statusCode).toBe(201);
}

async function xlsxOf(lines: Cells[]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Лист1');
  for (const line of lines) sheet.addRow(line);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

async function readXlsx(file: Buffer): Promise<Cells[]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength) as ArrayBuffer);
  const lines: Cells[] = [];
  // exceljs leaves empty cells out of a row's (sparse) values.
  workbook.worksheets[0]!.eachRow((row) =>
    lines.push(Array.from((row.values as Cells).slice(1), (cell) => cell ?? null)),
  );
  return lines;
}

/** A found line as the answer gives it. */
const foundLine = (line: number, product: Product, variant: Variant, count: number, error: string | null = null) => ({
  line,
  art: product.art,
  color: variant.color,
  size: variant.size,
  count,
  product_id: product.id,
  variant_id: variant.id,
  name: product.name,
  price: variant.price,
  stock: variant.stock,
  unproven_held: variant.unproven_held,
  multiple: product.multiple,
  min_quantity: product.min_quantity,
  error,
});

const NOTHING_FOUND = {
  product_id: null,
  variant_id: null,
  name: null,
  price: null,
  stock: null,
  unproven_held: null,
  multiple: null,
  min_quantity: null,
};
/** A line whose variant was not found: what was read, and why. */
const unfound = (line: number, [art, color, size, count]: Cells, error: string) => ({
  line,
  art,
  color,
  size,
  count,
  ...NOTHING_FOUND,
  error,
});

describe('POST /api/v1/cart/import: pasted text', () => {
  it('a dry run reads tabs, «;» and spaces, finds each variant, names each problem, and changes nothing', async () => {
    const shopper = await newShopper();
    const product = takeProduct();
    const [first, second] = inStock(product);
    const hidden = takeProduct();
    await add(shopper, hidden, hidden.variants[0]!, 1);
    await shop.app.database.db.update(products).set({ hiddenAt: new Date() }).where(eq(products.id, hidden.id));
    const before = await cartOf(shop.app, shopper);

    const text = [
      'Артикул\tЦвет\tРазмер\tКоличество',
      typed(product, first!, 10, '\t'),
      '',
      typed(product, second!, 2, ';'),
      `  ${product.art.toLowerCase()}   ${second!.color.toUpperCase()}   ${second!.size}   3`,
      'MO-9999 бежевый 60 1',
      `${product.art} зелёный ${first!.size} 1`,
      `${product.art} ${first!.color} 20000 1`,
      typed(catalogue.soldOut.product, catalogue.soldOut.variant, 1),
      typed(hidden, hidden.variants[0]!, 1),
      `${product.art} ${first!.color} ${first!.size} 0`,
    ].join('\n');
    const result = await imported(await importText(shopper, text));
    const colors = [...new Set(product.variants.map((variant) => variant.color))].join(', ');
    expect(result).toEqual({
      lines: [
        foundLine(2, product, first!, 10),
        foundLine(4, product, second!, 2),
        {
          ...foundLine(5, product, second!, 3, 'Этот вариант уже есть в строке 4'),
          art: product.art.toLowerCase(),
          color: second!.color.toUpperCase(),
        },
        unfound(6, ['MO-9999', 'бежевый', 60, 1], 'Артикул MO-9999 не найден'),
        unfound(
          7,
          [product.art, 'зелёный', first!.size, 1],
          `Нет цвета зелёный у артикула ${product.art}; есть: ${colors}`,
        ),
        unfound(8, [product.art, first!.color, 20000, 1], `Нет размера 20000 у цвета ${first!.color}`),
        foundLine(
          9,
          catalogue.soldOut.product,
          catalogue.soldOut.variant,
          1,
          `Товара «${catalogue.soldOut.product.name}» нет в наличии`,
        ),
        // A product off sale is an unknown article to a buyer: no name, price, stock or ids.
        unfound(
          10,
          [hidden.art, hidden.variants[0]!.color, hidden.variants[0]!.size, 1],
          `Артикул ${hidden.art} не найден`,
        ),
        foundLine(11, product, first!, 0, 'Количество должно быть целым числом от 1'),
      ],
      valid: 2,
      invalid: 7,
    });
    expect(await cartOf(shop.app, shopper)).toEqual(before);
  });

  it('dry_run=false with an invalid line → 422 with every line, and the cart stays as it was', async () => {
    const shopper = await newShopper();
    const product = takeProduct();
    const [first, second] = inStock(product);
    await add(shopper, product, first!, 2);
    const before = await cartOf(shop.app, shopper);

    const response = await importText(shopper, [typed(product, second!, 1), 'MO-9999 бежевый 60 1'].join('\n'), false);
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({
      detail: 'В корзину ничего не добавлено: строк с ошибками — 1. Исправьте их и загрузите снова',
      lines: [
        foundLine(1, product, second!, 1),
        unfound(2, ['MO-9999', 'бежевый', 60, 1], 'Артикул MO-9999 не найден'),
      ],
      valid: 1,
      invalid: 1,
    });
    expect(await cartOf(shop.app, shopper)).toEqual(before);
  });

  it('dry_run=false with every line valid adds them all; a variant already in the cart gets its count added', async () => {
    const shopper = await newShopper();
    const product = takeProduct();
    const [held, fresh] = inStock(product);
    await add(shopper, product, held!, 2);
    // A colour with a space in it, as a person types it with spaces between the words.
    await shop.app.database.db.update(variants).set({ color: 'светло бежевый' }).where(eq(variants.id, fresh!.id));

    const text = `${typed(product, held!, 5)}\r\n${product.art} Светло  бежевый ${fresh!.size} 7\r\n`;
    const result = await imported(await importText(shopper, text, false));
    expect(result).toMatchObject({ valid: 2, invalid: 0 });
    expect(linesOfCart(await cartOf(shop.app, shopper))).toEqual([
      [held!.id, 7],
      [fresh!.id, 7],
    ]);

    // The limit counts what the cart holds: 7 + 9 994 is over 10 000, so nothing changes.
    const over = await importText(shopper, typed(product, held!, 9994), false);
    expect(over.statusCode).toBe(422);
    expect(json<CartImportResult>(over).lines[0]!.error).toBe(
      'В корзине уже 7 шт. этого варианта, а вместе можно не больше 10000',
    );
    expect(linesOfCart(await cartOf(shop.app, shopper))).toEqual([
      [held!.id, 7],
      [fresh!.id, 7],
    ]);
  });

  it('5 000 lines are read with as many queries as two; 5 001 or none → 422', async () => {
    const shopper = await newShopper();
    const product = takeProduct();
    const variant = inStock(product)[0]!;
    const lines = Array.from({ length: 5000 }, (_, index) =>
      index % 2 === 0 ? `MO-NONE-${index} белый 25 1` : typed(product, variant, 1),
    );
    const queries = jest.spyOn(shop.app.database.db, 'select');
    await imported(await importText(shopper, lines.slice(0, 2).join('\n')));
    const forTwo = queries.mock.calls.length;
    expect(forTwo).toBeGreaterThanOrEqual(2);
    queries.mockClear();
    const result = await imported(await importText(shopper, lines.join('\n')));
    expect(queries.mock.calls.length).toBe(forTwo);
    queries.mockRestore();
    expect(result.lines).toHaveLength(5000);
    expect(result.lines[1]).toEqual(foundLine(2, product, variant, 1));
    expect(result.lines[3]!.error).toBe('Этот вариант уже есть в строке 2');
    expect(result.lines[4]!.error).toBe('Артикул MO-NONE-4 не найден');

    const tooMany = await importText(shopper, [...lines, typed(product, variant, 1)].join('\n'));
    expect(tooMany.statusCode).toBe(422);
    expect(tooMany.json()).toEqual({
      detail: expect.stringMatching(/^Слишком много строк: за один раз можно не более 5000\. /),
    });
    const none = await importText(shopper, 'Артикул Цвет Размер Количество\n\n');
    expect(none.statusCode).toBe(422);
    expect(none.json()).toEqual({ detail: expect.stringMatching(/^Нет ни одной строки с товаром/) });
  });
});

describe('POST /api/v1/cart/import: a file', () => {
  it('XLSX: columns in any order and case, others ignored, lines numbered by their row in the file', async () => {
    const shopper = await newShopper();
    const product = takeProduct();
    const [first, second] = inStock(product);
    const file = await xlsxOf([
      ['Примечание', 'КОЛИЧЕСТВО', 'размер', 'Цвет', 'Артикул'],
      ['срочно', 4, first!.size, first!.color, product.art],
      [],
      [null, '3', String(second!.size), second!.color, product.art],
      [null, null, null, null, 'MO-9999'],
    ]);
    const result = await imported(await importFile(shopper, file, 'заказ.xlsx'));
    expect(result).toEqual({
      lines: [
        foundLine(2, product, first!, 4),
        foundLine(4, product, second!, 3),
        unfound(5, ['MO-9999', null, null, null], 'Не заполнено: цвет, размер, количество'),
      ],
      valid: 2,
      invalid: 1,
    });
  });

  it('CSV in UTF-8 with a BOM and «,», and in Windows-1251 with «;»', async () => {
    const shopper = await newShopper();
    const product = takeProduct();
    const [first, second] = inStock(product);
    const rows = [
      [...QUICK_ORDER_COLUMNS],
      [product.art, first!.color, first!.size, 2],
      [product.art, second!.color, second!.size, 5],
    ];

    const commas = `\uFEFF${rows.map((row) => row.map((cell) => `"${cell}"`).join(',')).join('\r\n')}`;
    const expected = {
      lines: [foundLine(2, product, first!, 2), foundLine(3, product, second!, 5)],
      valid: 2,
      invalid: 0,
    };
    expect(await imported(await importFile(shopper, Buffer.from(commas), 'заказ.csv'))).toEqual(expected);

    const semicolons = windows1251(rows.map((row) => row.join(';')).join('\r\n'));
    expect(await imported(await importFile(shopper, semicolons, 'заказ.csv', false))).toEqual(expected);
    expect(linesOfCart(await cartOf(shop.app, shopper))).toEqual([
      [first!.id, 2],
      [second!.id, 5],
    ]);
  });

  it('not a spreadsheet → 415, too large → 413, broken or without the columns or too long → 422', async () => {
    const shopper = await newShopper();
    const pdf = Buffer.from('%PDF-1.4\n%\u00e2\u00e3\u00cf\u00d3\n1 0 obj<<>>endobj\n\u0000\u0000trailer\n%%EOF');
    const refused = await importFile(shopper, pdf, 'заказ.pdf');
    expect(refused.statusCode).toBe(415);
    expect(refused.json()).toEqual({ detail: expect.stringMatching(/XLSX или CSV/) });

    const large = await importFile(shopper, Buffer.alloc(CART_IMPORT_MAX_BYTES + 1, 'a'), 'заказ.csv');
    expect(large.statusCode).toBe(413);
    expect(large.json()).toEqual({ detail: 'Файл больше 5 МБ' });

    const broken = await importFile(shopper, Buffer.from('PK\u0003\u0004 not really a zip'), 'заказ.xlsx');
    expect(broken.statusCode).toBe(422);
    expect(broken.json()).toEqual({ detail: expect.stringMatching(/^Файл XLSX повреждён/) });

    const noColumns = await importFile(
      shopper,
      await xlsxOf([
        ['Артикул', 'Кол-во'],
        ['MO-1', 2],
      ]),
      'заказ.xlsx',
    );
    expect(noColumns.statusCode).toBe(422);
    expect(noColumns.json()).toEqual({
      detail: expect.stringMatching(/^В заголовке нет столбцов: «Цвет», «Размер», «Количество»/),
    });

    const headerOnly = await importFile(shopper, await xlsxOf([[...QUICK_ORDER_COLUMNS]]), 'заказ.xlsx');
    expect(headerOnly.statusCode).toBe(422);

    const long = await xlsxOf([
      [...QUICK_ORDER_COLUMNS],
      ...Array.from({ length: 5001 }, () => ['MO-1', 'белый', 25, 1]),
    ]);
    const tooMany = await importFile(shopper, long, 'заказ.xlsx');
    expect(tooMany.statusCode).toBe(422);
    expect(tooMany.json()).toEqual({
      detail: expect.stringMatching(/^Слишком много строк: за один раз можно не более 5000\. /),
    });
  });
});

describe('POST /api/v1/cart/import: who and what', () => {
  it('no token → 401; JSON or a form → 415; pasted text beyond the limit → 413', async () => {
    expect((await importText(null, 'MO-1008 бежевый 60 1')).statusCode).toBe(401);
    const shopper = await newShopper();
    for (const [type, payload] of [
      ['application/json', JSON.stringify({ lines: ['MO-1008 бежевый 60 1'] })],
      ['application/x-www-form-urlencoded', 'text=MO-1008'],
    ]) {
      const response = await shop.app.inject({
        method: 'POST',
        url: '/api/v1/cart/import',
        headers: { ...shopper.headers, 'content-type': type! },
        payload,
      });
      expect(response.statusCode).toBe(415);
      expect(response.json()).toEqual({
        detail: 'Отправьте строки текстом (text/plain) или файл XLSX или CSV формой multipart/form-data',
      });
    }
    const huge = await importText(shopper, 'MO-1008 бежевый 60 1\n'.repeat(CART_IMPORT_MAX_BYTES / 20));
    expect(huge.statusCode).toBe(413);
  });

  it('dry_run=maybe → 422 {detail}, and the cart stays as it was', async () => {
    const shopper = await newShopper();
    const product = takeProduct();
    const [held, fresh] = inStock(product);
    await add(shopper, product, held!, 2);
    const before = await cartOf(shop.app, shopper);

    const response = await importText(shopper, typed(product, fresh!, 1), 'maybe');
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({ detail: expect.stringMatching(/^Некорректные данные: поле «dry_run» /) });
    expect(await cartOf(shop.app, shopper)).toEqual(before);
  });

  it('the cart’s other routes still refuse pasted text and forms', async () => {
    const shopper = await newShopper();
    const form = new FormData();
    form.append('file', new Blob(['x']), 'a.csv');
    for (const payload of [form, 'MO-1008 бежевый 60 1']) {
      const response = await shop.app.inject({
        method: 'POST',
        url: '/api/v1/cart/bulk',
        headers: { ...shopper.headers, ...(typeof payload === 'string' ? { 'content-type': 'text/plain' } : {}) },
        payload,
      });
      expect(response.statusCode).toBe(415);
    }
  });
});

describe('the OpenAPI document', () => {
  it('documents both bodies of the import, its 422 with the lines, and both formats of the export', async () => {
    const response = await shop.app.inject({ method: 'GET', url: '/api/docs/json' });
    const paths = json<{ paths: Record<string, Record<string, Record<string, Record<string, unknown>>>> }>(
      response,
    ).paths;
    const importing = paths['/api/v1/cart/import']!.post!;
    expect(Object.keys(importing.requestBody!.content!)).toEqual(['text/plain', 'multipart/form-data']);
    expect(JSON.stringify(importing.requestBody)).toContain('"format":"binary"');
    expect(JSON.stringify(importing.responses!['422'])).toContain('"lines"');
    const exporting = paths['/api/v1/cart/{user_id}/export']!.get!;
    expect(Object.keys((exporting.responses!['200'] as { content: object }).content)).toEqual([
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      'text/csv; charset=utf-8',
    ]);
  });
});

describe('GET /api/v1/cart/{user_id}/export', () => {
  it('no token → 401, another buyer’s cart → 403, an unknown format → 422', async () => {
    const [shopper, other] = await quickShoppers(shop.app, 2);
    expect((await exportCart(null, 'xlsx', shopper!.id)).statusCode).toBe(401);
    expect((await exportCart(shopper!, 'xlsx', other!.id)).statusCode).toBe(403);
    expect((await exportCart(shopper!, 'pdf')).statusCode).toBe(422);
  });

  it('xlsx: the lines on sale with numbers as numbers and «Итого»; a line taken off sale is left out', async () => {
    const shopper = await newShopper();
    const product = takeProduct();
    const [first, second] = inStock(product);
    const hidden = takeProduct();
    await add(shopper, product, first!, 3);
    await add(shopper, hidden, inStock(hidden)[0]!, 1);
    await add(shopper, product, second!, 2);
    await shop.app.database.db.update(products).set({ hiddenAt: new Date() }).where(eq(products.id, hidden.id));

    const response = await exportCart(shopper, 'xlsx');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    const [year, month, day] = moscowDay(new Date()).split('-');
    const name = encodeURIComponent(`Корзина ${day}.${month}.${year}.xlsx`);
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="cart-${year}-${month}-${day}.xlsx"; filename*=UTF-8''${name}`,
    );
    const line = (variant: Variant, count: number) => [
      product.art,
      product.name,
      variant.color,
      variant.size,
      variant.price,
      count,
      Math.round(variant.price! * 100 * count) / 100,
    ];
    const total = Math.round(first!.price! * 300 + second!.price! * 200) / 100;
    expect(await readXlsx(response.rawPayload)).toEqual([
      [...ORDER_LINE_COLUMNS],
      line(first!, 3),
      line(second!, 2),
      ['Итого', null, null, null, null, 5, total],
    ]);
    expect((await cartOf(shop.app, shopper)).total_price).toBe(total);
    // Still numbers, read as «25 см» and «1 499,90 ₽», as money reads everywhere in the shop.
    const workbook = new ExcelJS.Workbook();
    const file = response.rawPayload;
    await workbook.xlsx.load(file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength) as ArrayBuffer);
    const firstLine = workbook.worksheets[0]!.getRow(2);
    expect([4, 5, 7].map((column) => firstLine.getCell(column).numFmt)).toEqual([
      '0"\u00a0см"',
      '#,##0.00"\u00a0₽"',
      '#,##0.00"\u00a0₽"',
    ]);
  });

  it('csv: UTF-8 with a BOM, «;», decimal comma, CRLF, and a name that looks like a formula defused', async () => {
    const shopper = await newShopper();
    const product = takeProduct();
    const variant = inStock(product)[0]!;
    const risky = '=HYPERLINK("http://evil.example";"Мишка")';
    await shop.app.database.db.update(products).set({ name: risky }).where(eq(products.id, product.id));
    await add(shopper, product, variant, 2);

    const response = await exportCart(shopper, 'csv');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toMatch(/filename\*=UTF-8''.*\.csv$/);
    const bytes = response.rawPayload;
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const comma = (rubles: number) => rubles.toFixed(2).replace('.', ',');
    expect(bytes.toString('utf8').slice(1)).toBe(
      [
        '"Артикул";"Название";"Цвет";Размер;Цена;Количество;Сумма',
        `"${product.art}";"'=HYPERLINK(""http://evil.example"";""Мишка"")";"${variant.color}";${variant.size};${comma(variant.price!)};2;${comma(variant.price! * 2)}`,
        `"Итого";;;;;2;${comma(variant.price! * 2)}`,
      ].join('\r\n'),
    );
  });

  it('an empty cart: the header and «Итого» 0', async () => {
    const shopper = await newShopper();
    expect(await readXlsx((await exportCart(shopper, 'xlsx')).rawPayload)).toEqual([
      [...ORDER_LINE_COLUMNS],
      ['Итого', null, null, null, null, 0, 0],
    ]);
  });

  it.each(['xlsx', 'csv'])('the %s export imported into an empty cart reproduces the cart', async (format) => {
    const shopper = await newShopper();
    for (const product of [takeProduct(), takeProduct()]) {
      const [first, second] = inStock(product);
      await add(shopper, product, second!, 4);
      await add(shopper, product, first!, 1);
    }
    const cart = await cartOf(shop.app, shopper);
    const file = (await exportCart(shopper, format)).rawPayload;

    const buyer = await newShopper();
    const result = await imported(await importFile(buyer, file, `Корзина.${format}`, false));
    expect(result).toMatchObject({ valid: 4, invalid: 0 });
    expect(result.lines.map((line) => line.line)).toEqual([2, 3, 4, 5]);
    expect(linesOfCart(await cartOf(shop.app, buyer))).toEqual(linesOfCart(cart));
  });
});
