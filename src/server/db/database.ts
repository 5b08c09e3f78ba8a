import { execFile } from 'node:child_process';
import path from 'node:path';
import { access, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { PGlite, types as pgliteTypes, type ParserOptions, type QueryOptions } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate as migratePostgres } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { Client, Pool } from 'pg';
import * as schema from './schema';

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];
/** Repositories accept either, so one query can run alone or inside a caller's transaction. */
export type Queryable = Database | Transaction;

export interface DatabaseHandle {
  db: Database;
  kind: 'pglite' | 'postgres';
  /**
   * Runs start-up work (migrations, the one-time seed) while holding a database-wide lock,
   * so two server processes starting on one PostgreSQL never migrate or seed at once.
   */
  withStartupLock<T>(work: (db: Database) => Promise<T>): Promise<T>;
  migrate(db: Database): Promise<void>;
  /**
   * Routine upkeep the database does not do by itself: PGlite runs PostgreSQL in single-user
   * mode, without autovacuum, so dead rows left by orders pile up and the planner's statistics
   * stay those of an empty shop. A PostgreSQL server vacuums and analyses on its own.
   */
  maintain(): Promise<void>;
  ping(): Promise<void>;
  /** The PostgreSQL pool's connections now; null on PGlite, which is one connection inside the process. */
  poolUse(): PoolUse | null;
  /**
   * Follows NOTIFY on `channel`, from this process and (on PostgreSQL) every other one. If the
   * connection that listens is lost, notifications may have been missed: `onLost` says so, and
   * `onRestored` follows once listening again.
   */
  listen(channel: string, handlers: NotificationHandlers): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export interface PoolUse {
  /** Connections open, in use or idle. */
  total: number;
  idle: number;
  /** Queries waiting for a connection: the pool is exhausted. */
  waiting: number;
  max: number;
}

export interface NotificationHandlers {
  /** `payload` is what the notifying transaction passed to pg_notify ('' when nothing). */
  onNotify(payload: string): void;
  onLost(): void;
  onRestored(): void;
}

const migrationsFolder = path.join(__dirname, 'migrations');
// Any constant shared by all processes of this shop; pg_advisory_lock keys are bigints.
const STARTUP_LOCK_KEY = 7_130_512_001;

export interface DatabaseOptions {
  databaseUrl: string | undefined;
  /** PGlite directory; null keeps the embedded database in memory. */
  dataDir: string | null;
  /** Told how long each statement took, in seconds (the metrics' histogram); unset, nothing is timed. */
  onQuery?: QueryObserver;
}

export type QueryObserver = (seconds: number) => void;

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  return options.databaseUrl
    ? openPostgres(options.databaseUrl, options.onQuery)
    : openPglite(options.dataDir, options.onQuery);
}

/**
 * `query` timed: from the call until its promise settles or its callback is called (pg-pool calls
 * its clients with a callback; drizzle awaits a promise). A query object with its own `submit`
 * (a cursor, a stream) goes untimed: the shop sends none.
 */
function timed<Query>(query: Query, observe: QueryObserver): Query {
  const run = query as (...args: unknown[]) => unknown;
  return ((...args: unknown[]) => {
    const started = performance.now();
    const done = () => observe((performance.now() - started) / 1000);
    const last = args.length - 1;
    const callback = args[last];
    if (typeof callback === 'function') {
      args[last] = (...results: unknown[]) => {
        done();
        return (callback as (...results: unknown[]) => unknown)(...results);
      };
      return run(...args);
    }
    const result = run(...args);
    // A handler for both outcomes, so the copy this makes never rejects unhandled.
    if (result instanceof Promise) result.then(done, done);
    return result;
  }) as Query;
}

/**
 * Put first in a statement's text, it has PostgreSQL parse and plan the statement once per pooled
 * connection (a named prepared statement) instead of at every run. For the few hot statements whose
 * text takes a few fixed shapes, whatever their values (placing an order: docs/performance.md);
 * a comment to PGlite, which has no pool to prepare on.
 */
const PREPARED_MARK = '/* prepared */ ';
export const PREPARED = sql.raw(PREPARED_MARK);
/** More shapes than this means a marked statement's text varies with its values: it is then sent unnamed. */
const MAX_PREPARED_SHAPES = 64;

