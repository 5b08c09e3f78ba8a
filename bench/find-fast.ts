// Finding fast: search, filtered and sorted category pages, a 200-line bulk add and a
// 5 000-line quick-order dry run, on a shop grown to 100 000 products with 5–10 variants each.
// Targets: search p99 < 30 ms and ≥ 0.3× the requests per second of a bare Fastify route in the
// same run; each filter or sort within 20 % of the unfiltered page; bulk add < 150 ms; dry run < 2 s.
//
// How to run it (not part of the default `npm run bench`: growing the shop takes minutes):
//   npm run bench -- find                                      (embedded database)
//   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench -- find   (and PostgreSQL)
// BENCH_FIND_PRODUCTS shrinks the grown shop for a quick try.
//
// The catalogue reads go to the real server (built and started as `npm start` does), each URL
// once and one at a time: the server's catalogue cache never answers, so the figures are what a
// shopper meets right after an order emptied the cache (the database's own cost, no queueing).
// The search mix is then asked for again at CONNECTIONS, answered from the cache as most searches
// are, for its rate beside the bare route's (as bench/api-load.ts measures the catalogue reads).
import type { Static } from 'typebox';
import { PAGE_SIZE } from '../src/shared/limits';
import { CartImportResultSchema } from '../src/shared/schemas/cart';
import { AS_A_BROWSER } from './api-load';
import { ADDED_ART_PREFIX, type GrowthOptions } from './big-catalogue';
import { EMBEDDED, postgres, startServer, timedGrowth, type BenchDatabase, type Shop, type Target } from './growth';
import { load, loadPaths, machine, percentile, startProcess, tenths, type LoadResult } from './lib';
import { register, type Buyer } from './orders-load';

const TARGET = { searchP99: 30, searchRatio: 0.3, filteredRatio: 1.2, bulkMs: 150, importMs: 2000 };
/** The cached search mix and the reference route, as bench/api-load.ts asks for the catalogue reads. */
const CONNECTIONS = 50;
/** Category pages asked for per read and category: pages 1 … 30 of each of the eight categories. */
const PAGES_PER_CATEGORY = 30;
const BULK_LINES = 200;
const IMPORT_LINES = 5_000;
const API = '/api/v1';

function findOptions(): GrowthOptions {
  return {
    products: Number(process.env.BENCH_FIND_PRODUCTS ?? 100_000),
    orderLines: 0,
    variantsPerProduct: { min: 5, max: 10 },
  };
}

/** Each kind's queries, asked for page by page (so that no two requests share a cached answer). */
const SEARCHES: { kind: string; queries: string[]; pages: number }[] = [
  {
    kind: 'words in another form («мишки», «кролика»)',
    queries: ['мишки', 'кролика', 'котята', 'подушки', 'единороги', 'зайки', 'пледы', 'медведя'],
    pages: 20,
  },
  {
    kind: 'article prefix («bg-0012»)',
    queries: Array.from(
      { length: 160 },
      (_, i) => `${ADDED_ART_PREFIX.toLowerCase()}0${String(10 + i * 6).padStart(3, '0')}`,
    ),
    pages: 1,
  },
  {
    kind: 'a typo («медвдь», «единорк»)',
    queries: ['медвдь', 'единорк', 'подушкк', 'дракончк', 'пингвиннок', 'черпаха', 'далматенец', 'погремушко'],
    pages: 20,
  },
  {
    kind: 'a broad common word («коллекция», «весна»)',
    queries: ['коллекция', 'весна', 'плюшевый', 'мягкий'],
    pages: 40,
  },
  {
    // Dictionary forms, the category's name, folded articles, a number alone, the other layout.
    kind: 'everyday inputs («мишек», «зайцы», «МО-1001», «1001», «vbirf»)',
    queries: ['мишек', 'зайцы', 'медвежата', 'единарог', 'тэдди', 'МО-1001', '1001', 'mo 1001', 'vbirf', 'pfzw'],
    pages: 4,
  },
];

