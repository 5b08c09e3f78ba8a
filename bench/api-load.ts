// Catalogue reads under load against a bare Fastify empty route measured in the same run:
//   npm run bench -- api            (embedded database, and PostgreSQL when BENCH_DATABASE_URL is set)
// Target: each read ≥ 60% of the reference's requests per second, p99 < 25 ms, at 50 connections,
// with the server logging at its default level; anonymous, and as a signed-in buyer whose company
// buys at a price type of its own (issue 39).
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Product } from '../src/shared/api';
import { createFreshDatabase } from '../test/server/helpers/fresh-database';
import { combinedLoad, cpuMs, load, machine, root, startProcess, type LoadResult } from './lib';

export const READS = [
  ['popular (home, 8)', '/api/v1/products/popular?skip=0&limit=8'],
  ['category page (9)', `/api/v1/products/categories/${encodeURIComponent('Мишки')}?skip=0&limit=9`],
  ['product by art', '/api/v1/products/MO-1001'],
] as const;

// Every browser sends it, so the storefront's reads come compressed (the reference's empty answer
// is too small to compress either way).
export const AS_A_BROWSER = { 'accept-encoding': 'gzip, deflate, br, zstd' };

/** The price type of the buyer whose reads are measured beside the visitor's (named as in issue 39). */
export const BUYER_PRICE_TYPE = 'Крупный опт';

export interface ApiRow {
  database: string;
  read: string;
  result: LoadResult;
  /** The bare Fastify route, measured just before this read: the machine is shared and drifts. */
  reference: LoadResult;
  ratio: number;
  /** The server process's CPU time per request answered, µs: the read's, and the bare route's in the same slices. */
  cpuPerRequest: { read: number; reference: number };
}

/** A process under load: where it answers and its pid, whose CPU time is read from /proc. */
interface Target {
  url: string;
  pid: number;
}

/**
 * Slices per read. The machine is shared: within one 10 s run the bare route's rate swung between
 * 21k and 50k requests per second (2026-11-25). The reference and the read take turns, so that such
 * a swing falls on both, and the ratio is of their rates over all the slices.
 */
const SLICES = 3;

/**
 * `load`, and the CPU time the answering process spent per request meanwhile. On this 2-core machine
 * autocannon takes one core: the rate says how the two share the machine, the CPU per request what
 * a server process (one thread) would answer with a core of its own and the load coming from elsewhere.
 */
async function loadCounted(target: Target, path: string, seconds: number, headers: Record<string, string>) {
  const cpuBefore = cpuMs(target.pid);
  const result = await load(`${target.url}${path}`, { seconds, headers });
  return { result, cpuMs: cpuMs(target.pid) - cpuBefore, requests: result.requestsPerSecond * seconds };
}

async function sideBySide(
  reference: Target,
  shop: Target,
  path: string,
  seconds: number,
  headers: Record<string, string>,
) {
  const sliceSeconds = Math.max(2, Math.round(seconds / SLICES));
  const sides = {
    reference: { results: [] as LoadResult[], cpuMs: 0, requests: 0 },
    read: { results: [] as LoadResult[], cpuMs: 0, requests: 0 },
  };
  for (let slice = 0; slice < SLICES; slice += 1) {
    for (const [side, target, sidePath, sideHeaders] of [
      [sides.reference, reference, '/', AS_A_BROWSER],
      [sides.read, shop, path, headers],
    ] as const) {
      const counted = await loadCounted(target, sidePath, sliceSeconds, sideHeaders);
      side.results.push(counted.result);
      side.cpuMs += counted.cpuMs;
      side.requests += counted.requests;
    }
  }
  const microsecondsPerRequest = ({ cpuMs: ms, requests }: { cpuMs: number; requests: number }) =>
    requests === 0 ? Infinity : (ms * 1000) / requests;
  return {
    reference: combinedLoad(sides.reference.results),
    result: combinedLoad(sides.read.results),
    cpuPerRequest: { read: microsecondsPerRequest(sides.read), reference: microsecondsPerRequest(sides.reference) },
  };
}

