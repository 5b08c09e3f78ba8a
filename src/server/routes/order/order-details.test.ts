import ExcelJS from 'exceljs';
import type { BuyerOrder, Product } from '../../../shared/api';
import {
  allProducts,
  createTestApp,
  json,
  quickShoppers,
  STARTUP_TIMEOUT,
  type Shopper,
  type TestApp,
} from '../../../../test/server/helpers/test-app';
import { advanceOrder, placeOrderOf } from '../../../../test/server/helpers/order-workflow';

const CYRILLIC = /[а-яё]/i;

let shop: TestApp;
let spare: Product[];
let buyer: Shopper;
let stranger: Shopper;

beforeAll(async () => {
  shop = await createTestApp();
  spare = (await allProducts(shop.app)).filter((product) => product.variants.some((variant) => variant.stock > 0));
  [buyer, stranger] = (await quickShoppers(shop.app, 2)) as [Shopper, Shopper];
}, STARTUP_TIMEOUT);
afterAll(() => shop.close());

const details = (userId: number | string, orderId: number | string, who: Shopper | null = buyer) =>
  shop.app.inject({ method: 'GET', url: `/api/v1/order/${userId}/${orderId}`, headers: who?.headers ?? {} });

const COMPANY = {
  company_name: 'ООО «Ромашка»',
  company_inn: '7736050003',
  company_kpp: '773601001',
  contact_name: 'Анна Смирнова',
  contact_phone: '+7 900 000-00-00',
};

describe('GET /api/v1/order/{user_id}/{id}', () => {
  it('the owner gets the whole order: lines with ids and totals, requisites, history from «Создан»', async () => {
    const product = spare.shift()!;
    const { order, variant } = await placeOrderOf(shop.app, buyer, product, {
      quantity: 3,
      stock: 40,
      price: '1499.90',
      fields: COMPANY,
    });
    const response = await details(buyer.id, order.id);
    expect(response.statusCode).toBe(200);
    const answer = json<BuyerOrder>(response);
    expect(answer).toEqual({
      id: order.id,
      created_at: order.created_at,
      status: 'Создан',
      total_price: 4499.7,
      items_count: 3,
      address: 'г. Тверь, ул. Советская, д. 3',
      ...COMPANY,
      lines: [
        {
          product_id: product.id,
          variant_id: variant.id,
          art: product.art,
          name: product.name,
          color: variant.color,
          size: variant.size,
          price: 1499.9,
          quantity: 3,
          item_total: 4499.7,
          list_price: 1499.9,
          price_type: 'Опт',
          tier_from: null,
        },
      ],
      history: [{ at: order.created_at, status: 'Создан' }],
      invoice: null,
      can_cancel: true,
      one_c: null,
      // Who placed it: the contact's name; no legal entity of the company has the typed ИНН.
      placed_by: { user_id: buyer.id, name: COMPANY.contact_name },
      legal_entity_id: null,
    });
  });

  it('the history follows every change; a sent order can no longer be cancelled by its buyer', async () => {
    const { order } = await placeOrderOf(shop.app, buyer, spare.shift()!, { quantity: 1, stock: 10 });
    await advanceOrder(shop.app, order.id, 'Отправлен');
    const answer = json<BuyerOrder>(await details(buyer.id, order.id));
    expect(answer.history.map((entry) => entry.status)).toEqual(['Создан', 'Ожидает оплаты', 'Оплачен', 'Отправлен']);
    expect(answer.history.every((entry, index, all) => index === 0 || entry.at >= all[index - 1]!.at)).toBe(true);
    expect(answer.status).toBe('Отправлен');
    expect(answer.can_cancel).toBe(false);
  });

  it('the history says what the manager said: the comment and how it was shipped, with the tracking link', async () => {
    const { order } = await placeOrderOf(shop.app, buyer, spare.shift()!, { quantity: 1, stock: 10 });
    await advanceOrder(shop.app, order.id, 'Оплачен');
    await shop.app.services.orders.changeStatus(order.id, {
      to: 'Отправлен',
      source: 'manager',
      byUserId: null,
      comment: '  Накладная 77  ',
      carrier: 'Почта России',
      trackingNumber: ' RA123456789RU ',
    });
    const answer = json<BuyerOrder>(await details(buyer.id, order.id));
    expect(answer.history.at(-1)).toEqual({
      at: expect.any(String),
      status: 'Отправлен',
      comment: 'Накладная 77',
      tracking: {
        carrier: 'Почта России',
        number: 'RA123456789RU',
        url: 'https://www.pochta.ru/tracking?barcode=RA123456789RU',
      },
    });
    // The changes without a comment or a carrier say nothing of them.
    expect(answer.history[2]).toEqual({ at: expect.any(String), status: 'Оплачен' });
  });

  it("404 {detail} for someone else's order, under someone else's id, and for an unknown one", async () => {
    const { order } = await placeOrderOf(shop.app, buyer, spare.shift()!, { quantity: 1, stock: 10 });
    for (const response of [
      await details(stranger.id, order.id, stranger),
      await details(buyer.id, order.id, stranger),
      await details(stranger.id, order.id, buyer),
      await details(buyer.id, 2_000_000_000),
    ]) {
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ detail: expect.stringMatching(CYRILLIC) });
    }
  });

  it('401 without a token; 422 for ids that are not ids', async () => {
    expect((await details(buyer.id, 1, null)).statusCode).toBe(401);
    for (const [userId, orderId] of [
      ['x', 1],
      [buyer.id, 0],
      [buyer.id, -1],
      [buyer.id, 2_147_483_648],
    ] as const) {
      const response = await details(userId, orderId);
      expect(response.statusCode).toBe(422);
      expect(response.json()).toEqual({ detail: expect.any(String) });
    }
  });
});

