// What the managers' commands share: reading an id strictly, and one run against the shop's
// database (DATABASE_URL or the embedded one in DATA_DIR, as the server opens it).
import { MAX_ID } from '../../shared/schemas/common';
import { loadConfig } from '../config';
import { openDatabase, type Database } from '../db/database';
import { DomainError } from '../domain/domain-errors';

/**
 * A positive int4 written in plain decimal digits, or null. Number() would read "0x1" and "1e3"
 * as numbers, and an id beyond int4 reached PostgreSQL and failed there.
 */
export function parseId(text: string | undefined): number | null {
  if (!text || !/^[1-9]\d{0,9}$/.test(text)) return null;
  const id = Number(text);
  return id <= MAX_ID ? id : null;
}

/** Opens and migrates the database, runs `work`, closes it; a broken rule of the shop exits with 1. */
export async function withDatabase(work: (db: Database) => Promise<void>): Promise<number> {
  let database;
  try {
    database = await openDatabase(loadConfig());
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    return 1;
  }
  try {
    await database.migrate(database.db);
    await work(database.db);
    return 0;
  } catch (error) {
    if (error instanceof DomainError) {
      console.error(error.detail);
      return 1;
    }
    throw error;
  } finally {
    await database.close();
  }
}

/** Exits with the command's code; an unexpected failure is printed and exits with 1. */
export function runCommand(main: (args: string[]) => Promise<number>): void {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
