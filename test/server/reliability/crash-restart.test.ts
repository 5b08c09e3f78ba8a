/**
 * kill -9 in the middle of an order storm, then a restart on the same data: on the embedded
 * database (PGlite files in DATA_DIR, whose pglite.lock is left behind by the dead process) and
 * on PostgreSQL. Whatever was answered 201 must be there; nothing half-written may be; and the
 * stock plus the units in live orders must add up to the stock before the storm.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import { PGLITE_EXTENSIONS } from '../../../src/server/db/embedded-database';
import type { OrderItemPayload, OrderSummary, Product } from '../../../src/shared/api';
import {
  allProducts,
  attempt,
  explainFailure,
  freshPostgresDatabase,
  keepAliveAgent,
  placeOrder,
  report,
  request,
  signUpMany,
  sleep,
  startServer,
  stopAllServers,
  tally,
  tempDir,
  TransportError,
  type Answer,
  type Buyer,
  type ServerProcess,
} from '../helpers/server-process';

jest.setTimeout(150_000);

interface Sent {
  key: string;
  buyer: Buyer;
  items: OrderItemPayload[];
  outcome: Answer | TransportError;
}

interface Backend {
  label: string;
  start(): Promise<ServerProcess>;
  /** Runs SQL against the data once no server holds it (PGlite) or beside the server (PostgreSQL). */
  sql<T>(text: string): Promise<T[]>;
  beforeRestart?(): void;
  cleanup(): Promise<void>;
}

function embedded(): Backend {
  const temp = tempDir('crash');
  return {
    label: 'embedded PGlite (DATA_DIR)',
    start: () => startServer({ dataDir: temp.dir }),
    async sql<T>(text: string) {
      const db = new PGlite(path.join(temp.dir, 'pglite'), { extensions: PGLITE_EXTENSIONS });
      try {
        return (await db.query<T>(text)).rows;
      } finally {
        await db.close();
      }
    },
    beforeRestart() {
      // The dead process left its lock behind: the restart has to recognise it as stale.
      const lock = path.join(temp.dir, 'pglite.lock');
      expect(existsSync(lock)).toBe(true);
      expect(Number(readFileSync(lock, 'utf8'))).toBeGreaterThan(0);
    },
    cleanup: async () => temp.remove(),
  };
}

async function postgres(): Promise<Backend> {
  const database = await freshPostgresDatabase();
  return {
    label: 'PostgreSQL',
    start: () => startServer({ databaseUrl: database.url }),
    sql: (text) => database.query(text),
    cleanup: () => database.drop(),
  };
}

const CONCURRENCY = 24;
const KILL_AFTER_PLACED = 120;

