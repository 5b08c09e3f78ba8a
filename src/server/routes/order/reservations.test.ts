/**
 * An unpaid order of a proven buyer holds its goods for RESERVATION_HOURS (the shop's default, 120;
 * an unproven buyer's RESERVATION_HOURS_UNPROVEN is test/server/security/unproven-buyers.test.ts's); then the server
 * cancels it: the stock comes back, the history says why, the buyer gets a letter. Orders are
 * aged by moving their created_at back. On PostgreSQL (TEST_DATABASE_URL) the sweeps run really
 * at once on separate connections; on PGlite they interleave on one.
 */
import { and, eq, inArray, like, sql } from 'drizzle-orm';
import type { AdminOrder, BuyerOrder, Product, Variant } from '../../../shared/api';
import type { OrderStatus } from '../../../shared/order-statuses';
import { invoices, mailOutbox, orders, orderStatusHistory } from '../../db/schema';
import { ReservationSweeper } from '../../services/reservation-sweeper';
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
import { newManager } from '../../../../test/server/helpers/back-office';
import { SUPPLIER } from '../../../../test/server/helpers/invoices';
import { advanceOrder } from '../../../../test/server/helpers/order-workflow';

const ADDRESS = 'г. Вологда, ул. Мира, д. 7';
const LAPSED = 'Срок резерва истёк: заказ не оплачен в течение 120 ч после оформления.';

let shop: TestApp;
let spare: Product[];
let buyer: Shopper;
let manager: Shopper;

beforeAll(async () => {
  // The shop's own reservation, swept every second so that the timer's own sweeps are seen too.
  shop = await createTestApp({ reservation: { hours: 120, unprovenHours: 24, sweepSeconds: 1 } });
  spare = (await allProducts(shop.app)).filter((product) => product.variants.some((variant) => variant.stock > 0));
  [buyer] = (await quickShoppers(shop.app, 1)) as [Shopper];
  // A buyer who has paid before: the long reservation.
  await markCompanyPaid(shop.app, buyer.id);
  manager = await newManager(shop.app);
  await shop.app.repositories.supplierRequisites.save(SUPPLIER, manager.id);
}, STARTUP_TIMEOUT);
afterAll(() => shop.close());

async function takeVariant(stock = 20): Promise<{ product: Product; variant: Variant }> {
  const product = spare.shift()!;
  const variant = product.variants.find((candidate) => candidate.stock > 0)!;
  await setVariant(shop.app, variant.id, { stock });
  return { product, variant };
}

async function placeOrder(product: Product, variant: Variant, quantity = 2): Promise<number> {
  const response = await shop.app.inject({
    method: 'POST',
    url: '/api/v1/order/',
    headers: buyer.headers,
    payload: {
      user_id: buyer.id,
      address: ADDRESS,
      items: [{ product_id: product.id, variant_id: variant.id, quantity }],
    },
  });
  expect(response.statusCode).toBe(201);
  return json<{ id: number }>(response).id;
}

/** Test set-up: the order was placed `hours` ago. */
async function placedHoursAgo(orderId: number, hours: number): Promise<void> {
  await shop.app.database.db
    .update(orders)
    .set({ createdAt: sql`now() - make_interval(hours => ${hours})` })
    .where(eq(orders.id, orderId));
}

async function statusOf(orderId: number): Promise<OrderStatus> {
  const [row] = await shop.app.database.db.select({ status: orders.status }).from(orders).where(eq(orders.id, orderId));
  return row!.status as OrderStatus;
}

const buyerView = async (orderId: number) =>
  json<BuyerOrder>(
    await shop.app.inject({ method: 'GET', url: `/api/v1/order/${buyer.id}/${orderId}`, headers: buyer.headers }),
  );

async function lettersAbout(orderId: number): Promise<{ subject: string; text: string }[]> {
  return shop.app.database.db
    .select({ subject: mailOutbox.subject, text: mailOutbox.text })
    .from(mailOutbox)
    .where(and(eq(mailOutbox.recipient, buyer.email), like(mailOutbox.subject, `Заказ № ${orderId}: Отменён — %`)));
}

async function cancellations(orderIds: number[]): Promise<number> {
  return shop.app.database.db.$count(
    orderStatusHistory,
    and(inArray(orderStatusHistory.orderId, orderIds), eq(orderStatusHistory.toStatus, 'Отменён')),
  );
}

