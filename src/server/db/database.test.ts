import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { count, eq, sql } from 'drizzle-orm';
import { createFreshDatabase } from '../../../test/server/helpers/fresh-database';
import { STARTUP_TIMEOUT } from '../../../test/server/helpers/test-app';
import { openDatabase, type DatabaseHandle } from './database';
import { PREPARED } from './prepared-statements';
import { categories, products } from './schema';
import { seedProducts } from './seed/catalogue';
import { seedDemoCatalogue } from './seed/seed';
import { brokenUniqueConstraint } from './unique-violation';

/** What the server does at start: migrate and seed under the start-up lock. */
async function start(database: DatabaseHandle): Promise<boolean> {
  return database.withStartupLock(async (db) => {
    await database.migrate(db);
    return seedDemoCatalogue(db);
  });
}

type Rows<Row> = { rows: Row[] };

async function productCount(database: DatabaseHandle): Promise<number> {
  const [row] = await database.db.select({ value: count() }).from(products);
  return row!.value;
}

describe('the embedded database (DATA_DIR)', () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'shop-db-test-'));
  });
  afterEach(() => rm(dataDir, { recursive: true, force: true }));

  it(
    'keeps its data across a restart and is seeded only on the first start',
    async () => {
      const first = await openDatabase({ databaseUrl: undefined, dataDir });
      expect(await start(first)).toBe(true);
      expect(await start(first)).toBe(false);
      expect(await productCount(first)).toBe(seedProducts.length);
      await first.close();

      const second = await openDatabase({ databaseUrl: undefined, dataDir });
      expect(await start(second)).toBe(false);
      expect(await productCount(second)).toBe(seedProducts.length);
      await second.close();
    },
    STARTUP_TIMEOUT,
  );

  it(
    'cannot be opened a second time while it is open (that would corrupt it), and can once closed',
    async () => {
      const owner = await openDatabase({ databaseUrl: undefined, dataDir });
      await expect(openDatabase({ databaseUrl: undefined, dataDir })).rejects.toThrow(/in use by process/);
      await owner.close();
      const next = await openDatabase({ databaseUrl: undefined, dataDir });
      await next.close();
    },
    STARTUP_TIMEOUT,
  );

  it(
    'has no autovacuum, so maintain() analyses it: the planner then knows the tables are not empty',
    async () => {
      const database = await openDatabase({ databaseUrl: undefined, dataDir });
      await start(database);
      const estimatedProducts = async () => {
        const { rows } = (await database.db.execute(
          sql`select reltuples from pg_class where relname = 'products'`,
        )) as unknown as { rows: { reltuples: number }[] };
        return Number(rows[0]!.reltuples);
      };
      expect(await estimatedProducts()).toBeLessThanOrEqual(0);
      await database.maintain();
      expect(await estimatedProducts()).toBe(seedProducts.length);
      await database.close();
    },
    STARTUP_TIMEOUT,
  );

  it(
    'starts cleanly after a first start was interrupted while creating the database',
    async () => {
      // What a kill during initdb leaves: a half-made cluster beside the final one, or a final
      // directory without PG_VERSION (from before clusters were made aside and renamed).
      await mkdir(path.join(dataDir, 'pglite.new', 'base'), { recursive: true });
      await mkdir(path.join(dataDir, 'pglite', 'base'), { recursive: true });
      await writeFile(path.join(dataDir, 'pglite', 'base', 'junk'), 'half-written');
      const database = await openDatabase({ databaseUrl: undefined, dataDir });
      expect(await start(database)).toBe(true);
      expect(await productCount(database)).toBe(seedProducts.length);
      await database.close();
      expect((await readdir(dataDir)).sort()).toEqual(['pglite']);
    },
    STARTUP_TIMEOUT,
  );
});

