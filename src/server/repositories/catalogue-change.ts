import { sql, type Column, type SQL } from 'drizzle-orm';
import type { Database, Transaction } from '../db/database';
import { brokenUniqueConstraint } from '../db/unique-violation';
import { announceCatalogueChange } from '../db/notifications';

/** Per unique constraint, the error a manager reads when a change breaks it. */
export type UniqueRules = Record<string, () => Error>;

/**
 * Runs a back-office change to the catalogue in one transaction, which also announces the change
 * to every server process at commit (the caller writes its audit entry inside `work`), so nothing
 * is half-saved or unlogged. A unique constraint the change broke comes out as the rule a manager
 * reads (checked by the database, so two concurrent changes cannot both pass); any other failure
 * as it was.
 */
export async function changeCatalogue<T>(
  db: Database,
  work: (tx: Transaction) => Promise<T>,
  uniqueRules: UniqueRules = {},
): Promise<T> {
  try {
    return await db.transaction(async (tx) => {
      const result = await work(tx);
      await announceCatalogueChange(tx);
      return result;
    });
  } catch (error) {
    const constraint = brokenUniqueConstraint(error);
    const rule = constraint === null ? undefined : uniqueRules[constraint];
    throw rule ? rule() : error;
  }
}

/** One more than the greatest value of an ordering column (1 in an empty table): a new row goes last. */
export const afterLast = (column: Column): SQL => sql`(select coalesce(max(${column}), 0) + 1 from ${column.table})`;