describe.each([
  ['embedded PGlite (DATA_DIR)', embedded as () => Backend | Promise<Backend>],
  ['PostgreSQL', postgres],
])('kill -9 mid-storm on %s', (label, makeBackend) => {
  let backend: Backend;
  const agent = keepAliveAgent();

  beforeAll(async () => {
    backend = await makeBackend();
  });
  afterAll(async () => {
    agent.destroy();
    try {
      await stopAllServers();
    } finally {
      await backend?.cleanup();
    }
  });

  it('every 201 survives, nothing is half-written, stock + live order lines = stock before', async () => {
    let server = await backend.start();
    const buyers = await signUpMany([server.url], 8, agent);
    // Six variants of six products: five with plenty of stock (the storm writes orders until the
    // kill) and one with little (so refusals happen too).
    const catalogue = await allProducts(server.url, agent);
    const picked: { product: Product; variantId: number }[] = [];
    for (const [min, max, wanted] of [
      [5, 30, 1],
      [150, 500, 6],
    ] as const) {
      for (const product of catalogue) {
        if (picked.length >= wanted) break;
        if (picked.some((entry) => entry.product.id === product.id)) continue;
        const variant = product.variants.find((candidate) => candidate.stock >= min && candidate.stock <= max);
        if (variant) picked.push({ product, variantId: variant.id });
      }
    }
    expect(picked).toHaveLength(6);
    const stockBefore = new Map(
      picked.map(({ product, variantId }) => [variantId, product.variants.find((v) => v.id === variantId)!.stock]),
    );

    // The storm: CONCURRENCY buyers order without pause, each order with its own Idempotency-Key.
    const sent: Sent[] = [];
    let placed = 0;
    let killed = false;
    let counter = 0;
    // 1–3 lines of the plentiful variants; every tenth order also wants the scarce one.
    const [scarce, ...plentiful] = picked as [(typeof picked)[number], ...typeof picked];
    const randomItems = (): OrderItemPayload[] => {
      const count = 1 + (counter % 3);
      const lines = Array.from({ length: count }, (_, i) => {
        const { product, variantId } = plentiful[(counter * 7 + i * 2) % plentiful.length]!;
        return { product_id: product.id, variant_id: variantId, quantity: 1 + ((counter + i) % 3) };
      });
      if (counter % 10 === 0) lines.push({ product_id: scarce.product.id, variant_id: scarce.variantId, quantity: 2 });
      return lines;
    };
    const worker = async (index: number) => {
      while (!killed) {
        counter += 1;
        const buyer = buyers[(index + counter) % buyers.length]!;
        const items = randomItems();
        const key = randomUUID();
        const outcome = await attempt(server.url, '/api/v1/order/', {
          method: 'POST',
          headers: { ...buyer.headers, 'idempotency-key': key },
          body: { user_id: buyer.id, address: 'г. Казань, ул. Баумана, д. 1', items },
          agent,
          timeoutMs: 20_000,
        });
        sent.push({ key, buyer, items, outcome });
        if (!(outcome instanceof TransportError) && outcome.status === 201) placed += 1;
      }
    };
    const stormStarted = Date.now();
    const workers = Array.from({ length: CONCURRENCY }, (_, i) => worker(i));
    while (placed < KILL_AFTER_PLACED && Date.now() - stormStarted < 60_000) await sleep(5);
    // A little later than the threshold, at a moment that differs from run to run.
    await sleep(Math.floor(Math.random() * 100));
    const beforeKill = sent.length;
    // No new requests from here on (set before the signal, so every failure below was in flight).
    killed = true;
    const killedAt = Date.now();
    await server.kill9();
    await Promise.all(workers);
    const stormMs = killedAt - stormStarted;

    const answered = sent.filter((entry) => !(entry.outcome instanceof TransportError));
    const inFlight = sent.filter((entry) => entry.outcome instanceof TransportError);
    expect(
      answered
        .filter((entry) => ![201, 409].includes((entry.outcome as Answer).status))
        .map((entry) => (entry.outcome as Answer).text),
    ).toEqual([]);
    // The kill really hit requests in flight.
    expect(inFlight.length).toBeGreaterThan(0);

    // Restart on the same data.
    backend.beforeRestart?.();
    const restartStarted = Date.now();
    server = await backend.start();
    const restartMs = Date.now() - restartStarted;

    // Every order that was answered 201 is there, as it was answered.
    const confirmed = answered.filter((entry) => (entry.outcome as Answer).status === 201);
    const byBuyer = new Map<number, OrderSummary[]>();
    for (const buyer of buyers) {
      const list = await request(server.url, `/api/v1/order/${buyer.id}`, { headers: buyer.headers, agent });
      expect(list.status).toBe(200);
      byBuyer.set(buyer.id, list.json<OrderSummary[]>());
    }
    for (const entry of confirmed) {
      const order = (entry.outcome as Answer).json<OrderSummary>();
      expect(byBuyer.get(entry.buyer.id)!.find((candidate) => candidate.id === order.id)).toEqual(order);
    }

    // Requests whose answer was lost are retried with their key: one order per key, never two.
    const retried = await Promise.all(
      inFlight.map((entry) => placeOrder(server.url, entry.buyer, entry.items, { key: entry.key, agent })),
    );
    expect(
      retried
        .filter((answer) => ![201, 409].includes(answer.status))
        .map((answer) => `${answer.status} ${answer.text}`),
    ).toEqual([]);
    // And a confirmed one, repeated, is recognised rather than placed again.
    for (const entry of confirmed.slice(0, 5)) {
      const again = await placeOrder(server.url, entry.buyer, entry.items, { key: entry.key, agent });
      expect(again.status).toBe(201);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.json<OrderSummary>().id).toBe((entry.outcome as Answer).json<OrderSummary>().id);
    }

    const expectedKeys = new Set([
      ...confirmed.map((entry) => entry.key),
      ...inFlight.filter((_, i) => retried[i]!.status === 201).map((entry) => entry.key),
    ]);

    // The checks in SQL (for PGlite once the server has let go of its files).
    const restarted = server;
    await explainFailure(
      () => [restarted],
      async () => {
        await restarted.stop();
        expect(await restarted.exited).toMatchObject({ code: 0 });
      },
    );
    const orders = await backend.sql<{ id: number; key: string | null; lines: number; status: string }>(
      'select o.id, o.idempotency_key as key, o.status, (select count(*)::int from order_lines l where l.order_id = o.id) as lines from orders o',
    );
    expect(orders.filter((order) => order.lines === 0)).toEqual([]);
    expect(new Set(orders.map((order) => order.key))).toEqual(expectedKeys);
    expect(orders).toHaveLength(expectedKeys.size);

    const ids = [...stockBefore.keys()].join(',');
    const stock = await backend.sql<{ id: number; stock: number; units: number }>(
      `select v.id, v.stock, coalesce((select sum(l.quantity)::int from order_lines l join orders o on o.id = l.order_id
         where l.variant_id = v.id and o.status <> 'Отменён'), 0) as units
       from variants v where v.id in (${ids})`,
    );
    expect(stock).toHaveLength(stockBefore.size);
    for (const row of stock) {
      expect({ variant: row.id, total: row.stock + row.units }).toEqual({
        variant: row.id,
        total: stockBefore.get(row.id),
      });
      expect(row.stock).toBeGreaterThanOrEqual(0);
    }
    // "Popular" counters moved with the orders, not more, not less (the seed starts them at 0).
    const drift = await backend.sql<{ id: number }>(
      `select p.id from products p where p.units_ordered <> coalesce((select sum(l.quantity)::int from order_lines l
         join orders o on o.id = l.order_id where l.product_id = p.id and o.status <> 'Отменён'), 0)`,
    );
    expect(drift).toEqual([]);

    report(`kill -9 on ${label}`, {
      stormMs,
      requestsBeforeKill: beforeKill,
      answered: tally(answered.map((entry) => entry.outcome)),
      inFlightAtKill: inFlight.length,
      retriedAfterRestart: tally(retried),
      // Committed before the kill although their answer never arrived: the key found them.
      retriedAndReplayed: retried.filter((answer) => answer.headers['idempotent-replayed'] === 'true').length,
      ordersPerSecond: Math.round((confirmed.length / stormMs) * 1000),
      restartMs,
      ordersInDatabase: orders.length,
    });
  });
});