it('an unpaid order placed over 120 h ago is cancelled by one sweep: stock back, history and letter say why', async () => {
  const { product, variant } = await takeVariant(20);
  const orderId = await placeOrder(product, variant, 3);
  expect(await stockOf(shop.app, product.art, variant.id)).toBe(17);
  await placedHoursAgo(orderId, 121);

  await shop.app.reservationSweeper.sweep();

  expect(await statusOf(orderId)).toBe('Отменён');
  expect(await stockOf(shop.app, product.art, variant.id)).toBe(20);
  const seen = await buyerView(orderId);
  expect(seen.can_cancel).toBe(false);
  expect(seen.history.at(-1)).toEqual({ at: expect.any(String), status: 'Отменён', reason: expect.any(String) });
  expect(seen.history.at(-1)!.reason).toMatch(new RegExp(`^${LAPSED} Заказ отменён автоматически`));
  // The first entry, the order's creation, has no reason (the field is left out, as before).
  expect(seen.history[0]).toEqual({ at: expect.any(String), status: 'Создан' });

  const managers = json<AdminOrder>(
    await shop.app.inject({ method: 'GET', url: `/api/v1/admin/orders/${orderId}`, headers: manager.headers }),
  );
  expect(managers.history.at(-1)).toMatchObject({ from: 'Создан', to: 'Отменён', by: null, comment: null });
  expect(managers.history.at(-1)!.reason).toBe(seen.history.at(-1)!.reason);

  const letters = await lettersAbout(orderId);
  expect(letters).toHaveLength(1);
  expect(letters[0]!.text).toContain(LAPSED);
});

it('leaves alone an unpaid order not yet 120 h old, and paid, sent and delivered ones however old', async () => {
  const { product, variant } = await takeVariant(40);
  const young = await placeOrder(product, variant);
  await placedHoursAgo(young, 119);
  const kept: [number, OrderStatus][] = [];
  for (const status of ['Оплачен', 'Отправлен', 'Доставлен'] as const) {
    const orderId = await placeOrder(product, variant);
    await advanceOrder(shop.app, orderId, status, manager.id);
    await placedHoursAgo(orderId, 500);
    kept.push([orderId, status]);
  }

  await shop.app.reservationSweeper.sweep();

  expect(await statusOf(young)).toBe('Создан');
  for (const [orderId, status] of kept) expect(await statusOf(orderId)).toBe(status);
  expect(await stockOf(shop.app, product.art, variant.id)).toBe(40 - 2 * 4);
});

it('an invoiced order keeps its goods until the invoice’s payment term is over too', async () => {
  const { product, variant } = await takeVariant(20);
  const orderId = await placeOrder(product, variant);
  await shop.app.services.invoices.issue(orderId, { byUserId: manager.id, now: new Date() });
  await placedHoursAgo(orderId, 200);

  await shop.app.reservationSweeper.sweep();
  expect(await statusOf(orderId)).toBe('Ожидает оплаты');

  // Issued longer ago than its term (SUPPLIER.payment_days).
  await shop.app.database.db
    .update(invoices)
    .set({ issuedAt: sql`now() - make_interval(days => ${SUPPLIER.payment_days + 1})` })
    .where(eq(invoices.orderId, orderId));
  await shop.app.reservationSweeper.sweep();

  expect(await statusOf(orderId)).toBe('Отменён');
  expect((await buyerView(orderId)).history.at(-1)).toMatchObject({
    status: 'Отменён',
    reason: expect.stringMatching(/^Срок резерва истёк: счёт не оплачен в срок\./),
  });
  expect(await stockOf(shop.app, product.art, variant.id)).toBe(20);
});

it('sweeps at once (as from several processes) cancel each order once and return its stock once', async () => {
  const { product, variant } = await takeVariant(50);
  const orderIds: number[] = [];
  for (let i = 0; i < 6; i += 1) orderIds.push(await placeOrder(product, variant, 1));
  await Promise.all(orderIds.map((orderId) => placedHoursAgo(orderId, 121)));
  const otherProcess = () =>
    new ReservationSweeper({
      orders: shop.app.services.orders,
      intervalSeconds: 3600,
      log: shop.app.log,
      onCancelled: () => {},
    });
  const sweepers = [otherProcess(), otherProcess(), otherProcess()];

  const swept = await Promise.all([...sweepers.map((sweeper) => sweeper.sweep()), shop.app.reservationSweeper.sweep()]);
  await Promise.all(sweepers.map((sweeper) => sweeper.stop()));

  // Every sweep's orders are lapsed ones, none cancelled twice (the app's timer may have taken some).
  const cancelled = swept.flat();
  expect(new Set(cancelled).size).toBe(cancelled.length);
  expect(orderIds).toEqual(expect.arrayContaining(cancelled));
  for (const orderId of orderIds) expect(await statusOf(orderId)).toBe('Отменён');
  expect(await cancellations(orderIds)).toBe(orderIds.length);
  expect(await stockOf(shop.app, product.art, variant.id)).toBe(50);
  for (const orderId of orderIds) expect(await lettersAbout(orderId)).toHaveLength(1);
});

it('every server process sweeps on its own timer (RESERVATION_SWEEP_SECONDS)', async () => {
  const { product, variant } = await takeVariant(20);
  const orderId = await placeOrder(product, variant);
  await placedHoursAgo(orderId, 121);
  const deadline = Date.now() + 5000;
  while ((await statusOf(orderId)) !== 'Отменён' && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  expect(await statusOf(orderId)).toBe('Отменён');
  expect(await stockOf(shop.app, product.art, variant.id)).toBe(20);
});
