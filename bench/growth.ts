// Growth: with 100 000 products and 1 000 000 order lines, catalogue and product reads
// stay within 20% of the small-catalogue figures, and their query plans use indexes.
//
// How to run it (not part of the default `npm run bench`: it takes about 4 minutes per database,
// a third of it growing the shop):
//   npm run bench -- growth                                    (embedded database)
//   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench -- growth
//                                                   (and PostgreSQL, in fresh databases, dropped after)
//   npx tsx bench/growth.ts                                    (the same, printing only this section)
// BENCH_SECONDS (default 5) is each read's time per shop over HTTP (the queries alone get half);
// BENCH_GROWTH_PRODUCTS and BENCH_GROWTH_ORDER_LINES shrink the grown shop for a quick try.
//
// Per database, in one run, two shops are made from the same seed (the server's first start
// migrates and seeds each): one keeps the demo catalogue, the other is grown with
// bench/big-catalogue.ts (the embedded one while its server is stopped: it belongs to one process).
// Every read is then measured on the small shop and straight after on the grown one, so that the
// two figures of a pair see the same load from whatever else runs on the machine. Each read is
// measured twice:
//   - through the server (HTTP, 50 connections), where catalogue answers come from the server's
//     cache whenever the same answer was asked for before. The reads that visit every product or
//     every category page in turn miss it on the grown shop; on the small one its 72 products and 8
//     pages are all cached after the first round, so those rows say what a shopper feels, not what
//     the database does;
//   - as the repository's queries alone, in this process (10 at a time, as the server's pool),
//     with no cache: the database's own cost, small against grown.
// Then EXPLAIN (ANALYZE, BUFFERS) of the queries the repository sends (caught with Drizzle's
// logger, so they are the real statements with their parameters) on the grown shop.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { asc, count, eq } from 'drizzle-orm';
import type { Logger } from 'drizzle-orm';
import { drizzle as drizzleNodePostgres } from 'drizzle-orm/node-postgres';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { Pool } from 'pg';
import { PAGE_SIZE } from '../src/shared/limits';
import type { Database } from '../src/server/db/database';
import { PGLITE_EXTENSIONS } from '../src/server/db/embedded-database';
import * as schema from '../src/server/db/schema';
import { createProductsRepository, type ProductsRepository } from '../src/server/repositories/products';
import type { PriceView } from '../src/server/domain/wholesale-price';

/** A visitor's prices: the default type's, the first (id 1) migration 0031 makes in every new database. */
const VISITOR_PRICES: PriceView = { key: 't1', types: { typeId: 1, defaultTypeId: 1 }, rrpTypeId: null };
import { createFreshDatabase } from '../test/server/helpers/fresh-database';
import { ADDED_ART_PREFIX, growCatalogue, type GrowthOptions } from './big-catalogue';
import { load, loadPaths, machine, percentile, startProcess, tenths, type LoadResult } from './lib';

const ISSUE_GROWTH: GrowthOptions = { products: 100_000, orderLines: 1_000_000 };

/** The issue's sizes, unless BENCH_GROWTH_PRODUCTS or BENCH_GROWTH_ORDER_LINES say otherwise. */
export function growthOptions(): GrowthOptions {
  return {
    products: Number(process.env.BENCH_GROWTH_PRODUCTS ?? ISSUE_GROWTH.products),
    orderLines: Number(process.env.BENCH_GROWTH_ORDER_LINES ?? ISSUE_GROWTH.orderLines),
  };
}

const TARGET_RATIO = 0.8;
const HTTP_CONNECTIONS = 50;
/** As many queries at once as the server's connection pool runs (src/server/db/database.ts). */
const QUERY_CONCURRENCY = 10;
const WARM_UP_SECONDS = 1;
/** Each read's time on each shop is cut into this many slices, alternating between the shops. */
const ROUNDS = 3;
const CATEGORY = 'Мишки';
const DEEP_SKIP = 9000;
const PRODUCTS_API = '/api/v1/products';
/** The embedded server's buffer cache (src/server/db/database.ts), so its queries are measured alike. */
const EMBEDDED_SHARED_BUFFERS = '16MB';
/** Plans must not read these tables whole; categories (8 rows) may be. */
const INDEXED_TABLES = ['products', 'variants', 'order_lines'];

