/**
 * What one buyer's account may reserve (issue: one new account could take the whole stock): at
 * most MAX_UNPAID_ORDERS unpaid orders, MAX_ORDERS_PER_DAY orders a day, and per order line at
 * most MAX_STOCK_SHARE_PERCENT of the variant's stock. The shop's defaults, except the day's cap.
 * These buyers have never paid (quickShoppers); what changes for a proven buyer, and the unproven
 * buyers' pool, is test/server/security/unproven-buyers.test.ts's.
 */
import { eq, sql } from 'drizzle-orm';
import type { OrderSummary, Product } from '../../../shared/api';
import { loadConfig } from '../../config';
import { orders } from '../../db/schema';
import {
  allProducts,
  createTestApp,
  json,
  quickShoppers,
  setVariant,
  stockOf,
  STARTUP_TIMEOUT,
  type Shopper,
  type TestApp,
  markCompanyPaid,
} from '../../../../test/server/helpers/test-app';
import { advanceOrder, orderLine, orderingOf } from '../../../../test/server/helpers/order-workflow';

const ADDRESS = 'г. Псков, ул. Пушкина, д. 1';
const ORDERS_PER_DAY = 5;
const CONTACT = loadConfig({}).mail.contactEmail;

let shop: TestApp;
let spare: Product[];

beforeAll(async () => {
  shop = await createTestApp({ buyerLimits: { ...loadConfig({}).buyerLimits, maxOrdersPerDay: ORDERS_PER_DAY } });
  spare = (await allProducts(shop.app)).filter(
    (product) => product.variants.filter((variant) => variant.stock > 0).length >= 2,
  );
}, STARTUP_TIMEOUT);
afterAll(() => shop.close());

it('the shop’s defaults: 3 unpaid orders, half a variant’s stock per order', () => {
  expect(shop.config.buyerLimits).toMatchObject({ maxUnpaidOrders: 3, maxStockSharePercent: 50 });
});

const { takeProduct, place, placeOk } = orderingOf(() => ({ app: shop.app, spare }), ADDRESS);
const line = orderLine;

const cancel = (shopper: Shopper, orderId: number) =>
  shop.app.inject({ method: 'DELETE', url: `/api/v1/order/${orderId}`, headers: shopper.headers });

async function ordersOf(shopper: Shopper): Promise<number> {
  return shop.app.database.db.$count(orders, eq(orders.userId, shopper.id));
}

const detail = (response: { json(): unknown }) => (response.json() as { detail: string }).detail;

describe('unpaid orders', () => {
  it('a 4th unpaid order → 409 saying what to do, nothing taken; a paid or cancelled one frees a place', async () => {
    const [buyer] = (await quickShoppers(shop.app, 1)) as [Shopper];
    const { product, v1 } = await takeProduct(50);
    const one = [line(product, v1, 1)];
    const [first, second, third] = [await placeOk(buyer, one), await placeOk(buyer, one), await placeOk(buyer, one)];
    // An invoiced order is still unpaid.
    await advanceOrder(shop.app, second.id, 'Ожидает оплаты');

    const refused = await place(buyer, one);
    expect(refused.statusCode).toBe(409);
    expect(detail(refused)).toBe(
      'У вас уже 3 неоплаченных заказа. Оплатите или отмените один из них, чтобы оформить новый',
    );
    expect(await stockOf(shop.app, product.art, v1.id)).toBe(47);
    expect(await ordersOf(buyer)).toBe(3);

    // A cancelled order frees a place.
    expect((await cancel(buyer, third.id)).statusCode).toBe(200);
    await placeOk(buyer, one);
    expect((await place(buyer, one)).statusCode).toBe(409);
    // A manager's steps are never refused by the buyer's limits; a paid order no longer counts (and
    // makes its buyer proven, whose cap is MAX_UNPAID_ORDERS_TRUSTED: unproven-buyers.test.ts).
    await advanceOrder(shop.app, first.id, 'Оплачен');
    await placeOk(buyer, one);
    expect(await stockOf(shop.app, product.art, v1.id)).toBe(46);
  });

  it('another buyer is not held back by someone else’s unpaid orders', async () => {
    const [busy, other] = (await quickShoppers(shop.app, 2)) as [Shopper, Shopper];
    const { product, v1 } = await takeProduct(50);
    for (let i = 0; i < 3; i += 1) await placeOk(busy, [line(product, v1, 1)]);
    await placeOk(other, [line(product, v1, 1)]);
  });

  it('one buyer’s orders sent at once cannot pass the limit together: exactly 3 of 8 are placed', async () => {
    const [buyer] = (await quickShoppers(shop.app, 1)) as [Shopper];
    const { product, v1 } = await takeProduct(100);
    const answers = await Promise.all(Array.from({ length: 8 }, () => place(buyer, [line(product, v1, 1)])));
    const statuses = answers.map((answer) => answer.statusCode).sort();
    expect(statuses).toEqual([201, 201, 201, 409, 409, 409, 409, 409]);
    expect(await stockOf(shop.app, product.art, v1.id)).toBe(97);
  });

  it('a retried order (same Idempotency-Key) gets its order back even at the limit', async () => {
    const [buyer] = (await quickShoppers(shop.app, 1)) as [Shopper];
    const { product, v1 } = await takeProduct(50);
    const key = { 'idempotency-key': 'limits-retry-1' };
    const first = await place(buyer, [line(product, v1, 1)], key);
    expect(first.statusCode).toBe(201);
    await placeOk(buyer, [line(product, v1, 1)]);
    await placeOk(buyer, [line(product, v1, 1)]);

    const retried = await place(buyer, [line(product, v1, 1)], key);
    expect(retried.statusCode).toBe(201);
    expect(retried.headers['idempotent-replayed']).toBe('true');
    expect(json<OrderSummary>(retried).id).toBe(json<OrderSummary>(first).id);
  });
});

