/**
 * Issuing invoices (POST /api/v1/admin/orders/{id}/invoice) and downloading them
 * (GET /api/v1/order/{id}/invoice), on PGlite or, with TEST_DATABASE_URL, PostgreSQL.
 */
import { desc, eq, sql } from 'drizzle-orm';
import type { AdminOrder, InvoiceRef, OrderSummary, Product } from '../../../shared/api';
import { auditLog, invoiceCounters, invoices, orders, supplierRequisites } from '../../db/schema';
import {
  allProducts,
  json,
  quickShoppers,
  STARTUP_TIMEOUT,
  type Shopper,
  type TestApp,
  memberOf,
} from '../../../../test/server/helpers/test-app';
import { newManager, openBackOffice } from '../../../../test/server/helpers/back-office';
import { pdfText, SUPPLIER } from '../../../../test/server/helpers/invoices';
import { advanceOrder, placeOrderOf } from '../../../../test/server/helpers/order-workflow';

const CYRILLIC = /[а-яё]/i;
const COMPANY = { company_name: 'ООО «Ромашка»', company_inn: '7736050003', company_kpp: '773601001' };

let shop: TestApp;
let spare: Product[];
let buyer: Shopper;
let stranger: Shopper;
let manager: Shopper;

beforeAll(async () => {
  ({ shop, buyer, manager } = await openBackOffice());
  spare = (await allProducts(shop.app)).filter((product) => product.variants.some((variant) => variant.stock > 0));
  [stranger] = (await quickShoppers(shop.app, 1)) as [Shopper];
}, STARTUP_TIMEOUT);
afterAll(() => shop.close());

interface Placed {
  order: OrderSummary;
  product: Product;
  variant: Product['variants'][number];
}

/** A new order of `quantity` units at 1 500 ₽ of a product no other test touches. */
async function placeOrder(shopper: Shopper = buyer, extra: Record<string, string> = {}, quantity = 2): Promise<Placed> {
  const product = spare.shift()!;
  const fields = { contact_name: 'Анна Смирнова', ...extra };
  return {
    product,
    ...(await placeOrderOf(shop.app, shopper, product, { quantity, stock: 50, price: '1500.00', fields })),
  };
}

const issue = (id: number | string, who: Shopper | null = manager) =>
  shop.app.inject({ method: 'POST', url: `/api/v1/admin/orders/${id}/invoice`, headers: who?.headers ?? {} });
const download = (id: number | string, who: Shopper | null = buyer) =>
  shop.app.inject({ method: 'GET', url: `/api/v1/order/${id}/invoice`, headers: who?.headers ?? {} });
const adminOrder = async (id: number) =>
  json<AdminOrder>(
    await shop.app.inject({ method: 'GET', url: `/api/v1/admin/orders/${id}`, headers: manager.headers }),
  );
const statusOf = async (id: number) =>
  (await shop.app.database.db.select({ status: orders.status }).from(orders).where(eq(orders.id, id)))[0]!.status;
const counters = () => shop.app.database.db.select().from(invoiceCounters).orderBy(invoiceCounters.year);
const saveRequisites = (details: object) =>
  shop.app.inject({
    method: 'PUT',
    url: '/api/v1/admin/settings/requisites',
    headers: manager.headers,
    payload: details,
  });

/** Today in Moscow (UTC+3 all year), worked out apart from the code under test. */
const moscowToday = () => new Date(Date.now() + 3 * 60 * 60 * 1000).toISOString().slice(0, 10);

describe('access', () => {
  it('issuing: no token → 401, a buyer → 403; downloading: no token → 401', async () => {
    const { order } = await placeOrder();
    for (const response of [await issue(order.id, null), await download(order.id, null)]) {
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ detail: expect.stringMatching(CYRILLIC) });
    }
    const refused = await issue(order.id, buyer);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ detail: 'Раздел доступен только менеджерам магазина' });
    expect(await statusOf(order.id)).toBe('Создан');
  });
});

