/**
 * PostgreSQL stopped and started again under load. The server must keep answering — 503 with
 * {detail} while the database is away, quickly, without crashing — say so on /api/health/ready
 * while /api/health/live stays 200, and recover by itself once the database is back.
 *
 * This stops the machine's PostgreSQL cluster for some seconds, which every other user of it
 * notices: it runs only inside `npm run test:reliability` (which sets RELIABILITY_SUITE=1).
 */
import { randomUUID } from 'node:crypto';
import type { FreshDatabase } from '../helpers/fresh-database';
import {
  allProducts,
  attempt,
  ensurePostgresRunning,
  explainFailure,
  freshPostgresDatabase,
  keepAliveAgent,
  placeOrder,
  postgresCluster,
  report,
  request,
  signUpMany,
  sleep,
  startServer,
  stopAllServers,
  tally,
  TransportError,
  waitUntil,
  type Answer,
  type Buyer,
  type ServerProcess,
} from '../helpers/server-process';

jest.setTimeout(150_000);

const STOCK = 100_000;
/** node-postgres waits this long for a connection (connectionTimeoutMillis of the pool) … */
const POOL_CONNECT_TIMEOUT_MS = 5000;
/** … so no request may take much longer than that while the database is away. */
const MAX_ANSWER_MS = POOL_CONNECT_TIMEOUT_MS + 2000;
const MAX_REQUESTS = 20_000;

interface Sample {
  kind: string;
  startedAt: number;
  finishedAt: number;
  outcome: Answer | TransportError;
}

let database: FreshDatabase | undefined;
let server: ServerProcess;
/** A second process on the same database, without load: its catalogue cache must follow A's orders. */
let other: ServerProcess;
const agent = keepAliveAgent();

beforeAll(() => {
  if (process.env.RELIABILITY_SUITE !== '1') {
    throw new Error('This test stops the PostgreSQL cluster: run it only with `npm run test:reliability`.');
  }
});

afterAll(async () => {
  agent.destroy();
  try {
    await stopAllServers();
  } finally {
    // Whatever happened above, PostgreSQL is left running.
    await ensurePostgresRunning();
    await database?.drop();
  }
});

const isServerError = (outcome: Answer | TransportError) => outcome instanceof TransportError || outcome.status >= 500;
const describeOutcome = (sample: Sample) =>
  `${sample.kind} → ${sample.outcome instanceof TransportError ? sample.outcome.code : `${sample.outcome.status} ${sample.outcome.text.slice(0, 200)}`} in ${sample.outcome.ms} ms`;

