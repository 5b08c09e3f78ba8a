import { eq } from 'drizzle-orm';
import { createSigner } from 'fast-jwt';
import type { AdminOrder, AdminOrderList, OrderSummary, Product } from '../../../shared/api';
import { ORDER_STATUSES, type OrderStatus } from '../../../shared/order-statuses';
import { companies, orders, users } from '../../db/schema';
import {
  allProducts,
  bearer,
  json,
  quickShoppers,
  sessionIdOf,
  stockOf,
  STARTUP_TIMEOUT,
  type Shopper,
  type TestApp,
} from '../../../../test/server/helpers/test-app';
import { newManager, openBackOffice } from '../../../../test/server/helpers/back-office';
import { advanceOrder, placeOrderOf } from '../../../../test/server/helpers/order-workflow';

const CYRILLIC = /[а-яё]/i;

let shop: TestApp;
let spare: Product[];
let buyer: Shopper;
let manager: Shopper;

beforeAll(async () => {
  ({ shop, buyer, manager } = await openBackOffice());
  spare = (await allProducts(shop.app)).filter((product) => product.variants.some((variant) => variant.stock > 0));
}, STARTUP_TIMEOUT);
afterAll(() => shop.close());

/** A new order of `quantity` units of a product no other test touches, with a known stock of 20. */
async function placeOrder(
  shopper: Shopper,
  quantity = 3,
  company: Record<string, string> = {},
): Promise<{ order: OrderSummary; product: Product; variantId: number }> {
  const product = spare.shift()!;
  const fields = { contact_name: 'Анна', contact_phone: '+7 900 000-00-00', ...company };
  const { order, variant } = await placeOrderOf(shop.app, shopper, product, { quantity, stock: 20, fields });
  return { order, product, variantId: variant.id };
}

const getOrder = (id: number, who: Shopper = manager) =>
  shop.app.inject({ method: 'GET', url: `/api/v1/admin/orders/${id}`, headers: who.headers });
const listOrders = (query: Record<string, string>, who: Shopper = manager) =>
  shop.app.inject({ method: 'GET', url: '/api/v1/admin/orders', query, headers: who.headers });
const setStatus = (id: number, payload: Record<string, unknown>, who: Shopper = manager) =>
  shop.app.inject({ method: 'POST', url: `/api/v1/admin/orders/${id}/status`, headers: who.headers, payload });

describe('access to /api/v1/admin', () => {
  const routes = [
    ['GET', '/api/v1/admin/orders'],
    ['GET', '/api/v1/admin/orders/1'],
    ['POST', '/api/v1/admin/orders/1/status'],
  ] as const;

  it('no token or a forged one → 401 {detail}', async () => {
    for (const [method, url] of routes) {
      for (const headers of [{}, { authorization: 'Bearer forged' }]) {
        const response = await shop.app.inject({ method, url, headers, payload: { status: 'Оплачен' } });
        expect(response.statusCode).toBe(401);
        expect(response.json()).toEqual({ detail: expect.stringMatching(CYRILLIC) });
      }
    }
  });

  it('a buyer → 403 {detail} in Russian on every route', async () => {
    for (const [method, url] of routes) {
      const response = await shop.app.inject({ method, url, headers: buyer.headers, payload: { status: 'Оплачен' } });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ detail: 'Раздел доступен только менеджерам магазина' });
    }
  });

  it("a buyer's token that claims the manager role (signed with the shop's own secret) → 403", async () => {
    const secret = await shop.app.repositories.settings.getOrInsert('jwt_secret', 'unused');
    const sign = createSigner({ key: secret, algorithm: 'HS256', expiresIn: 60_000 });
    const token = sign({
      sub: String(buyer.id),
      sid: sessionIdOf(buyer.token),
      role: 'manager',
      roles: ['manager'],
      admin: true,
    });
    expect((await listOrders({}, { ...buyer, headers: bearer(token) })).statusCode).toBe(403);
  });

  it('a revoked manager is refused at once with the same token; GET /auth/user says the role', async () => {
    const former = await newManager(shop.app);
    const me = await shop.app.inject({ method: 'GET', url: '/api/v1/auth/user', headers: former.headers });
    expect(me.json()).toMatchObject({ id: former.id, email: former.email, role: 'manager' });
    expect((await listOrders({}, former)).statusCode).toBe(200);

    await shop.app.repositories.users.setRole(former.email, 'buyer');
    expect((await listOrders({}, former)).statusCode).toBe(403);
  });

  it('a token of a deleted account → 401', async () => {
    const [gone] = await quickShoppers(shop.app, 1);
    await shop.app.database.db.delete(users).where(eq(users.id, gone!.id));
    expect((await listOrders({}, gone)).statusCode).toBe(401);
  });
});

