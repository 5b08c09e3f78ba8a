/**
 * The fuzzer's short run, in `npm test`: fixed seeds and few runs, so that it is repeatable and
 * quick. `npm run fuzz` runs it long (fuzz/run.ts, docs/reliability.md).
 */
import { STARTUP_TIMEOUT } from '../test/server/helpers/test-app';
import { fuzzJourneys } from './journeys';
import { fuzzOperations } from './operations';
import { fuzzRandomRequests, type RandomRequestsReport } from './random-requests';
import { openFuzzShop, type FuzzShop } from './shop';
import { fuzzWire } from './wire';

/** Fixed seeds: a failure names the run that reproduces it (FUZZ_SEED=… npm run fuzz). */
const SEED = 0x6f617069; // "oapi"
const RANDOM_REQUESTS_SEED = 0x6d6f7074; // "mopt"

let fuzz: FuzzShop;
beforeAll(async () => {
  fuzz = await openFuzzShop();
}, STARTUP_TIMEOUT);
afterAll(() => fuzz.shop.close());

// First, on a shop nobody has used: its well-formed calls name cart lines, orders and addresses by small ids.
describe('random requests to every endpoint', () => {
  let report: RandomRequestsReport;

  it('3000 requests: never a 5xx, every error a JSON {detail: string}', async () => {
    report = await fuzzRandomRequests(fuzz, { runs: 3000, seed: RANDOM_REQUESTS_SEED });
    expect(report.failure).toBeNull();
  }, 180_000);

  it('the run really exercised the shop: successes, refusals of every kind, many routes', () => {
    // Writes went through (201s) and were refused for every reason the API has.
    for (const status of [200, 201, 401, 403, 404, 409, 415, 422])
      expect({ status, seen: (report.statuses[status] ?? 0) > 0 }).toEqual({ status, seen: true });
    expect(report.routes).toBeGreaterThan(30);
    expect(report.requests).toBe(3000);
  });

  it('afterwards the data is consistent: carts, stock, units sold and order totals', () => {
    // The requests placed orders and cancelled some, so the stock invariants were really tested.
    expect(report.ordersPlaced).toBeGreaterThan(5);
    expect(report.ordersCancelled).toBeGreaterThan(0);
    expect(report.inconsistencies).toEqual([]);
  });
});

// Then, still on the catalogue as seeded: the operations' phase hides, deletes and restocks products.
it('journeys of buyers, with and without their tokens: the shop agrees with the model after every step, and with itself after every journey', async () => {
  const report = await fuzzJourneys(fuzz, { runs: 15, seed: SEED });
  expect(report.failure).toBeNull();
  expect(report.runs).toBeGreaterThanOrEqual(15);
  expect(report.steps).toBeGreaterThan(100);
  // The steps reached the shop's outcomes: orders placed, refused and cancelled, carts and orders
  // refused to strangers, counts refused.
  expect(Object.keys(report.answers)).toEqual(
    expect.arrayContaining([
      'POST /api/v1/auth/register → 201',
      'POST /api/v1/auth/token → 200',
      'POST /api/v1/cart/add → 201',
      'POST /api/v1/cart/add → 401',
      'POST /api/v1/cart/add → 403',
      'POST /api/v1/cart/add → 409',
      'POST /api/v1/cart/add → 422',
      'PUT /api/v1/cart/count → 200',
      'PUT /api/v1/cart/count → 404',
      'PUT /api/v1/cart/count → 422',
      'DELETE /api/v1/cart/{item_id} → 200',
      'DELETE /api/v1/cart/{item_id} → 404',
      'POST /api/v1/order → 201',
      'POST /api/v1/order → 409',
      'POST /api/v1/order → 422',
      'DELETE /api/v1/order/{id} → 200',
      'DELETE /api/v1/order/{id} → 404',
      'GET /api/v1/order/{user_id} → 200',
    ]),
  );
}, 240_000);

it('every operation of the served document answers only its documented statuses and schemas, and never 5xx', async () => {
  const report = await fuzzOperations(fuzz, { runs: 20, seed: SEED });
  expect(report.failures).toEqual([]);
  expect(report.operations).toBeGreaterThan(60);
  // The run got past the refusals into the handlers, and met refusals of every kind.
  expect(Object.keys(report.statuses)).toEqual(
    expect.arrayContaining(['200', '201', '204', '400', '401', '403', '404', '409', '413', '415', '422']),
  );
}, 180_000);

it('over a real socket, what Node refuses before Fastify is still answered {detail} with nosniff', async () => {
  expect(await fuzzWire(fuzz, { runs: 30, seed: SEED })).toBeNull();
}, 60_000);
