/**
 * SIGTERM under load, as a supervisor stops the shop: requests already in flight finish with
 * their real answers, new connections are refused (or answered 503), nothing is committed
 * without being answered, and the process exits with code 0 within 10 s.
 */
import { randomUUID } from 'node:crypto';
import type { OrderItemPayload } from '../../../src/shared/api';
import type { FreshDatabase } from '../helpers/fresh-database';
import {
  allProducts,
  attempt,
  explainFailure,
  freshPostgresDatabase,
  keepAliveAgent,
  placeOrder,
  processGone,
  report,
  request,
  signUpMany,
  sleep,
  startServer,
  stopAllServers,
  tally,
  TransportError,
  type Answer,
  type ServerProcess,
} from '../helpers/server-process';

jest.setTimeout(120_000);

const ORDERS = 100;
const LINES_PER_ORDER = 20;
const LISTS = 30;
const STOCK = 100_000;

let database: FreshDatabase | undefined;
const agent = keepAliveAgent(400);

afterAll(async () => {
  agent.destroy();
  try {
    await stopAllServers();
  } finally {
    await database?.drop();
  }
});

it('SIGTERM with slow requests in flight: they finish with their real answers, new ones are refused, exit 0 within 10 s', async () => {
  database = await freshPostgresDatabase();
  const server = await startServer({ databaseUrl: database.url });
  await explainFailure(
    () => [server],
    () => underLoad(server, database!),
  );
});