/** The category reads: unfiltered first, then each filter or sort alone (its query string). */
const CATEGORY_READS: { read: string; query: (colour: string) => string }[] = [
  { read: 'unfiltered', query: () => '' },
  { read: 'sort=price_asc', query: () => '&sort=price_asc' },
  { read: 'sort=price_desc', query: () => '&sort=price_desc' },
  { read: 'sort=name', query: () => '&sort=name' },
  { read: 'sort=new', query: () => '&sort=new' },
  { read: 'color', query: (colour) => `&color=${encodeURIComponent(colour)}` },
  { read: 'size_min=20&size_max=40', query: () => '&size_min=20&size_max=40' },
  { read: 'price_min=1000&price_max=3000', query: () => '&price_min=1000&price_max=3000' },
  { read: 'in_stock=true', query: () => '&in_stock=true' },
];

interface Timing {
  runs: number;
  p50: number;
  p99: number;
}

export interface FindResult {
  database: string;
  steps: { step: string; ms: number }[];
  size: { products: number; variants: number };
  reference: LoadResult;
  /** Each kind's pages, each once (cache misses). */
  search: { kind: string; result: LoadResult }[];
  /** Every query's first page in turn, from the cache, at CONNECTIONS. */
  cachedSearch: LoadResult;
  categories: { read: string; result: LoadResult }[];
  bulk: Timing;
  /** null: the route is not on this branch (it answered 404). */
  importDryRun: Timing | null;
}

/** What the bench asks for, read from the grown database while the server is stopped. */
interface Sample {
  size: FindResult['size'];
  categories: string[];
  bulkLines: { product_id: number; variant_id: number; count: number }[];
  importText: string;
}

async function readSample(database: BenchDatabase): Promise<Sample> {
  const [size] = await database.rows<{ products: string; variants: string }>(
    'select (select count(*) from products) as products, (select count(*) from variants) as variants',
  );
  const categories = await database.rows<{ name: string }>('select name from categories order by position, id');
  // Variants spread over the whole catalogue, the same ones every run.
  const variants = await database.rows<{
    product_id: number;
    variant_id: number;
    art: string;
    color: string;
    size: number;
  }>(
    `select v.product_id, v.id as variant_id, p.art, v.color, v.size
     from variants v join products p on p.id = v.product_id
     where p.hidden_at is null
     order by hashint4(v.id), v.id limit ${IMPORT_LINES}`,
  );
  return {
    size: { products: Number(size!.products), variants: Number(size!.variants) },
    categories: categories.map((row) => row.name),
    bulkLines: variants
      .slice(0, BULK_LINES)
      .map(({ product_id, variant_id }) => ({ product_id, variant_id, count: 1 })),
    importText: variants.map(({ art, color, size }, i) => `${art} ${color} ${size} ${1 + (i % 5)}`).join('\n'),
  };
}

/** One request, timed here to the tenth of a millisecond (autocannon's whole milliseconds make 1 ms against 2 ms a ratio of 2). */
async function timedAsk(origin: string, path: string): Promise<{ ms: number; ok: boolean }> {
  const started = performance.now();
  const response = await fetch(`${origin}${path}`, { headers: AS_A_BROWSER });
  await response.arrayBuffer();
  return { ms: performance.now() - started, ok: response.ok };
}

function summary(times: number[], non2xx: number): LoadResult {
  const seconds = times.reduce((sum, time) => sum + time, 0) / 1000;
  return {
    requestsPerSecond: Math.round(times.length / seconds),
    p50: tenths(percentile(times, 50)),
    p99: tenths(percentile(times, 99)),
    non2xx,
    errors: 0,
  };
}

/** Asks for each path once, one at a time. */
async function askEach(origin: string, paths: string[]): Promise<LoadResult> {
  const [result] = await askInTurns(origin, [paths]);
  return result!;
}

/**
 * Asks for each list's paths once, one at a time, taking turns: the first path of every list, then
 * the second of every list, and so on. Reads compared with each other then meet the same machine:
 * one after the other, a shared machine's drift between them (the unfiltered page's p50 was 5.4 ms
 * in one run and 2.5 ms in the next) moved their ratios more than the filters did.
 */
async function askInTurns(origin: string, lists: string[][]): Promise<LoadResult[]> {
  const times = lists.map((): number[] => []);
  const non2xx = lists.map(() => 0);
  const turns = Math.max(...lists.map((paths) => paths.length));
  for (let turn = 0; turn < turns; turn += 1) {
    for (const [index, paths] of lists.entries()) {
      const path = paths[turn];
      if (path === undefined) continue;
      const { ms, ok } = await timedAsk(origin, path);
      times[index]!.push(ms);
      if (!ok) non2xx[index]! += 1;
    }
  }
  return lists.map((_, index) => summary(times[index]!, non2xx[index]!));
}