/** Each of READS under load beside the reference, with `headers` on every request; `as` ends each row's label. */
async function measureReads(
  database: string,
  shop: Target,
  reference: Target,
  seconds: number,
  headers: Record<string, string>,
  as = '',
): Promise<ApiRow[]> {
  const rows: ApiRow[] = [];
  for (const [read, url] of READS) {
    await load(`${shop.url}${url}`, { seconds: 2, headers }); // warm-up
    const measured = await sideBySide(reference, shop, url, seconds, headers);
    rows.push({
      database,
      read: `${read}${as}`,
      ...measured,
      ratio: measured.result.requestsPerSecond / measured.reference.requestsPerSecond,
    });
  }
  return rows;
}

const PASSWORD = 'bench-password-123';
const MANAGER = 'bench-manager@example.com';
const BUYER = 'bench-buyer@example.com';

async function call<T>(url: string, init: RequestInit & { token?: string; expect: number }): Promise<T> {
  const { token, expect, ...request } = init;
  const response = await fetch(url, {
    ...request,
    headers: {
      ...(request.body === undefined || request.body instanceof URLSearchParams
        ? {}
        : { 'content-type': 'application/json' }),
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
    },
  });
  const text = await response.text();
  if (response.status !== expect) throw new Error(`${request.method ?? 'GET'} ${url}: ${response.status} ${text}`);
  return (text ? JSON.parse(text) : null) as T;
}

async function signIn(shopUrl: string, email: string): Promise<string> {
  const { access_token } = await call<{ access_token: string }>(`${shopUrl}/api/v1/auth/token`, {
    method: 'POST',
    body: new URLSearchParams({ username: email, password: PASSWORD }),
    expect: 200,
  });
  return access_token;
}

const SHOP_SERVER = 'src/server/server.ts';
const READY = '/api/health/ready';

/**
 * Starts the shop with a manager and a buyer signed up, as a shop's owner makes a manager
 * (README): the accounts sign up, then `npm run users -- grant-manager` between two starts, since
 * the embedded database belongs to one process at a time.
 */
async function startShopWithAccounts(env: Record<string, string | undefined>) {
  const first = await startProcess(SHOP_SERVER, env, READY);
  try {
    for (const email of [MANAGER, BUYER]) {
      await call(`${first.url}/api/v1/auth/register`, {
        method: 'POST',
        body: JSON.stringify({ email, password: PASSWORD, consent: true }),
        expect: 201,
      });
    }
  } finally {
    await first.stop();
  }
  execFileSync('npm', ['run', '--silent', 'users', '--', 'grant-manager', MANAGER], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: 'pipe',
  });
  return startProcess(SHOP_SERVER, env, READY);
}

/** The variants of what `paths` answer (a product or a list of them), as a visitor sees them. */
async function visitorsVariants(shopUrl: string, paths: string[]): Promise<Product['variants']> {
  const answers = await Promise.all(paths.map((url) => call<Product | Product[]>(`${shopUrl}${url}`, { expect: 200 })));
  return answers.flat().flatMap((product) => product.variants);
}

/**
 * Through the back office of the running shop: a price type BUYER_PRICE_TYPE, the buyer's company
 * buying at it, and prices in it 15% under the visitor's for every variant of MO-1001 and of the
 * first category page, so that the buyer's answers are not the visitor's. Checks once that they
 * differ and are private, and returns the headers of the buyer's reads.
 */
