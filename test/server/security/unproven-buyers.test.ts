/**
 * Stock hoarded with free accounts, and the caps that hurt real buyers. The caps
 * now fall on the unproven (no paid order, not trusted by a manager): their unpaid orders together
 * hold at most UNPROVEN_STOCK_SHARE_PERCENT of a variant and keep it RESERVATION_HOURS_UNPROVEN;
 * MAX_UNPAID_ORDERS and MAX_STOCK_SHARE_PERCENT are theirs only; a proven buyer orders up to the
 * stock, held only by MAX_UNPAID_ORDERS_TRUSTED. The shop's defaults throughout (the tests' app
 * lifts them for other suites). The e-mail confirmation is email-confirmation.test.ts's.
 */
import { eq, inArray, sql } from 'drizzle-orm';
import type { AdminBuyer, AdminOrder, Cart, CartImportResult, CurrentUser, Product } from '../../../src/shared/api';
import { loadConfig } from '../../../src/server/config';
import { CATALOGUE_CHANNEL } from '../../../src/server/db/notifications';
import { auditLog, orders, variants } from '../../../src/server/db/schema';
import {
  allProducts,
  createTestApp,
  json,
  memberOf,
  quickShoppers,
  stockOf,
  STARTUP_TIMEOUT,
  type Shopper,
  type TestApp,
} from '../helpers/test-app';
import { newManager } from '../helpers/back-office';
import { advanceOrder, orderLine, orderingOf } from '../helpers/order-workflow';

const ADDRESS = 'г. Калуга, ул. Ленина, д. 5';
const defaults = loadConfig({});
const CONTACT = defaults.mail.contactEmail;

let shop: TestApp;
let spare: Product[];
let manager: Shopper;

beforeAll(async () => {
  shop = await createTestApp({
    buyerLimits: defaults.buyerLimits,
    reservation: { ...defaults.reservation, sweepSeconds: 3600 },
    // Confirmed or not is email-confirmation.test.ts's: here every account may order.
    requireEmailConfirmation: false,
  });
  spare = (await allProducts(shop.app)).filter(
    (product) => product.variants.filter((variant) => variant.stock > 0).length >= 2,
  );
  manager = await newManager(shop.app);
}, STARTUP_TIMEOUT);
afterAll(() => shop.close());

it('the shop’s defaults: half of a variant for the unproven together, 24 h against 120 h, 20 unpaid orders once proven', () => {
  expect(shop.config.buyerLimits).toMatchObject({
    maxUnpaidOrders: 3,
    maxUnpaidOrdersTrusted: 20,
    maxStockSharePercent: 50,
    unprovenStockSharePercent: 50,
  });
  expect(shop.config.reservation).toMatchObject({ hours: 120, unprovenHours: 24 });
});

const { takeProduct, place, placeOk } = orderingOf(() => ({ app: shop.app, spare }), ADDRESS);
const line = orderLine;

const detail = (response: { json(): unknown }) => (response.json() as { detail: string }).detail;

/** What the unproven buyers' unpaid orders hold of a variant, as the database keeps it. */
async function unprovenHeld(variantId: number): Promise<number> {
  const [row] = await shop.app.database.db
    .select({ held: variants.unprovenHeld })
    .from(variants)
    .where(eq(variants.id, variantId));
  return row!.held;
}

/** A buyer who has paid an order before, as the shop learns it: an order placed, invoiced and paid. */
async function provenBuyer(): Promise<Shopper> {
  const [buyer] = (await quickShoppers(shop.app, 1)) as [Shopper];
  const { product, v1 } = await takeProduct(10);
  const first = await placeOk(buyer, [line(product, v1, 1)]);
  await advanceOrder(shop.app, first.id, 'Оплачен');
  return buyer;
}

/** An invoiced order paid, as a manager marks it. */
const pay = (orderId: number) =>
  shop.app.services.orders.changeStatus(orderId, { to: 'Оплачен', source: 'manager', byUserId: manager.id });

/**
 * A read of the cached catalogue once the database's notice of a change made through a service has
 * reached this process (asynchronously, after the commit; a route drops its own process's cache at
 * once): read again for up to 5 s until it says `expected`, and the last read's value returned.
 */