function searchPaths(queries: string[], pages: number, limit: number): string[] {
  return Array.from({ length: pages }, (_, page) =>
    queries.map((q) => `${API}/products/search?q=${encodeURIComponent(q)}&skip=${page * limit}&limit=${limit}`),
  ).flat();
}

async function categoryPaths(origin: string, categories: string[], query: (colour: string) => string, limit: number) {
  const paths: string[] = [];
  for (const category of categories) {
    const at = `${API}/products/categories/${encodeURIComponent(category)}`;
    const colours = (await (await fetch(`${origin}${at}/colors`)).json()) as string[];
    for (let page = 0; page < PAGES_PER_CATEGORY; page += 1)
      paths.push(`${at}?skip=${page * limit}&limit=${limit}${query(colours[page % colours.length] ?? '')}`);
  }
  return paths;
}

/**
 * `call` timed `runs` times, `between` untimed after each. Runs one at a time: it is one buyer's
 * latency that the targets name.
 */
async function timed(runs: number, call: () => Promise<void>, between: () => Promise<void>): Promise<Timing> {
  // One run unmeasured, as the reads are warmed up: the process's first call of a route loads its
  // code and the indexes' pages (a first 200-line bulk add took 69 ms against 22–28 ms after).
  await call();
  await between();
  const times: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    const started = performance.now();
    await call();
    times.push(performance.now() - started);
    await between();
  }
  return { runs, p50: tenths(percentile(times, 50)), p99: tenths(percentile(times, 99)) };
}

async function expectOk(response: Response, what: string): Promise<Response> {
  if (!response.ok) throw new Error(`${what}: ${response.status} ${await response.text()}`);
  return response;
}

async function emptyCart(origin: string, buyer: Buyer): Promise<void> {
  const headers = { authorization: `Bearer ${buyer.token}` };
  const cart = (await (await fetch(`${origin}${API}/cart/${buyer.id}`, { headers })).json()) as {
    items: { id: number }[];
  };
  for (let i = 0; i < cart.items.length; i += CONNECTIONS) {
    await Promise.all(
      cart.items
        .slice(i, i + CONNECTIONS)
        .map(async ({ id }) =>
          expectOk(await fetch(`${origin}${API}/cart/${id}`, { method: 'DELETE', headers }), 'emptying the cart'),
        ),
    );
  }
}

async function benchBulk(origin: string, buyer: Buyer, sample: Sample, runs: number): Promise<Timing> {
  const body = JSON.stringify({ user_id: buyer.id, items: sample.bulkLines });
  const headers = { authorization: `Bearer ${buyer.token}`, 'content-type': 'application/json' };
  return timed(
    runs,
    async () =>
      void (await expectOk(await fetch(`${origin}${API}/cart/bulk`, { method: 'POST', headers, body }), 'bulk add')),
    () => emptyCart(origin, buyer),
  );
}

async function benchImport(origin: string, buyer: Buyer, sample: Sample, runs: number): Promise<Timing | null> {
  const dryRun = () =>
    fetch(`${origin}${API}/cart/import?dry_run=true`, {
      method: 'POST',
      headers: { authorization: `Bearer ${buyer.token}`, 'content-type': 'text/plain; charset=utf-8' },
      body: sample.importText,
    });
  const first = await dryRun();
  if (first.status === 404) {
    console.log('import: route not present');
    return null;
  }
  const result = (await (await expectOk(first, 'import dry run')).json()) as Static<typeof CartImportResultSchema>;
  // Every line names a real variant: a dry run that refused them would be measuring something else.
  if (result.valid !== IMPORT_LINES) throw new Error(`import dry run: ${result.invalid} of the lines refused`);
  return timed(
    runs,
    async () => void (await expectOk(await dryRun(), 'import dry run')),
    async () => {},
  );
}

