/**
 * type=sale as 1С calls it: the query's document of the orders 1С has not confirmed (valid by the
 * CommerceML 2.10 subset schema), `success` moving exactly what was sent, 1С's orders file applied
 * through the order workflow, and «send again».
 */
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { validateXML } from 'xmllint-wasm';
import type { LegalEntity, Product } from '../../../shared/api';
import { EXCHANGE_PATH } from '../../../shared/exchange';
import { loadConfig } from '../../config';
import {
  exchangeRuns,
  exchangeSessions,
  mailOutbox,
  orderStatusHistory,
  orders,
  users,
  variants,
} from '../../db/schema';
import {
  allProducts,
  createTestApp,
  json,
  signUp,
  stockOf,
  STARTUP_TIMEOUT,
  type Shopper,
  type TestApp,
} from '../../../../test/server/helpers/test-app';
import { TEST_PASSWORD } from '../../../../test/server/helpers/shop-data';
import { advanceOrder, placeOrderOf } from '../../../../test/server/helpers/order-workflow';
import { commerceMlFixture } from '../../../../test/server/helpers/commerceml';

let shop: TestApp;
let dir: string;
let operator: Shopper;
let buyer: Shopper;
let products: Product[];
let entity: LegalEntity;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'myagkiy-opt-sale-'));
  shop = await createTestApp({ exchange: { ...loadConfig({}).exchange, dir } });
  [operator, buyer] = [await signUp(shop.app), await signUp(shop.app)];
  await shop.app.database.db.update(users).set({ exchangeAccess: true }).where(eq(users.id, operator.id));
  products = (await allProducts(shop.app)).filter((product) => product.variants.some((variant) => variant.stock > 0));
  const added = await shop.app.inject({
    method: 'POST',
    url: '/api/v1/company/legal-entities',
    headers: buyer.headers,
    payload: { kind: 'org', name: 'ООО «Игрушки & Ко»', inn: '7707083893', kpp: '770701001', address: 'г. Самара' },
  });
  expect(added.statusCode).toBe(201);
  entity = json<LegalEntity>(added);
}, STARTUP_TIMEOUT);
afterAll(async () => {
  await shop.close();
  await rm(dir, { recursive: true, force: true });
});

let clients = 0;

function call(query: Record<string, string>, ip: string, cookie?: string, body?: Buffer) {
  return shop.app.inject({
    method: body ? 'POST' : 'GET',
    url: EXCHANGE_PATH,
    query: { type: 'sale', ...query },
    remoteAddress: ip,
    headers: {
      ...(cookie ? { cookie } : {}),
      ...(query.mode === 'checkauth'
        ? { authorization: `Basic ${Buffer.from(`${operator.email}:${TEST_PASSWORD}`).toString('base64')}` }
        : {}),
    },
    ...(body ? { payload: body } : {}),
  });
}

/** An exchange of orders begun as 1С begins it: checkauth and init; its cookie, address and run. */
async function begin() {
  const ip = `10.2.0.${++clients}`;
  const auth = (await call({ mode: 'checkauth' }, ip)).body.split('\n');
  const cookie = `${auth[1]}=${auth[2]}`;
  expect((await call({ mode: 'init' }, ip, cookie)).body).toMatch(/^zip=no\nfile_limit=\d+\n/);
  const [session] = await shop.app.database.db
    .select({ runId: exchangeSessions.runId })
    .from(exchangeSessions)
    .where(eq(exchangeSessions.cookieHash, createHash('sha256').update(auth[2]!).digest('hex')));
  const runId = session!.runId!;
  return {
    runId,
    query: () => call({ mode: 'query' }, ip, cookie),
    success: () => call({ mode: 'success' }, ip, cookie),
    file: (name: string, body: Buffer) => call({ mode: 'file', filename: name }, ip, cookie, body),
  };
}

/** The orders (by id) a query's document holds. */
const idsIn = (xml: string) => [...xml.matchAll(/<Документ><Ид>(\d+)<\/Ид>/g)].map((match) => Number(match[1]));