async function buyerOfPriceType(shopUrl: string): Promise<Record<string, string>> {
  const admin = `${shopUrl}/api/v1/admin`;
  const manager = await signIn(shopUrl, MANAGER);
  const buyer = await signIn(shopUrl, BUYER);
  const type = await call<{ id: number }>(`${admin}/price-types`, {
    method: 'POST',
    token: manager,
    body: JSON.stringify({ name: BUYER_PRICE_TYPE }),
    expect: 201,
  });
  const { company } = await call<{ company: { id: number } | null }>(`${shopUrl}/api/v1/auth/user`, {
    token: buyer,
    expect: 200,
  });
  if (!company) throw new Error(`${BUYER} has no company`);
  await call(`${admin}/companies/${company.id}`, {
    method: 'PATCH',
    token: manager,
    body: JSON.stringify({ price_type_id: type.id }),
    expect: 200,
  });
  const [, [, category], [, product]] = READS;
  for (const variant of await visitorsVariants(shopUrl, [product, category])) {
    if (variant.price === null) continue;
    await call(`${admin}/variants/${variant.id}/prices`, {
      method: 'PUT',
      token: manager,
      body: JSON.stringify([{ price_type_id: type.id, price: Math.round(variant.price * 85) / 100 }]),
      expect: 200,
    });
  }

  const headers = { ...AS_A_BROWSER, authorization: `Bearer ${buyer}` };
  const [visitors] = await visitorsVariants(shopUrl, [product]);
  const answer = await fetch(`${shopUrl}${product}`, { headers });
  const buyers = ((await answer.json()) as Product).variants[0];
  if (answer.status !== 200 || buyers?.id !== visitors?.id || buyers?.price === visitors?.price) {
    throw new Error(
      `the buyer's ${product} is not priced apart: ${answer.status}, ${buyers?.price} against ${visitors?.price}`,
    );
  }
  const cacheControl = answer.headers.get('cache-control');
  if (cacheControl !== 'private, no-cache') throw new Error(`the buyer's answer is cached as «${cacheControl}»`);
  return headers;
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
      try {
        const shop = await startShopWithAccounts({
          ...env,
          LOG_LEVEL: process.env.BENCH_LOG_LEVEL,
          // The buyer's one access token serves every request of their reads, which outlast the
          // default 15 minutes once BENCH_SECONDS is a few minutes.
          ACCESS_TOKEN_TTL_SECONDS: String(24 * 60 * 60),
        });
        try {
          const buyer = await buyerOfPriceType(shop.url);
          rows.push(...(await measureReads(name, shop, reference, seconds, AS_A_BROWSER)));
          rows.push(...(await measureReads(name, shop, reference, seconds, buyer, `, buyer of «${BUYER_PRICE_TYPE}»`)));
        } finally {
          await shop.stop();
        }
      } finally {
        await cleanup();
      }
    }
  } finally {
    await reference.stop();
  }
  return rows;
}

export function apiTable(rows: ApiRow[]): string {
  const mark = (ratio: number) => `${(ratio * 100).toFixed(0)}% ${ratio >= 0.6 ? '✓' : '✗'}`;
  const lines = [
    `Reference: a bare Fastify answering an empty route on the same runtime, measured for the same time as each read, the two taking turns (${SLICES} slices each; req/s over all of them, p50 the median slice's, p99 the worst slice's). Requests carry a browser's \`Accept-Encoding: gzip, deflate, br, zstd\`, as the storefront's do. The rows «…, buyer of «${BUYER_PRICE_TYPE}»» are the same reads by a signed-in buyer whose company buys at that price type (every request with the buyer's access token, \`Authorization: Bearer …\`): the shop has the type and prices in it for MO-1001 and the first category page, set through the back office, and the buyer's answers are private.`,
    '',
    "CPU: the server process's CPU time (/proc, user + system) over the same slices divided by the requests it answered, the read's and the bare route's. autocannon shares the 2 cores with the server, so the rate ratio also says how the two split the machine; the CPU ratio (the bare route's µs ÷ the read's) is the rate ratio projected for a server process with a core of its own and its load coming from elsewhere, as in production — as far as a process's CPU per request does not depend on the load generator beside it, which on a virtual machine it partly does (docs/performance.md, History, 2026-11-29).",
    '',
    '| database | read | req/s | reference req/s | ratio (target ≥ 60%) | CPU µs a request: read / reference | CPU ratio (projected, target ≥ 60%) | p50 ms | p99 ms (target < 25) | non-2xx |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...rows.map(
      ({ database, read, result, reference, ratio, cpuPerRequest }) =>
        `| ${database} | ${read} | ${result.requestsPerSecond} | ${reference.requestsPerSecond} | ${mark(ratio)} | ${cpuPerRequest.read.toFixed(1)} / ${cpuPerRequest.reference.toFixed(1)} | ${mark(cpuPerRequest.reference / cpuPerRequest.read)} | ${result.p50} | ${result.p99} ${result.p99 < 25 ? '✓' : '✗'} | ${result.non2xx + result.errors} |`,
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
