/**
 * Stock under parallel orders. On PostgreSQL (TEST_DATABASE_URL) the requests really run at
 * once on separate connections; on PGlite they interleave on one connection, and the same
 * rules must hold there too.
 */
import { and, eq, inArray, ne, sum } from 'drizzle-orm';
import type { Product, Variant } from '../../../shared/api';
import { orderLines, orders, products, variants } from '../../db/schema';
import {
  allProducts,
  createTestApp,
  quickShoppers,
  setVariant,
  stockOf,
  STARTUP_TIMEOUT,
  usesPostgres,
  type Shopper,
  type TestApp,
} from '../../../../test/server/helpers/test-app';

const ADDRESS = 'г. Казань, ул. Баумана, д. 1';

let shop: TestApp;
let spare: Product[];
let shoppers: Shopper[];

beforeAll(async () => {
  shop = await createTestApp();
  spare = (await allProducts(shop.app)).filter(
    (product) => product.variants.filter((variant) => variant.stock > 0).length >= 2,
  );
  shoppers = await quickShoppers(shop.app, 30);
}, STARTUP_TIMEOUT);
afterAll(() => shop.close());

function takeProduct(): { product: Product; v1: Variant; v2: Variant } {
  const product = spare.shift()!;
  const [v1, v2] = product.variants.filter((variant) => variant.stock > 0);
  return { product, v1: v1!, v2: v2! };
}

const order = (shopper: Shopper, items: { product_id: number; variant_id: number; quantity: number }[]) =>
  shop.app.inject({
    method: 'POST',
    url: '/api/v1/order/',
    headers: shopper.headers,
    payload: { user_id: shopper.id, address: ADDRESS, items },
  });

async function unitsInOrderLines(variantIds: number[]): Promise<number> {
  const [row] = await shop.app.database.db
    .select({ total: sum(orderLines.quantity) })
    .from(orderLines)
    .where(inArray(orderLines.variantId, variantIds));
  return Number(row?.total ?? 0);
}

it(`runs against ${usesPostgres ? 'PostgreSQL (truly parallel)' : 'PGlite (interleaved)'}`, () => {
  expect(shop.app.database.kind).toBe(usesPostgres ? 'postgres' : 'pglite');
});

it('30 parallel orders of 1 unit against a stock of 7: exactly 7 succeed, 23 get 409, stock ends at 0', async () => {
  const STOCK = 7;
  const { product, v1 } = takeProduct();
  await setVariant(shop.app, v1.id, { stock: STOCK });

  const answers = await Promise.all(
    shoppers.map((shopper) => order(shopper, [{ product_id: product.id, variant_id: v1.id, quantity: 1 }])),
  );
  const statuses = answers.map((answer) => answer.statusCode);
  const unexpected = answers.filter((answer) => answer.statusCode !== 201 && answer.statusCode !== 409);
  expect(unexpected.map((answer) => `${answer.statusCode} ${answer.body}`)).toEqual([]);
  expect(statuses.filter((status) => status === 201)).toHaveLength(STOCK);
  expect(statuses.filter((status) => status === 409)).toHaveLength(shoppers.length - STOCK);
  for (const refused of answers.filter((answer) => answer.statusCode === 409)) {
    expect((refused.json() as { detail: string }).detail).toContain(product.name);
  }

  expect(await stockOf(shop.app, product.art, v1.id)).toBe(0);
  expect(await unitsInOrderLines([v1.id])).toBe(STOCK);
  const [lines] = await shop.app.database.db
    .select({ total: sum(orderLines.quantity) })
    .from(orderLines)
    .where(eq(orderLines.variantId, v1.id));
  expect(Number(lines!.total)).toBe(STOCK);
});