/**
 * Each prepared shape's name, the same on every connection (node-postgres prepares a name on a
 * connection the first time that connection runs it, and refuses one name for two texts).
 */
function preparedNames(): (text: string) => string | undefined {
  const names = new Map<string, string>();
  return (text) => {
    let name = names.get(text);
    if (name === undefined && names.size < MAX_PREPARED_SHAPES) {
      name = `shop_${names.size + 1}`;
      names.set(text, name);
    }
    return name;
  };
}

/** `query` naming the statements marked PREPARED, as node-postgres prepares them (drizzle passes a config object). */
function preparing<Query>(query: Query, nameOf: (text: string) => string | undefined): Query {
  const run = query as (...args: unknown[]) => unknown;
  return ((...args: unknown[]) => {
    const config = args[0] as { text?: unknown; name?: string } | null;
    if (config && typeof config === 'object' && config.name === undefined && typeof config.text === 'string') {
      if (config.text.startsWith(PREPARED_MARK)) {
        const name = nameOf(config.text);
        if (name) args[0] = { ...config, name };
      }
    }
    return run(...args);
  }) as Query;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * PGlite's files belong to one process: a second one opening them (a second server, or the
 * managers' command while the server runs) would corrupt them. A pid file keeps it out.
 */
async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  const lockFile = path.join(dataDir, 'pglite.lock');
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      await writeFile(lockFile, String(process.pid), { flag: 'wx' });
      return () => rm(lockFile, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number(await readFile(lockFile, 'utf8').catch(() => ''));
      if (Number.isInteger(owner) && owner > 0 && isRunning(owner)) {
        throw new Error(
          `The embedded database in ${dataDir} is in use by process ${owner}. Stop it first, or run the shop on PostgreSQL (DATABASE_URL) to share one database.`,
          { cause: error },
        );
      }
      await rm(lockFile, { force: true });
    }
  }
  throw new Error(`Could not lock ${dataDir}`);
}

/**
 * PostgreSQL's default 128 MB of shared buffers live in PGlite's WebAssembly memory, inside this
 * process, and are never given back: most of the server's resident memory. The shop's tables fit
 * in far less, and pages read from disk stay in the operating system's file cache anyway.
 */
const EMBEDDED_SHARED_BUFFERS = '16MB';

/**
 * initdb leaves about 140 MB in the process that ran it, for as long as it lives; a new data
 * directory is therefore made by a short-lived child process. It is made beside the final one and
 * renamed into place, so a start interrupted half-way leaves no half-made database behind.
 */
async function createEmbeddedCluster(clusterDir: string): Promise<void> {
  const exists = await access(path.join(clusterDir, 'PG_VERSION')).then(
    () => true,
    () => false,
  );
  if (exists) return;
  const building = `${clusterDir}.new`;
  await rm(building, { recursive: true, force: true });
  const script = `const { PGlite } = require(${JSON.stringify(require.resolve('@electric-sql/pglite'))});
const db = new PGlite(process.argv[1]);
db.waitReady.then(() => db.close()).catch((error) => { console.error(error); process.exit(1); });`;
  await promisify(execFile)(process.execPath, ['-e', script, building]);
  await rm(clusterDir, { recursive: true, force: true });
  await rename(building, clusterDir);
}

/**
 * PGlite ships PostgreSQL's contrib modules as separate bundles, loaded only when named here; the
 * search's trigram index (migration 0008) needs pg_trgm in every process that opens the database.
 */
export const PGLITE_EXTENSIONS = { pg_trgm };

/**
 * The types whose values drizzle's PGlite driver has every statement keep as PostgreSQL's text
 * (its `parsers`: dates, times, intervals, and numeric, timestamp, interval and date arrays).
 * PGlite merges a statement's own parsers with all of its own on every statement, which cost
 * 0.1 ms a statement (as long as `select 1` takes): the embedded database keeps these types as
 * text by default instead, and a statement whose parsers are exactly these runs without them.
 */
