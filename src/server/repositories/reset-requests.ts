import { createHash } from 'node:crypto';
import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { RateLimitConfig } from '../config';
import type { Database } from '../db/database';
import { resetRequests } from '../db/schema';
import { since } from '../db/since';

/** What is kept of an address: its hash, so that an address without an account leaves nothing readable. */
const addressHash = (email: string) => createHash('sha256').update(email).digest('base64url');

export function createResetRequestsRepository(db: Database) {
  return {
    /**
     * Records a reset letter requested for `email` (normalised, with or without an account) unless
     * the address has had `limit.max` of them in the window; answers the seconds until the oldest of
     * those leaves it when refused, else null once recorded. The address is held meanwhile (an
     * advisory lock), so that of requests at once, in any process, each is judged with the others counted.
     */
    async record(email: string, limit: RateLimitConfig): Promise<number | null> {
      const address = addressHash(email);
      const windowStart = since(limit.windowMs);
      return db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`reset-request:${address}`}, 0))`);
        const oldest = sql`min(${resetRequests.requestedAt})`;
        const [standing] = await tx
          .select({
            requests: sql<number>`count(*)::int`,
            retryAfterSeconds: sql<number>`greatest(1, ceil(extract(epoch from ${oldest} - ${windowStart})))::int`,
          })
          .from(resetRequests)
          .where(and(eq(resetRequests.addressHash, address), gt(resetRequests.requestedAt, windowStart)));
        if (standing!.requests >= limit.max) return standing!.retryAfterSeconds;
        await tx.insert(resetRequests).values({ addressHash: address });
        return null;
      });
    },

    /** Deletes the requests older than `ms`, which no window counts any more. */
    async purge(ms: number): Promise<void> {
      await db.delete(resetRequests).where(lt(resetRequests.requestedAt, since(ms)));
    },
  };
}

export type ResetRequestsRepository = ReturnType<typeof createResetRequestsRepository>;