it('two variants ordered in opposite orders in parallel: no deadlock, no 500, stock consistent', async () => {
  const { product, v1, v2 } = takeProduct();
  const STOCK = 12;
  await setVariant(shop.app, v1.id, { stock: STOCK });
  await setVariant(shop.app, v2.id, { stock: STOCK });

  // Each shopper wants one of each, half list v1 first and half v2 first; 30 × 1 > 12, so some must lose.
  const answers = await Promise.all(
    shoppers.map((shopper, index) => {
      const a = { product_id: product.id, variant_id: v1.id, quantity: 1 };
      const b = { product_id: product.id, variant_id: v2.id, quantity: 1 };
      return order(shopper, index % 2 === 0 ? [a, b] : [b, a]);
    }),
  );
  const unexpected = answers.filter((answer) => answer.statusCode !== 201 && answer.statusCode !== 409);
  expect(unexpected.map((answer) => `${answer.statusCode} ${answer.body}`)).toEqual([]);
  const placed = answers.filter((answer) => answer.statusCode === 201).length;
  expect(placed).toBe(STOCK);

  const left1 = await stockOf(shop.app, product.art, v1.id);
  const left2 = await stockOf(shop.app, product.art, v2.id);
  expect(left1).toBe(0);
  expect(left2).toBe(0);
  expect(await unitsInOrderLines([v1.id])).toBe(STOCK - left1);
  expect(await unitsInOrderLines([v2.id])).toBe(STOCK - left2);
});

it('parallel cancels of one order return its stock exactly once', async () => {
  const { product, v1 } = takeProduct();
  await setVariant(shop.app, v1.id, { stock: 10 });
  const [owner] = shoppers;
  const placed = await order(owner!, [{ product_id: product.id, variant_id: v1.id, quantity: 4 }]);
  expect(placed.statusCode).toBe(201);
  const { id } = placed.json() as { id: number };

  const answers = await Promise.all(
    Array.from({ length: 8 }, () =>
      shop.app.inject({ method: 'DELETE', url: `/api/v1/order/${id}`, headers: owner!.headers }),
    ),
  );
  const statuses = answers.map((answer) => answer.statusCode).sort();
  expect(statuses).toEqual([200, ...Array(7).fill(409)]);
  expect(await stockOf(shop.app, product.art, v1.id)).toBe(10);
});

it('parallel orders and cancels mixed: stock + units in live orders stays constant', async () => {
  const { product, v1 } = takeProduct();
  // One piece an order: one order may take only half of a larger stock (buyer-limits.test.ts).
  const STOCK = 7;
  await setVariant(shop.app, v1.id, { stock: STOCK });
  const item = [{ product_id: product.id, variant_id: v1.id, quantity: 1 }];

  const first = await Promise.all(shoppers.slice(0, 10).map((shopper) => order(shopper, item)));
  const placed = first
    .map((answer, index) => ({ answer, shopper: shoppers[index]! }))
    .filter(({ answer }) => answer.statusCode === 201);
  expect(placed).toHaveLength(7);

  // Cancel three while ten more try to buy.
  const cancels = placed.slice(0, 3).map(({ answer, shopper }) =>
    shop.app.inject({
      method: 'DELETE',
      url: `/api/v1/order/${(answer.json() as { id: number }).id}`,
      headers: shopper.headers,
    }),
  );
  const buys = shoppers.slice(10, 20).map((shopper) => order(shopper, item));
  const answers = await Promise.all([...cancels, ...buys]);
  expect(answers.filter((answer) => ![200, 201, 409].includes(answer.statusCode)).map((answer) => answer.body)).toEqual(
    [],
  );
  expect(answers.slice(0, 3).map((answer) => answer.statusCode)).toEqual([200, 200, 200]);

  // Conservation: what is on the shelf plus what sits in live orders is what there was.
  const stock = await stockOf(shop.app, product.art, v1.id);
  const [live] = await shop.app.database.db
    .select({ total: sum(orderLines.quantity) })
    .from(orderLines)
    .innerJoin(orders, eq(orders.id, orderLines.orderId))
    .where(and(eq(orderLines.variantId, v1.id), ne(orders.status, 'Отменён')));
  expect(stock).toBeGreaterThanOrEqual(0);
  expect(stock + Number(live!.total ?? 0)).toBe(STOCK);
  // 7 placed (none left), 3 cancelled (+3): how many of the new buyers got in depends on whether
  // they ran before or after the cancels, but never more than the 3 units allow.
  const newOrders = answers.slice(3).filter((answer) => answer.statusCode === 201).length;
  expect(newOrders).toBeLessThanOrEqual(3);
  expect(stock).toBe(3 - newOrders);
});