async function onceHeard<T>(read: () => Promise<T>, expected: T): Promise<T> {
  let value = await read();
  for (let waited = 0; value !== expected && waited < 5000; waited += 50) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    value = await read();
  }
  return value;
}

const currentUser = async (shopper: Shopper) =>
  json<CurrentUser>(await shop.app.inject({ method: 'GET', url: '/api/v1/auth/user', headers: shopper.headers }));

const setTrusted = (buyerId: number, trusted: boolean, as: Shopper = manager) =>
  shop.app.inject({
    method: 'PUT',
    url: `/api/v1/admin/buyers/${buyerId}/trusted`,
    headers: as.headers,
    payload: { trusted },
  });

describe('hoarding with free accounts (the issue’s scenario)', () => {
  it('four fresh accounts ordering all they can at once hold at most half of each variant; a proven buyer then gets the rest', async () => {
    const { product, v1, v2 } = await takeProduct(100);
    const hoarders = await quickShoppers(shop.app, 4);
    // Each asks for everything, then for half of what it last saw, three orders each, all at once.
    const attempts = hoarders.flatMap((hoarder) =>
      [100, 50, 25].map((quantity) => () => place(hoarder, [line(product, v1, quantity), line(product, v2, quantity)])),
    );
    for (let round = 0; round < 4; round += 1) {
      await Promise.all(attempts.map((attempt) => attempt()));
      // And again for whatever fits now, halving until one piece.
      for (const hoarder of hoarders) {
        for (let quantity = 16; quantity >= 1; quantity = Math.floor(quantity / 2)) {
          await place(hoarder, [line(product, v1, quantity), line(product, v2, quantity)]);
        }
      }
    }
    for (const variant of [v1, v2]) {
      const left = await stockOf(shop.app, product.art, variant.id);
      expect(left).toBeGreaterThanOrEqual(50);
    }

    const buyer = await provenBuyer();
    const left = await stockOf(shop.app, product.art, v1.id);
    // All that is left in one line: more than half of it, which no cap holds back.
    await placeOk(buyer, [line(product, v1, left)]);
    expect(await stockOf(shop.app, product.art, v1.id)).toBe(0);
  });
});