describe('before the supplier details are complete', () => {
  it('no details at all → 409 naming everything missing; nothing is issued, no number is taken', async () => {
    const { order } = await placeOrder();
    const response = await issue(order.id);
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      detail:
        'Заполните реквизиты поставщика: наименование, ИНН, ОГРН, адрес, банк, БИК, расчётный счёт, ' +
        'корреспондентский счёт, срок оплаты.',
    });
    expect(await statusOf(order.id)).toBe('Создан');
    expect(await shop.app.database.db.select().from(invoices)).toEqual([]);
    expect(await counters()).toEqual([]);
  });

  it('details with blanks (an organisation without a КПП, no БИК) → 409 naming just those', async () => {
    const { order } = await placeOrder();
    await shop.app.database.db.insert(supplierRequisites).values({
      name: SUPPLIER.name,
      inn: SUPPLIER.inn,
      kpp: null,
      ogrn: SUPPLIER.ogrn,
      address: SUPPLIER.address,
      bankName: SUPPLIER.bank_name,
      bik: '',
      account: SUPPLIER.account,
      corrAccount: SUPPLIER.corr_account,
      vatRate: SUPPLIER.vat_rate,
      paymentDays: SUPPLIER.payment_days,
    });
    const response = await issue(order.id);
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ detail: 'Заполните реквизиты поставщика: КПП, БИК.' });
    expect(await statusOf(order.id)).toBe('Создан');
    expect(await counters()).toEqual([]);
  });
});