it('answers 503 {detail} while PostgreSQL is down, stays alive, and recovers by itself when it is back', async () => {
  database = await freshPostgresDatabase();
  [server, other] = await Promise.all([
    startServer({ databaseUrl: database.url }),
    startServer({ databaseUrl: database.url }),
  ]);
  const buyers = await signUpMany([server.url], 4, agent);
  const product = (await allProducts(server.url, agent)).find((candidate) => candidate.variants.length > 0)!;
  const variant = product.variants[0]!;
  await database.query('update variants set stock = $1 where id = $2', [STOCK, variant.id]);
  const line = { product_id: product.id, variant_id: variant.id, quantity: 1 };

  // The load: 8 clients that browse, fill their carts and order, one request after another.
  const samples: Sample[] = [];
  let running = true;
  const actions: [string, (buyer: Buyer) => Promise<Answer | TransportError>][] = [
    ['products', () => attempt(server.url, '/api/v1/products/?limit=100', { agent, timeoutMs: 20_000 })],
    [
      'product',
      () => attempt(server.url, `/api/v1/products/${encodeURIComponent(product.art)}`, { agent, timeoutMs: 20_000 }),
    ],
    [
      'cart add',
      (buyer) =>
        attempt(server.url, '/api/v1/cart/add', {
          method: 'POST',
          headers: buyer.headers,
          body: { user_id: buyer.id, product_id: product.id, variant_id: variant.id, count: 1 },
          agent,
          timeoutMs: 20_000,
        }),
    ],
    [
      'cart',
      (buyer) => attempt(server.url, `/api/v1/cart/${buyer.id}`, { headers: buyer.headers, agent, timeoutMs: 20_000 }),
    ],
    [
      'order',
      (buyer) =>
        attempt(server.url, '/api/v1/order/', {
          method: 'POST',
          headers: { ...buyer.headers, 'idempotency-key': randomUUID() },
          body: { user_id: buyer.id, address: 'г. Казань, ул. Баумана, д. 1', items: [line] },
          agent,
          timeoutMs: 20_000,
        }),
    ],
  ];
  const client = async (index: number) => {
    for (let i = index; running && samples.length < MAX_REQUESTS; i += 1) {
      const [kind, run] = actions[i % actions.length]!;
      const startedAt = Date.now();
      const outcome = await run(buyers[index % buyers.length]!);
      samples.push({ kind, startedAt, finishedAt: Date.now(), outcome });
      await sleep(10);
    }
  };
  const clients = Array.from({ length: 8 }, (_, i) => client(i));
  const phase = (from: number, to = Infinity) =>
    samples.filter((sample) => sample.startedAt >= from && sample.startedAt < to);

  let stoppedAt = 0;
  let startIssuedAt = 0;
  let readyAgainAt = 0;
  try {
    await explainFailure(
      () => [server, other],
      async () => {
        // Baseline.
        await sleep(2000);

        // PostgreSQL goes away (pg_ctlcluster's default fast shutdown: sessions are terminated).
        const stopIssuedAt = Date.now();
        await postgresCluster('stop');
        stoppedAt = Date.now();
        const baseline = samples.filter((sample) => sample.finishedAt < stopIssuedAt);
        expect(baseline.length).toBeGreaterThan(20);
        expect(
          baseline
            .filter((sample) => sample.outcome instanceof TransportError || sample.outcome.status >= 300)
            .map(describeOutcome),
        ).toEqual([]);
        await sleep(1000);

        const ready = await request(server.url, '/api/health/ready', { agent: false, timeoutMs: 10_000 });
        expect({ status: ready.status, body: ready.json() }).toEqual({
          status: 503,
          body: { status: 'database unavailable' },
        });
        expect(ready.ms).toBeLessThan(MAX_ANSWER_MS);
        const live = await request(server.url, '/api/health/live', { agent: false, timeoutMs: 10_000 });
        expect(live.status).toBe(200);
        expect(live.ms).toBeLessThan(1000);
        expect((await request(other.url, '/api/health/ready', { agent: false, timeoutMs: 10_000 })).status).toBe(503);
        expect((await request(other.url, '/api/health/live', { agent: false, timeoutMs: 10_000 })).status).toBe(200);
        // A fresh order: refused as unavailable, not lost in a 500.
        const refused = await placeOrder(server.url, buyers[0]!, [line], {
          key: randomUUID(),
          agent: false,
          timeoutMs: 10_000,
        });
        expect(refused.status).toBe(503);
        expect(refused.json()).toEqual({ detail: expect.any(String) });
        expect(refused.headers['retry-after']).toBeDefined();

        await sleep(5000);
        expect(server.alive()).toBe(true);
        // Back again.
        startIssuedAt = Date.now();
        await postgresCluster('start');
        const clusterUpMs = Date.now() - startIssuedAt;
        const recoveryMs = await waitUntil(
          'ready again',
          async () =>
            (await request(server.url, '/api/health/ready', { agent: false, timeoutMs: 10_000 })).status === 200,
          30_000,
          100,
        );
        readyAgainAt = Date.now();
        await waitUntil(
          'the other process ready again',
          async () => (await request(other.url, '/api/health/ready', { agent: false })).status === 200,
          30_000,
          100,
        );
        const placed = await placeOrder(server.url, buyers[1]!, [line], { key: randomUUID(), agent: false });
        expect(placed.status).toBe(201);
        await sleep(2000);
        running = false;
        await Promise.all(clients);
        // In flight when the stop began, or started while it ran.
        const transition = samples.filter(
          (sample) => sample.finishedAt >= stopIssuedAt && sample.startedAt < stoppedAt,
        );
        const outage = phase(stoppedAt, startIssuedAt);
        // While the cluster started and the pool found it again.
        const comingBack = phase(startIssuedAt, readyAgainAt);
        const after = phase(readyAgainAt);

        report('PostgreSQL stopped under load', {
          baseline: tally(baseline.map((sample) => sample.outcome)),
          stopCommandMs: stoppedAt - stopIssuedAt,
          duringStop: tally(transition.map((sample) => sample.outcome)),
          outage: tally(outage.map((sample) => sample.outcome)),
          slowestOutageAnswerMs: Math.max(...outage.map((sample) => sample.outcome.ms)),
          clusterStartCommandMs: clusterUpMs,
          readyAgainAfterStartMs: clusterUpMs + recoveryMs,
          whileComingBack: tally(comingBack.map((sample) => sample.outcome)),
          afterRecovery: tally(after.map((sample) => sample.outcome)),
        });

        // While the database was going down: finished normally or 503, never a 500 or a dropped connection.
        expect(
          transition
            .filter(
              (sample) => sample.outcome instanceof TransportError || ![200, 201, 503].includes(sample.outcome.status),
            )
            .map(describeOutcome),
        ).toEqual([]);
        // While it was down: only 503 {detail}, each within the pool's connect timeout.
        expect(outage.length).toBeGreaterThan(20);
        expect(
          outage
            .filter((sample) => isServerError(sample.outcome) && (sample.outcome as Answer).status !== 503)
            .map(describeOutcome),
        ).toEqual([]);
        expect(outage.filter((sample) => (sample.outcome as Answer).status !== 503).map(describeOutcome)).toEqual([]);
        for (const sample of outage) {
          const answer = sample.outcome as Answer;
          expect(answer.json()).toEqual({ detail: expect.any(String) });
          expect(answer.ms).toBeLessThan(MAX_ANSWER_MS);
        }
        expect(
          comingBack
            .filter(
              (sample) => sample.outcome instanceof TransportError || ![200, 201, 503].includes(sample.outcome.status),
            )
            .map(describeOutcome),
        ).toEqual([]);
        // Once ready again: everything works as before.
        expect(after.length).toBeGreaterThan(20);
        expect(
          after
            .filter((sample) => sample.outcome instanceof TransportError || sample.outcome.status >= 300)
            .map(describeOutcome),
        ).toEqual([]);
        for (const process of [server, other]) {
          expect(process.alive()).toBe(true);
          expect(process.output()).not.toMatch(/"level":60|closing after an error|uncaught/i);
        }

        // The other process's catalogue follows orders placed through the first one again: its
        // cache is told by LISTEN/NOTIFY, whose connection the outage broke and which must be back.
        const stockVia = async (base: string) =>
          (await request(base, `/api/v1/products/${encodeURIComponent(product.art)}`, { agent: false }))
            .json<{ variants: { id: number; stock: number }[] }>()
            .variants.find((candidate) => candidate.id === variant.id)!.stock;
        const stockInDatabase = async () =>
          (await database!.query<{ stock: number }>('select stock from variants where id = $1', [variant.id]))[0]!
            .stock;
        for (let round = 0; round < 2; round += 1) {
          expect(await stockVia(other.url)).toBe(await stockInDatabase());
          expect(await stockVia(other.url)).toBe(await stockInDatabase());
          expect((await placeOrder(server.url, buyers[2]!, [line], { key: randomUUID(), agent: false })).status).toBe(
            201,
          );
          const expected = await stockInDatabase();
          const noticedMs = await waitUntil(
            'the other process shows the new stock',
            async () => (await stockVia(other.url)) === expected,
            5000,
            50,
          );
          if (round === 1) report('PostgreSQL stopped under load: other process', { noticedOrderAfterMs: noticedMs });
        }

        // Reconnecting did not multiply connections: each process holds at most its pool (10) and
        // one LISTEN connection per channel (the catalogue's, the mail's, the revoked sessions') (a
        // retry loop that doubled them once exhausted max_connections).
        const [connections] = await database!.query<{ count: number }>(
          'select count(*)::int as count from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
        );
        report('PostgreSQL stopped under load: connections', { afterRecovery: connections!.count });
        expect(connections!.count).toBeLessThanOrEqual(2 * (10 + 3));

        // No order was half-placed by the connections that died under it.
        const [row] = await database!.query<{ stock: number; units: number; empty: number }>(
          `select v.stock, (select coalesce(sum(quantity), 0)::int from order_lines where variant_id = v.id) as units,
                (select count(*)::int from orders o where not exists (select 1 from order_lines l where l.order_id = o.id)) as empty
         from variants v where v.id = $1`,
          [variant.id],
        );
        expect(row!.stock + row!.units).toBe(STOCK);
        expect(row!.empty).toBe(0);
      },
    );
  } finally {
    running = false;
    await Promise.all(clients);
    // Whatever failed above is the failure to report; this only makes sure PostgreSQL runs again.
    await ensurePostgresRunning().catch((error: unknown) => process.stderr.write(`PostgreSQL: ${String(error)}\n`));
  }
});