describe('the unproven buyers’ pool', () => {
  it('is shared: several unproven buyers at once fill it and no more; the next gets 409 naming what is left and the manager', async () => {
    const { product, v1 } = await takeProduct(10);
    const buyers = await quickShoppers(shop.app, 5);
    // 2 pieces each is within one order's share (5 of 10); together at most 5 of 10.
    const answers = await Promise.all(buyers.map((buyer) => place(buyer, [line(product, v1, 2)])));
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 201, 409, 409, 409]);
    expect(await stockOf(shop.app, product.art, v1.id)).toBe(6);
    expect(await unprovenHeld(v1.id)).toBe(4);
    const refused = answers.find((answer) => answer.statusCode === 409)!;
    expect(detail(refused)).toBe(
      `Пока у вас нет оплаченных заказов, сейчас можно заказать не больше 1 шт. «${product.name}» ` +
        `(${v1.color}, ${v1.size} см): часть остатка уже зарезервирована новыми покупателями, ` +
        `остальное ждёт покупателей с оплаченными заказами. Чтобы заказать больше, напишите менеджеру: ${CONTACT}`,
    );

    // The one piece left of the pool, then nothing: the rest waits for proven buyers.
    const [last] = buyers.filter((_, index) => answers[index]!.statusCode === 409) as [Shopper];
    await placeOk(last, [line(product, v1, 1)]);
    const full = await place(last, [line(product, v1, 1)]);
    expect(full.statusCode).toBe(409);
    expect(detail(full)).toMatch(
      new RegExp(`сейчас заказать нельзя: .* напишите менеджеру: ${CONTACT.replaceAll('.', '\\.')}$`),
    );
    expect(await stockOf(shop.app, product.art, v1.id)).toBe(5);
  });

  it('a cancelled or paid order of an unproven buyer gives its place in the pool back', async () => {
    const { product, v1 } = await takeProduct(20);
    const [first, second] = (await quickShoppers(shop.app, 2)) as [Shopper, Shopper];
    const cancelled = await placeOk(first, [line(product, v1, 10)]);
    expect(await unprovenHeld(v1.id)).toBe(10);
    expect((await place(second, [line(product, v1, 1)])).statusCode).toBe(409);

    const cancel = await shop.app.inject({
      method: 'DELETE',
      url: `/api/v1/order/${cancelled.id}`,
      headers: first.headers,
    });
    expect(cancel.statusCode).toBe(200);
    expect(await unprovenHeld(v1.id)).toBe(0);
    expect(await stockOf(shop.app, product.art, v1.id)).toBe(20);

    const paid = await placeOk(second, [line(product, v1, 10)]);
    await advanceOrder(shop.app, paid.id, 'Ожидает оплаты');
    expect(await unprovenHeld(v1.id)).toBe(10);
    await pay(paid.id);
    // Paid goods are the buyer's, not a reservation: the pool is free again, the stock stays sold.
    expect(await unprovenHeld(v1.id)).toBe(0);
    expect(await stockOf(shop.app, product.art, v1.id)).toBe(10);
    // Cancelling a paid order returns its goods without touching the pool again.
    await shop.app.services.orders.changeStatus(paid.id, { to: 'Отменён', source: 'manager', byUserId: null });
    expect(await unprovenHeld(v1.id)).toBe(0);
    expect(await onceHeard(() => stockOf(shop.app, product.art, v1.id), 20)).toBe(20);
  });

  it('is known where quantities are typed: the product, a cart line and a quick-order line say what the unproven hold, the cached catalogue too once an order is paid', async () => {
    const { product, v1 } = await takeProduct(20);
    const [holder, newcomer] = (await quickShoppers(shop.app, 2)) as [Shopper, Shopper];
    const heldOnProductPage = async () =>
      json<Product>(await shop.app.inject({ method: 'GET', url: `/api/v1/products/${product.art}` })).variants.find(
        (variant) => variant.id === v1.id,
      )!.unproven_held;
    // Read once before the order, so that the answer is in the catalogue's cache.
    expect(await heldOnProductPage()).toBe(0);
    expect((await currentUser(newcomer)).order_limits.unproven_pool_percent).toBe(50);

    const order = await placeOk(holder, [line(product, v1, 8)]);
    expect(await heldOnProductPage()).toBe(8);
    const added = await shop.app.inject({
      method: 'POST',
      url: '/api/v1/cart/add',
      headers: newcomer.headers,
      payload: { user_id: newcomer.id, product_id: product.id, variant_id: v1.id, count: 5 },
    });
    expect(added.statusCode).toBe(201);
    const cart = json<Cart>(
      await shop.app.inject({ method: 'GET', url: `/api/v1/cart/${newcomer.id}`, headers: newcomer.headers }),
    );
    expect(cart.items.find((item) => item.variant_id === v1.id)!.variant).toMatchObject({
      stock: 12,
      unproven_held: 8,
    });
    const checked = await shop.app.inject({
      method: 'POST',
      url: '/api/v1/cart/import',
      query: { dry_run: 'true' },
      headers: { ...newcomer.headers, 'content-type': 'text/plain' },
      payload: `${product.art} ${v1.color} ${v1.size} 5`,
    });
    expect(json<CartImportResult>(checked).lines[0]).toMatchObject({ stock: 12, unproven_held: 8 });
    // What the storefront computes from it is what the server enforces: 12 free + 8 held, a pool of 10, 2 left.
    expect((await place(newcomer, [line(product, v1, 3)])).statusCode).toBe(409);
    await placeOk(newcomer, [line(product, v1, 2)]);

    await advanceOrder(shop.app, order.id, 'Ожидает оплаты');
    expect(await heldOnProductPage()).toBe(10);
    // The payment changes no stock, yet every process's cached answer is dropped with it: the
    // database tells them all (asynchronously, after the commit).
    let notices = 0;
    const stop = await shop.app.database.listen(CATALOGUE_CHANNEL, {
      onNotify: () => (notices += 1),
      onLost: () => {},
      onRestored: () => {},
    });
    try {
      await pay(order.id);
      expect(await onceHeard(heldOnProductPage, 2)).toBe(2);
      expect(notices).toBeGreaterThanOrEqual(1);
    } finally {
      await stop();
    }
  });

  it('a proven buyer’s order takes nothing from the pool', async () => {
    const { product, v1 } = await takeProduct(20);
    const buyer = await provenBuyer();
    await placeOk(buyer, [line(product, v1, 15)]);
    expect(await unprovenHeld(v1.id)).toBe(0);
    const [newcomer] = (await quickShoppers(shop.app, 1)) as [Shopper];
    // 5 left: one order's share is 2, the pool floor(5 / 2) = 2.
    await placeOk(newcomer, [line(product, v1, 2)]);
    expect((await place(newcomer, [line(product, v1, 1)])).statusCode).toBe(409);
  });
});