describe('issuing', () => {
  beforeAll(async () => {
    expect((await saveRequisites(SUPPLIER)).statusCode).toBe(200);
  });

  let lastNumber = 0;

  it('201 {number, date}: the first number of the year, today in Moscow; the order awaits payment', async () => {
    const { order } = await placeOrder();
    const response = await issue(order.id);
    expect(response.statusCode).toBe(201);
    const invoice = json<InvoiceRef>(response);
    expect(invoice).toEqual({ number: 1, date: moscowToday() });
    lastNumber = invoice.number;

    const detail = await adminOrder(order.id);
    expect(detail.status).toBe('Ожидает оплаты');
    expect(detail.invoice).toEqual(invoice);
    expect(detail.next_statuses).toEqual(['Оплачен', 'Отменён']);
    expect(detail.history).toEqual([
      {
        at: expect.any(String),
        from: 'Создан',
        to: 'Ожидает оплаты',
        by: { id: manager.id, email: manager.email },
        comment: null,
      },
    ]);
    const [audit] = await shop.app.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'invoice.issue'))
      .orderBy(desc(auditLog.id))
      .limit(1);
    expect(audit).toMatchObject({
      byUserId: manager.id,
      entity: 'order',
      entityId: String(order.id),
      after: { ...invoice, supplier: SUPPLIER },
    });
  });

  it("the buyer's order list carries the invoice once issued, null before", async () => {
    const { order: waiting } = await placeOrder();
    const { order: invoiced } = await placeOrder();
    const invoice = json<InvoiceRef>(await issue(invoiced.id));
    expect(invoice.number).toBe(++lastNumber);
    const list = await shop.app.inject({ method: 'GET', url: `/api/v1/order/${buyer.id}`, headers: buyer.headers });
    const listed = json<OrderSummary[]>(list);
    expect(listed.find((entry) => entry.id === invoiced.id)).toMatchObject({ status: 'Ожидает оплаты', invoice });
    expect(listed.find((entry) => entry.id === waiting.id)).toMatchObject({ status: 'Создан', invoice: null });
  });

  it('a second time → 409 naming the invoice issued; the number is not spent', async () => {
    const { order } = await placeOrder();
    const first = json<InvoiceRef>(await issue(order.id));
    expect(first.number).toBe(lastNumber + 1);
    const again = await issue(order.id);
    expect(again.statusCode).toBe(409);
    const [year, month, day] = first.date.split('-');
    expect(again.json()).toEqual({
      detail: `Счёт по заказу №${order.id} уже выставлен: № ${first.number} от ${day}.${month}.${year}`,
    });
    expect(await shop.app.database.db.select().from(invoices).where(eq(invoices.orderId, order.id))).toHaveLength(1);
    const { order: next } = await placeOrder();
    expect(json<InvoiceRef>(await issue(next.id)).number).toBe(first.number + 1);
    lastNumber = first.number + 1;
  });

  it('the same order issued twice at once: one 201, one 409', async () => {
    const { order } = await placeOrder();
    const answers = await Promise.all([issue(order.id), issue(order.id)]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 409]);
    lastNumber += 1;
    expect(json<InvoiceRef>(answers.find((answer) => answer.statusCode === 201)!).number).toBe(lastNumber);
    expect(await shop.app.database.db.select().from(invoices).where(eq(invoices.orderId, order.id))).toHaveLength(1);
  });

  it.each(['Отменён', 'Оплачен', 'Доставлен'] as const)(
    'an order in «%s» → 409 naming both statuses; nothing changes',
    async (status) => {
      const { order } = await placeOrder();
      if (status === 'Отменён') await shop.app.services.orders.cancel(await memberOf(shop.app, buyer.id), order.id);
      else await advanceOrder(shop.app, order.id, status);
      const response = await issue(order.id);
      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual({
        detail: `Заказ #${order.id} нельзя перевести из статуса «${status}» в статус «Ожидает оплаты»`,
      });
      expect(await statusOf(order.id)).toBe(status);
      expect((await adminOrder(order.id)).invoice).toBeNull();
    },
  );

  it('an unknown order → 404, a bad id → 422', async () => {
    const missing = await issue(2_000_000_000);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ detail: 'Заказ не найден' });
    for (const id of ['abc', '0', '2147483648']) expect((await issue(id)).statusCode).toBe(422);
  });

  it('an issue that fails after taking its number rolls back whole: the number goes to the next invoice', async () => {
    const { order: doomed } = await placeOrder();
    // A failure after the counter moved: the invoice row itself is refused for this order.
    const { db } = shop.app.database;
    await db.execute(
      sql.raw(`
        create function refuse_test_invoice() returns trigger language plpgsql as $$
        begin
          if new.order_id = ${doomed.id} then raise exception 'forced failure'; end if;
          return new;
        end $$`),
    );
    await db.execute(
      sql.raw(`create trigger refuse_test_invoice before insert on invoices
                 for each row execute function refuse_test_invoice()`),
    );
    try {
      const failed = await issue(doomed.id);
      expect(failed.statusCode).toBe(500);
      expect(await statusOf(doomed.id)).toBe('Создан');
      expect((await adminOrder(doomed.id)).history).toEqual([]);
      expect((await counters()).map((row) => row.lastNumber)).toEqual([lastNumber]);
    } finally {
      await db.execute(sql.raw('drop trigger refuse_test_invoice on invoices'));
      await db.execute(sql.raw('drop function refuse_test_invoice()'));
    }
    const { order } = await placeOrder();
    lastNumber += 1;
    expect(json<InvoiceRef>(await issue(order.id)).number).toBe(lastNumber);
  });

  it('numbers restart at 1 in a new year, the year of Moscow (the clock given to the repository)', async () => {
    const byUserId = manager.id;
    const issueAt = async (instant: string) =>
      shop.app.services.invoices.issue((await placeOrder()).order.id, { byUserId, now: new Date(instant) });
    // 23:59:59 on 31 December in Moscow is still the old year; a second later it is the new one.
    expect(await issueAt('2031-12-31T20:59:59Z')).toEqual({ number: 1, date: '2031-12-31' });
    expect(await issueAt('2031-12-31T20:59:59.5Z')).toEqual({ number: 2, date: '2031-12-31' });
    expect(await issueAt('2031-12-31T21:00:00Z')).toEqual({ number: 1, date: '2032-01-01' });
    expect(await issueAt('2032-03-08T10:00:00Z')).toEqual({ number: 2, date: '2032-03-08' });
    expect((await counters()).filter((row) => row.year >= 2031)).toEqual([
      { year: 2031, lastNumber: 2 },
      { year: 2032, lastNumber: 2 },
    ]);
    // The current year's sequence went on untouched.
    const { order } = await placeOrder();
    lastNumber += 1;
    expect(json<InvoiceRef>(await issue(order.id)).number).toBe(lastNumber);
  });
});

