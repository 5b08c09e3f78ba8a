import type { Database, Transaction } from '../db/database';
import { runCatalogueChange } from '../repositories/catalogue-change';

/** Per unique constraint, the error a manager reads when a change breaks it. */
export type UniqueRules = Record<string, () => Error>;

/**
 * A back-office change to the catalogue, in its own transaction announced at commit
 * (repositories/catalogue-change.ts). A domain error thrown by `work` rolls it back; a unique
 * constraint it broke comes out as the rule a manager reads, any other failure as it was.
 */
export async function changeCatalogue<T>(
  db: Database,
  work: (tx: Transaction) => Promise<T>,
  uniqueRules: UniqueRules = {},
): Promise<T> {
  const change = await runCatalogueChange(db, work);
  if (change.status === 'done') return change.value;
  const rule = uniqueRules[change.constraint];
  throw rule ? rule() : change.error;
}
