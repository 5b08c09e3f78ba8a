// Order throughput on PostgreSQL with 50 concurrent buyers, where an order's time goes, and proof of
// zero oversell:
//   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench -- orders
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { createFreshDatabase } from '../test/server/helpers/fresh-database';
import { measureCpu, percentile, startProcess } from './lib';

const BUYERS = 50;

/**
 * What the bench's server processes are told: 50 buyers registering from one address and ordering
 * again and again without paying measure placing orders, not a buyer's limits.
 */
export const ORDER_BENCH_ENV = {
  LOGIN_LIMIT_PER_CLIENT: '100000',
  MAX_UNPAID_ORDERS: '1000000',
  MAX_ORDERS_PER_DAY: '1000000',
  // The buyers never pay, and are never asked to confirm their address first.
  UNPROVEN_STOCK_SHARE_PERCENT: '100',
  REQUIRE_EMAIL_CONFIRMATION: 'false',
};

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

/** Any of `variants`, at random: 50 buyers over hundreds of variants mostly order different ones. */
export function anyOf(variants: { id: number; product_id: number }[]): () => OrderItem {
  return () => {
    const variant = variants[Math.floor(Math.random() * variants.length)]!;
    return { product_id: variant.product_id, variant_id: variant.id };
  };
}

/**
 * Where the database connections' time went during a run, sampled from pg_stat_activity: running
 * in PostgreSQL, waiting for a lock, for the WAL's write and flush (the commit's fsync), or idle in
 * a transaction while the server process works or the round trip is under way.
 */
