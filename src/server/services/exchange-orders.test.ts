import { readFile } from 'node:fs/promises';
import { and, eq, sql } from 'drizzle-orm';
import { validateXML } from 'xmllint-wasm';
import type { Product } from '../../shared/api';
import { commerceMlFixture, temporaryFolder } from '../../../test/server/helpers/commerceml';
import { advanceOrder, placeOrderOf } from '../../../test/server/helpers/order-workflow';
import {
  allProducts,
  createTestApp,
  quickShoppers,
  STARTUP_TIMEOUT,
  type Shopper,
  type TestApp,
} from '../../../test/server/helpers/test-app';
import { exchangeRuns, legalEntities, mailOutbox, orderStatusHistory, orders, users, variants } from '../db/schema';

// xmllint compiled to WebAssembly starts in a second or so, longer on a busy machine.
jest.setTimeout(60_000);

let shop: TestApp;
let spare: Product[];
let buyer: Shopper;

const db = () => shop.app.database.db;
const exchange = () => shop.app.services.exchangeOrders;

beforeAll(async () => {
  shop = await createTestApp();
  spare = (await allProducts(shop.app)).filter((product) => product.variants.some((variant) => variant.stock > 0));
  [buyer] = (await quickShoppers(shop.app, 1)) as [Shopper];
}, STARTUP_TIMEOUT);
afterAll(() => shop.close());

async function newRun(): Promise<string> {
  const [run] = await db().insert(exchangeRuns).values({ kind: 'sale' }).returning({ id: exchangeRuns.id });
  return run!.id;
}

/** The Документ Ид of a query's document, in order. */
const sentIds = (xml: string) => [...xml.matchAll(/<Документ><Ид>(\d+)<\/Ид>/g)].map((match) => Number(match[1]));

async function validate(xml: string) {
  const schema = await readFile(commerceMlFixture('orders-2.10-subset.xsd'), 'utf8');
  const result = await validateXML({
    xml: [{ fileName: 'orders.xml', contents: xml }],
    schema: [{ fileName: 'orders-2.10-subset.xsd', contents: schema }],
  });
  return result.errors.map(({ rawMessage }) => rawMessage);
}

/** Confirms every order pending now, so that a test sees only its own. */
async function confirmAll() {
  const run = await newRun();
  await exchange().query(run);
  await exchange().confirm(run);
}

describe('type=sale query and success', () => {
  it('sends a new order with its legal entity, lines and 1С ids; a valid document; the same again until success', async () => {
    await confirmAll();
    const [account] = await db().select({ companyId: users.companyId }).from(users).where(eq(users.id, buyer.id));
    const [entity] = await db()
      .insert(legalEntities)
      .values({
        companyId: account!.companyId!,
        kind: 'org',
        name: 'ООО «Игрушки Поволжья»',
        inn: '6312045678',
        kpp: '631201001',
        address: 'г. Самара',
      })
      .returning({ id: legalEntities.id });
    const product = spare.shift()!;
    const { order, variant } = await placeOrderOf(shop.app, buyer, product, {
      quantity: 3,
      stock: 50,
      price: '450.00',
      fields: { legal_entity_id: entity!.id, contact_name: 'Ольга', contact_phone: '+7 927 123-45-67' },
    });
    await db().update(variants).set({ externalId: 'aaaa-1111#bbbb-2222' }).where(eq(variants.id, variant.id));

    const run = await newRun();
    const xml = await exchange().query(run);
    expect(sentIds(xml)).toEqual([order.id]);
    expect(xml).toContain(`<Контрагент><Ид>${entity!.id}</Ид>`);
    expect(xml).toContain('<Ид>aaaa-1111#bbbb-2222</Ид>');
    expect(xml).toContain(`<Артикул>${product.art}</Артикул>`);
    expect(xml).toContain('<Количество>3</Количество><Сумма>1350.00</Сумма>');
    expect(await validate(xml)).toEqual([]);

    // A lost answer: the next query of the run sends it again, and a new order besides.
    const second = await placeOrderOf(shop.app, buyer, spare.shift()!, { quantity: 1, stock: 50 });
    expect(sentIds(await exchange().query(run))).toEqual([order.id, second.order.id]);
    expect(await exchange().confirm(run)).toBe(2);
    expect(sentIds(await exchange().query(await newRun()))).toEqual([]);
    const [marks] = await db()
      .select({ same: sql<boolean>`${orders.exchangeConfirmedAt} = ${orders.exchangeChangedAt}` })
      .from(orders)
      .where(eq(orders.id, order.id));
    expect(marks!.same).toBe(true);
  });

  it('success with no query confirms nothing; a change between query and success is sent again', async () => {
    await confirmAll();
    expect(await exchange().confirm(await newRun())).toBe(0);
    const { order } = await placeOrderOf(shop.app, buyer, spare.shift()!, { quantity: 1, stock: 50 });
    const run = await newRun();
    expect(sentIds(await exchange().query(run))).toEqual([order.id]);
    await shop.app.services.orders.changeStatus(order.id, { to: 'Отменён', source: 'manager', byUserId: null });
    expect(await exchange().confirm(run)).toBe(1);
    const next = await exchange().query(await newRun());
    expect(sentIds(next)).toEqual([order.id]);
    expect(next).toContain('<Наименование>Отменен</Наименование><Значение>true</Значение>');
  });

  it('resend puts a confirmed order back into the query', async () => {
    await confirmAll();
    const { order } = await placeOrderOf(shop.app, buyer, spare.shift()!, { quantity: 1, stock: 50 });
    await confirmAll();
    expect(sentIds(await exchange().query(await newRun()))).toEqual([]);
    expect(await exchange().resend([order.id, order.id, 2_000_000_000], null)).toEqual([order.id]);
    expect(sentIds(await exchange().query(await newRun()))).toEqual([order.id]);
  });
});

