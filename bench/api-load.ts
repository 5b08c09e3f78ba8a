// Catalogue reads under load against a bare Fastify empty route measured in the same run:
//   npm run bench -- api            (embedded database, and PostgreSQL when BENCH_DATABASE_URL is set)
// Target: each read ≥ 60% of the reference's requests per second, p99 < 25 ms, at 50 connections,
// with the server logging at its default level.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createFreshDatabase } from '../test/server/helpers/fresh-database';
import { combinedLoad, load, machine, startProcess, type LoadResult } from './lib';

export const READS = [
  ['popular (home, 8)', '/api/v1/products/popular?skip=0&limit=8'],
  ['category page (9)', `/api/v1/products/categories/${encodeURIComponent('Мишки')}?skip=0&limit=9`],
  ['product by art', '/api/v1/products/MO-1001'],
] as const;

// Every browser sends it, so the storefront's reads come compressed (the reference's empty answer
// is too small to compress either way).
export const AS_A_BROWSER = { 'accept-encoding': 'gzip, deflate, br, zstd' };

export interface ApiRow {
  database: string;
  read: string;
  result: LoadResult;
  /** The bare Fastify route, measured just before this read: the machine is shared and drifts. */
  reference: LoadResult;
  ratio: number;
}

/**
 * Slices per read. The machine is shared: within one 10 s run the bare route's rate swung between
 * 21k and 50k requests per second (2026-11-25). The reference and the read take turns, so that such
 * a swing falls on both, and the ratio is of their rates over all the slices.
 */
const SLICES = 3;

async function sideBySide(referenceUrl: string, url: string, seconds: number) {
  const sliceSeconds = Math.max(2, Math.round(seconds / SLICES));
  const reference: LoadResult[] = [];
  const result: LoadResult[] = [];
  for (let slice = 0; slice < SLICES; slice += 1) {
    reference.push(await load(referenceUrl, { seconds: sliceSeconds, headers: AS_A_BROWSER }));
    result.push(await load(url, { seconds: sliceSeconds, headers: AS_A_BROWSER }));
  }
  return { reference: combinedLoad(reference), result: combinedLoad(result) };
}

export async function benchApi(seconds: number): Promise<ApiRow[]> {
  const reference = await startProcess('bench/reference-server.ts');
  const rows: ApiRow[] = [];
  const databases: [string, () => Promise<{ env: Record<string, string>; cleanup(): Promise<void> }>][] = [
    [
      'embedded (PGlite)',
      async () => {
        const dir = await mkdtemp(path.join(tmpdir(), 'bench-shop-'));
        return { env: { DATA_DIR: dir }, cleanup: () => rm(dir, { recursive: true, force: true }) };
      },
    ],
  ];
  if (process.env.BENCH_DATABASE_URL) {
    databases.push([
      'PostgreSQL',
      async () => {
        const database = await createFreshDatabase(process.env.BENCH_DATABASE_URL!, 'shop_bench');
        return { env: { DATABASE_URL: database.url }, cleanup: database.drop };
      },
    ]);
  }
  try {
    await load(`${reference.url}/`, { seconds: 2 }); // warm-up
    for (const [name, prepare] of databases) {
      const { env, cleanup } = await prepare();
      const shop = await startProcess(
        'src/server/server.ts',
        { ...env, LOG_LEVEL: process.env.BENCH_LOG_LEVEL },
        '/api/health/ready',
      );
      try {
        for (const [read, url] of READS) {
          await load(`${shop.url}${url}`, { seconds: 2, headers: AS_A_BROWSER }); // warm-up
          const { reference: referenceResult, result } = await sideBySide(
            `${reference.url}/`,
            `${shop.url}${url}`,
            seconds,
          );
          rows.push({
            database: name,
            read,
            result,
            reference: referenceResult,
            ratio: result.requestsPerSecond / referenceResult.requestsPerSecond,
          });
        }
      } finally {
        await shop.stop();
        await cleanup();
      }
    }
  } finally {
    await reference.stop();
  }
  return rows;
}

export function apiTable(rows: ApiRow[]): string {
  const lines = [
    `Reference: a bare Fastify answering an empty route on the same runtime, measured for the same time as each read, the two taking turns (${SLICES} slices each; req/s over all of them, p50 the median slice's, p99 the worst slice's). Requests carry a browser's \`Accept-Encoding: gzip, deflate, br, zstd\`, as the storefront's do.`,
    '',
    '| database | read | req/s | reference req/s | ratio (target ≥ 60%) | p50 ms | p99 ms (target < 25) | non-2xx |',
    '|---|---|---|---|---|---|---|---|',
    ...rows.map(
      ({ database, read, result, reference, ratio }) =>
        `| ${database} | ${read} | ${result.requestsPerSecond} | ${reference.requestsPerSecond} | ${(ratio * 100).toFixed(0)}% ${ratio >= 0.6 ? '✓' : '✗'} | ${result.p50} | ${result.p99} ${result.p99 < 25 ? '✓' : '✗'} | ${result.non2xx + result.errors} |`,
    ),
  ];
  return lines.join('\n');
}

if (require.main === module) {
  benchApi(Number(process.env.BENCH_SECONDS ?? 10)).then((rows) => {
    console.log(`Machine: ${machine()}\n`);
    console.log(apiTable(rows));
  });
}
