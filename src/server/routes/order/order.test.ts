import { eq, inArray } from 'drizzle-orm';
import type { BuyerOrder, Cart, OrderSummary, Product, Variant } from '../../../shared/api';
import { LIMITS } from '../../../shared/limits';
import { MESSAGES } from '../../../shared/messages';
import { orderLines, orders, products } from '../../db/schema';
import { OrderTransitionError } from '../../domain/domain-errors';
import {
  allProducts,
  createTestApp,
  json,
  quickShoppers,
  setVariant,
  signUp,
  stockOf,
  STARTUP_TIMEOUT,
  type Shopper,
  type TestApp,
} from '../../../../test/server/helpers/test-app';
import { advanceOrder } from '../../../../test/server/helpers/order-workflow';

const CYRILLIC = /[а-яё]/i;
const ADDRESS = 'г. Москва, ул. Игрушечная, д. 5, офис 12';

let shop: TestApp;
let spare: Product[];
let buyer: Shopper;
let stranger: Shopper;

beforeAll(async () => {
  shop = await createTestApp();
  spare = (await allProducts(shop.app)).filter(
    (product) => product.variants.filter((variant) => variant.stock > 0).length >= 2,
  );
  buyer = await signUp(shop.app);
  stranger = (await quickShoppers(shop.app, 1))[0]!;
}, STARTUP_TIMEOUT);
afterAll(() => shop.close());

/** A product with ≥ 2 variants in stock that no other test touches, with its stock set to known values. */
async function takeProduct(stock = 50): Promise<{ product: Product; v1: Variant; v2: Variant }> {
  const product = spare.shift();
  if (!product) throw new Error('ran out of products');
  const [v1, v2] = product.variants.filter((variant) => variant.stock > 0);
  await setVariant(shop.app, v1!.id, { stock });
  await setVariant(shop.app, v2!.id, { stock });
  return { product, v1: { ...v1!, stock }, v2: { ...v2!, stock } };
}

const place = (shopper: Shopper, body: Record<string, unknown>) =>
  shop.app.inject({
    method: 'POST',
    url: '/api/v1/order/',
    headers: shopper.headers,
    payload: { user_id: shopper.id, address: ADDRESS, ...body },
  });

const line = (product: Product, variant: Variant, quantity: number) => ({
  product_id: product.id,
  variant_id: variant.id,
  quantity,
});

async function placeOk(shopper: Shopper, body: Record<string, unknown>): Promise<OrderSummary> {
  const response = await place(shopper, body);
  expect(response.statusCode).toBe(201);
  return json<OrderSummary>(response);
}

const listOrders = (shopper: Shopper, userId = shopper.id) =>
  shop.app.inject({ method: 'GET', url: `/api/v1/order/${userId}`, headers: shopper.headers });
const statusOf = (shopper: Shopper, orderId: number) =>
  shop.app.inject({ method: 'GET', url: `/api/v1/order/${orderId}/status`, headers: shopper.headers });
const cancel = (shopper: Shopper, orderId: number) =>
  shop.app.inject({ method: 'DELETE', url: `/api/v1/order/${orderId}`, headers: shopper.headers });

async function storedOrder(orderId: number) {
  const [row] = await shop.app.database.db.select().from(orders).where(eq(orders.id, orderId));
  return row!;
}