async function measure(origin: string, referenceUrl: string, sample: Sample, seconds: number) {
  const limit = PAGE_SIZE.catalogue;
  // Warm-up with other page sizes than the measured ones: the same work, other cache keys.
  await load(referenceUrl, { seconds: 2, connections: CONNECTIONS });
  for (const { queries } of SEARCHES) await askEach(origin, searchPaths(queries, 2, limit + 1));
  // Every category read, not only the unfiltered one: each sort and filter reads its own index,
  // and a read measured on cold index pages against a warm unfiltered one measured the cache.
  for (const { query } of CATEGORY_READS)
    await askEach(origin, await categoryPaths(origin, sample.categories, query, limit + 1));

  const search: FindResult['search'] = [];
  for (const { kind, queries, pages } of SEARCHES) {
    console.log(`find: search, ${kind}`);
    search.push({ kind, result: await askEach(origin, searchPaths(queries, pages, limit)) });
  }
  // Every query's first page, in turn. Each was asked once above, and a free-text answer is kept
  // only when asked again (CatalogueCache's `asked-again`): asked once more here, so that the mix
  // measured is the cached one. Without it, its first round was 180 misses inside the measurement,
  // on the embedded database each holding the server's one thread for 20–50 ms.
  const mix = SEARCHES.flatMap(({ queries }) => searchPaths(queries, 1, limit));
  await askEach(origin, mix);
  let next = 0;
  // The reference through the same client (a path set per request costs autocannon time too).
  const reference = await loadPaths(referenceUrl, () => '/', {
    connections: CONNECTIONS,
    seconds,
    headers: AS_A_BROWSER,
  });
  const cachedSearch = await loadPaths(origin, () => mix[next++ % mix.length]!, {
    connections: CONNECTIONS,
    seconds,
    headers: AS_A_BROWSER,
  });
  console.log(`find: category pages, ${CATEGORY_READS.map(({ read }) => read).join(', ')}, in turns`);
  const categoryLists = await Promise.all(
    CATEGORY_READS.map(({ query }) => categoryPaths(origin, sample.categories, query, limit)),
  );
  const categoryResults = await askInTurns(origin, categoryLists);
  const categories: FindResult['categories'] = CATEGORY_READS.map(({ read }, index) => ({
    read,
    result: categoryResults[index]!,
  }));
  const buyer = await register(origin, 0);
  console.log('find: bulk add and import');
  const bulk = await benchBulk(origin, buyer, sample, Math.max(10, seconds * 4));
  const importDryRun = await benchImport(origin, buyer, sample, Math.max(3, seconds));
  return { reference, search, cachedSearch, categories, bulk, importDryRun };
}

async function benchTarget(target: Target, options: GrowthOptions, seconds: number): Promise<FindResult> {
  const shop: Shop = await target.createShop();
  try {
    // The server's first start migrates the database and seeds the demo catalogue.
    await (await startServer(shop)).stop();
    const database = shop.open();
    let steps: FindResult['steps'];
    let sample: Sample;
    try {
      steps = await timedGrowth(database, options);
      sample = await readSample(database);
    } finally {
      await database.close();
    }
    const reference = await startProcess('bench/reference-server.ts');
    try {
      const server = await startServer(shop);
      try {
        const measured = await measure(server.url, `${reference.url}/`, sample, seconds);
        return { database: target.database, steps, size: sample.size, ...measured };
      } finally {
        await server.stop();
      }
    } finally {
      await reference.stop();
    }
  } finally {
    await shop.cleanup();
  }
}

export async function benchFind(seconds: number): Promise<FindResult[]> {
  const adminUrl = process.env.BENCH_DATABASE_URL;
  const results: FindResult[] = [];
  for (const target of adminUrl ? [EMBEDDED, postgres(adminUrl)] : [EMBEDDED]) {
    console.log(`find: ${target.database}`);
    results.push(await benchTarget(target, findOptions(), seconds));
  }
  return results;
}

const mark = (ok: boolean) => (ok ? '✓' : '✗');
const thousands = (value: number) => value.toLocaleString('en-US').replaceAll(',', ' ');

