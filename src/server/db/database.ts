import path from 'node:path';
import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate as migratePostgres } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { Pool } from 'pg';
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
  ping(): Promise<void>;
  close(): Promise<void>;
}

const migrationsFolder = path.join(__dirname, 'migrations');
// Any constant shared by all processes of this shop; pg_advisory_lock keys are bigints.
const STARTUP_LOCK_KEY = 7_130_512_001;

export interface DatabaseOptions {
  databaseUrl: string | undefined;
  /** PGlite directory; null keeps the embedded database in memory. */
  dataDir: string | null;
}

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  return options.databaseUrl ? openPostgres(options.databaseUrl) : openPglite(options.dataDir);
}

async function openPglite(dataDir: string | null): Promise<DatabaseHandle> {
  if (dataDir) await mkdir(dataDir, { recursive: true });
  const client = dataDir ? new PGlite(path.join(dataDir, 'pglite')) : new PGlite();
  await client.waitReady;
  const db = drizzlePglite({ client, schema }) as unknown as Database;
  return {
    db,
    kind: 'pglite',
    // One PGlite belongs to one process, so there is nobody to race with.
    withStartupLock: (work) => work(db),
    migrate: (target) => migratePglite(target as never, { migrationsFolder }),
    ping: async () => {
      await client.query('select 1');
    },
    close: () => client.close(),
  };
}

async function openPostgres(connectionString: string): Promise<DatabaseHandle> {
  const pool = new Pool({ connectionString, max: 10, connectionTimeoutMillis: 5000 });
  // An idle client losing its connection (server restart) must not crash the process.
  pool.on('error', () => {});
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
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    close: () => pool.end(),
  };
}
