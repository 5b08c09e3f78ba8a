import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

export interface FreshDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
  /** A connection of the caller's own, for set-up and checks. */
  query<T = Record<string, unknown>>(text: string, values?: unknown[]): Promise<T[]>;
}

/**
 * A new, empty database on the PostgreSQL server of `adminUrl`, for one test file, benchmark or
 * reliability test; `drop()` removes it even if connections are still open.
 */
export async function createFreshDatabase(adminUrl: string, prefix: string): Promise<FreshDatabase> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    async query<T>(text: string, values: unknown[] = []) {
      const connection = new Client({ connectionString: url.toString() });
      await connection.connect();
      try {
        return (await connection.query(text, values)).rows as T[];
      } finally {
        await connection.end();
      }
    },
    async drop() {
      const cleanup = new Client({ connectionString: adminUrl });
      await cleanup.connect();
      try {
        await cleanup.query(`drop database if exists ${name} with (force)`);
      } finally {
        await cleanup.end();
      }
    },
  };
}
