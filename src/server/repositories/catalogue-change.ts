import { sql, type Column, type SQL } from 'drizzle-orm';
import type { Database, Transaction } from '../db/database';
import { brokenUniqueConstraint } from '../db/unique-violation';
import { announceCatalogueChange } from '../db/notifications';

/** How a change went: done, with what `work` returned, or refused by a unique constraint. */
export type CatalogueChange<T> =
  { status: 'done'; value: T } | { status: 'unique-violation'; constraint: string; error: unknown };

/**
 * Runs a back-office change to the catalogue in one transaction, which also announces the change
 * to every server process at commit (the caller writes its audit entry inside `work`), so nothing
 * is half-saved or unlogged. A unique constraint the change broke (checked by the database, so two
 * concurrent changes cannot both pass) comes back named, for the service to say which rule it
 * was (services/catalogue-change.ts); any other failure is thrown as it was.
 */
export async function runCatalogueChange<T>(
  db: Database,
  work: (tx: Transaction) => Promise<T>,
): Promise<CatalogueChange<T>> {
  try {
    const value = await db.transaction(async (tx) => {
      const result = await work(tx);
      await announceCatalogueChange(tx);
      return result;
    });
    return { status: 'done', value };
  } catch (error) {
    const constraint = brokenUniqueConstraint(error);
    if (constraint === null) throw error;
    return { status: 'unique-violation', constraint, error };
  }
}

/** One more than the greatest value of an ordering column (1 in an empty table): a new row goes last. */
export const afterLast = (column: Column): SQL => sql`(select coalesce(max(${column}), 0) + 1 from ${column.table})`;