describe('POST /api/v1/order/', () => {
  it('201 {id, total_price, status: "Создан", created_at, items_count, invoice: null}; prices from the database, not the body', async () => {
    const { product, v1, v2 } = await takeProduct();
    await setVariant(shop.app, v1.id, { price: '1999.90' });
    await setVariant(shop.app, v2.id, { price: '0.10' });
    const before = Date.now();
    const response = await place(buyer, {
      items: [
        { ...line(product, v1, 3), price: 0.01 },
        { ...line(product, v2, 2), price: 0.01 },
      ],
      total_price: 1,
      status: 'Доставлен',
    });
    expect(response.statusCode).toBe(201);
    const order = json<OrderSummary>(response);
    expect(Object.keys(order).sort()).toEqual([
      'created_at',
      'id',
      'invoice',
      'items_count',
      'legal_entity_id',
      'placed_by',
      'status',
      'total_price',
    ]);
    expect(order.status).toBe('Создан');
    expect(order.invoice).toBeNull();
    expect(order.total_price).toBe(5999.9);
    expect(order.items_count).toBe(5);
    expect(Number.isInteger(order.id)).toBe(true);
    expect(new Date(order.created_at).toISOString()).toBe(order.created_at);
    expect(new Date(order.created_at).getTime()).toBeGreaterThanOrEqual(before - 5000);
    expect(new Date(order.created_at).getTime()).toBeLessThanOrEqual(Date.now() + 5000);

    // The lines keep the prices and quantities as ordered.
    const lines = await shop.app.database.db.select().from(orderLines).where(eq(orderLines.orderId, order.id));
    expect(lines.map((row) => [row.variantId, row.price, row.quantity]).sort()).toEqual(
      [
        [v1.id, '1999.90', 3],
        [v2.id, '0.10', 2],
      ].sort(),
    );
    expect((await storedOrder(order.id)).totalPrice).toBe('5999.90');
  });

  it('stock is decremented exactly, per variant', async () => {
    const { product, v1, v2 } = await takeProduct(20);
    await placeOk(buyer, { items: [line(product, v1, 7), line(product, v2, 1)] });
    expect(await stockOf(shop.app, product.art, v1.id)).toBe(13);
    expect(await stockOf(shop.app, product.art, v2.id)).toBe(19);
  });

  // One order may take only a share of a larger stock (buyer-limits.test.ts), never less than a piece.
  it('ordering the last piece is allowed and leaves 0', async () => {
    const { product, v1 } = await takeProduct(1);
    await placeOk(buyer, { items: [line(product, v1, 1)] });
    expect(await stockOf(shop.app, product.art, v1.id)).toBe(0);
  });

  it('the ordered variants leave the cart, the others stay', async () => {
    const { product, v1, v2 } = await takeProduct();
    const addToCart = (variant: Variant, count: number) =>
      shop.app.inject({
        method: 'POST',
        url: '/api/v1/cart/add',
        headers: buyer.headers,
        payload: { user_id: buyer.id, product_id: product.id, variant_id: variant.id, count },
      });
    expect((await addToCart(v1, 2)).statusCode).toBe(201);
    expect((await addToCart(v2, 3)).statusCode).toBe(201);
    await placeOk(buyer, { items: [line(product, v1, 2)] });
    const cart = json<Cart>(
      await shop.app.inject({ method: 'GET', url: `/api/v1/cart/${buyer.id}`, headers: buyer.headers }),
    );
    expect(cart.items.map((item) => [item.variant_id, item.count])).toEqual([[v2.id, 3]]);
  });

  it('two lines of one variant are summed before the stock check: 3 + 3 with stock 5 → 409, nothing taken', async () => {
    const { product, v1, v2 } = await takeProduct(5);
    const response = await place(buyer, { items: [line(product, v1, 3), line(product, v2, 1), line(product, v1, 3)] });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ detail: expect.stringContaining(product.name) });
    expect(await stockOf(shop.app, product.art, v1.id)).toBe(5);
    expect(await stockOf(shop.app, product.art, v2.id)).toBe(5);
  });

  it('two lines of one variant within stock are ordered as their sum', async () => {
    const { product, v1 } = await takeProduct(10);
    const order = await placeOk(buyer, { items: [line(product, v1, 2), line(product, v1, 3)] });
    expect(order.items_count).toBe(5);
    expect(order.total_price).toBe(Math.round(v1.price! * 100 * 5) / 100);
    expect(await stockOf(shop.app, product.art, v1.id)).toBe(5);
  });

  it('short stock → 409 whose detail names the product; no order and no stock change', async () => {
    const { product, v1, v2 } = await takeProduct(2);
    const ordersBefore = json<OrderSummary[]>(await listOrders(buyer)).length;
    const response = await place(buyer, { items: [line(product, v2, 1), line(product, v1, 3)] });
    expect(response.statusCode).toBe(409);
    const { detail } = json<{ detail: string }>(response);
    expect(detail).toContain(product.name);
    expect(detail).toMatch(CYRILLIC);
    expect(await stockOf(shop.app, product.art, v1.id)).toBe(2);
    expect(await stockOf(shop.app, product.art, v2.id)).toBe(2);
    expect(json<OrderSummary[]>(await listOrders(buyer))).toHaveLength(ordersBefore);
  });

  it('an out-of-stock variant → 409', async () => {
    const { product, v1 } = await takeProduct(0);
    expect((await place(buyer, { items: [line(product, v1, 1)] })).statusCode).toBe(409);
  });

  it('a variant of another product, or an unknown variant → 422', async () => {
    const a = await takeProduct();
    const b = await takeProduct();
    const mismatched = await place(buyer, { items: [{ product_id: a.product.id, variant_id: b.v1.id, quantity: 1 }] });
    expect(mismatched.statusCode).toBe(422);
    expect(mismatched.json()).toEqual({ detail: expect.stringMatching(CYRILLIC) });
    const unknown = await place(buyer, {
      items: [{ product_id: a.product.id, variant_id: 2_000_000_000, quantity: 1 }],
    });
    expect(unknown.statusCode).toBe(422);
    expect(await stockOf(shop.app, b.product.art, b.v1.id)).toBe(50);
  });

  // ИНН and КПП as the law has them (docs/decisions.md), not SPEC §5's 12-only rule.
  const ORGANISATION_INN = '7707083893';
  const PERSONAL_INN = '500100732259';
  const KPP = '773601001';

  it.each([
    ['11 digits', { company_inn: '12345678901' }, MESSAGES.innLength],
    ['13 digits', { company_inn: '1234567890123' }, MESSAGES.innLength],
    ['a letter', { company_inn: '77070838a3' }, MESSAGES.innLength],
    ['10 digits with a wrong check digit', { company_inn: '7707083894' }, MESSAGES.innChecksum],
    ['12 digits with a wrong check digit', { company_inn: '500100732250' }, MESSAGES.innChecksum],
    ['a КПП beside a 12-digit ИНН', { company_inn: PERSONAL_INN, company_kpp: KPP }, MESSAGES.kppWithPersonalInn],
    ['a КПП of 8 digits', { company_inn: ORGANISATION_INN, company_kpp: '77360100' }, MESSAGES.kppLength],
    ['a КПП with small letters', { company_inn: ORGANISATION_INN, company_kpp: '7736ab001' }, MESSAGES.kppLength],
  ])('%s → 422 with the message the checkout shows; no stock taken', async (_case, company, detail) => {
    const { product, v1 } = await takeProduct();
    const response = await place(buyer, { items: [line(product, v1, 1)], company_name: 'ООО «Ромашка»', ...company });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({ detail });
    expect(await stockOf(shop.app, product.art, v1.id)).toBe(50);
  });

  it.each([
    ['an organisation: 10-digit ИНН with a КПП', { company_inn: ORGANISATION_INN, company_kpp: KPP }],
    [
      'an organisation: КПП with capital letters in positions 5–6',
      { company_inn: ORGANISATION_INN, company_kpp: '7736AB001' },
    ],
    ['an ИП: 12-digit ИНН without a КПП', { company_inn: PERSONAL_INN }],
  ])('%s → 201', async (_case, company) => {
    const { product, v1 } = await takeProduct();
    const order = await placeOk(buyer, { items: [line(product, v1, 1)], ...company });
    expect(await storedOrder(order.id)).toMatchObject({
      companyInn: company.company_inn,
      companyKpp: 'company_kpp' in company ? company.company_kpp : null,
    });
  });

  it.each([
    ['contact_phone', 'x'.repeat(LIMITS.phoneMax + 1), '«Телефон»'],
    ['contact_name', 'x'.repeat(LIMITS.nameMax + 1), '«Имя»'],
    ['company_name', 'x'.repeat(LIMITS.companyNameMax + 1), '«Название компании»'],
  ])('%s over its limit → 422 naming the field as the checkout form does', async (field, value, label) => {
    const { product, v1 } = await takeProduct();
    const response = await place(buyer, { items: [line(product, v1, 1)], [field]: value });
    expect(response.statusCode).toBe(422);
    const { detail } = response.json<{ detail: string }>();
    expect(detail).toContain(label);
    expect(detail).not.toContain(field);
  });

  it('full company details are stored as given', async () => {
    const { product, v1 } = await takeProduct();
    const order = await placeOk(buyer, {
      items: [line(product, v1, 1)],
      company_name: 'ООО «Ромашка»',
      company_inn: '7707083893',
      company_kpp: '773601001',
      contact_name: 'Иван',
      contact_phone: '+7 900 000-00-00',
    });
    const stored = await storedOrder(order.id);
    expect(stored).toMatchObject({
      address: ADDRESS,
      companyName: 'ООО «Ромашка»',
      companyInn: '7707083893',
      companyKpp: '773601001',
      contactName: 'Иван',
      contactPhone: '+7 900 000-00-00',
      userId: buyer.id,
    });
  });

  it('empty or blank company fields are stored as null (SPEC §5), as are nulls and absent fields', async () => {
    const { product, v1 } = await takeProduct();
    const blank = await placeOk(buyer, {
      items: [line(product, v1, 1)],
      company_name: '',
      company_inn: '',
      company_kpp: '   ',
    });
    expect(await storedOrder(blank.id)).toMatchObject({ companyName: null, companyInn: null, companyKpp: null });
    const nulls = await placeOk(buyer, {
      items: [line(product, v1, 1)],
      company_name: null,
      company_inn: null,
      company_kpp: null,
    });
    expect(await storedOrder(nulls.id)).toMatchObject({ companyName: null, companyInn: null, companyKpp: null });
    const absent = await placeOk(buyer, { items: [line(product, v1, 1)] });
    expect(await storedOrder(absent.id)).toMatchObject({ companyName: null, companyInn: null, companyKpp: null });
  });

  it.each([
    ['blank address', { address: '   ' }],
    ['empty address', { address: '' }],
    ['missing address', { address: undefined }],
  ])('%s → 422 with a Russian detail', async (_name, override) => {
    const { product, v1 } = await takeProduct();
    const response = await place(buyer, { items: [line(product, v1, 1)], ...override });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({ detail: expect.stringMatching(CYRILLIC) });
    expect(await stockOf(shop.app, product.art, v1.id)).toBe(50);
  });

  it('empty items → 422; missing items → 422', async () => {
    for (const items of [[], undefined]) {
      const response = await place(buyer, { items });
      expect(response.statusCode).toBe(422);
      expect(response.json()).toEqual({ detail: expect.stringMatching(CYRILLIC) });
    }
  });

  it.each([0, -1, 1.5, '2', null])('quantity %j → 422 and nothing is taken', async (quantity) => {
    const { product, v1 } = await takeProduct();
    const response = await place(buyer, { items: [{ product_id: product.id, variant_id: v1.id, quantity }] });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({ detail: expect.stringMatching(CYRILLIC) });
    expect(await stockOf(shop.app, product.art, v1.id)).toBe(50);
  });

  it('ordering for another user_id → 403', async () => {
    const { product, v1 } = await takeProduct();
    const response = await place(stranger!, { user_id: buyer.id, items: [line(product, v1, 1)] });
    expect(response.statusCode).toBe(403);
    expect(await stockOf(shop.app, product.art, v1.id)).toBe(50);
  });

  it('no token → 401', async () => {
    const response = await shop.app.inject({
      method: 'POST',
      url: '/api/v1/order/',
      payload: { user_id: buyer.id, address: ADDRESS, items: [] },
    });
    expect(response.statusCode).toBe(401);
  });
});

