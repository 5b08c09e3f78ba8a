import { sql } from 'drizzle-orm';
import type { Queryable } from '../db/database';

// Any constant shared by all processes of this shop; pg_advisory_xact_lock keys are bigints.
const BARCODES_LOCK_KEY = 7_130_512_041;

/**
 * Queues the caller's transaction behind any other that checks typed barcodes (a manager's edit, a
 * price list's import), until it ends: with no unique index (1С may send one code for two
 * variants), this is what keeps two writers from both finding a barcode free and both taking it.
 */
export async function lockTypedBarcodes(db: Queryable): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock(${BARCODES_LOCK_KEY})`);
}