describe('GET /api/v1/admin/orders', () => {
  it('newest first by default, {items, total} with the buyer and the company', async () => {
    const { order: older } = await placeOrder(buyer, 2);
    const { order: newer } = await placeOrder(buyer, 1, { company_name: 'ООО «Ромашка»', company_inn: '7707083893' });
    const response = await listOrders({ limit: '2' });
    expect(response.statusCode).toBe(200);
    const page = json<AdminOrderList>(response);
    expect(page.total).toBeGreaterThanOrEqual(2);
    expect(page.items.map((item) => item.id)).toEqual([newer.id, older.id]);
    expect(page.items[0]).toEqual({
      id: newer.id,
      created_at: newer.created_at,
      status: 'Создан',
      total_price: newer.total_price,
      items_count: 1,
      user_email: buyer.email,
      company_name: 'ООО «Ромашка»',
      company_inn: '7707083893',
    });
  });

  it('q finds by order number (with or without №), e-mail, company name or ИНН', async () => {
    const [other] = await quickShoppers(shop.app, 1);
    const { order } = await placeOrder(other!, 1, { company_name: 'ИП Сидоров Медведь', company_inn: '500100732259' });
    const ids = async (q: string) => json<AdminOrderList>(await listOrders({ q })).items.map((item) => item.id);
    expect(await ids(String(order.id))).toContain(order.id);
    expect(await ids(`№${order.id}`)).toContain(order.id);
    expect(await ids(other!.email.toUpperCase())).toEqual([order.id]);
    expect(await ids('сидоров медв')).toEqual([order.id]);
    expect(await ids('0010073')).toEqual([order.id]);
    // LIKE's wildcards are searched for as they are.
    expect(await ids('%')).toEqual([]);
    expect(await ids('9999999999')).toEqual([]);
  });

  it('filters by status and by Moscow days, pages with skip/limit, sorts by total', async () => {
    const { order: cheap } = await placeOrder(buyer, 1);
    const { order: dear } = await placeOrder(buyer, 9);
    await advanceOrder(shop.app, dear.id, 'Оплачен');
    const paid = json<AdminOrderList>(await listOrders({ status: 'Оплачен' }));
    expect(paid.items.map((item) => item.id)).toContain(dear.id);
    expect(paid.items.every((item) => item.status === 'Оплачен')).toBe(true);
    expect(paid.total).toBe(paid.items.length);

    const moscowToday = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Moscow' }).format(new Date());
    const today = json<AdminOrderList>(await listOrders({ from: moscowToday, to: moscowToday, limit: '100' }));
    expect(today.items.map((item) => item.id)).toEqual(expect.arrayContaining([cheap.id, dear.id]));
    const future = json<AdminOrderList>(await listOrders({ from: '2999-01-01' }));
    expect(future).toEqual({ items: [], total: 0 });
    const past = json<AdminOrderList>(await listOrders({ to: '2000-01-01' }));
    expect(past).toEqual({ items: [], total: 0 });

    const all = json<AdminOrderList>(await listOrders({ limit: '100' }));
    const second = json<AdminOrderList>(await listOrders({ skip: '1', limit: '1' }));
    expect(second.items.map((item) => item.id)).toEqual([all.items[1]!.id]);
    expect(second.total).toBe(all.total);

    for (const [sort, ordered] of [
      ['total_desc', (a: number, b: number) => b - a],
      ['total_asc', (a: number, b: number) => a - b],
    ] as const) {
      const totals = json<AdminOrderList>(await listOrders({ sort, limit: '100' })).items.map(
        (item) => item.total_price,
      );
      expect(totals).toEqual([...totals].sort(ordered));
    }
    const oldestFirst = json<AdminOrderList>(await listOrders({ sort: 'created_at_asc', limit: '100' })).items;
    expect(oldestFirst.map((item) => item.id)).toEqual(all.items.map((item) => item.id).reverse());
  });

  it('bad input → 422 {detail} in Russian', async () => {
    for (const query of <Record<string, string>[]>[
      { status: 'Потерян' },
      { sort: 'price' },
      { from: '2026-02-30' },
      { to: '01.02.2026' },
      { limit: '0' },
      { skip: '-1' },
      { q: 'я'.repeat(201) },
    ]) {
      const response = await listOrders(query);
      expect([response.statusCode, query]).toEqual([422, query]);
      expect(response.json()).toEqual({ detail: expect.stringMatching(CYRILLIC) });
    }
  });
});

