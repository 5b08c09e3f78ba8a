import path from 'node:path';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePostgres, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate as migratePostgres } from 'drizzle-orm/node-postgres/migrator';
import { Client, Pool } from 'pg';
import type { Database, DatabaseHandle, NotificationHandlers, QueryObserver } from './database';
import { preparedNames, preparing } from './prepared-statements';
import * as schema from './schema';
import { timed } from './timed-queries';

// A PostgreSQL server (DATABASE_URL): a pool per process, and a connection of its own per LISTEN.

const migrationsFolder = path.join(__dirname, 'migrations');
// Any constant shared by all processes of this shop; pg_advisory_lock keys are bigints.
const STARTUP_LOCK_KEY = 7_130_512_001;

/**
 * The pool's connections per process (README: with the three that LISTEN, PostgreSQL's max_connections
 * must exceed 13 × processes).
 */
const POOL_MAX = 10;

export async function openPostgres(
  connectionString: string,
  onQuery: QueryObserver | undefined,
): Promise<DatabaseHandle> {
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