const DRIZZLE_KEEPS_AS_TEXT = [
  pgliteTypes.TIMESTAMP,
  pgliteTypes.TIMESTAMPTZ,
  pgliteTypes.INTERVAL,
  pgliteTypes.DATE,
  // The arrays' type ids, which PGlite's `types` does not name: numeric[], timestamp[],
  // timestamptz[], interval[], date[].
  1231,
  1115,
  1185,
  1187,
  1182,
];
const asText = (value: string) => value;
const keptAsText: ParserOptions = Object.fromEntries(DRIZZLE_KEEPS_AS_TEXT.map((oid) => [oid, asText]));

/** Whether a statement's parsers keep exactly the types the database keeps as text, and keep them unchanged. */
function keepTheDefaultAsText(parsers: ParserOptions): boolean {
  const oids = Object.keys(parsers).map(Number);
  return (
    oids.length === DRIZZLE_KEEPS_AS_TEXT.length &&
    oids.every((oid) => DRIZZLE_KEEPS_AS_TEXT.includes(oid) && parsers[oid]!('text kept') === 'text kept')
  );
}

type PgliteQuery = PGlite['query'];

/** `query` leaving out the parsers the database already applies (`DRIZZLE_KEEPS_AS_TEXT`). */
function withoutDefaultParsers(query: PgliteQuery): PgliteQuery {
  return ((sql: string, params?: unknown[], options?: QueryOptions) => {
    if (options?.parsers && keepTheDefaultAsText(options.parsers)) {
      const { parsers: _default, ...rest } = options;
      return query(sql, params, rest);
    }
    return query(sql, params, options);
  }) as PgliteQuery;
}

/**
 * Every statement drizzle sends through PGlite, alone (`query`, which waits its turn for the one
 * connection, as a pooled query waits for a free connection) or inside a transaction (the `query`
 * of the transaction's own object), without the default parsers, and timed when asked (PGlite's
 * `begin` and `commit` are not timed).
 */
function wrapPgliteQueries(client: PGlite, observe: QueryObserver | undefined): void {
  const wrapped = (query: PgliteQuery) => {
    const lean = withoutDefaultParsers(query);
    return observe ? timed(lean, observe) : lean;
  };
  client.query = wrapped(client.query.bind(client));
  const transaction = client.transaction.bind(client);
  client.transaction = ((work: Parameters<PGlite['transaction']>[0]) =>
    transaction((tx) => {
      tx.query = wrapped(tx.query);
      return work(tx);
    })) as PGlite['transaction'];
}

async function openPglite(dataDir: string | null, onQuery: QueryObserver | undefined): Promise<DatabaseHandle> {
  let unlock = async () => {};
  const clusterDir = dataDir && path.join(dataDir, 'pglite');
  if (dataDir && clusterDir) {
    await mkdir(dataDir, { recursive: true });
    unlock = await lockDataDir(dataDir);
    await createEmbeddedCluster(clusterDir).catch(async (error: unknown) => {
      await unlock();
      throw error;
    });
  }
  const startParams = [...PGlite.defaultStartParams, '-c', `shared_buffers=${EMBEDDED_SHARED_BUFFERS}`];
  const options = { startParams, extensions: PGLITE_EXTENSIONS, parsers: keptAsText };
  const client = clusterDir ? new PGlite(clusterDir, options) : new PGlite(options);
  await client.waitReady.catch(async (error: unknown) => {
    await unlock();
    throw error;
  });
  wrapPgliteQueries(client, onQuery);
  const db = drizzlePglite({ client, schema }) as unknown as Database;
  return {
    db,
    kind: 'pglite',
    // One PGlite belongs to one process, so there is nobody to race with.
    withStartupLock: (work) => work(db),
    migrate: (target) => migratePglite(target as never, { migrationsFolder }),
    maintain: async () => {
      await client.exec('vacuum analyze');
    },
    ping: async () => {
      await client.query('select 1');
    },
    poolUse: () => null,
    // One process owns an embedded database, so its notifications cannot be lost on the way.
    listen: async (channel, { onNotify }) => {
      const unsubscribe = await client.listen(channel, onNotify);
      return () => unsubscribe();
    },
    close: async () => {
      await client.close();
      await unlock();
    },
  };
}

/**
 * The pool's connections per process (README: with the three that LISTEN, PostgreSQL's max_connections
 * must exceed 13 × processes).
 */