describe('proven buyers', () => {
  it('«paid» is «Оплачен»: an invoiced order does not prove its buyer, a paid one does, and a later cancel does not undo it', async () => {
    const [buyer] = (await quickShoppers(shop.app, 1)) as [Shopper];
    const { product, v1 } = await takeProduct(40);
    const order = await placeOk(buyer, [line(product, v1, 1)]);
    expect(await currentUser(buyer)).toMatchObject({
      proven: false,
      order_limits: { line_share_percent: 50, max_unpaid_orders: 3 },
    });
    await advanceOrder(shop.app, order.id, 'Ожидает оплаты');
    expect((await currentUser(buyer)).proven).toBe(false);
    expect((await place(buyer, [line(product, v1, 30)])).statusCode).toBe(422);

    await pay(order.id);
    expect(await currentUser(buyer)).toMatchObject({
      proven: true,
      order_limits: { line_share_percent: null, unproven_pool_percent: null, max_unpaid_orders: 20 },
    });
    await shop.app.services.orders.changeStatus(order.id, { to: 'Отменён', source: 'manager', byUserId: null });
    expect((await currentUser(buyer)).proven).toBe(true);
    // Any quantity up to the stock, in one line: the last 25 of 40 after 15.
    await placeOk(buyer, [line(product, v1, 15)]);
    await placeOk(buyer, [line(product, v1, 25)]);
    expect(await stockOf(shop.app, product.art, v1.id)).toBe(0);
    const beyond = await place(buyer, [line(product, v1, 1)]);
    expect(beyond.statusCode).toBe(409);
    expect(detail(beyond)).toMatch(/^Недостаточно товара/);
  });

  it(`hold up to MAX_UNPAID_ORDERS_TRUSTED (20) unpaid orders, not 3`, async () => {
    const buyer = await provenBuyer();
    const { product, v1 } = await takeProduct(100);
    for (let i = 0; i < 20; i += 1) await placeOk(buyer, [line(product, v1, 1)]);
    const refused = await place(buyer, [line(product, v1, 1)]);
    expect(refused.statusCode).toBe(409);
    expect(detail(refused)).toBe(
      'У вас уже 20 неоплаченных заказов. Оплатите или отмените один из них, чтобы оформить новый',
    );
  });

  it('a manager marks a buyer as trusted (journal), the buyer orders as a proven one; taking it back restores the caps', async () => {
    const [buyer, other] = (await quickShoppers(shop.app, 2)) as [Shopper, Shopper];
    const { product, v1 } = await takeProduct(30);
    const order = await placeOk(buyer, [line(product, v1, 1)]);

    expect((await setTrusted(buyer.id, true, other)).statusCode).toBe(403);
    expect((await setTrusted(999_999, true)).statusCode).toBe(404);
    const trusted = await setTrusted(buyer.id, true);
    expect(trusted.statusCode).toBe(200);
    expect(json<AdminBuyer>(trusted)).toEqual({
      id: buyer.id,
      email: buyer.email,
      trusted: true,
      has_paid_order: false,
    });
    const { companyId } = await memberOf(shop.app, buyer.id);
    const [entry] = await shop.app.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.entityId, String(companyId)))
      .orderBy(sql`${auditLog.id} desc`)
      .limit(1);
    expect(entry).toMatchObject({
      byUserId: manager.id,
      action: 'company.trust',
      entity: 'company',
      before: { trusted: false },
      after: { trusted: true },
    });
    const seen = json<AdminOrder>(
      await shop.app.inject({ method: 'GET', url: `/api/v1/admin/orders/${order.id}`, headers: manager.headers }),
    );
    expect(seen.user).toEqual({ id: buyer.id, email: buyer.email, trusted: true, has_paid_order: false });

    expect((await currentUser(buyer)).proven).toBe(true);
    await placeOk(buyer, [line(product, v1, 25)]);
    expect(await unprovenHeld(v1.id)).toBe(1);

    expect(json<AdminBuyer>(await setTrusted(buyer.id, false)).trusted).toBe(false);
    expect((await currentUser(buyer)).order_limits).toEqual({
      line_share_percent: 50,
      unproven_pool_percent: 50,
      max_unpaid_orders: 3,
    });
    expect((await place(buyer, [line(product, v1, 3)])).statusCode).toBe(422);
  });

  it("a manager's account, or one that does not exist, is no buyer to trust: 404, nothing journalled", async () => {
    const before = await shop.app.database.db.select().from(auditLog);
    for (const id of [manager.id, 999_999]) {
      const refused = await setTrusted(id, true);
      expect(refused.statusCode).toBe(404);
      expect(refused.json()).toEqual({ detail: 'Покупатель не найден' });
    }
    expect(await shop.app.database.db.select().from(auditLog)).toHaveLength(before.length);
  });
});

