/**
 * The OpenAPI-driven fuzzer's short run, in `npm test`: a fixed seed and few runs, so that it is
 * repeatable and quick. `npm run fuzz` runs it long (fuzz/run.ts, docs/reliability.md).
 */
import { STARTUP_TIMEOUT } from '../test/server/helpers/test-app';
import { fuzzJourneys } from './journeys';
import { fuzzOperations } from './operations';
import { openFuzzShop, type FuzzShop } from './shop';

/** One fixed seed: a failure names the run that reproduces it (FUZZ_SEED=… npm run fuzz). */
const SEED = 0x6f617069; // "oapi"

let fuzz: FuzzShop;
beforeAll(async () => {
  fuzz = await openFuzzShop();
}, STARTUP_TIMEOUT);
afterAll(() => fuzz.shop.close());

// First, on the catalogue as seeded: the operations' phase hides, deletes and restocks products.
it('journeys of buyers, with and without their tokens: the shop agrees with the model after every step', async () => {
  const report = await fuzzJourneys(fuzz, { runs: 15, seed: SEED });
  expect(report.failure).toBeNull();
  expect(report.runs).toBeGreaterThanOrEqual(15);
}, 120_000);

it('every operation of the served document answers only its documented statuses and schemas, and never 5xx', async () => {
  const report = await fuzzOperations(fuzz, { runs: 30, seed: SEED });
  expect(report.failures).toEqual([]);
  expect(report.operations).toBeGreaterThan(60);
  // The run got past the refusals into the handlers, and met refusals of every kind.
  expect(Object.keys(report.statuses)).toEqual(
    expect.arrayContaining(['200', '201', '204', '400', '401', '403', '404', '409', '413', '415', '422']),
  );
}, 180_000);