async function placeOne(quantity = 2) {
  const product = products.shift()!;
  const { order, variant } = await placeOrderOf(shop.app, buyer, product, {
    quantity,
    stock: 50,
    fields: { legal_entity_id: entity.id },
  });
  return { order, variant, product };
}

describe('query and success', () => {
  it('sends a new order with its legal entity as the Контрагент, valid by the 2.10 subset schema', async () => {
    const { order, variant, product } = await placeOne();
    await shop.app.database.db.update(variants).set({ externalId: 'aaaa-1#bbbb-2' }).where(eq(variants.id, variant.id));
    const exchange = await begin();
    const answer = await exchange.query();
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toBe('application/xml; charset=utf-8');
    const xml = answer.body;
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    expect(idsIn(xml)).toContain(order.id);
    const document = xml.slice(xml.indexOf(`<Документ><Ид>${order.id}</Ид>`));
    expect(document).toContain(`<Ид>${entity.id}</Ид>`);
    expect(document).toContain('ООО «Игрушки &amp; Ко»');
    expect(document).toContain('<ИНН>7707083893</ИНН>');
    expect(document).toContain('<Ид>aaaa-1#bbbb-2</Ид>');
    expect(document).toContain(`<Артикул>${product.art}</Артикул>`);
    expect(document).toContain('<ХозОперация>Заказ товара</ХозОперация>');
    const validation = await validateXML({
      xml: [{ fileName: 'orders.xml', contents: xml }],
      schema: [
        {
          fileName: 'orders-2.10-subset.xsd',
          contents: await readFile(commerceMlFixture('orders-2.10-subset.xsd'), 'utf8'),
        },
      ],
    });
    expect(validation.errors).toEqual([]);
    expect(validation.valid).toBe(true);
  });

  it('sends the same orders again until success, then not; a change made after the query goes next time', async () => {
    const { order: first } = await placeOne();
    const { order: second } = await placeOne();
    const exchange = await begin();
    expect(idsIn((await exchange.query()).body)).toEqual(expect.arrayContaining([first.id, second.id]));
    // The answer was lost: 1С asks again in a new exchange, and gets them again.
    const retried = await begin();
    expect(idsIn((await retried.query()).body)).toEqual(expect.arrayContaining([first.id, second.id]));
    // A manager's change between the query and the success.
    await advanceOrder(shop.app, second.id, 'Ожидает оплаты');
    expect((await retried.success()).body).toBe('success\n');
    const next = await begin();
    const sentNext = idsIn((await next.query()).body);
    expect(sentNext).not.toContain(first.id);
    expect(sentNext).toContain(second.id);
    const [run] = await shop.app.database.db
      .select({ status: exchangeRuns.status, stats: exchangeRuns.stats })
      .from(exchangeRuns)
      .where(eq(exchangeRuns.id, retried.runId));
    expect(run).toEqual({ status: 'done', stats: expect.objectContaining({ ordersSent: expect.any(Number) }) });
    await next.success();
  });

  it('«send again» puts a confirmed order back into the next query', async () => {
    const { order } = await placeOne();
    const exchange = await begin();
    await exchange.query();
    await exchange.success();
    expect(idsIn((await (await begin()).query()).body)).not.toContain(order.id);
    expect(await shop.app.services.exchangeOrders.resend([order.id, 2_000_000_000], null)).toEqual([order.id]);
    expect(idsIn((await (await begin()).query()).body)).toContain(order.id);
  });
});