interface CapturedQuery {
  sql: string;
  params: unknown[];
}

/** The shop's database opened in this process, as the server would open it. */
export interface BenchDatabase {
  db: Database;
  exec(sql: string): Promise<unknown>;
  rows<Row>(sql: string, params?: unknown[]): Promise<Row[]>;
  /** The statements `work` sends, in order. */
  capture(work: () => Promise<unknown>): Promise<CapturedQuery[]>;
  close(): Promise<void>;
}

function capturingLogger(): { logger: Logger; capture: BenchDatabase['capture'] } {
  let captured: CapturedQuery[] | null = null;
  return {
    logger: { logQuery: (query, params) => captured?.push({ sql: query, params }) },
    async capture(work) {
      captured = [];
      try {
        await work();
        return captured;
      } finally {
        captured = null;
      }
    },
  };
}

function openEmbedded(dataDir: string): BenchDatabase {
  const client = new PGlite(path.join(dataDir, 'pglite'), {
    startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${EMBEDDED_SHARED_BUFFERS}`],
    extensions: PGLITE_EXTENSIONS,
  });
  const { logger, capture } = capturingLogger();
  return {
    db: drizzlePglite({ client, schema, logger }) as unknown as Database,
    exec: (text) => client.exec(text),
    rows: async (text, params) => (await client.query<never>(text, params)).rows,
    capture,
    close: () => client.close(),
  };
}

function openPostgres(url: string): BenchDatabase {
  const pool = new Pool({ connectionString: url, max: QUERY_CONCURRENCY });
  const { logger, capture } = capturingLogger();
  return {
    db: drizzleNodePostgres({ client: pool, schema, logger }) as unknown as Database,
    exec: (text) => pool.query(text),
    rows: async (text, params) => (await pool.query(text, params)).rows,
    capture,
    close: () => pool.end(),
  };
}

/** One shop's database: how the server is pointed at it, and how this process opens it. */
export interface Shop {
  env: Record<string, string>;
  open(): BenchDatabase;
  cleanup(): Promise<void>;
}

export interface Target {
  database: string;
  createShop(): Promise<Shop>;
}

export const EMBEDDED: Target = {
  database: 'embedded (PGlite)',
  async createShop() {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'bench-growth-'));
    return {
      env: { DATA_DIR: dataDir },
      open: () => openEmbedded(dataDir),
      cleanup: () => rm(dataDir, { recursive: true, force: true }),
    };
  },
};

export function postgres(adminUrl: string): Target {
  return {
    database: 'PostgreSQL',
    async createShop() {
      const fresh = await createFreshDatabase(adminUrl, 'shop_growth');
      return { env: { DATABASE_URL: fresh.url }, open: () => openPostgres(fresh.url), cleanup: fresh.drop };
    },
  };
}

/** What the reads visit: every product and every page of every category. */
interface Catalogue {
  arts: string[];
  categoryPages: { category: string; skip: number }[];
}

async function readCatalogue({ db }: BenchDatabase): Promise<Catalogue> {
  const arts = await db.select({ art: schema.products.art }).from(schema.products).orderBy(asc(schema.products.id));
  const sizes = await db
    .select({ category: schema.categories.name, products: count(schema.products.id) })
    .from(schema.categories)
    .leftJoin(schema.products, eq(schema.products.categoryId, schema.categories.id))
    .groupBy(schema.categories.id)
    .orderBy(asc(schema.categories.position));
  return {
    arts: arts.map((row) => row.art),
    categoryPages: sizes.flatMap(({ category, products }) =>
      Array.from({ length: Math.ceil(products / PAGE_SIZE.catalogue) }, (_, page) => ({
        category,
        skip: page * PAGE_SIZE.catalogue,
      })),
    ),
  };
}

/** One request of a read: its path, and the repository call the server makes for it on a miss. */
interface Visit {
  path: string;
  query(products: ProductsRepository): Promise<unknown>;
}

interface Read {
  name: string;
  /** Set on reads only the grown shop has: the small-catalogue read its figure is compared with. */
  comparedWith?: string;
  /** Visited in turn, one per request. */
  visits: Visit[];
  /** The next visit; the position carries on from one measurement of the read to the next. */
  next(): Visit;
}

function productVisit(art: string): Visit {
  return {
    path: `${PRODUCTS_API}/${encodeURIComponent(art)}`,
    query: (products) => products.findByArt(art, VISITOR_PRICES),
  };
}

function categoryVisit(category: string, skip: number): Visit {
  const page = { skip, limit: PAGE_SIZE.catalogue };
  return {
    path: `${PRODUCTS_API}/categories/${encodeURIComponent(category)}?skip=${skip}&limit=${page.limit}`,
    query: (products) => products.listByCategory(category, page, VISITOR_PRICES),
  };
}

const POPULAR = 'popular (home, 8)';
const CATEGORY_PAGE = 'category page (9)';
const PRODUCT = 'product by art (MO-1001)';

function reads(catalogue: Catalogue): Read[] {
  const categoryPages = catalogue.categoryPages.filter((page) => page.category === CATEGORY);
  const deepSkip = Math.min(DEEP_SKIP, categoryPages.at(-1)!.skip);
  const added = catalogue.arts.filter((art) => art.startsWith(ADDED_ART_PREFIX));
  const addedArt = added[Math.floor(added.length / 2)];
  const all: (Omit<Read, 'next'> | null)[] = [
    {
      name: POPULAR,
      visits: [
        {
          path: `${PRODUCTS_API}/popular?skip=0&limit=${PAGE_SIZE.home}`,
          query: (products) => products.listPopular({ skip: 0, limit: PAGE_SIZE.home }, VISITOR_PRICES),
        },
      ],
    },
    { name: CATEGORY_PAGE, visits: [categoryVisit(CATEGORY, 0)] },
    deepSkip > 0
      ? {
          name: `category page ${deepSkip / PAGE_SIZE.catalogue + 1} (skip ${deepSkip})`,
          comparedWith: CATEGORY_PAGE,
          visits: [categoryVisit(CATEGORY, deepSkip)],
        }
      : null,
    { name: PRODUCT, visits: [productVisit('MO-1001')] },
    addedArt
      ? { name: `added product by art (${addedArt})`, comparedWith: PRODUCT, visits: [productVisit(addedArt)] }
      : null,
    { name: 'every product in turn', visits: catalogue.arts.map(productVisit) },
    {
      name: 'every category page in turn',
      visits: catalogue.categoryPages.map(({ category, skip }) => categoryVisit(category, skip)),
    },
  ];
  return all.filter((read) => read !== null).map((read) => ({ ...read, next: inTurn(read.visits) }));
}

/**
 * Visits in a scattered order (a stride coprime with their number), so that a few seconds of a
 * read sample deep pages as often as shallow ones.
 */
function inTurn<T>(items: T[]): () => T {
  const stride = items.length % 7919 === 0 ? 1 : 7919;
  let position = 0;
  return () => items[(position++ * stride) % items.length]!;
}

async function measureHttp(origin: string, read: Read, seconds: number): Promise<LoadResult> {
  const [only] = read.visits;
  if (read.visits.length === 1 && only)
    return load(`${origin}${only.path}`, { seconds, connections: HTTP_CONNECTIONS });
  return loadPaths(origin, () => read.next().path, { seconds, connections: HTTP_CONNECTIONS });
}

async function measureQueries(products: ProductsRepository, read: Read, seconds: number): Promise<LoadResult> {
  const latencies: number[] = [];
  const until = performance.now() + seconds * 1000;
  const client = async () => {
    while (performance.now() < until) {
      const started = performance.now();
      await read.next().query(products);
      latencies.push(performance.now() - started);
    }
  };
  await Promise.all(Array.from({ length: QUERY_CONCURRENCY }, client));
  return {
    requestsPerSecond: Math.round(latencies.length / seconds),
    p50: tenths(percentile(latencies, 50)),
    p99: tenths(percentile(latencies, 99)),
    non2xx: 0,
    errors: 0,
  };
}

export function startServer(shop: Shop) {
  return startProcess(
    'src/server/server.ts',
    { ...shop.env, LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn' },
    '/api/health/ready',
  );
}

export interface Comparison {
  read: string;
  /** The small shop's read this one is compared with (itself, unless only the grown shop has it). */
  comparedWith: string;
  small: LoadResult;
  grown: LoadResult;
}

type Size = 'small' | 'grown';
const SIZES: Size[] = ['small', 'grown'];
type Measure = (read: Read, shop: Size, seconds: number) => Promise<LoadResult>;

/** Slices of one read on one shop as one figure: the mean rate, the median p50, the worst p99. */
function combine(slices: LoadResult[]): LoadResult {
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  const p50s = slices.map((slice) => slice.p50).sort((a, b) => a - b);
  return {
    requestsPerSecond: Math.round(mean(slices.map((slice) => slice.requestsPerSecond))),
    p50: p50s[Math.floor(p50s.length / 2)]!,
    p99: Math.max(...slices.map((slice) => slice.p99)),
    non2xx: slices.reduce((sum, slice) => sum + slice.non2xx, 0),
    errors: slices.reduce((sum, slice) => sum + slice.errors, 0),
  };
}

/**
 * Each grown-shop read and its small-shop counterpart, after a warm-up of each, in alternating
 * slices (small, grown, small, grown, …): the machine is shared, and a burst of someone else's
 * work then weighs on both figures of a pair alike.
 */
async function measurePairs(
  catalogueReads: Record<Size, Read[]>,
  measure: Measure,
  seconds: number,
): Promise<Comparison[]> {
  const comparisons: Comparison[] = [];
  for (const read of catalogueReads.grown) {
    const comparedWith = read.comparedWith ?? read.name;
    const pair: Record<Size, Read> = {
      small: catalogueReads.small.find((candidate) => candidate.name === comparedWith)!,
      grown: read,
    };
    const slices: Record<Size, LoadResult[]> = { small: [], grown: [] };
    for (const shop of SIZES) await measure(pair[shop], shop, WARM_UP_SECONDS);
    for (let round = 0; round < ROUNDS; round += 1) {
      // autocannon's rate is a mean of whole seconds: no slice may be shorter than one.
      for (const shop of SIZES) slices[shop].push(await measure(pair[shop], shop, Math.max(1, seconds / ROUNDS)));
    }
    comparisons.push({ read: read.name, comparedWith, small: combine(slices.small), grown: combine(slices.grown) });
  }
  return comparisons;
}

export interface Plan {
  read: string;
  /** One per statement the repository sent, in order. */
  statements: { sql: string; plan: string[] }[];
  /** Tables from INDEXED_TABLES that a statement read with a sequential scan. */
  seqScans: string[];
}

async function explainReads(database: BenchDatabase, catalogueReads: Read[]): Promise<Plan[]> {
  const products = createProductsRepository(database.db);
  const plans: Plan[] = [];
  for (const read of catalogueReads) {
    const [visit] = read.visits;
    if (read.visits.length !== 1 || !visit) continue;
    const statements: Plan['statements'] = [];
    for (const query of await database.capture(() => visit.query(products))) {
      const plan = await database.rows<{ 'QUERY PLAN': string }>(
        `explain (analyze, buffers, costs off) ${query.sql}`,
        query.params,
      );
      statements.push({ sql: query.sql, plan: plan.map((row) => row['QUERY PLAN']) });
    }
    const seqScans = INDEXED_TABLES.filter((table) =>
      statements.some(({ plan }) => plan.some((line) => new RegExp(`Seq Scan on "?${table}"?\\b`).test(line))),
    );
    plans.push({ read: read.name, statements, seqScans });
  }
  return plans;
}

export interface GrowthResult {
  database: string;
  /** How long each step of growing took, in ms (bench/big-catalogue.ts labels its statements). */
  steps: { step: string; ms: number }[];
  size: { products: number; variants: number; orders: number; orderLines: number; megabytes: number };
  http: Comparison[];
  queries: Comparison[];
  plans: Plan[];
}

export async function timedGrowth(database: BenchDatabase, options: GrowthOptions): Promise<GrowthResult['steps']> {
  const steps: GrowthResult['steps'] = [];
  await growCatalogue(async (text) => {
    const started = performance.now();
    const result = await database.exec(text);
    steps.push({ step: /^-- (.+)/.exec(text)?.[1] ?? text.slice(0, 40), ms: Math.round(performance.now() - started) });
    return result;
  }, options);
  return steps;
}

async function sizeOf(database: BenchDatabase): Promise<GrowthResult['size']> {
  const [size] = await database.rows<Record<keyof GrowthResult['size'], string>>(
    `select (select count(*) from products) as products, (select count(*) from variants) as variants,
            (select count(*) from orders) as orders, (select count(*) from order_lines) as "orderLines",
            pg_database_size(current_database()) / 1048576 as megabytes`,
  );
  return {
    products: Number(size!.products),
    variants: Number(size!.variants),
    orders: Number(size!.orders),
    orderLines: Number(size!.orderLines),
    megabytes: Number(size!.megabytes),
  };
}

const querySecondsFor = (seconds: number) => Math.max(1, Math.ceil(seconds / 2));

/** Grows one shop, then measures both shops' queries and explains the grown one's, servers stopped. */
async function growAndQuery(shops: Record<Size, Shop>, options: GrowthOptions, seconds: number) {
  const databases = { small: shops.small.open(), grown: shops.grown.open() };
  try {
    const steps = await timedGrowth(databases.grown, options);
    const catalogueReads = {
      small: reads(await readCatalogue(databases.small)),
      grown: reads(await readCatalogue(databases.grown)),
    };
    const repositories = {
      small: createProductsRepository(databases.small.db),
      grown: createProductsRepository(databases.grown.db),
    };
    const queries = await measurePairs(
      catalogueReads,
      (read, shop, slice) => measureQueries(repositories[shop], read, slice),
      querySecondsFor(seconds),
    );
    return {
      steps,
      catalogueReads,
      queries,
      plans: await explainReads(databases.grown, catalogueReads.grown),
      size: await sizeOf(databases.grown),
    };
  } finally {
    await databases.small.close();
    await databases.grown.close();
  }
}

/** Runs `work` while both shops' servers run, and stops them after, whatever happens. */
async function withServers<T>(
  shops: Record<Size, Shop>,
  work: (origins: Record<Size, string>) => Promise<T>,
): Promise<T> {
  const small = await startServer(shops.small);
  try {
    const grown = await startServer(shops.grown);
    try {
      return await work({ small: small.url, grown: grown.url });
    } finally {
      await grown.stop();
    }
  } finally {
    await small.stop();
  }
}

async function benchTarget(target: Target, options: GrowthOptions, seconds: number): Promise<GrowthResult> {
  const made: Shop[] = [];
  try {
    for (let i = 0; i < 2; i += 1) made.push(await target.createShop());
    const shops = { small: made[0]!, grown: made[1]! };
    // The server's first start migrates each database and seeds the demo catalogue.
    for (const shop of made) await (await startServer(shop)).stop();
    const { catalogueReads, ...measured } = await growAndQuery(shops, options, seconds);
    const http = await withServers(shops, (origins) =>
      measurePairs(catalogueReads, (read, shop, slice) => measureHttp(origins[shop], read, slice), seconds),
    );
    return { database: target.database, http, ...measured };
  } finally {
    for (const shop of made) await shop.cleanup();
  }
}

export async function benchGrowth(seconds: number, options: GrowthOptions): Promise<GrowthResult[]> {
  const adminUrl = process.env.BENCH_DATABASE_URL;
  const results: GrowthResult[] = [];
  for (const target of adminUrl ? [EMBEDDED, postgres(adminUrl)] : [EMBEDDED]) {
    console.log(`growth: ${target.database}`);
    results.push(await benchTarget(target, options, seconds));
  }
  return results;
}

function figuresTable(results: GrowthResult[], kind: 'http' | 'queries', unit: string): string {
  const lines = [
    `| database | read | small ${unit}/s | grown ${unit}/s | grown ÷ small (target ≥ ${TARGET_RATIO * 100}%) | p50 ms small → grown | p99 ms small → grown | errors, non-2xx |`,
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const result of results) {
    for (const { read, comparedWith, small, grown } of result[kind]) {
      const ratio = grown.requestsPerSecond / small.requestsPerSecond;
      lines.push(
        `| ${result.database} | ${comparedWith === read ? read : `${read} vs ${comparedWith}`} | ${small.requestsPerSecond} | ${grown.requestsPerSecond} | ${Math.floor(ratio * 100)}% ${ratio >= TARGET_RATIO ? '✓' : '✗'} | ${small.p50} → ${grown.p50} | ${small.p99} → ${grown.p99} | ${small.errors + small.non2xx + grown.errors + grown.non2xx} |`,
      );
    }
  }
  return lines.join('\n');
}

/**
 * The plan nodes with their conditions, the pages the whole statement touched (the root node's
 * buffers) and its time; sort and hash details and the planning figures left out.
 */
function trimPlan(plan: string[]): string[] {
  const planningAt = plan.findIndex((line) => line.startsWith('Planning'));
  const nodes = planningAt < 0 ? plan : plan.slice(0, planningAt);
  const rootBuffers = nodes.find((line) => line.startsWith('  Buffers:'));
  return [
    ...nodes.filter((line) => line === rootBuffers || /->|^\S|Index Cond|Filter|Heap Fetches/.test(line)),
    ...plan.filter((line) => line.startsWith('Execution Time')),
  ];
}

function plansSection(results: GrowthResult[]): string {
  const parts: string[] = [];
  for (const { database, plans } of results) {
    parts.push(`### Query plans on the grown shop, ${database}`, '');
    for (const { read, statements, seqScans } of plans) {
      const verdict = seqScans.length === 0 ? '✓ indexes only' : `✗ Seq Scan on ${seqScans.join(', ')}`;
      parts.push(`${read}: ${verdict}`, '', '```');
      for (const { sql: text, plan } of statements) parts.push(text, ...trimPlan(plan).map((line) => `  ${line}`), '');
      parts.push('```', '');
    }
  }
  return parts.join('\n').trimEnd();
}

function thousands(value: number): string {
  return value.toLocaleString('en-US').replaceAll(',', ' ');
}

export function growthSection(results: GrowthResult[], seconds: number, options: GrowthOptions): string {
  const querySeconds = querySecondsFor(seconds);
  const growing = results.map(({ database, steps, size }) => {
    const total = steps.reduce((sum, { ms }) => sum + ms, 0);
    return `| ${database} | ${steps.map(({ step, ms }) => `${step} ${(ms / 1000).toFixed(1)} s`).join(', ')} | ${(total / 1000).toFixed(0)} s | ${thousands(size.products)} products, ${thousands(size.variants)} variants, ${thousands(size.orders)} orders, ${thousands(size.orderLines)} lines, ${size.megabytes} MB |`;
  });
  return [
    `## Growth: ${thousands(options.products)} products, ${thousands(options.orderLines)} order lines`,
    '',
    `Measured on ${machine()}. \`npm run bench -- growth\` (and \`BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test\` for PostgreSQL): per database, two shops are made from the same seed and one is grown by \`bench/big-catalogue.ts\` (pure SQL); every read is measured on the small shop (the demo catalogue, 72 products) and straight after on the grown one, so both figures of a pair see the same machine.`,
    '',
    "The grown shops end with `VACUUM ANALYZE`, as PostgreSQL's autovacuum would have run by then. PGlite has no autovacuum: an embedded shop that grew by itself has neither statistics nor a visibility map, and its deep category pages read the whole category (no index-only scan).",
    '',
    '| database | growing it (pure SQL) | total | grown shop |',
    '|---|---|---|---|',
    ...growing,
    '',
    `### Through the server (HTTP, ${HTTP_CONNECTIONS} connections, ${seconds} s per read and shop in ${ROUNDS} slices alternating between the shops, after a ${WARM_UP_SECONDS} s warm-up)`,
    '',
    'Fixed URLs are answered from the server\'s catalogue cache on both shops. "In turn" reads ask for a different product or page with every request: on the grown shop nearly every one misses the cache and goes to the database, on the small one all 72 products and 8 pages stay cached, so those ratios are what a shopper browsing a large catalogue feels, not the database\'s cost (that is the next table).',
    '',
    figuresTable(results, 'http', 'req'),
    '',
    `### The repository's queries alone (no cache, ${QUERY_CONCURRENCY} at a time, ${querySeconds} s per read and shop in ${ROUNDS} alternating slices)`,
    '',
    "What the server does on a cache miss, in the bench process with the server stopped: the database's own cost, small shop against grown.",
    '',
    figuresTable(results, 'queries', 'reads'),
    '',
    plansSection(results),
  ].join('\n');
}

if (require.main === module) {
  const seconds = Number(process.env.BENCH_SECONDS ?? 5);
  const options = growthOptions();
  benchGrowth(seconds, options).then((results) => console.log(growthSection(results, seconds, options)));
}
