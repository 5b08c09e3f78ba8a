/**
 * Two real server processes on one PostgreSQL database, as a shop behind a load balancer runs:
 * they start together (migrations and the demo seed happen once), and stock holds under
 * parallel orders that arrive through both of them.
 */
import type { Product } from '../../../src/shared/api';
import type { FreshDatabase } from '../helpers/fresh-database';
import {
  allProducts,
  freshPostgresDatabase,
  keepAliveAgent,
  placeOrder,
  report,
  signUpMany,
  startServer,
  stopAllServers,
  tally,
  type Buyer,
  type ServerProcess,
} from '../helpers/server-process';

jest.setTimeout(120_000);

let database: FreshDatabase;
let servers: ServerProcess[] = [];
let buyers: Buyer[];
let spare: Product[];
const agent = keepAliveAgent();

beforeAll(async () => {
  database = await freshPostgresDatabase();
  servers = await Promise.all([startServer({ databaseUrl: database.url }), startServer({ databaseUrl: database.url })]);
  const started = Date.now();
  buyers = await signUpMany(
    servers.map((server) => server.url),
    30,
    agent,
  );
  report('two processes', { buyersSignedUp: buyers.length, signUpMs: Date.now() - started });
  spare = (await allProducts(servers[0]!.url, agent)).filter((product) => product.variants.length >= 2);
}, 180_000);

afterAll(async () => {
  agent.destroy();
  try {
    await stopAllServers();
  } finally {
    await database?.drop();
  }
});

const via = (index: number) => servers[index % servers.length]!.url;

async function stockOf(variantId: number): Promise<number> {
  const [row] = await database.query<{ stock: number }>('select stock from variants where id = $1', [variantId]);
  return row!.stock;
}

async function unitsOrdered(variantId: number): Promise<number> {
  const [row] = await database.query<{ units: string | null }>(
    'select sum(quantity) as units from order_lines where variant_id = $1',
    [variantId],
  );
  return Number(row?.units ?? 0);
}

it('both processes started on one fresh database: migrated and seeded exactly once', async () => {
  const seeded = servers.filter((server) => server.output().includes('demo catalogue seeded'));
  expect(seeded).toHaveLength(1);
  const [counts] = await database.query<{ products: number; categories: number; variants: number }>(
    'select (select count(*)::int from products) as products, (select count(*)::int from categories) as categories, (select count(*)::int from variants) as variants',
  );
  expect(counts).toMatchObject({ products: 72, categories: 8 });
  // Both answer from the same rows.
  const [first, second] = await Promise.all(servers.map((server) => allProducts(server.url, agent)));
  expect(second).toEqual(first);
});

it('60 parallel orders of 1 unit through both processes against a stock of 17: exactly 17 × 201, 43 × 409 naming the product', async () => {
  const STOCK = 17;
  const ORDERS = 60;
  const product = spare.shift()!;
  const variant = product.variants[0]!;
  await database.query('update variants set stock = $1 where id = $2', [STOCK, variant.id]);

  const started = Date.now();
  const answers = await Promise.all(
    Array.from({ length: ORDERS }, (_, i) =>
      placeOrder(
        via(i),
        buyers[i % buyers.length]!,
        [{ product_id: product.id, variant_id: variant.id, quantity: 1 }],
        { agent },
      ),
    ),
  );
  const elapsed = Date.now() - started;
  report('two processes: 60 orders vs stock 17', {
    ms: elapsed,
    ordersPerSecond: Math.round((ORDERS / elapsed) * 1000),
    statuses: tally(answers),
  });

  expect(
    answers
      .filter((answer) => answer.status !== 201 && answer.status !== 409)
      .map((answer) => `${answer.status} ${answer.text}`),
  ).toEqual([]);
  expect(answers.filter((answer) => answer.status === 201)).toHaveLength(STOCK);
  const refused = answers.filter((answer) => answer.status === 409);
  expect(refused).toHaveLength(ORDERS - STOCK);
  for (const answer of refused) expect(answer.json<{ detail: string }>().detail).toContain(product.name);

  expect(await stockOf(variant.id)).toBe(0);
  expect(await unitsOrdered(variant.id)).toBe(STOCK);
  const [{ orders }] = (await database.query<{ orders: number }>(
    'select count(distinct order_id)::int as orders from order_lines where variant_id = $1',
    [variant.id],
  )) as [{ orders: number }];
  expect(orders).toBe(STOCK);
  // Each process shows the same, final stock.
  for (const server of servers) {
    const shown = (await allProducts(server.url, agent)).find((candidate) => candidate.id === product.id)!;
    expect(shown.variants.find((candidate) => candidate.id === variant.id)!.stock).toBe(0);
  }
});

