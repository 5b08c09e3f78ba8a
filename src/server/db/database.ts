import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type * as schema from './schema';
import { openEmbedded } from './embedded-database';
import { openPostgres } from './postgres-database';

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

export interface DatabaseOptions {
  databaseUrl: string | undefined;
  /** PGlite directory; null keeps the embedded database in memory. */
  dataDir: string | null;
  /** Told how long each statement took, in seconds (the metrics' histogram); unset, nothing is timed. */
  onQuery?: QueryObserver;
}

export type QueryObserver = (seconds: number) => void;

/** The shop's database: PostgreSQL when a URL is given (postgres-database.ts), else the embedded one (embedded-database.ts). */
export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  return options.databaseUrl
    ? openPostgres(options.databaseUrl, options.onQuery)
    : openEmbedded(options.dataDir, options.onQuery);
}
