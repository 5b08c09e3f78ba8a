// A database migrated in steps, as a migration's own test needs it: up to the migration under test,
// filled with a shop of the schema before it, then the rest. On the embedded database, or on a
// fresh PostgreSQL database when TEST_DATABASE_URL is set (each jest project migrates its own).
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres';
import { migrate as migratePostgres } from 'drizzle-orm/node-postgres/migrator';
import { Pool } from 'pg';
import { PGLITE_EXTENSIONS } from '../../../src/server/db/embedded-database';
import { createFreshDatabase } from './fresh-database';

export const MIGRATIONS = path.join(__dirname, '../../../src/server/db/migrations');

export type Row = Record<string, unknown>;

/** A database to migrate in steps: plain SQL, and the migrations of a folder applied. */
export interface MigrationTarget {
  query(text: string): Promise<Row[]>;
  migrate(folder: string): Promise<void>;
  close(): Promise<void>;
}

async function embeddedTarget(): Promise<MigrationTarget> {
  const client = new PGlite({ extensions: PGLITE_EXTENSIONS });
  const db = drizzlePglite({ client });
  return {
    query: async (text) => (await client.query<Row>(text)).rows,
    migrate: (folder) => migratePglite(db, { migrationsFolder: folder }),
    close: () => client.close(),
  };
}

/** The embedded database, or a fresh PostgreSQL one named after `label` when TEST_DATABASE_URL is set. */
export async function openMigrationTarget(label: string): Promise<{ name: string; target: MigrationTarget }> {
  const postgresUrl = process.env.TEST_DATABASE_URL;
  if (!postgresUrl) return { name: 'the embedded database', target: await embeddedTarget() };
  const fresh = await createFreshDatabase(postgresUrl, label);
  const pool = new Pool({ connectionString: fresh.url, max: 1 });
  const db = drizzlePostgres({ client: pool });
  return {
    name: 'PostgreSQL',
    target: {
      query: async (text) => (await pool.query<Row>(text)).rows,
      migrate: (folder) => migratePostgres(db, { migrationsFolder: folder }),
      close: async () => {
        await pool.end();
        await fresh.drop();
      },
    },
  };
}

/** A copy of the migrations folder with only those before migration `firstNew` in its journal; removed by the caller. */
export async function migrationsBefore(firstNew: number): Promise<string> {
  const folder = await mkdtemp(path.join(tmpdir(), 'migrations-before-'));
  await cp(MIGRATIONS, folder, { recursive: true });
  const journalPath = path.join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(await readFile(journalPath, 'utf8')) as { entries: { idx: number }[] };
  journal.entries = journal.entries.filter((entry) => entry.idx < firstNew);
  await writeFile(journalPath, JSON.stringify(journal));
  return folder;
}

/** Runs each `;`-separated statement of `script`. */
export async function runScript(target: MigrationTarget, script: string): Promise<void> {
  for (const statement of script.split(';').filter((text) => text.trim())) await target.query(statement);
}

export const removeFolder = (folder: string) => rm(folder, { recursive: true, force: true });
