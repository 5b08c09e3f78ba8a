/**
 * `npm run fuzz`: the fuzzer's long run (docs/reliability.md). Settings by environment: FUZZ_RUNS
 * requests per operation (default 500), FUZZ_JOURNEYS model-based runs (default FUZZ_RUNS / 5),
 * FUZZ_RANDOM_REQUESTS hand-made random requests (default FUZZ_RUNS × 60), FUZZ_SEED (default: a
 * new one, printed, to replay a failure with). Exits 1 when anything failed.
 */
import { fuzzJourneys } from './journeys';
import { fuzzOperations } from './operations';
import { fuzzRandomRequests } from './random-requests';
import { openFuzzShop } from './shop';
import { fuzzWire } from './wire';

function setting(name: string, fallback: number): number {
  const value = process.env[name];
  if (value === undefined || value === '') return fallback;
  const number = Number(value);
  if (!Number.isSafeInteger(number) || number < 0) throw new Error(`${name} must be a whole number, not ${value}`);
  return number;
}

async function main(): Promise<number> {
  const runs = setting('FUZZ_RUNS', 500);
  const journeys = setting('FUZZ_JOURNEYS', Math.max(1, Math.round(runs / 5)));
  const randomRequests = setting('FUZZ_RANDOM_REQUESTS', runs * 60);
  const seed = setting('FUZZ_SEED', Date.now() % 2 ** 31);
  const progress = (line: string) => console.log(`[fuzz] ${line}`);
  console.log(
    `[fuzz] seed ${seed}, ${runs} requests per operation, ${journeys} journeys, ${randomRequests} random requests`,
  );
  const startedAt = Date.now();
  const fuzz = await openFuzzShop();
  try {
    // First on a shop nobody has used: the random requests name cart lines, orders and addresses by
    // small ids. Both before the operations, which hide, delete and restock products.
    const randomReport = await fuzzRandomRequests(fuzz, { runs: randomRequests, seed, progress });
    const journeysReport = await fuzzJourneys(fuzz, { runs: journeys, seed, progress });
    const operationsReport = await fuzzOperations(fuzz, { runs, seed, progress });
    const wireFailure = await fuzzWire(fuzz, { runs, seed, progress });
    console.log(
      `[fuzz] ${operationsReport.requests} requests to ${operationsReport.operations} operations, ` +
        `${journeysReport.runs} journeys of ${journeysReport.steps} steps, ${randomReport.requests} random requests, in ${Math.round((Date.now() - startedAt) / 1000)} s; ` +
        `answers by status: ${JSON.stringify(operationsReport.statuses)}`,
    );
    const failures = [
      ...(journeysReport.failure ? [`journeys: ${journeysReport.failure}`] : []),
      ...(randomReport.failure ? [`random requests: ${randomReport.failure}`] : []),
      ...randomReport.inconsistencies.map((problem) => `after the random requests: ${problem}`),
      ...operationsReport.failures,
      ...(wireFailure ? [`wire: ${wireFailure}`] : []),
    ];
    for (const failure of failures) console.log(`[fuzz] FAILED ${failure}`);
    console.log(failures.length === 0 ? '[fuzz] nothing found' : `[fuzz] ${failures.length} failing`);
    return failures.length === 0 ? 0 : 1;
  } finally {
    await fuzz.shop.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