const exported = (userId: number | string, orderId: number | string, who: Shopper | null = buyer) =>
  shop.app.inject({ method: 'GET', url: `/api/v1/order/${userId}/${orderId}/export`, headers: who?.headers ?? {} });

async function firstSheet(file: Buffer): Promise<ExcelJS.Worksheet> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength) as ArrayBuffer);
  return workbook.worksheets[0]!;
}

/** The sheet's rows as arrays of cell values (exceljs numbers cells from 1: the first is dropped). */
async function sheetRows(file: Buffer): Promise<unknown[][]> {
  const rows: unknown[][] = [];
  (await firstSheet(file)).eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return rows;
}

describe('GET /api/v1/order/{user_id}/{id}/export', () => {
  it('the owner gets an .xlsx: heading with number, date, status and requisites, the lines and the total', async () => {
    const product = spare.shift()!;
    const { order, variant } = await placeOrderOf(shop.app, buyer, product, {
      quantity: 3,
      stock: 40,
      price: '1499.90',
      fields: COMPANY,
    });
    const response = await exported(buyer.id, order.id);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="order-${order.id}.xlsx"; filename*=UTF-8''${encodeURIComponent(`Заказ ${order.id}.xlsx`)}`,
    );
    expect(response.headers['cache-control']).toBe('private, no-store');

    const rows = await sheetRows(response.rawPayload);
    expect(rows[0]![0]).toMatch(new RegExp(`^Заказ № ${order.id} от \\d{1,2} [а-я]+ \\d{4} г\\. в \\d{2}:\\d{2}$`));
    expect(rows).toEqual(
      expect.arrayContaining([
        ['Статус', 'Создан'],
        ['Контактное лицо', COMPANY.contact_name],
        ['Телефон', COMPANY.contact_phone],
        ['Адрес доставки', 'г. Тверь, ул. Советская, д. 3'],
        ['Организация', COMPANY.company_name],
        ['ИНН', COMPANY.company_inn],
        ['КПП', COMPANY.company_kpp],
      ]),
    );
    const header = rows.findIndex((row) => row[0] === 'Артикул');
    expect(rows.slice(header)).toEqual([
      ['Артикул', 'Название', 'Цвет', 'Размер', 'Цена', 'Количество', 'Сумма'],
      [product.art, product.name, variant.color, variant.size, 1499.9, 3, 4499.7],
      ['Итого', undefined, undefined, undefined, undefined, 3, 4499.7],
    ]);
    // Numbers that read «25 см» and «1 499,90 ₽», as money reads everywhere in the shop.
    const line = (await firstSheet(response.rawPayload)).getRow(header + 2);
    expect([4, 5, 7].map((column) => line.getCell(column).numFmt)).toEqual([
      '0"\u00a0см"',
      '#,##0.00"\u00a0₽"',
      '#,##0.00"\u00a0₽"',
    ]);
  });

  it('an order without requisites has no empty heading lines for them', async () => {
    const { order } = await placeOrderOf(shop.app, buyer, spare.shift()!, { quantity: 1, stock: 10 });
    const rows = await sheetRows((await exported(buyer.id, order.id)).rawPayload);
    const labels = rows.map((row) => row[0]);
    expect(labels).toContain('Адрес доставки');
    expect(labels).not.toContain('ИНН');
    expect(labels).not.toContain('Организация');
  });

  it("404 {detail} for someone else's order, under someone else's id, and for an unknown one; 401 without a token", async () => {
    const { order } = await placeOrderOf(shop.app, buyer, spare.shift()!, { quantity: 1, stock: 10 });
    for (const response of [
      await exported(stranger.id, order.id, stranger),
      await exported(buyer.id, order.id, stranger),
      await exported(stranger.id, order.id, buyer),
      await exported(buyer.id, 2_000_000_000),
    ]) {
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ detail: expect.stringMatching(CYRILLIC) });
    }
    expect((await exported(buyer.id, order.id, null)).statusCode).toBe(401);
    expect((await exported(buyer.id, 'x')).statusCode).toBe(422);
  });
});