describe('statements on the embedded database, as drizzle sends them', () => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await openDatabase({ databaseUrl: undefined, dataDir: null });
    await start(database);
  }, STARTUP_TIMEOUT);
  afterAll(() => database.close());

  it('gives PostgreSQL’s error fields as the driver does, and a failed transaction leaves nothing behind', async () => {
    const [first] = await database.db.select({ name: categories.name }).from(categories).limit(1);
    const failure = await database.db
      .transaction(async (tx) => {
        await tx.insert(categories).values({ name: 'Добавлена и отменена', position: 100 });
        await tx.insert(categories).values({ name: first!.name, position: 101 });
      })
      .catch((error: unknown) => error);
    expect(brokenUniqueConstraint(failure)).toBe('categories_name_unique');
    const left = await database.db
      .select({ name: categories.name })
      .from(categories)
      .where(eq(categories.name, 'Добавлена и отменена'));
    expect(left).toEqual([]);
  });

  // Drizzle's driver asks for dates and times as text with every statement; the database keeps
  // them so by default, and that statement then goes without its parsers (database.ts).
  it('keeps dates as PostgreSQL writes them, as on PostgreSQL', async () => {
    const { rows } = (await database.db.execute(
      sql`select timestamptz '2026-11-27 10:00:00+03' as at, date '2026-11-27' as day`,
    )) as unknown as Rows<{ at: unknown; day: unknown }>;
    expect(rows[0]).toEqual({ at: '2026-11-27 07:00:00+00', day: '2026-11-27' });
  });

  it('tells a listener of each notification, and no more once it stops listening', async () => {
    const heard: string[] = [];
    const stop = await database.listen('embedded_test', {
      onNotify: (payload) => heard.push(payload),
      onLost: () => {},
      onRestored: () => {},
    });
    await database.db.execute(sql`select pg_notify('embedded_test', 'первое')`);
    await stop();
    await database.db.execute(sql`select pg_notify('embedded_test', 'второе')`);
    await database.db.execute(sql`select 1`);
    expect(heard).toEqual(['первое']);
  });
});

// Two processes can share a PostgreSQL database; this race exists only there (CI sets TEST_DATABASE_URL).
const onPostgres = process.env.TEST_DATABASE_URL;
if (onPostgres) {
  describe('two servers starting together on one PostgreSQL database', () => {
    it(
      'migrate and seed it exactly once',
      async () => {
        const fresh = await createFreshDatabase(onPostgres!, 'shop_test');
        const servers = await Promise.all([0, 1, 2].map(() => openDatabase({ databaseUrl: fresh.url, dataDir: null })));
        try {
          const seeded = await Promise.all(servers.map(start));
          expect(seeded.filter(Boolean)).toHaveLength(1);
          expect(await productCount(servers[0]!)).toBe(seedProducts.length);
        } finally {
          await Promise.all(servers.map((server) => server.close()));
          await fresh.drop();
        }
      },
      STARTUP_TIMEOUT,
    );
  });

  describe('the pool’s connections, on PostgreSQL', () => {
    it(
      'never compile a plan with JIT, however much the planner costs it',
      async () => {
        const fresh = await createFreshDatabase(onPostgres!, 'shop_test');
        const database = await openDatabase({ databaseUrl: fresh.url, dataDir: null });
        try {
          // A plan the planner costs far above jit_above_cost, as it costs every search (which
          // forbids sequential scans: each scan it still needs costs 10^10); PostgreSQL compiled
          // each search with LLVM, 1.1 s for a 3 ms query.
          const { rows } = (await database.db.execute(
            sql`explain (format json) select sum(n) from generate_series(1, 100000000) as n`,
          )) as unknown as Rows<{ 'QUERY PLAN': [{ Plan: { 'Total Cost': number }; JIT?: unknown }] }>;
          const plan = rows[0]!['QUERY PLAN'][0];
          expect(plan.Plan['Total Cost']).toBeGreaterThan(100_000);
          expect(plan.JIT).toBeUndefined();
        } finally {
          await database.close();
          await fresh.drop();
        }
      },
      STARTUP_TIMEOUT,
    );
  });

  describe('statements marked PREPARED, on PostgreSQL', () => {
    it(
      'are prepared once on a connection and run by name after, with each run’s values; others are not prepared',
      async () => {
        const fresh = await createFreshDatabase(onPostgres!, 'shop_test');
        const database = await openDatabase({ databaseUrl: fresh.url, dataDir: null });
        try {
          const { answers, prepared } = await database.db.transaction(async (tx) => {
            const answers: unknown[] = [];
            for (const n of [1, 2, 3]) {
              const { rows } = (await tx.execute(sql`${PREPARED}select ${n}::int as n`)) as unknown as Rows<{
                n: number;
              }>;
              answers.push(rows[0]);
            }
            await tx.execute(sql`select ${4}::int as unmarked`);
            const { rows } = (await tx.execute(sql`select statement from pg_prepared_statements`)) as unknown as Rows<{
              statement: string;
            }>;
            return { answers, prepared: rows.map((row) => row.statement) };
          });
          expect(answers).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
          expect(prepared).toEqual(['/* prepared */ select $1::int as n']);
        } finally {
          await database.close();
          await fresh.drop();
        }
      },
      STARTUP_TIMEOUT,
    );
  });
}