async function underLoad(server: ServerProcess, database: FreshDatabase): Promise<void> {
  const buyers = await signUpMany([server.url], 10, agent);
  // Orders of 20 lines each: every one locks and updates 20 variants in its transaction.
  const lines: OrderItemPayload[] = [];
  const catalogue = await allProducts(server.url, agent);
  for (const product of catalogue) {
    for (const variant of product.variants) {
      if (lines.length < LINES_PER_ORDER) lines.push({ product_id: product.id, variant_id: variant.id, quantity: 1 });
    }
  }
  const variantIds = lines.map((line) => line.variant_id);
  await database.query('update variants set stock = $1 where id = any($2::int[])', [STOCK, variantIds]);

  // Open (and have the server accept) enough keep-alive connections for the whole burst first,
  // so that every request of the burst is on a connection the server already owns.
  const warmUp = await Promise.all(
    Array.from({ length: ORDERS + LISTS }, () => request(server.url, '/api/health/live', { agent })),
  );
  expect(warmUp.every((answer) => answer.status === 200)).toBe(true);

  // The burst: slow orders and large lists.
  const pending = new Set<number>();
  const burst: Promise<{ kind: string; outcome: Answer | TransportError }>[] = [];
  const listSkips: number[] = [];
  const burstStarted = Date.now();
  let lastAnswerAt = 0;
  for (let i = 0; i < ORDERS + LISTS; i += 1) {
    pending.add(i);
    const kind = i % 4 === 3 && listSkips.length < LISTS ? 'list' : 'order';
    if (kind === 'list') listSkips.push(i % 3);
    const sent =
      kind === 'list'
        ? attempt(server.url, `/api/v1/products/?limit=100&skip=${i % 3}`, { agent, timeoutMs: 30_000 })
        : attempt(server.url, '/api/v1/order/', {
            method: 'POST',
            headers: { ...buyers[i % buyers.length]!.headers, 'idempotency-key': randomUUID() },
            body: { user_id: buyers[i % buyers.length]!.id, address: 'г. Казань, ул. Баумана, д. 1', items: lines },
            agent,
            timeoutMs: 30_000,
          });
    burst.push(
      sent.then((outcome) => {
        pending.delete(i);
        lastAnswerAt = Date.now();
        return { kind, outcome };
      }),
    );
  }
  // Give the server a moment to read every request (reading is quick; the database work is slow).
  await sleep(250);
  const inFlightAtSignal = pending.size;
  expect(inFlightAtSignal).toBeGreaterThanOrEqual(30);

  // To the node process that runs the server, as a supervisor would.
  const signalledAt = Date.now();
  process.kill(server.serverPid, 'SIGTERM');
  await server.waitForOutput(/"msg":"shutting down"/, 5000);

  // New connections from now on: refused, or answered 503 — never served as if nothing happened.
  const late: (Answer | TransportError)[] = [];
  while (server.alive() && Date.now() - signalledAt < 12_000) {
    late.push(await attempt(server.url, '/api/v1/products/?limit=1', { agent: false, timeoutMs: 5000 }));
    await sleep(50);
  }
  const exit = await server.exited;
  const shutdownMs = exit.at - signalledAt;

  const results = await Promise.all(burst);
  const orders = results.filter((result) => result.kind === 'order');
  const lists = results.filter((result) => result.kind === 'list');
  report('SIGTERM under load', {
    inFlightAtSignal,
    signalAfterMs: signalledAt - burstStarted,
    burstMs: lastAnswerAt - burstStarted,
    orders: tally(orders.map((result) => result.outcome)),
    lists: tally(lists.map((result) => result.outcome)),
    newConnectionsAfterSignal: tally(late),
    shutdownMs,
    exit: exit.code ?? exit.signal,
  });

  const describe = (outcome: Answer | TransportError) =>
    outcome instanceof TransportError ? outcome.code : `${outcome.status} ${outcome.text.slice(0, 200)}`;
  expect(
    orders
      .filter((result) => result.outcome instanceof TransportError || result.outcome.status !== 201)
      .map((result) => describe(result.outcome)),
  ).toEqual([]);
  expect(
    lists
      .filter((result) => result.outcome instanceof TransportError || result.outcome.status !== 200)
      .map((result) => describe(result.outcome)),
  ).toEqual([]);
  for (const [i, result] of lists.entries()) {
    expect((result.outcome as Answer).json<unknown[]>()).toHaveLength(Math.min(100, catalogue.length - listSkips[i]!));
  }

  expect(late.length).toBeGreaterThan(0);
  expect(
    late
      .filter(
        (outcome) =>
          !(outcome instanceof TransportError
            ? ['ECONNREFUSED', 'ECONNRESET'].includes(outcome.code)
            : outcome.status === 503),
      )
      .map(describe),
  ).toEqual([]);

  expect(exit).toMatchObject({ code: 0, signal: null });
  expect(await processGone(server.serverPid)).toBe(true);
  expect(shutdownMs).toBeLessThan(10_000);
  expect(server.output()).not.toMatch(/killed by timeout|closing after an error|Force killing/);

  // Every order answered 201 is in the database, and nothing else is.
  const [row] = await database.query<{ orders: number; empty: number; units: number; stock: number }>(
    `select (select count(*)::int from orders) as orders,
            (select count(*)::int from orders o where not exists (select 1 from order_lines l where l.order_id = o.id)) as empty,
            (select coalesce(sum(quantity), 0)::int from order_lines) as units,
            (select sum(stock)::int from variants where id = any($1::int[])) as stock`,
    [variantIds],
  );
  const placed = orders.length;
  expect(row).toEqual({
    orders: placed,
    empty: 0,
    units: placed * LINES_PER_ORDER,
    stock: STOCK * LINES_PER_ORDER - placed * LINES_PER_ORDER,
  });
  // And the placed orders are the buyers' (one more request, after the fact, on a new server).
  const again = await startServer({ databaseUrl: database.url });
  const seen = await Promise.all(
    buyers.map((buyer) => request(again.url, `/api/v1/order/${buyer.id}`, { headers: buyer.headers })),
  );
  expect(seen.reduce((sum, answer) => sum + answer.json<unknown[]>().length, 0)).toBe(placed);
  // A restarted shop takes orders again.
  expect((await placeOrder(again.url, buyers[0]!, [lines[0]!])).status).toBe(201);
  await again.stop();
}