describe("1С's orders file", () => {
  /** The fixture with its two documents renumbered to the shop's orders `paidShipped` and `cancelled`. */
  async function ordersFile(paidShipped: number, cancelled: number): Promise<Buffer> {
    const text = await readFile(commerceMlFixture('orders_from_1c.xml'), 'utf8');
    return Buffer.from(text.replaceAll('>1043<', `>${paidShipped}<`).replaceAll('>1044<', `>${cancelled}<`));
  }

  const statusOf = async (id: number) =>
    (await shop.app.database.db.select({ status: orders.status }).from(orders).where(eq(orders.id, id)))[0]!.status;

  it('pays and ships one order, cancels another with its stock back, keeps 1С’s lines beside the buyer’s', async () => {
    const { order: shipped } = await placeOne(24);
    const { order: cancelled, variant, product } = await placeOne(3);
    const stockBefore = await stockOf(shop.app, product.art, variant.id);
    // 1С has both: the shop's changes since are what the file brings.
    const sent = await begin();
    await sent.query();
    await sent.success();

    const exchange = await begin();
    const answer = await exchange.file('orders-1.xml', await ordersFile(shipped.id, cancelled.id));
    expect(answer.body).toBe('success\n');
    expect(await statusOf(shipped.id)).toBe('Отправлен');
    expect(await statusOf(cancelled.id)).toBe('Отменён');
    expect(await stockOf(shop.app, product.art, variant.id)).toBe(stockBefore + 3);

    const history = await shop.app.database.db
      .select({ to: orderStatusHistory.toStatus, comment: orderStatusHistory.comment, by: orderStatusHistory.byUserId })
      .from(orderStatusHistory)
      .where(eq(orderStatusHistory.orderId, shipped.id))
      .orderBy(orderStatusHistory.id);
    expect(history).toEqual([
      { to: 'Оплачен', comment: expect.stringMatching(/^По данным 1С/), by: null },
      { to: 'Отправлен', comment: expect.stringMatching(/^По данным 1С/), by: null },
    ]);
    const letters = await shop.app.database.db
      .select({ subject: mailOutbox.subject })
      .from(mailOutbox)
      .where(and(eq(mailOutbox.recipient, buyer.email)));
    expect(letters.filter((letter) => letter.subject.includes(`№ ${shipped.id}`)).length).toBeGreaterThanOrEqual(3);

    const [kept] = await shop.app.database.db
      .select({ oneC: orders.oneCDocument, total: orders.totalPrice })
      .from(orders)
      .where(eq(orders.id, shipped.id));
    expect(kept!.oneC).toEqual(
      expect.objectContaining({ sum: 8100, lines: [expect.objectContaining({ quantity: 18, price: 450 })] }),
    );
    // What 1С changed is not sent back to it.
    const next = await begin();
    const sentNext = idsIn((await next.query()).body);
    expect(sentNext).not.toContain(shipped.id);
    expect(sentNext).not.toContain(cancelled.id);

    // The same file again changes nothing.
    const historyBefore = await shop.app.database.db.select().from(orderStatusHistory);
    const again = await begin();
    expect((await again.file('orders-1.xml', await ordersFile(shipped.id, cancelled.id))).body).toBe('success\n');
    expect(await shop.app.database.db.select().from(orderStatusHistory)).toEqual(historyBefore);
    const [run] = await shop.app.database.db
      .select({ stats: exchangeRuns.stats })
      .from(exchangeRuns)
      .where(eq(exchangeRuns.id, again.runId));
    expect(run!.stats).toEqual(expect.objectContaining({ ordersUpdated: 0, errors: [] }));
  });

  it('names a document the shop does not know as a row error, and applies the rest', async () => {
    const { order } = await placeOne(1);
    const exchange = await begin();
    const answer = await exchange.file('orders-2.xml', await ordersFile(order.id, 1_999_999_999));
    expect(answer.body).toBe('success\n');
    expect(await statusOf(order.id)).toBe('Отправлен');
    const [run] = await shop.app.database.db
      .select({ stats: exchangeRuns.stats })
      .from(exchangeRuns)
      .where(eq(exchangeRuns.id, exchange.runId));
    expect(run!.stats.errors).toEqual([expect.stringContaining('на сайте нет такого заказа')]);
  });

  it('refuses a broken file with its line, changing nothing', async () => {
    const { order } = await placeOne(1);
    const exchange = await begin();
    const answer = await exchange.file('broken.xml', await readFile(commerceMlFixture('broken.xml')));
    expect(answer.statusCode).toBe(400);
    expect(answer.body).toMatch(/^failure\nbroken\.xml, строка \d+: /);
    expect(await statusOf(order.id)).toBe('Создан');
  });
});
