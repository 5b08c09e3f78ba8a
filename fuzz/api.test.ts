/**
 * The OpenAPI-driven fuzzer's short run, in `npm test`: a fixed seed and few runs, so that it is
 * repeatable and quick. `npm run fuzz` runs it long (fuzz/run.ts, docs/reliability.md).
 */
import { STARTUP_TIMEOUT } from '../test/server/helpers/test-app';
import { fuzzJourneys } from './journeys';
import { fuzzOperations } from './operations';
import { openFuzzShop, type FuzzShop } from './shop';
import { fuzzWire } from './wire';

/** One fixed seed: a failure names the run that reproduces it (FUZZ_SEED=… npm run fuzz). */
const SEED = 0x6f617069; // "oapi"

let fuzz: FuzzShop;
beforeAll(async () => {
  fuzz = await openFuzzShop();
}, STARTUP_TIMEOUT);
afterAll(() => fuzz.shop.close());

// First, on the catalogue as seeded: the operations' phase hides, deletes and restocks products.
it('journeys of buyers, with and without their tokens: the shop agrees with the model after every step', async () => {
  const report = await fuzzJourneys(fuzz, { runs: 12, seed: SEED });
  expect(report.failure).toBeNull();
  expect(report.runs).toBeGreaterThanOrEqual(12);
  // The steps reached the shop's outcomes: orders placed and refused, carts refused to strangers.
  expect(Object.keys(report.answers)).toEqual(
    expect.arrayContaining([
      'POST /api/v1/auth/register → 201',
      'POST /api/v1/auth/token → 200',
      'POST /api/v1/cart/add → 201',
      'POST /api/v1/cart/add → 401',
      'POST /api/v1/cart/add → 403',
      'POST /api/v1/cart/add → 409',
      'PUT /api/v1/cart/count → 200',
      'POST /api/v1/order → 201',
      'POST /api/v1/order → 409',
      'GET /api/v1/order/{user_id} → 200',
    ]),
  );
}, 120_000);

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