describe('the share of a variant’s stock one order may take', () => {
  it('more than half the stock → 422 naming the line and what to do; nothing taken; half is allowed', async () => {
    const [buyer] = (await quickShoppers(shop.app, 1)) as [Shopper];
    const { product, v1, v2 } = await takeProduct(10);
    const refused = await place(buyer, [line(product, v1, 2), line(product, v2, 6)]);
    expect(refused.statusCode).toBe(422);
    expect(detail(refused)).toBe(
      `Можно заказать не больше 5 шт. «${product.name}» (${v2.color}, ${v2.size} см) за один заказ — ` +
        `для большего объёма свяжитесь с менеджером: ${CONTACT}`,
    );
    expect(await stockOf(shop.app, product.art, v1.id)).toBe(10);
    expect(await stockOf(shop.app, product.art, v2.id)).toBe(10);
    expect(await ordersOf(buyer)).toBe(0);

    await placeOk(buyer, [line(product, v1, 2), line(product, v2, 5)]);
    expect(await stockOf(shop.app, product.art, v2.id)).toBe(5);
  });

  it('is of the stock when ordering: the next order may take half of what is left', async () => {
    const [first, second] = (await quickShoppers(shop.app, 2)) as [Shopper, Shopper];
    const { product, v1 } = await takeProduct(20);
    // A buyer who has paid before: the order holds nothing of the unproven buyers' pool.
    await markCompanyPaid(shop.app, first.id);
    await placeOk(first, [line(product, v1, 10)]);
    const refused = await place(second, [line(product, v1, 6)]);
    expect(refused.statusCode).toBe(422);
    expect(detail(refused)).toMatch(/^Можно заказать не больше 5 шт\./);
    await placeOk(second, [line(product, v1, 5)]);
  });

  it('two lines of one variant are one line: 3 + 3 of a stock of 10 → 422', async () => {
    const [buyer] = (await quickShoppers(shop.app, 1)) as [Shopper];
    const { product, v1 } = await takeProduct(10);
    expect((await place(buyer, [line(product, v1, 3), line(product, v1, 3)])).statusCode).toBe(422);
  });

  it('one piece is always allowed: the last piece, and 1 of 3 (half is 1.5), but not 2 of 3', async () => {
    const [buyer] = (await quickShoppers(shop.app, 1)) as [Shopper];
    const { product, v1, v2 } = await takeProduct(1);
    await setVariant(shop.app, v2.id, { stock: 3 });
    await placeOk(buyer, [line(product, v1, 1)]);
    expect(await stockOf(shop.app, product.art, v1.id)).toBe(0);
    const refused = await place(buyer, [line(product, v2, 2)]);
    expect(refused.statusCode).toBe(422);
    expect(detail(refused)).toMatch(/^Можно заказать не больше 1 шт\./);
    await placeOk(buyer, [line(product, v2, 1)]);
  });

  it('more than the stock is still 409 «Недостаточно товара», as before', async () => {
    const [buyer] = (await quickShoppers(shop.app, 1)) as [Shopper];
    const { product, v1 } = await takeProduct(4);
    const refused = await place(buyer, [line(product, v1, 5)]);
    expect(refused.statusCode).toBe(409);
    expect(detail(refused)).toMatch(/^Недостаточно товара/);
  });
});

describe('orders a day', () => {
  it(`the ${ORDERS_PER_DAY + 1}th order in 24 hours → 409 with when the next may be placed, cancelled ones counted`, async () => {
    const [buyer] = (await quickShoppers(shop.app, 1)) as [Shopper];
    const { product, v1 } = await takeProduct(100);
    const placed: OrderSummary[] = [];
    for (let i = 0; i < ORDERS_PER_DAY; i += 1) {
      placed.push(await placeOk(buyer, [line(product, v1, 1)]));
      expect((await cancel(buyer, placed.at(-1)!.id)).statusCode).toBe(200);
    }
    const refused = await place(buyer, [line(product, v1, 1)]);
    expect(refused.statusCode).toBe(409);
    expect(detail(refused)).toMatch(
      new RegExp(
        `^За сутки можно оформить не больше ${ORDERS_PER_DAY} заказов\\. Следующий можно будет оформить .+ \\(мск\\); ` +
          `если заказ срочный, напишите менеджеру: ${CONTACT.replaceAll('.', '\\.')}$`,
      ),
    );
    expect(await ordersOf(buyer)).toBe(ORDERS_PER_DAY);

    // A day after the first, its place is free again.
    await shop.app.database.db
      .update(orders)
      .set({ createdAt: sql`now() - interval '25 hours'` })
      .where(eq(orders.id, placed[0]!.id));
    await placeOk(buyer, [line(product, v1, 1)]);
    expect((await place(buyer, [line(product, v1, 1)])).statusCode).toBe(409);
  });
});
