import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { RateLimitConfig } from '../config';
import type { Database } from '../db/database';
import { quickOrderImports } from '../db/schema';
import { since } from '../db/since';

export function createQuickOrderImportsRepository(db: Database) {
  return {
    /**
     * Records a quick-order import by `userId` unless the account has had `limit.max` of them in the
     * window; answers the seconds until the oldest of those leaves it when refused, else null once
     * recorded. The account is held meanwhile (an advisory lock), so that of imports sent at once,
     * in any process, each is judged with the others counted.
     */
    async record(userId: number, limit: RateLimitConfig): Promise<number | null> {
      const windowStart = since(limit.windowMs);
      return db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`quick-order-import:${userId}`}, 0))`);
        const oldest = sql`min(${quickOrderImports.importedAt})`;
        const [standing] = await tx
          .select({
            imports: sql<number>`count(*)::int`,
            retryAfterSeconds: sql<number>`greatest(1, ceil(extract(epoch from ${oldest} - ${windowStart})))::int`,
          })
          .from(quickOrderImports)
          .where(and(eq(quickOrderImports.userId, userId), gt(quickOrderImports.importedAt, windowStart)));
        if (standing!.imports >= limit.max) return standing!.retryAfterSeconds;
        await tx.insert(quickOrderImports).values({ userId });
        return null;
      });
    },

    /** Deletes the imports older than `ms`, which no window counts any more. */
    async purge(ms: number): Promise<void> {
      await db.delete(quickOrderImports).where(lt(quickOrderImports.importedAt, since(ms)));
    },
  };
}

export type QuickOrderImportsRepository = ReturnType<typeof createQuickOrderImportsRepository>;