it('two-product orders that meet their products in opposite orders, placed and cancelled all at once: no deadlock, stock and units ordered conserved', async () => {
  const STOCK = 40;
  const [p, q] = [takeProduct(), takeProduct()].sort((a, b) => a.v1.id - b.v1.id);
  // A variant of p newer than any of q's: an order of q.v2 and it meets q's variant first, then
  // p's, while an order of p.v1 and q.v1 meets p's first. Their products are still locked in one order.
  const [added] = await shop.app.database.db
    .insert(variants)
    .values({ productId: p!.product.id, color: 'Проверочный', size: 77, price: '100.00', stock: STOCK })
    .returning({ id: variants.id });
  const line = (product: Product, variantId: number) => ({
    product_id: product.id,
    variant_id: variantId,
    quantity: 1,
  });
  const forward = [line(p!.product, p!.v1.id), line(q!.product, q!.v1.id)];
  const backward = [line(q!.product, q!.v2.id), line(p!.product, added!.id)];
  const variantIds = [p!.v1.id, q!.v1.id, q!.v2.id, added!.id];
  for (const id of variantIds) await setVariant(shop.app, id, { stock: STOCK });
  const unitsOrdered = async () =>
    (
      await shop.app.database.db
        .select({ id: products.id, units: products.unitsOrdered })
        .from(products)
        .where(inArray(products.id, [p!.product.id, q!.product.id]))
        .orderBy(products.id)
    ).map(({ units }) => units);
  const unitsBefore = await unitsOrdered();
  const buyers = await quickShoppers(shop.app, 20);
  // Half order one pair, half the other, each listing its lines either way round.
  const items = (index: number) => {
    const pair = index % 2 === 0 ? forward : backward;
    return index % 4 < 2 ? pair : [...pair].reverse();
  };
  const placeAll = () => Promise.all(buyers.map((buyer, index) => order(buyer, items(index))));

  let placed = await placeAll();
  expect(placed.map((answer) => answer.statusCode)).toEqual(buyers.map(() => 201));
  for (let round = 0; round < 3; round += 1) {
    const cancels = placed.map((answer, index) =>
      shop.app.inject({
        method: 'DELETE',
        url: `/api/v1/order/${(answer.json() as { id: number }).id}`,
        headers: buyers[index]!.headers,
      }),
    );
    const [cancelled, next] = await Promise.all([Promise.all(cancels), placeAll()]);
    expect(cancelled.map((answer) => `${answer.statusCode} ${answer.statusCode === 200 ? '' : answer.body}`)).toEqual(
      buyers.map(() => '200 '),
    );
    expect(next.map((answer) => `${answer.statusCode} ${answer.statusCode === 201 ? '' : answer.body}`)).toEqual(
      buyers.map(() => '201 '),
    );
    placed = next;
  }

  // The last round's orders are live: ten of each pair, one piece of every variant in it.
  for (const id of variantIds) {
    expect(await stockOf(shop.app, id === added!.id || id === p!.v1.id ? p!.product.art : q!.product.art, id)).toBe(
      STOCK - 10,
    );
  }
  const unitsAfter = await unitsOrdered();
  expect(unitsAfter.map((units, index) => units - unitsBefore[index]!)).toEqual([20, 20]);
});