describe('order list, status and cancel', () => {
  let customer: Shopper;
  beforeAll(async () => {
    customer = (await quickShoppers(shop.app, 1))[0]!;
  });

  it('a new user has no orders: []', async () => {
    const response = await listOrders(customer!);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([]);
  });

  it("lists the user's own orders, newest first, with the fields of the create answer", async () => {
    const { product, v1, v2 } = await takeProduct();
    const first = await placeOk(customer!, { items: [line(product, v1, 1)] });
    const second = await placeOk(customer!, { items: [line(product, v2, 2)] });
    const third = await placeOk(customer!, { items: [line(product, v1, 3)] });
    const listed = json<OrderSummary[]>(await listOrders(customer!));
    expect(listed).toEqual([third, second, first]);
  });

  it('status → {id, status}', async () => {
    const { product, v1 } = await takeProduct();
    const order = await placeOk(customer!, { items: [line(product, v1, 1)] });
    const response = await statusOf(customer!, order.id);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ id: order.id, status: 'Создан' });
  });

  it('status of an order that does not exist → 404 {detail}; a non-numeric id → 422', async () => {
    const response = await statusOf(customer!, 2_000_000_000);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ detail: expect.stringMatching(CYRILLIC) });
    expect(
      (await shop.app.inject({ method: 'GET', url: '/api/v1/order/abc/status', headers: customer!.headers }))
        .statusCode,
    ).toBe(422);
  });

  it('cancel → {id, status: "Отменён"}, the stock comes back; cancelling again → 409', async () => {
    const { product, v1, v2 } = await takeProduct(30);
    const order = await placeOk(customer!, { items: [line(product, v1, 4), line(product, v2, 6)] });
    expect(await stockOf(shop.app, product.art, v1.id)).toBe(26);

    const response = await cancel(customer!, order.id);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ id: order.id, status: 'Отменён' });
    expect(await stockOf(shop.app, product.art, v1.id)).toBe(30);
    expect(await stockOf(shop.app, product.art, v2.id)).toBe(30);
    expect(json<{ status: string }>(await statusOf(customer!, order.id)).status).toBe('Отменён');
    expect(json<OrderSummary[]>(await listOrders(customer!)).find((listed) => listed.id === order.id)!.status).toBe(
      'Отменён',
    );

    const again = await cancel(customer!, order.id);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ detail: expect.stringMatching(CYRILLIC) });
    // The stock was returned once only.
    expect(await stockOf(shop.app, product.art, v1.id)).toBe(30);
  });

  it("another user's order: status and cancel → 404, nothing changes; their list → 403", async () => {
    const { product, v1 } = await takeProduct(30);
    const order = await placeOk(customer!, { items: [line(product, v1, 5)] });

    const peek = await statusOf(stranger!, order.id);
    expect(peek.statusCode).toBe(404);
    expect(peek.json()).toEqual({ detail: expect.stringMatching(CYRILLIC) });
    const cancelled = await cancel(stranger!, order.id);
    expect(cancelled.statusCode).toBe(404);
    expect(json<{ status: string }>(await statusOf(customer!, order.id)).status).toBe('Создан');
    expect(await stockOf(shop.app, product.art, v1.id)).toBe(25);

    const list = await listOrders(stranger!, customer!.id);
    expect(list.statusCode).toBe(403);
    expect(list.json()).toEqual({ detail: expect.stringMatching(CYRILLIC) });
  });

  it('once a manager marks the order as shipped, cancelling → 409 and the stock stays taken', async () => {
    const { product, v1 } = await takeProduct(30);
    const order = await placeOk(customer!, { items: [line(product, v1, 5)] });
    await advanceOrder(shop.app, order.id, 'Отправлен');
    expect(json<{ status: string }>(await statusOf(customer!, order.id)).status).toBe('Отправлен');

    const response = await cancel(customer!, order.id);
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ detail: expect.stringMatching(CYRILLIC) });
    expect(json<{ status: string }>(await statusOf(customer!, order.id)).status).toBe('Отправлен');
    expect(await stockOf(shop.app, product.art, v1.id)).toBe(25);
  });

  it('an order awaiting payment can still be cancelled; a cancelled one cannot be revived by a manager', async () => {
    const { product, v1 } = await takeProduct(30);
    const order = await placeOk(customer!, { items: [line(product, v1, 2)] });
    await advanceOrder(shop.app, order.id, 'Ожидает оплаты');
    expect((await cancel(customer!, order.id)).statusCode).toBe(200);
    await expect(
      shop.app.services.orders.changeStatus(order.id, { to: 'Оплачен', source: 'manager', byUserId: null }),
    ).rejects.toBeInstanceOf(OrderTransitionError);
    expect(json<{ status: string }>(await statusOf(customer!, order.id)).status).toBe('Отменён');
    expect(await stockOf(shop.app, product.art, v1.id)).toBe(30);
  });

  it('no token → 401 on list, status and cancel', async () => {
    for (const [method, url] of [
      ['GET', `/api/v1/order/${customer!.id}`],
      ['GET', '/api/v1/order/1/status'],
      ['DELETE', '/api/v1/order/1'],
    ] as const) {
      expect((await shop.app.inject({ method, url })).statusCode).toBe(401);
    }
  });
});