it('duplicate lines of one variant in one order are summed before the stock check, under parallel orders too', async () => {
  const product = spare.shift()!;
  const variant = product.variants[0]!;
  const line = (quantity: number) => ({ product_id: product.id, variant_id: variant.id, quantity });

  // 2 + 2 > 3: refused as a whole, though each line alone would fit.
  await database.query('update variants set stock = 3 where id = $1', [variant.id]);
  const tooMuch = await placeOrder(via(0), buyers[0]!, [line(2), line(2)], { agent });
  expect(tooMuch.status).toBe(409);
  expect(tooMuch.json<{ detail: string }>().detail).toContain('заказано 4 шт.');
  expect(await stockOf(variant.id)).toBe(3);

  // 20 parallel orders of 1 + 1 against a stock of 7: 3 fit (6 units), one unit stays.
  await database.query('update variants set stock = 7 where id = $1', [variant.id]);
  const answers = await Promise.all(
    Array.from({ length: 20 }, (_, i) => placeOrder(via(i), buyers[i % buyers.length]!, [line(1), line(1)], { agent })),
  );
  expect(
    answers
      .filter((answer) => answer.status !== 201 && answer.status !== 409)
      .map((answer) => `${answer.status} ${answer.text}`),
  ).toEqual([]);
  const placed = answers.filter((answer) => answer.status === 201);
  expect(placed).toHaveLength(3);
  for (const answer of placed) expect(answer.json<{ items_count: number }>().items_count).toBe(2);
  expect(await stockOf(variant.id)).toBe(1);
  expect(await unitsOrdered(variant.id)).toBe(6);
  // One merged line per order, not two.
  const lines = await database.query<{ quantity: number }>('select quantity from order_lines where variant_id = $1', [
    variant.id,
  ]);
  expect(lines.map((row) => row.quantity)).toEqual([2, 2, 2]);
});

it('two variants locked in opposite orders by concurrent orders on both processes: no deadlock, only 201/409', async () => {
  const STOCK = 12;
  const ORDERS = 60;
  const product = spare.shift()!;
  const [v1, v2] = product.variants as [Product['variants'][number], Product['variants'][number]];
  await database.query('update variants set stock = $1 where id = any($2::int[])', [STOCK, [v1.id, v2.id]]);
  const a = { product_id: product.id, variant_id: v1.id, quantity: 1 };
  const b = { product_id: product.id, variant_id: v2.id, quantity: 1 };

  const started = Date.now();
  const answers = await Promise.all(
    Array.from({ length: ORDERS }, (_, i) =>
      placeOrder(via(i), buyers[i % buyers.length]!, i % 4 < 2 ? [a, b] : [b, a], { agent, timeoutMs: 30_000 }),
    ),
  );
  report('two processes: opposite lock order', { ms: Date.now() - started, statuses: tally(answers) });
  expect(
    answers
      .filter((answer) => answer.status !== 201 && answer.status !== 409)
      .map((answer) => `${answer.status} ${answer.text}`),
  ).toEqual([]);
  expect(answers.filter((answer) => answer.status === 201)).toHaveLength(STOCK);
  expect(await stockOf(v1.id)).toBe(0);
  expect(await stockOf(v2.id)).toBe(0);
  expect(await unitsOrdered(v1.id)).toBe(STOCK);
  expect(await unitsOrdered(v2.id)).toBe(STOCK);
  // Nothing was logged as a failure (a deadlock would be a 500 with "deadlock detected").
  for (const server of servers) expect(server.output()).not.toMatch(/deadlock|"level":50/);
});