describe('reservations: 24 h for the unproven, 120 h for the proven', () => {
  async function placedHoursAgo(orderId: number, hours: number): Promise<void> {
    await shop.app.database.db
      .update(orders)
      .set({ createdAt: sql`now() - make_interval(hours => ${hours})` })
      .where(eq(orders.id, orderId));
  }

  const statuses = async (ids: number[]) =>
    Object.fromEntries(
      (
        await shop.app.database.db
          .select({ id: orders.id, status: orders.status })
          .from(orders)
          .where(inArray(orders.id, ids))
      ).map(({ id, status }) => [id, status]),
    );

  it('an unproven buyer’s order lapses after 24 h, a proven buyer’s after 120 h; the history says which', async () => {
    const { product, v1 } = await takeProduct(40);
    const [newcomer] = (await quickShoppers(shop.app, 1)) as [Shopper];
    const regular = await provenBuyer();
    const fresh = await placeOk(newcomer, [line(product, v1, 2)]);
    const lapsed = await placeOk(newcomer, [line(product, v1, 2)]);
    const kept = await placeOk(regular, [line(product, v1, 2)]);
    const old = await placeOk(regular, [line(product, v1, 2)]);
    await placedHoursAgo(fresh.id, 23);
    await placedHoursAgo(lapsed.id, 25);
    await placedHoursAgo(kept.id, 119);
    await placedHoursAgo(old.id, 121);

    const cancelled = await shop.app.reservationSweeper.sweep();
    expect(cancelled.sort()).toEqual([lapsed.id, old.id].sort());
    expect(await statuses([fresh.id, lapsed.id, kept.id, old.id])).toEqual({
      [fresh.id]: 'Создан',
      [lapsed.id]: 'Отменён',
      [kept.id]: 'Создан',
      [old.id]: 'Отменён',
    });
    expect(await unprovenHeld(v1.id)).toBe(2);
    const reasonOf = async (shopper: Shopper, orderId: number) =>
      json<{ history: { reason?: string }[] }>(
        await shop.app.inject({
          method: 'GET',
          url: `/api/v1/order/${shopper.id}/${orderId}`,
          headers: shopper.headers,
        }),
      ).history.at(-1)!.reason;
    expect(await reasonOf(newcomer, lapsed.id)).toMatch(/^Срок резерва истёк: заказ не оплачен в течение 24 ч/);
    expect(await reasonOf(regular, old.id)).toMatch(/^Срок резерва истёк: заказ не оплачен в течение 120 ч/);
  });
});