describe('a large order', () => {
  it('every variant of the catalogue in one order: each takes its stock and counts for its product; the cancel gives every piece back', async () => {
    // The whole catalogue, each variant's stock set anew: the tests above are done with theirs.
    const taken = await allProducts(shop.app);
    const ordered = taken.flatMap((product) => product.variants.map((variant) => ({ product, variant })));
    expect(ordered.length).toBeGreaterThan(100);
    for (const { variant } of ordered) await setVariant(shop.app, variant.id, { stock: 10 });
    const unitsOrdered = async () =>
      new Map(
        (
          await shop.app.database.db
            .select({ id: products.id, units: products.unitsOrdered })
            .from(products)
            .where(
              inArray(
                products.id,
                taken.map((product) => product.id),
              ),
            )
        ).map(({ id, units }) => [id, units]),
      );
    const unitsBefore = await unitsOrdered();
    const customer = (await quickShoppers(shop.app, 1))[0]!;
    // Listed newest variant first: the order's lines come in variant order all the same.
    const items = ordered.map(({ product, variant }) => line(product, variant, 2)).reverse();

    const order = await placeOk(customer, { items });
    expect(order.items_count).toBe(2 * ordered.length);
    const details = json<BuyerOrder>(
      await shop.app.inject({
        method: 'GET',
        url: `/api/v1/order/${customer.id}/${order.id}`,
        headers: customer.headers,
      }),
    );
    expect(details.lines.map((ordered) => ordered.variant_id)).toEqual(
      ordered.map(({ variant }) => variant.id).sort((a, b) => a - b),
    );
    for (const { product, variant } of ordered) expect(await stockOf(shop.app, product.art, variant.id)).toBe(8);
    const unitsPlaced = await unitsOrdered();
    for (const product of taken) {
      const lines = ordered.filter((line) => line.product.id === product.id).length;
      expect(unitsPlaced.get(product.id)! - unitsBefore.get(product.id)!).toBe(2 * lines);
    }

    expect((await cancel(customer, order.id)).statusCode).toBe(200);
    for (const { product, variant } of ordered) expect(await stockOf(shop.app, product.art, variant.id)).toBe(10);
    expect(await unitsOrdered()).toEqual(unitsBefore);
  });
});
