// The channels of PostgreSQL's NOTIFY on which a committing transaction tells every server process
// what it changed. The repositories send on them inside the changing transaction (PostgreSQL
// delivers a notice only if it commits); the plugins listen (DatabaseHandle.listen).
import { sql } from 'drizzle-orm';
import type { Queryable } from './database';

/**
 * The channel on which a transaction that changes the catalogue (an order taking stock, a manager's
 * edit) announces, at commit, that every process must drop its cached answers.
 */
export const CATALOGUE_CHANNEL = 'catalogue_changed';

/** The announcement as a call, for the select list of a statement that changes the catalogue. */
export const catalogueChangeNotice = sql`pg_notify(${CATALOGUE_CHANNEL}, '')`;

/** Call it inside the changing transaction: PostgreSQL delivers the notice only if it commits. */
export async function announceCatalogueChange(tx: Queryable): Promise<void> {
  await tx.execute(sql`select ${catalogueChangeNotice}`);
}

/** The channel on which a queued message announces itself at commit, so a sender need not wait for its next look. */
export const MAIL_CHANNEL = 'mail_queued';

/** Nudges the senders of every process at commit; a call in the select list of the statement that queues. */
export const mailQueuedNotice = sql`pg_notify(${MAIL_CHANNEL}, '')`;

/**
 * The channel on which a transaction that revokes sessions names each of them (the payload is its
 * id) at commit, so every process refuses their access tokens at once (services/session-revocations).
 * Migration 0014's trigger, which revokes a deleted account's sessions, names it too.
 */
export const SESSIONS_REVOKED_CHANNEL = 'sessions_revoked';