function sampleConnections(adminUrl: string, database: string) {
  const counts = new Map<string, number>();
  let sampling = true;
  const client = new Client({ connectionString: adminUrl });
  const done = (async () => {
    await client.connect();
    while (sampling) {
      const { rows } = await client.query<{
        state: string | null;
        wait_event_type: string | null;
        wait_event: string | null;
      }>(
        `select state, wait_event_type, wait_event from pg_stat_activity
          where datname = $1 and backend_type = 'client backend' and pid <> pg_backend_pid()`,
        [database],
      );
      for (const row of rows) {
        const kind =
          row.state === 'idle'
            ? 'free in the pool'
            : row.state === 'idle in transaction'
              ? 'in a transaction, waiting for the server process'
              : row.wait_event_type === null
                ? 'running a statement'
                : row.wait_event_type === 'Lock'
                  ? `lock wait (${row.wait_event})`
                  : row.wait_event === 'WALSync' || row.wait_event === 'WALWrite'
                    ? 'writing and flushing the WAL (commit)'
                    : `${row.wait_event_type}: ${row.wait_event}`;
        counts.set(kind, (counts.get(kind) ?? 0) + 1);
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await client.end();
  })();
  return async (): Promise<Map<string, number>> => {
    sampling = false;
    await done;
    return counts;
  };
}

/** The server's statement count and time so far, from its /metrics. */
async function statementTotals(url: string, token: string): Promise<{ count: number; seconds: number }> {
  const text = await (await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${token}` } })).text();
  const value = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
  return {
    count: value('shop_db_query_duration_seconds_count'),
    seconds: value('shop_db_query_duration_seconds_sum'),
  };
}

export interface MixResult {
  ordersPerSecond: number;
  p50: number;
  p99: number;
  /** Statements the server sent per order placed, and their time from sending to result. */
  statementsPerOrder: number;
  statementMsPerOrder: number;
  /** Share of the connections' samples in each state (see sampleConnections). */
  connections: [string, number][];
  /** CPU time per order placed: the server process, PostgreSQL (this database's backends and its background processes), the bench's own process, and the machine as a whole. */
  cpuMsPerOrder: { server: number; postgres: number; bench: number; machine: number };
  failed: number;
}

export interface OrdersResult {
  distinct: MixResult & { variants: number; stockKept: boolean };
  shared: MixResult;
  contended: { stock: number; sold: number; finalStock: number; refused: number };
}

export async function benchOrders(adminUrl: string, seconds: number): Promise<OrdersResult> {
  const database = await createFreshDatabase(adminUrl, 'shop_bench');
  const metricsToken = randomBytes(16).toString('hex');
  const shop = await startProcess(
    'src/server/server.ts',
    { DATABASE_URL: database.url, METRICS_TOKEN: metricsToken, ...ORDER_BENCH_ENV },
    '/api/health/ready',
  );
  const sql = new Client({ connectionString: database.url });
  await sql.connect();
  const mix = async (pick: () => OrderItem, runSeconds: number): Promise<MixResult> => {
    const before = await statementTotals(shop.url, metricsToken);
    const stopSampling = sampleConnections(adminUrl, database.name);
    const { result: run, cpu } = await measureCpu(
      async () => ({
        server: [shop.pid],
        postgres: (
          await sql.query<{ pid: number }>(
            'select pid from pg_stat_activity where datname = current_database() or datname is null',
          )
        ).rows.map(({ pid }) => pid),
        bench: [process.pid],
      }),
      () => storm(shop.url, buyers, pick, runSeconds),
    );
    const samples = await stopSampling();
    const after = await statementTotals(shop.url, metricsToken);
    const total = [...samples.values()].reduce((sum, count) => sum + count, 0);
    return {
      ordersPerSecond: Math.round(run.created / runSeconds),
      p50: Math.round(percentile(run.latencies, 50)),
      p99: Math.round(percentile(run.latencies, 99)),
      statementsPerOrder: (after.count - before.count) / run.created,
      statementMsPerOrder: ((after.seconds - before.seconds) * 1000) / run.created,
      connections: [...samples].sort((a, b) => b[1] - a[1]).map(([kind, count]) => [kind, count / total]),
      cpuMsPerOrder: {
        server: cpu.groupsMs.server! / run.created,
        postgres: cpu.groupsMs.postgres! / run.created,
        bench: cpu.groupsMs.bench! / run.created,
        machine: cpu.machineMs / run.created,
      },
      failed: run.latencies.length - run.created - (run.statuses.get(409) ?? 0),
    };
  };
  let buyers: Buyer[] = [];
  try {
    buyers = await Promise.all(Array.from({ length: BUYERS }, (_, index) => register(shop.url, index)));
    const variants = (
      await sql.query<{ id: number; product_id: number; stock: number }>(
        'select id, product_id, stock from variants order by id',
      )
    ).rows;
    const [scarce, ...rest] = variants as [(typeof variants)[number], ...typeof variants];

    // Mostly distinct: every variant but the scarce one, with stock that never runs out.
    const plenty = 1_000_000;
    await sql.query('update variants set stock = $1 where id <> $2', [plenty, scarce.id]);
    await storm(shop.url, buyers, anyOf(rest), 2); // warm-up
    const startUnits = await orderedUnits(sql);
    const distinct = await mix(anyOf(rest), seconds);
    const stockNow = await sql.query<{ left: string; negative: string }>(
      'select sum(stock) as left, count(*) filter (where stock < 0) as negative from variants where id <> $1',
      [scarce.id],
    );
    const unitsNow = await orderedUnits(sql);
    const stockKept =
      Number(stockNow.rows[0]!.negative) === 0 &&
      Number(stockNow.rows[0]!.left) + unitsNow === plenty * rest.length &&
      unitsNow > startUnits;

    // Shared: all 50 on one variant, each order queueing on its row lock.
    const shared = await mix(() => ({ product_id: rest[0]!.product_id, variant_id: rest[0]!.id }), seconds);

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
      distinct: { ...distinct, variants: rest.length, stockKept },
      shared,
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

/** Units in every order line but the scarce variant's (the first). */
async function orderedUnits(sql: Client): Promise<number> {
  const { rows } = await sql.query<{ units: string }>(
    'select coalesce(sum(quantity), 0) as units from order_lines where variant_id <> (select min(id) from variants)',
  );
  return Number(rows[0]!.units);
}

const percent = (share: number) => `${(share * 100).toFixed(0)}%`;

export function ordersTable(result: OrdersResult): string {
  const { contended, distinct, shared } = result;
  const exact = contended.sold === contended.stock && contended.finalStock === 0;
  const row = (name: string, mix: MixResult, target: boolean) =>
    `| ${name} | ${mix.ordersPerSecond}${target ? (mix.ordersPerSecond >= 1000 ? ' ✓' : ' ✗') : ''} | ${mix.p50} | ${mix.p99}${target ? (mix.p99 < 100 ? ' ✓' : ' ✗') : ''} | ${mix.statementsPerOrder.toFixed(1)} | ${mix.statementMsPerOrder.toFixed(2)} | ${mix.failed} |`;
  const states = (mix: MixResult) => mix.connections.map(([kind, share]) => `${kind} ${percent(share)}`).join('; ');
  const cpu = ({ cpuMsPerOrder: c }: MixResult) =>
    `server ${c.server.toFixed(2)} ms, PostgreSQL ${c.postgres.toFixed(2)} ms, the bench (buyers' requests) ${c.bench.toFixed(2)} ms; the machine ${c.machine.toFixed(2)} ms of its 2 cores`;
  return [
    '| mix (50 buyers, one piece per order) | orders/s (target ≥ 1000 distinct) | p50 ms | p99 ms (target < 100 distinct) | statements per order | statement ms per order | failed |',
    '|---|---|---|---|---|---|---|',
    row(`distinct: any of ${distinct.variants} variants`, distinct, true),
    row('shared: all on one variant', shared, false),
    '',
    `Stock kept in the distinct mix (none below 0, stock left + units ordered = stock at the start): ${distinct.stockKept ? '✓' : '✗'}. Oversell: ${contended.stock} in stock, ${contended.sold} sold, ${contended.finalStock} left, ${contended.refused} refused (409) ${exact ? '✓ zero oversell' : '✗'}.`,
    '',
    "Where the database connections' time went (pg_stat_activity sampled every 5 ms):",
    '',
    `- distinct: ${states(distinct)}`,
    `- shared: ${states(shared)}`,
    '',
    'CPU per order placed (/proc, over the measured seconds):',
    '',
    `- distinct: ${cpu(distinct)}`,
    `- shared: ${cpu(shared)}`,
  ].join('\n');
}

if (require.main === module) {
  const adminUrl = process.env.BENCH_DATABASE_URL;
  if (!adminUrl) throw new Error('BENCH_DATABASE_URL (a PostgreSQL server) is required');
  benchOrders(adminUrl, Number(process.env.BENCH_SECONDS ?? 10)).then((result) => console.log(ordersTable(result)));
}
