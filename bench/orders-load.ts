// Order throughput on PostgreSQL with 50 concurrent buyers, and proof of zero oversell (issue 7):
//   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench -- orders
import { Client } from 'pg';
import { createFreshDatabase } from '../test/server/helpers/fresh-database';
import { percentile, startProcess } from './lib';

const BUYERS = 50;

export interface Buyer {
  id: number;
  token: string;
}

export async function register(url: string, index: number): Promise<Buyer> {
  const email = `bench-buyer-${index}-${Date.now()}@example.com`;
  const password = 'bench-password-123';
  const registered = await fetch(`${url}/api/v1/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password, consent: true }),
  });
  if (registered.status !== 201)
    throw new Error(`registering ${email}: ${registered.status} ${await registered.text()}`);
  const { id } = (await registered.json()) as { id: number };
  const login = await fetch(`${url}/api/v1/auth/token`, {
    method: 'POST',
    body: new URLSearchParams({ username: email, password }),
  });
  if (!login.ok) throw new Error(`logging ${email} in: ${login.status} ${await login.text()}`);
  const { access_token } = (await login.json()) as { access_token: string };
  return { id, token: access_token };
}

export interface OrderItem {
  product_id: number;
  variant_id: number;
}

/** Every buyer orders one unit of `pick()` again and again for `seconds`; 409s (sold out) count too. */
export async function storm(url: string, buyers: Buyer[], pick: () => OrderItem, seconds: number) {
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  const end = Date.now() + seconds * 1000;
  await Promise.all(
    buyers.map(async (buyer) => {
      while (Date.now() < end) {
        const started = performance.now();
        const response = await fetch(`${url}/api/v1/order/`, {
          method: 'POST',
          headers: { authorization: `Bearer ${buyer.token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ user_id: buyer.id, address: 'Москва, склад', items: [{ ...pick(), quantity: 1 }] }),
        });
        await response.arrayBuffer();
        latencies.push(performance.now() - started);
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      }
    }),
  );
  return { latencies, statuses, created: statuses.get(201) ?? 0 };
}

export interface OrdersResult {
  ordersPerSecond: number;
  p50: number;
  p99: number;
  contended: { stock: number; sold: number; finalStock: number; refused: number };
}

export async function benchOrders(adminUrl: string, seconds: number): Promise<OrdersResult> {
  const database = await createFreshDatabase(adminUrl, 'shop_bench');
  const shop = await startProcess(
    'src/server/server.ts',
    {
      DATABASE_URL: database.url,
      LOGIN_LIMIT_PER_CLIENT: '100000',
      // Each buyer orders again and again without paying: the bench measures placing orders, not
      // a buyer's limits (MAX_UNPAID_ORDERS, MAX_ORDERS_PER_DAY), which would refuse all but a few.
      MAX_UNPAID_ORDERS: '1000000',
      MAX_ORDERS_PER_DAY: '1000000',
    },
    '/api/health/ready',
  );
  const sql = new Client({ connectionString: database.url });
  await sql.connect();
  try {
    const buyers = await Promise.all(Array.from({ length: BUYERS }, (_, index) => register(shop.url, index)));
    const { rows } = await sql.query<{ id: number; product_id: number }>(
      'select id, product_id from variants order by id limit 2',
    );
    const [plenty, scarce] = rows as [{ id: number; product_id: number }, { id: number; product_id: number }];

    // Throughput: stock large enough never to run out.
    await sql.query('update variants set stock = 1000000 where id = $1', [plenty.id]);
    const run = await storm(
      shop.url,
      buyers,
      () => ({ product_id: plenty.product_id, variant_id: plenty.id }),
      seconds,
    );

    // Oversell check: 50 buyers keep ordering a variant with 300 in stock.
    const stock = 300;
    await sql.query('update variants set stock = $2 where id = $1', [scarce.id, stock]);
    const contended = await storm(
      shop.url,
      buyers,
      () => ({ product_id: scarce.product_id, variant_id: scarce.id }),
      5,
    );
    const after = await sql.query<{ stock: number }>('select stock from variants where id = $1', [scarce.id]);
    const sold = await sql.query<{ units: string }>(
      'select coalesce(sum(quantity), 0) as units from order_lines where variant_id = $1',
      [scarce.id],
    );

    return {
      ordersPerSecond: Math.round(run.created / seconds),
      p50: Math.round(percentile(run.latencies, 50)),
      p99: Math.round(percentile(run.latencies, 99)),
      contended: {
        stock,
        sold: Number(sold.rows[0]!.units),
        finalStock: after.rows[0]!.stock,
        refused: contended.statuses.get(409) ?? 0,
      },
    };
  } finally {
    await sql.end();
    await shop.stop();
    await database.drop();
  }
}

export function ordersTable(result: OrdersResult): string {
  const { contended } = result;
  const exact = contended.sold === contended.stock && contended.finalStock === 0;
  return [
    '| figure | value |',
    '|---|---|',
    `| orders per second (50 buyers, PostgreSQL) | ${result.ordersPerSecond} |`,
    `| latency p50 / p99 | ${result.p50} ms / ${result.p99} ms |`,
    `| oversell: stock ${contended.stock}, sold, left, refused (409) | ${contended.sold} sold, ${contended.finalStock} left, ${contended.refused} refused ${exact ? '✓ zero oversell' : '✗'} |`,
  ].join('\n');
}

if (require.main === module) {
  const adminUrl = process.env.BENCH_DATABASE_URL;
  if (!adminUrl) throw new Error('BENCH_DATABASE_URL (a PostgreSQL server) is required');
  benchOrders(adminUrl, Number(process.env.BENCH_SECONDS ?? 10)).then((result) => console.log(ordersTable(result)));
}
