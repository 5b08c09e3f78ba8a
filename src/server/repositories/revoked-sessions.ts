import { eq, gt, inArray, lte, sql } from 'drizzle-orm';
import type { Queryable } from '../db/database';
import { SESSIONS_REVOKED_CHANNEL } from '../db/notifications';
import { revokedSessions } from '../db/schema';

/** `seconds` ago by the database's clock, the one every `revoked_at` is written by. */
const secondsAgo = (seconds: number) => sql`now() - make_interval(secs => ${seconds})`;

/**
 * Records the sessions as revoked and announces them; the announcement goes out only if the
 * caller's transaction commits. Returns the sessions not revoked before.
 */
export async function recordRevokedSessions(tx: Queryable, sessionIds: string[]): Promise<string[]> {
  if (sessionIds.length === 0) return [];
  const recorded = await tx
    .insert(revokedSessions)
    .values(sessionIds.map((sessionId) => ({ sessionId })))
    .onConflictDoNothing()
    .returning({ sessionId: revokedSessions.sessionId });
  const newly = recorded.map((row) => row.sessionId);
  if (newly.length > 0) {
    await tx
      .select({ announced: sql`pg_notify(${SESSIONS_REVOKED_CHANNEL}, ${revokedSessions.sessionId}::text)` })
      .from(revokedSessions)
      .where(inArray(revokedSessions.sessionId, newly));
  }
  return newly;
}

export function createRevokedSessionsRepository(db: Queryable) {
  return {
    /** The sessions revoked less than `seconds` ago. */
    async revokedWithin(seconds: number): Promise<string[]> {
      const rows = await db
        .select({ sessionId: revokedSessions.sessionId })
        .from(revokedSessions)
        .where(gt(revokedSessions.revokedAt, secondsAgo(seconds)));
      return rows.map((row) => row.sessionId);
    },

    async isRevoked(sessionId: string): Promise<boolean> {
      const [row] = await db
        .select({ sessionId: revokedSessions.sessionId })
        .from(revokedSessions)
        .where(eq(revokedSessions.sessionId, sessionId));
      return row !== undefined;
    },

    /** Forgets the sessions revoked `seconds` ago or earlier: every access token of theirs has expired. */
    async purgeOlderThan(seconds: number): Promise<void> {
      await db.delete(revokedSessions).where(lte(revokedSessions.revokedAt, secondsAgo(seconds)));
    },
  };
}

export type RevokedSessionsRepository = ReturnType<typeof createRevokedSessionsRepository>;