describe('type=sale file: 1С’s statuses and lines', () => {
  it('applies orders_from_1c.xml through the workflow, once; 1С’s changes are not sent back', async () => {
    await confirmAll();
    // The fixture names orders 1043 and 1044.
    await db().execute(sql`select setval(pg_get_serial_sequence('orders', 'id'), 1042)`);
    const teddy = spare.shift()!;
    const paid = await placeOrderOf(shop.app, buyer, teddy, { quantity: 24, stock: 100, price: '450.00' });
    await db()
      .update(variants)
      .set({ externalId: 'd1a5e6f0-9c20-11ee-8c2a-005056b6f1a3#e4b1c7d0-9c21-11ee-8c2a-005056b6f1a3' })
      .where(eq(variants.id, paid.variant.id));
    const cancelled = await placeOrderOf(shop.app, buyer, spare.shift()!, { quantity: 2, stock: 30, price: '1200.00' });
    expect([paid.order.id, cancelled.order.id]).toEqual([1043, 1044]);
    await advanceOrder(shop.app, cancelled.order.id, 'Ожидает оплаты');
    await confirmAll();
    const mailBefore = await db().select({ id: mailOutbox.id }).from(mailOutbox);

    const run = await newRun();
    const stats = await exchange().applyFile(run, commerceMlFixture('orders_from_1c.xml'), 'orders_from_1c.xml');
    expect(stats).toEqual({ ordersUpdated: 2, errors: [] });

    const view = (id: number) =>
      db()
        .select({ status: orders.status, oneC: orders.oneCDocument })
        .from(orders)
        .where(eq(orders.id, id))
        .then((rows) => rows[0]!);
    const paidNow = await view(1043);
    expect(paidNow.status).toBe('Отправлен');
    expect(paidNow.oneC).toMatchObject({
      number: '1043',
      sum: 8100,
      lines: [{ article: 'MO-2001', price: 450, quantity: 18, sum: 8100 }],
    });
    const history = await db()
      .select({
        from: orderStatusHistory.fromStatus,
        to: orderStatusHistory.toStatus,
        by: orderStatusHistory.byUserId,
        comment: orderStatusHistory.comment,
      })
      .from(orderStatusHistory)
      .where(eq(orderStatusHistory.orderId, 1043));
    expect(history).toEqual([
      { from: 'Создан', to: 'Оплачен', by: null, comment: 'По данным 1С, 27.11.2026' },
      { from: 'Оплачен', to: 'Отправлен', by: null, comment: 'По данным 1С, 28.11.2026' },
    ]);
    // The buyer's lines stay as placed, 1С's version beside them, for the buyer and the back office.
    const details = await shop.app.repositories.orders.findForSheet(1043);
    expect(details!.lines.map((line) => line.quantity)).toEqual([24]);
    expect(details!.one_c).toMatchObject({ number: '1043', sum: 8100, lines: [{ article: 'MO-2001', quantity: 18 }] });
    const managers = await shop.app.repositories.orders.findForManager(1043);
    expect(managers!.one_c).toEqual(details!.one_c);
    expect((await shop.app.repositories.orders.findForSheet(1044))!.one_c).toBeNull();

    const cancelledNow = await view(1044);
    expect(cancelledNow).toEqual({ status: 'Отменён', oneC: null });
    const [stock] = await db()
      .select({ stock: variants.stock })
      .from(variants)
      .where(eq(variants.id, cancelled.variant.id));
    expect(stock!.stock).toBe(30);

    const letters = await db()
      .select({ subject: mailOutbox.subject, text: mailOutbox.text })
      .from(mailOutbox)
      .where(
        and(
          eq(mailOutbox.recipient, buyer.email),
          sql`${mailOutbox.id} > ${Math.max(0, ...mailBefore.map((m) => m.id))}`,
        ),
      );
    expect(letters).toHaveLength(3);
    expect(letters.some((letter) => letter.text.includes('Оплачен') && letter.text.includes('По данным 1С'))).toBe(
      true,
    );

    // 1С's own changes are not sent back.
    expect(sentIds(await exchange().query(await newRun()))).toEqual([]);

    // The same file again changes nothing.
    const again = await exchange().applyFile(run, commerceMlFixture('orders_from_1c.xml'), 'orders_from_1c.xml');
    expect(again).toEqual({ ordersUpdated: 0, errors: [] });
    expect(await db().select().from(orderStatusHistory).where(eq(orderStatusHistory.orderId, 1043))).toHaveLength(2);
    const [runRow] = await db()
      .select({ stats: exchangeRuns.stats })
      .from(exchangeRuns)
      .where(eq(exchangeRuns.id, run));
    expect(runRow!.stats).toEqual({ ordersUpdated: 2, errors: [] });
  });

  it('a document the shop does not know is a row error, not a failure', async () => {
    const run = await newRun();
    const file = commerceMlFixture('orders_from_1c.xml');
    const text = (await readFile(file, 'utf8')).replaceAll('1043', '1999999').replaceAll('1044', 'МО-77');
    const folder = await temporaryFolder();
    try {
      const stats = await exchange().applyFile(run, await folder.file('orders.xml', text), 'orders.xml');
      expect(stats.ordersUpdated).toBe(0);
      expect(stats.errors).toEqual([
        'orders.xml, документ 1999999: на сайте нет такого заказа',
        'orders.xml, документ МО-77: на сайте нет такого заказа',
      ]);
    } finally {
      await folder.remove();
    }
  });
});