export function findSection(results: FindResult[]): string {
  const options = findOptions();
  const lines = [
    `## Finding fast: ${thousands(options.products)} products with 5–10 variants each`,
    '',
    `Measured on ${machine()}. \`npm run bench -- find\` (and \`BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test\` for PostgreSQL): the shop is seeded, then grown by \`bench/big-catalogue.ts\`; the built server is asked for every catalogue URL once, one request at a time, so that its cache never answers (what a shopper meets just after an order emptied it). Reference: the bare Fastify route of \`bench/reference-server.ts\`, in the same run.`,
    '',
    '| database | grown shop | growing it |',
    '|---|---|---|',
    ...results.map(
      ({ database, size, steps }) =>
        `| ${database} | ${thousands(size.products)} products, ${thousands(size.variants)} variants | ${steps.map(({ step, ms }) => `${step} ${(ms / 1000).toFixed(1)} s`).join(', ')} |`,
    ),
    '',
    `### Search`,
    '',
    `Each kind's pages alone, each once, one at a time (${SEARCHES.map(({ queries, pages }) => queries.length * pages).join(' + ')} requests): the database's cost. Then every query's first page in turn, from the cache, at ${CONNECTIONS} connections for the run's seconds, beside the bare route's rate measured just before.`,
    '',
    `| database | queries | req/s | ratio to the bare route (target ≥ ${TARGET.searchRatio}×) | p50 ms | p99 ms (target < ${TARGET.searchP99}) | non-2xx |`,
    '|---|---|---|---|---|---|---|',
  ];
  for (const { database, reference, search, cachedSearch } of results) {
    for (const { kind, result } of search) {
      lines.push(
        `| ${database} | ${kind}, not cached | ${result.requestsPerSecond} | – | ${result.p50} | ${result.p99} ${mark(result.p99 < TARGET.searchP99)} | ${result.non2xx + result.errors} |`,
      );
    }
    const ratio = cachedSearch.requestsPerSecond / reference.requestsPerSecond;
    lines.push(
      `| ${database} | the mix, cached (bare route: ${reference.requestsPerSecond} req/s) | ${cachedSearch.requestsPerSecond} | ${ratio.toFixed(2)}× ${mark(ratio >= TARGET.searchRatio)} | ${cachedSearch.p50} | ${cachedSearch.p99} ${mark(cachedSearch.p99 < TARGET.searchP99)} | ${cachedSearch.non2xx + cachedSearch.errors} |`,
    );
  }
  lines.push(
    '',
    `### Category pages (pages 1–${PAGES_PER_CATEGORY} of every category per read, each once, one at a time, the reads taking turns page by page; the colour cycles through the category's own)`,
    '',
    `| database | filter or sort | p50 ms | p99 ms | p50 ÷ unfiltered (target ≤ ${TARGET.filteredRatio}×) | p99 ÷ unfiltered | non-2xx |`,
    '|---|---|---|---|---|---|---|',
  );
  for (const { database, categories } of results) {
    const unfiltered = categories[0]!.result;
    for (const { read, result } of categories) {
      const ratio = result.p50 / unfiltered.p50;
      lines.push(
        `| ${database} | ${read} | ${result.p50} | ${result.p99} | ${ratio.toFixed(2)}× ${mark(ratio <= TARGET.filteredRatio)} | ${(result.p99 / unfiltered.p99).toFixed(2)}× | ${result.non2xx + result.errors} |`,
      );
    }
  }
  lines.push(
    '',
    '### The cart, one buyer, one call at a time',
    '',
    `| database | call | runs | p50 ms | p99 ms | target |`,
    '|---|---|---|---|---|---|',
  );
  for (const { database, bulk, importDryRun } of results) {
    lines.push(
      `| ${database} | \`POST /cart/bulk\`, ${BULK_LINES} lines (cart emptied between runs) | ${bulk.runs} | ${bulk.p50} | ${bulk.p99} | < ${TARGET.bulkMs} ms ${mark(bulk.p99 < TARGET.bulkMs)} |`,
      importDryRun
        ? `| ${database} | \`POST /cart/import?dry_run=true\`, ${thousands(IMPORT_LINES)} lines of text | ${importDryRun.runs} | ${importDryRun.p50} | ${importDryRun.p99} | < ${TARGET.importMs} ms ${mark(importDryRun.p99 < TARGET.importMs)} |`
        : `| ${database} | \`POST /cart/import?dry_run=true\` | – | – | – | not measured: the route is not on this branch |`,
    );
  }
  return lines.join('\n');
}

if (require.main === module) {
  const seconds = Number(process.env.BENCH_SECONDS ?? 5);
  benchFind(seconds).then((results) => console.log(findSection(results)));
}