const POOL_MAX = 10;

async function openPostgres(connectionString: string, onQuery: QueryObserver | undefined): Promise<DatabaseHandle> {
  // `min`: a connection, once made, stays open (pg closes idle ones after 10 s by default). A new
  // PostgreSQL backend spends its first search loading the Russian dictionary, pg_trgm and the
  // catalogue's relations (29 ms against 8 on the grown shop), so reopening connections put that
  // into whichever request met the new one; the database plugin opens them all at start.
  // `jit=off`: the shop's queries take milliseconds, and PostgreSQL compiles any plan it costs above
  // jit_above_cost with LLVM first. The search's plans (which forbid sequential scans, so every scan
  // it still needs costs 10^10) were compiled each time: 1.1 s of compiling for a 3 ms query.
  const pool = new Pool({
    connectionString,
    max: POOL_MAX,
    min: POOL_MAX,
    connectionTimeoutMillis: 5000,
    options: '-c jit=off',
  });
  const nameOf = preparedNames();
  // An idle client losing its connection (server restart) must not crash the process.
  pool.on('error', () => {});
  // Nor may a checked-out one (a transaction between two queries, say): pg emits 'error' on the
  // client itself, and without a listener that is an uncaught exception. The query fails anyway
  // (answered 503), and the pool discards the broken client when it is released.
  pool.on('connect', (client) => {
    client.on('error', () => {});
    // Each pooled connection's own `query`: what the pool's `query` and every transaction end in,
    // so each statement is timed once, waiting for a connection excluded (poolUse says that).
    const query = preparing(client.query.bind(client), nameOf);
    client.query = onQuery ? timed(query, onQuery) : query;
  });
  const db = drizzlePostgres({ client: pool, schema }) as unknown as Database;
  return {
    db,
    kind: 'postgres',
    async withStartupLock(work) {
      const client = await pool.connect();
      try {
        await client.query('select pg_advisory_lock($1)', [STARTUP_LOCK_KEY]);
        return await work(drizzlePostgres({ client, schema }) as unknown as Database);
      } finally {
        await client.query('select pg_advisory_unlock($1)', [STARTUP_LOCK_KEY]).catch(() => {});
        client.release();
      }
    },
    migrate: (target) => migratePostgres(target as unknown as NodePgDatabase<typeof schema>, { migrationsFolder }),
    maintain: async () => {},
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    poolUse: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: POOL_MAX }),
    listen: (channel, handlers) => listenOnPostgres(connectionString, channel, handlers),
    close: () => pool.end(),
  };
}

const RELISTEN_DELAY_MS = 1000;

/** A dedicated connection that LISTENs, and connects again (after `onLost`) whenever it breaks. */
async function listenOnPostgres(
  connectionString: string,
  channel: string,
  handlers: NotificationHandlers,
): Promise<() => Promise<void>> {
  let stopped = false;
  let current: Client | null = null;
  let retry: NodeJS.Timeout | undefined;

  async function connect(): Promise<void> {
    const client = new Client({ connectionString, connectionTimeoutMillis: 5000 });
    let lost = false;
    let listening = false;
    const onBroken = () => {
      if (lost || stopped) return;
      lost = true;
      void client.end().catch(() => {});
      // A connection that never got to LISTEN fails connect() itself, and its caller retries.
      // Retrying here as well doubled the attempts every second while the database was down
      // (64 LISTEN connections after a 6 s outage, until max_connections was exhausted).
      if (!listening) return;
      current = null;
      handlers.onLost();
      retry = setTimeout(reconnect, RELISTEN_DELAY_MS);
    };
    client.on('error', onBroken);
    client.on('end', onBroken);
    client.on('notification', (message) => handlers.onNotify(message.payload ?? ''));
    await client.connect();
    await client.query(`listen ${channel}`);
    listening = true;
    current = client;
  }

  async function reconnect(): Promise<void> {
    if (stopped) return;
    try {
      await connect();
      handlers.onRestored();
    } catch {
      retry = setTimeout(reconnect, RELISTEN_DELAY_MS);
    }
  }

  await connect();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    await current?.end().catch(() => {});
  };
}
