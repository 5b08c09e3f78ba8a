import { execFile } from 'node:child_process';
import path from 'node:path';
import { access, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { Worker } from 'node:worker_threads';
import {
  PGlite,
  types as pgliteTypes,
  type QueryOptions,
  type Results,
  type Transaction as PgliteTransaction,
} from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate as migratePostgres } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { Client, Pool } from 'pg';
import type {
  EmbeddedDatabaseSettings,
  Message,
  Request,
  StatementOptions,
  ThrownError,
} from './embedded-database-worker.mjs';
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

/** A request to the embedded database's thread, waiting for its answer. */
interface Pending {
  resolve(result: unknown): void;
  reject(error: Error): void;
}

/** An error as PostgreSQL's driver would have thrown it, with its fields (code, constraint, …) on it. */
function rebuilt({ name, message, fields }: ThrownError): Error {
  return Object.assign(new Error(message), fields, { name });
}

/**
 * The thread src/server/db/embedded-database-worker.mts runs PGlite in: Node runs the TypeScript
 * source as it is, and `npm start` the JavaScript esbuild made of it beside this file.
 */
const EMBEDDED_WORKER_FILE = path.join(
  __dirname,
  __filename.endsWith('.ts') ? 'embedded-database-worker.mts' : 'embedded-database-worker.js',
);

/**
 * Drizzle's PGlite driver passes parsers that keep some types' text as it is (dates and times); a
 * function cannot cross to the database's thread, so which types they are crosses instead. Any other
 * option, or a parser that changes the text, is refused rather than silently ignored.
 */
function statementOptions(options: QueryOptions | undefined): StatementOptions {
  const { rowMode = 'object', parsers = {}, ...rest } = options ?? {};
  const unsupported = Object.keys(rest);
  if (unsupported.length > 0) throw new Error(`Unsupported PGlite query options: ${unsupported.join(', ')}`);
  const keepText = Object.entries(parsers).map(([oid, parse]) => {
    if (parse('text kept', Number(oid)) !== 'text kept') throw new Error(`Unsupported PGlite parser for type ${oid}`);
    return Number(oid);
  });
  return { rowMode, keepText };
}

/**
 * The types whose values drizzle's PGlite driver has every statement keep as PostgreSQL's text
 * (its `parsers`: dates, times, intervals, and numeric, timestamp, interval and date arrays). The
 * embedded database keeps them so by default, which spares PGlite merging parsers per statement;
 * a statement asking for another set still gets it (embedded-database-worker.mts, queryOptions).
 */
const DRIZZLE_KEEPS_AS_TEXT = [
  pgliteTypes.TIMESTAMP,
  pgliteTypes.TIMESTAMPTZ,
  pgliteTypes.INTERVAL,
  pgliteTypes.DATE,
  1231,
  1115,
  1185,
  1187,
  1182,
];

/**
 * PGlite in a thread of its own (embedded-database-worker.mts says why), seen from the server's
 * thread. `client` has the part of PGlite's interface drizzle's PGlite driver uses: `query` and
 * `transaction`. Requests are run in the order they are sent, as PGlite runs them on its one
 * connection; a statement outside a transaction waits for an open transaction to end.
 */
class EmbeddedDatabaseThread {
  private readonly pending = new Map<number, Pending>();
  private lastId = 0;
  private lastTransaction = 0;
  private readonly listeners = new Map<number, (payload: string) => void>();
  private lastListener = 0;
  /** Why the thread can no longer answer; set once it stops. */
  private stopped: Error | null = null;

  private constructor(
    private readonly worker: Worker,
    private readonly observe: QueryObserver | undefined,
  ) {}

  static async start(settings: EmbeddedDatabaseSettings, observe: QueryObserver | undefined) {
    const worker = new Worker(EMBEDDED_WORKER_FILE, { workerData: settings });
    const thread = new EmbeddedDatabaseThread(worker, observe);
    await new Promise<void>((ready, failed) => {
      const stop = (error: Error) => {
        thread.stop(error);
        failed(error);
      };
      worker.on('message', (message: Message) => {
        if ('ready' in message) ready();
        else if ('startFailed' in message) stop(rebuilt(message.startFailed));
        else thread.receive(message);
      });
      worker.on('error', stop);
      worker.on('exit', (code) => stop(new Error(`its thread exited (code ${code})`)));
    });
    return thread;
  }

  private receive(message: Exclude<Message, { ready: true } | { startFailed: ThrownError }>): void {
    if ('notification' in message) {
      this.listeners.get(message.notification.listener)?.(message.notification.payload);
      return;
    }
    const pending = this.pending.get(message.id);
    this.pending.delete(message.id);
    if ('error' in message) pending?.reject(rebuilt(message.error));
    else pending?.resolve(message.result);
  }