describe('GET /api/v1/order/{id}/invoice', () => {
  /** An order of 2 × 1 500 ₽ invoiced on 24 November 2030 in Moscow (the first invoice of that year). */
  let invoiced: Placed;

  beforeAll(async () => {
    expect((await saveRequisites(SUPPLIER)).statusCode).toBe(200);
    invoiced = await placeOrder(buyer, COMPANY);
    await shop.app.services.invoices.issue(invoiced.order.id, {
      byUserId: manager.id,
      now: new Date('2030-11-23T21:30:00Z'),
    });
  });

  it("the buyer gets the PDF with the supplier, the buyer's company, the lines, the total in figures and words", async () => {
    const response = await download(invoiced.order.id);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="invoice-1-24.11.2030.pdf"; filename*=UTF-8''${encodeURIComponent('Счёт №1 от 24.11.2030.pdf')}`,
    );
    expect(response.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');

    const text = await pdfText(response.rawPayload);
    const flat = text.replace(/\s+/g, ' ');
    expect(text).toContain('Счёт на оплату № 1 от 24 ноября 2030 г.');
    expect(text).toMatch(/ИНН 7707083893 КПП 773601001 Сч\. № 40702810638000000000\n/);
    expect(flat).toContain(
      'Поставщик: ООО «Мягкий Опт», ИНН 7707083893, КПП 773601001, ОГРН 1027700132195, 117997, г. Москва, ул. Вавилова, д. 19',
    );
    expect(flat).toContain('Покупатель: ООО «Ромашка», ИНН 7736050003, КПП 773601001, г. Тверь, ул. Советская, д. 3');
    const { product, variant } = invoiced;
    // The description may wrap in its cell, the size going under the figures.
    const size = `${variant.size} см`;
    expect(flat).toContain(size);
    expect(flat.replace(` ${size}`, '')).toContain(
      `1 ${product.name}, арт. ${product.art}, цвет: ${variant.color}, 2 шт. 1 500,00 ₽ 3 000,00 ₽`,
    );
    expect(text).toContain('Итого: 3 000,00 ₽');
    expect(text).toContain('В том числе НДС 22%: 540,98 ₽');
    expect(text).toContain('Всего наименований 1, на сумму 3 000,00 ₽');
    expect(text).toContain('Три тысячи рублей 00 копеек');
    expect(text).toContain('Оплатить в течение 5 дней с даты счёта.');
  });

  it('a buyer without a company is named by the contact name; the details are those of the day of issue', async () => {
    const { order } = await placeOrder(buyer, {}, 1);
    expect((await issue(order.id)).statusCode).toBe(201);
    expect(
      (await saveRequisites({ ...SUPPLIER, name: 'ООО «Новое имя»', vat_rate: null, payment_days: 3 })).statusCode,
    ).toBe(200);
    const text = await pdfText((await download(order.id)).rawPayload);
    expect(text).toContain('Покупатель: Анна Смирнова, г. Тверь, ул. Советская, д. 3');
    expect(text).toContain('Поставщик: ООО «Мягкий Опт»');
    expect(text).not.toContain('Новое имя');
    expect(text).toContain('В том числе НДС 22%: 270,49 ₽');
    expect(text).toContain('Одна тысяча пятьсот рублей 00 копеек');
    expect((await saveRequisites(SUPPLIER)).statusCode).toBe(200);
  });

  it('the PDF is drawn once and kept: a later download is the same document, whatever the order row says now', async () => {
    const { order } = await placeOrder(buyer, COMPANY, 1);
    expect((await issue(order.id)).statusCode).toBe(201);
    const keptPdf = async () =>
      (
        await shop.app.database.db.select({ pdf: invoices.pdf }).from(invoices).where(eq(invoices.orderId, order.id))
      )[0]!.pdf;
    expect(await keptPdf()).toBeNull();
    const first = (await download(order.id)).rawPayload;
    expect(Buffer.compare(first, (await keptPdf())!)).toBe(0);

    // Nothing in the shop changes an order's company after it is placed; were it changed by hand,
    // the invoice already handed out would still be the one served.
    await shop.app.database.db.update(orders).set({ companyName: 'ООО «Другая»' }).where(eq(orders.id, order.id));
    const second = await download(order.id, manager);
    expect(second.statusCode).toBe(200);
    expect(Buffer.compare(second.rawPayload, first)).toBe(0);
    expect(await pdfText(second.rawPayload)).toContain('ООО «Ромашка»');
  });

  it('a manager gets it too; a revoked manager no longer does', async () => {
    const former = await newManager(shop.app);
    for (const who of [manager, former]) {
      const response = await download(invoiced.order.id, who);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('application/pdf');
    }
    await shop.app.repositories.users.setRole(former.email, 'buyer');
    expect((await download(invoiced.order.id, former)).statusCode).toBe(404);
  });

  it("404 {detail} before the invoice is issued, for another buyer's order and for an unknown one", async () => {
    const { order: waiting } = await placeOrder();
    for (const [id, who] of [
      [waiting.id, buyer],
      [invoiced.order.id, stranger],
      [2_000_000_000, buyer],
    ] as const) {
      const response = await download(id, who);
      expect([id, response.statusCode]).toEqual([id, 404]);
      expect(response.json()).toEqual({ detail: 'Счёт по этому заказу не выставлен' });
    }
    expect((await download('abc')).statusCode).toBe(422);
  });
});