describe('GET /api/v1/admin/orders/{id}', () => {
  it('the whole order: lines, contacts, company, buyer, history, next statuses, no invoice yet', async () => {
    const { order, product } = await placeOrder(buyer, 4, {
      company_name: 'ООО «Ромашка»',
      company_inn: '7707083893',
      company_kpp: '773601001',
    });
    const response = await getOrder(order.id);
    expect(response.statusCode).toBe(200);
    const detail = json<AdminOrder>(response);
    const variant = product.variants.find((candidate) => candidate.stock > 0)!;
    // Whether an earlier test of this file has paid one of the buyer's orders.
    const [account] = await shop.app.database.db
      .select({ firstPaidAt: companies.firstPaidAt, companyId: companies.id, companyName: companies.name })
      .from(users)
      .innerJoin(companies, eq(companies.id, users.companyId))
      .where(eq(users.id, buyer.id));
    expect(detail).toEqual({
      id: order.id,
      created_at: order.created_at,
      status: 'Создан',
      total_price: order.total_price,
      lines: [
        {
          art: product.art,
          name: product.name,
          color: variant.color,
          size: variant.size,
          price: variant.price,
          quantity: 4,
          item_total: Math.round(variant.price! * 400) / 100,
          list_price: variant.price,
          price_type: 'Опт',
          tier_from: null,
        },
      ],
      contact_name: 'Анна',
      contact_phone: '+7 900 000-00-00',
      address: 'г. Тверь, ул. Советская, д. 3',
      company_name: 'ООО «Ромашка»',
      company_inn: '7707083893',
      company_kpp: '773601001',
      user: { id: buyer.id, email: buyer.email, trusted: false, has_paid_order: account!.firstPaidAt !== null },
      history: [],
      next_statuses: ['Отменён'],
      invoice: null,
      company: { id: account!.companyId, name: account!.companyName },
      placed_by: 'Анна',
      one_c: null,
    });
  });

  it('unknown order → 404, a bad id → 422', async () => {
    expect((await getOrder(2_000_000_000)).json()).toEqual({ detail: 'Заказ не найден' });
    for (const id of ['abc', '0', '-1', '2147483648', '1.5']) {
      const response = await shop.app.inject({
        method: 'GET',
        url: `/api/v1/admin/orders/${id}`,
        headers: manager.headers,
      });
      expect([id, response.statusCode]).toEqual([id, 422]);
    }
  });
});