  /** Fails what was asked and everything asked from now on, as a broken connection would (503). */
  private stop(cause: Error): void {
    if (this.stopped) return;
    this.stopped = Object.assign(new Error(`The embedded database is not available: ${cause.message}`, { cause }), {
      code: '08006',
    });
    for (const { reject } of this.pending.values()) reject(this.stopped);
    this.pending.clear();
  }

  private call<Result>(request: Request): Promise<Result> {
    if (this.stopped) return Promise.reject(this.stopped);
    const id = (this.lastId += 1);
    return new Promise<Result>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (result: unknown) => void, reject });
      this.worker.postMessage({ id, request });
    });
  }

  /** Timed, when asked, from the call until the answer: the wait for the connection included, as on PostgreSQL. */
  private query(
    sql: string,
    params: unknown[] | undefined,
    options: QueryOptions | undefined,
    transaction: number | null,
  ) {
    const started = performance.now();
    const result = this.call<Results>({
      kind: 'query',
      sql,
      params: params ?? [],
      options: statementOptions(options),
      transaction,
    });
    const { observe } = this;
    if (observe) {
      const done = () => observe((performance.now() - started) / 1000);
      result.then(done, done);
    }
    return result;
  }

  readonly client = {
    query: (sql: string, params?: unknown[], options?: QueryOptions) => this.query(sql, params, options, null),
    transaction: async <T>(work: (tx: Pick<PgliteTransaction, 'query'>) => Promise<T>): Promise<T> => {
      const transaction = (this.lastTransaction += 1);
      // Not waited for: the thread opens the transaction before it runs the statements sent after,
      // which saves a round trip between the threads. A failed BEGIN fails them, and the commit.
      const begun = this.call({ kind: 'begin', transaction });
      begun.catch(() => {});
      let result: T;
      try {
        result = await work({
          query: <Row>(sql: string, params?: unknown[], options?: QueryOptions) =>
            this.query(sql, params, options, transaction) as Promise<Results<Row>>,
        });
      } catch (error) {
        await this.call({ kind: 'end', transaction, commit: false }).catch(() => {});
        throw error;
      }
      await begun;
      await this.call({ kind: 'end', transaction, commit: true });
      return result;
    },
  };

  async exec(sql: string): Promise<void> {
    await this.call({ kind: 'exec', sql });
  }

  async listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>> {
    const listener = (this.lastListener += 1);
    this.listeners.set(listener, onNotify);
    await this.call({ kind: 'listen', channel, listener });
    return async () => {
      this.listeners.delete(listener);
      await this.call({ kind: 'unlisten', listener });
    };
  }

  async close(): Promise<void> {
    await this.call({ kind: 'close' }).catch(() => {});
    this.stop(new Error('it was closed'));
    await this.worker.terminate();
  }
}

/**
 * PGlite ships PostgreSQL's contrib modules as separate bundles, loaded only when named here; the
 * search's trigram index (migration 0008) needs pg_trgm in every process that opens the database.
 */
export const PGLITE_EXTENSIONS = { pg_trgm };

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
  const thread = await EmbeddedDatabaseThread.start(
    {
      clusterDir,
      startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${EMBEDDED_SHARED_BUFFERS}`],
      // By name: the thread loads each module itself.
      extensions: Object.keys(PGLITE_EXTENSIONS),
      keepText: DRIZZLE_KEEPS_AS_TEXT,
    },
    onQuery,
  ).catch(async (error: unknown) => {
    await unlock();
    throw error;
  });
  // Drizzle's PGlite driver uses only `query` and `transaction` of its client: the thread's `client` has both.
  const db = drizzlePglite({ client: thread.client as unknown as PGlite, schema }) as unknown as Database;
  return {
    db,
    kind: 'pglite',
    // One PGlite belongs to one process, so there is nobody to race with.
    withStartupLock: (work) => work(db),
    migrate: (target) => migratePglite(target as never, { migrationsFolder }),
    maintain: () => thread.exec('vacuum analyze'),
    ping: async () => {
      await thread.client.query('select 1');
    },
    poolUse: () => null,
    // One process owns an embedded database, so its notifications cannot be lost on the way.
    listen: (channel, { onNotify }) => thread.listen(channel, onNotify),
    close: async () => {
      await thread.close();
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
  const pool = new Pool({ connectionString, max: POOL_MAX, min: POOL_MAX, connectionTimeoutMillis: 5000 });
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
