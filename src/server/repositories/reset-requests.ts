import { createHash } from 'node:crypto';
import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { RateLimitConfig } from '../config';
import type { Database } from '../db/database';
import { resetRequests } from '../db/schema';
import { since } from '../db/since';

/** What is kept of an address or a client: its hash, so that an address without an account leaves nothing readable. */
const sha256 = (text: string) => createHash('sha256').update(text).digest('base64url');

/** The letters one address may be sent: so many per requesting client, and so many in all. */
export interface ResetLetterLimits {
  perClient: RateLimitConfig;
  perAddress: RateLimitConfig;
}

/** A letter asked for `email` (normalised, with or without an account) by `client` (as the throttling counts it). */
export interface ResetLetterRequest {
  email: string;
  client: string;
  /** The request came with a valid device cookie of the address's account: the per-address ceiling does not hold it back. */
  ownersDevice: boolean;
}

export function createResetRequestsRepository(db: Database) {
  return {
    /**
     * Records a reset letter to be sent unless the client has had `perClient.max` letters to the
     * address in its window, or the address `perAddress.max` in its window from all clients (a
     * request from the owner's device excepted); answers whether the letter may go. The address is
     * held meanwhile (an advisory lock), so that of requests at once, in any process, each is judged
     * with the others counted. A refused request writes nothing.
     */
    async record(request: ResetLetterRequest, limits: ResetLetterLimits): Promise<boolean> {
      const address = sha256(request.email);
      const client = sha256(request.client);
      return db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`reset-request:${address}`}, 0))`);
        const ofClient = and(
          eq(resetRequests.clientHash, client),
          gt(resetRequests.requestedAt, since(limits.perClient.windowMs)),
        );
        const [standing] = await tx
          .select({
            ofAddress: sql<number>`count(*)::int`,
            ofClient: sql<number>`(count(*) filter (where ${ofClient}))::int`,
          })
          .from(resetRequests)
          .where(
            and(
              eq(resetRequests.addressHash, address),
              gt(resetRequests.requestedAt, since(limits.perAddress.windowMs)),
            ),
          );
        if (standing!.ofClient >= limits.perClient.max) return false;
        if (!request.ownersDevice && standing!.ofAddress >= limits.perAddress.max) return false;
        await tx.insert(resetRequests).values({ addressHash: address, clientHash: client });
        return true;
      });
    },

    /** Deletes the requests older than `ms`, which no window counts any more. */
    async purge(ms: number): Promise<void> {
      await db.delete(resetRequests).where(lt(resetRequests.requestedAt, since(ms)));
    },
  };
}

export type ResetRequestsRepository = ReturnType<typeof createResetRequestsRepository>;