describe('POST /api/v1/admin/orders/{id}/status', () => {
  const statusOf = async (id: number) =>
    (await shop.app.database.db.select({ status: orders.status }).from(orders).where(eq(orders.id, id)))[0]!.status;

  it('walks every allowed step; the history says who, when, from, to and the comment', async () => {
    const { order } = await placeOrder(buyer);
    await advanceOrder(shop.app, order.id, 'Ожидает оплаты', manager.id);
    for (const status of ['Оплачен', 'Отправлен', 'Доставлен'] as const) {
      const response = await setStatus(order.id, { status, comment: `  ${status} — ок  ` });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ id: order.id, status });
    }
    const detail = json<AdminOrder>(await getOrder(order.id));
    expect(detail.status).toBe('Доставлен');
    expect(detail.next_statuses).toEqual([]);
    const by = { id: manager.id, email: manager.email };
    expect(detail.history).toEqual([
      { at: expect.any(String), from: 'Создан', to: 'Ожидает оплаты', by, comment: null },
      { at: expect.any(String), from: 'Ожидает оплаты', to: 'Оплачен', by, comment: 'Оплачен — ок' },
      { at: expect.any(String), from: 'Оплачен', to: 'Отправлен', by, comment: 'Отправлен — ок' },
      { at: expect.any(String), from: 'Отправлен', to: 'Доставлен', by, comment: 'Доставлен — ок' },
    ]);
    const times = detail.history.map((entry) => Date.parse(entry.at));
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  it.each<[OrderStatus, OrderStatus]>([
    ['Создан', 'Оплачен'],
    ['Создан', 'Доставлен'],
    ['Ожидает оплаты', 'Отправлен'],
    ['Оплачен', 'Доставлен'],
    ['Отправлен', 'Отменён'],
    ['Отправлен', 'Оплачен'],
    ['Доставлен', 'Отменён'],
    ['Доставлен', 'Создан'],
  ])('%s → %s is refused with 409 naming both; nothing changes', async (from, to) => {
    const { order } = await placeOrder(buyer);
    await advanceOrder(shop.app, order.id, from);
    const response = await setStatus(order.id, { status: to });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      detail: `Заказ #${order.id} нельзя перевести из статуса «${from}» в статус «${to}»`,
    });
    expect(await statusOf(order.id)).toBe(from);
    // One entry per step that led here, none for the refused one.
    expect(json<AdminOrder>(await getOrder(order.id)).history).toHaveLength(ORDER_STATUSES.indexOf(from));
  });

  it('Создан → Ожидает оплаты only by issuing the invoice: 409 saying so', async () => {
    const { order } = await placeOrder(buyer);
    const response = await setStatus(order.id, { status: 'Ожидает оплаты' });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      detail: `Заказ #${order.id} переходит в статус «Ожидает оплаты» только при выставлении счёта`,
    });
    expect(await statusOf(order.id)).toBe('Создан');
  });

  it.each<OrderStatus>(['Создан', 'Ожидает оплаты', 'Оплачен'])(
    'cancelling from %s returns the stock at once; a cancelled order is final',
    async (from) => {
      const { order, product, variantId } = await placeOrder(buyer, 5);
      await advanceOrder(shop.app, order.id, from);
      expect(await stockOf(shop.app, product.art, variantId)).toBe(15);
      const response = await setStatus(order.id, { status: 'Отменён', comment: 'Покупатель передумал' });
      expect(response.json()).toEqual({ id: order.id, status: 'Отменён' });
      expect(await stockOf(shop.app, product.art, variantId)).toBe(20);
      const history = json<AdminOrder>(await getOrder(order.id)).history;
      expect(history.at(-1)).toEqual({
        at: expect.any(String),
        from,
        to: 'Отменён',
        by: { id: manager.id, email: manager.email },
        comment: 'Покупатель передумал',
      });
      for (const status of ['Создан', 'Оплачен', 'Отменён'] as const) {
        expect((await setStatus(order.id, { status })).statusCode).toBe(409);
      }
      expect(await stockOf(shop.app, product.art, variantId)).toBe(20);
    },
  );

  it('parallel changes of one order queue on it: one cancel wins, the stock comes back once, one history entry', async () => {
    const { order, product, variantId } = await placeOrder(buyer, 6);
    await advanceOrder(shop.app, order.id, 'Оплачен');
    const answers = await Promise.all([
      ...Array.from({ length: 6 }, () => setStatus(order.id, { status: 'Отменён' })),
      setStatus(order.id, { status: 'Отправлен' }),
      shop.app.inject({ method: 'DELETE', url: `/api/v1/order/${order.id}`, headers: buyer.headers }),
    ]);
    const winners = answers.filter((answer) => answer.statusCode === 200);
    expect(winners).toHaveLength(1);
    expect(answers.filter((answer) => answer.statusCode === 409)).toHaveLength(answers.length - 1);
    const history = json<AdminOrder>(await getOrder(order.id)).history;
    expect(history.map((entry) => entry.to)).toEqual(['Ожидает оплаты', 'Оплачен', winners[0]!.json().status]);
    expect(await stockOf(shop.app, product.art, variantId)).toBe(winners[0]!.json().status === 'Отменён' ? 20 : 14);
  });

  it('unknown order → 404; bad body or id → 422 in Russian', async () => {
    expect((await setStatus(2_000_000_000, { status: 'Оплачен' })).statusCode).toBe(404);
    const { order } = await placeOrder(buyer);
    for (const payload of [
      {},
      { status: 'Потерян' },
      { status: 'Оплачен', comment: 'x'.repeat(1001) },
      { status: 1 },
    ]) {
      const response = await setStatus(order.id, payload);
      expect([response.statusCode, payload]).toEqual([422, payload]);
      expect(response.json()).toEqual({ detail: expect.stringMatching(CYRILLIC) });
    }
    expect((await setStatus(0, { status: 'Оплачен' })).statusCode).toBe(422);
  });
});

describe("the buyer's own cancel (DELETE /api/v1/order/{id})", () => {
  const cancel = (id: number) =>
    shop.app.inject({ method: 'DELETE', url: `/api/v1/order/${id}`, headers: buyer.headers });

  it.each<OrderStatus>(['Создан', 'Ожидает оплаты'])(
    'allowed in %s, written to the history as theirs',
    async (from) => {
      const { order, product, variantId } = await placeOrder(buyer, 2);
      await advanceOrder(shop.app, order.id, from);
      expect((await cancel(order.id)).json()).toEqual({ id: order.id, status: 'Отменён' });
      expect(await stockOf(shop.app, product.art, variantId)).toBe(20);
      expect(json<AdminOrder>(await getOrder(order.id)).history.at(-1)).toEqual({
        at: expect.any(String),
        from,
        to: 'Отменён',
        by: { id: buyer.id, email: buyer.email },
        comment: null,
      });
    },
  );

  it.each<OrderStatus>(['Оплачен', 'Отправлен', 'Доставлен'])('refused in %s with 409', async (from) => {
    const { order, product, variantId } = await placeOrder(buyer, 2);
    await advanceOrder(shop.app, order.id, from);
    const response = await cancel(order.id);
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ detail: `Заказ #${order.id} в статусе «${from}» нельзя отменить` });
    expect(await stockOf(shop.app, product.art, variantId)).toBe(18);
  });
});
