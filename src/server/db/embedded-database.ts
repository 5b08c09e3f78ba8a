import { execFile } from 'node:child_process';
import path from 'node:path';
import { access, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { PGlite, types as pgliteTypes, type ParserOptions, type QueryOptions } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { Database, DatabaseHandle, QueryObserver } from './database';
import * as schema from './schema';
import { timed } from './timed-queries';

// The embedded database (PGlite): PostgreSQL compiled to WebAssembly, inside this process.

const migrationsFolder = path.join(__dirname, 'migrations');

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

export async function openEmbedded(
  dataDir: string | null,
  onQuery: QueryObserver | undefined,
): Promise<DatabaseHandle> {
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
