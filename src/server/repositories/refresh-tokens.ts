import { and, eq, gt, isNull, ne, sql, type SQL } from 'drizzle-orm';
import type { Queryable } from '../db/database';
import { refreshTokens } from '../db/schema';
import { recordRevokedSessions } from './revoked-sessions';

export interface IssuedRefreshToken {
  userId: number;
  familyId: string;
  tokenHash: string;
  expiresAt: Date;
  familyExpiresAt: Date;
}

export type SpendResult =
  /** `justSpent`: spent by another request less than the grace period ago (see `spend`). */
  | { status: 'spent' | 'justSpent'; familyId: string; familyExpiresAt: Date }
  | { status: 'reused'; familyId: string }
  | { status: 'invalid' };

/**
 * Revokes the refresh tokens `rows` picks that are not revoked yet, and with them their families'
 * sessions, whose access tokens are refused from then on (revoked-sessions). A family all of whose
 * tokens were revoked before was recorded then. Returns the sessions revoked now.
 */
function revokeSessions(db: Queryable, rows: SQL, now: Date): Promise<string[]> {
  return db.transaction(async (tx) => {
    const revoked = await tx
      .update(refreshTokens)
      .set({ revokedAt: now })
      .where(and(rows, isNull(refreshTokens.revokedAt)))
      .returning({ familyId: refreshTokens.familyId });
    return recordRevokedSessions(tx, [...new Set(revoked.map((row) => row.familyId))]);
  });
}

export function createRefreshTokensRepository(db: Queryable) {
  return {
    async insert(token: IssuedRefreshToken): Promise<void> {
      await db.insert(refreshTokens).values(token);
    },

    /** The account a token was issued to, whatever its state: its row is held before the token is spent. */
    async ownerOf(tokenHash: string): Promise<number | null> {
      const [row] = await db
        .select({ userId: refreshTokens.userId })
        .from(refreshTokens)
        .where(eq(refreshTokens.tokenHash, tokenHash));
      return row?.userId ?? null;
    },

    /**
     * Marks a live token as used, atomically, so that of two requests presenting the same token
     * only one can spend it. The other, and any request presenting it until `graceSeconds` after,
     * learns that it was just spent (two tabs refreshing with one cookie); a token spent longer
     * ago, or revoked, is reported as reused.
     */
    async spend(tokenHash: string, now: Date, graceSeconds: number): Promise<SpendResult> {
      const [spent] = await db
        .update(refreshTokens)
        .set({ usedAt: now })
        .where(
          and(
            eq(refreshTokens.tokenHash, tokenHash),
            isNull(refreshTokens.usedAt),
            isNull(refreshTokens.revokedAt),
            gt(refreshTokens.expiresAt, now),
          ),
        )
        .returning({ familyId: refreshTokens.familyId, familyExpiresAt: refreshTokens.familyExpiresAt });
      if (spent) return { status: 'spent', ...spent };
      const [known] = await db
        .select({
          familyId: refreshTokens.familyId,
          familyExpiresAt: refreshTokens.familyExpiresAt,
          usedAt: refreshTokens.usedAt,
          revokedAt: refreshTokens.revokedAt,
        })
        .from(refreshTokens)
        .where(eq(refreshTokens.tokenHash, tokenHash));
      if (!known || !(known.usedAt || known.revokedAt)) return { status: 'invalid' };
      const justSpent = known.usedAt !== null && now.getTime() - known.usedAt.getTime() < graceSeconds * 1000;
      if (justSpent && !known.revokedAt && known.familyExpiresAt > now) {
        return { status: 'justSpent', familyId: known.familyId, familyExpiresAt: known.familyExpiresAt };
      }
      return { status: 'reused', familyId: known.familyId };
    },

    /** Sign-out and theft: the family's session ends. Returns the sessions revoked now. */
    revokeFamily(familyId: string, now: Date): Promise<string[]> {
      return revokeSessions(db, eq(refreshTokens.familyId, familyId), now);
    },

    revokeFamilyOf(tokenHash: string, now: Date): Promise<string[]> {
      return revokeSessions(
        db,
        sql`${refreshTokens.familyId} = (select family_id from refresh_tokens where token_hash = ${tokenHash})`,
        now,
      );
    },

    /**
     * Every session of the account ends, except the family `keptFamilyId` if given (the one
     * changing the password). Returns the sessions revoked now.
     */
    revokeSessionsOf(userId: number, now: Date, keptFamilyId?: string): Promise<string[]> {
      return revokeSessions(
        db,
        and(eq(refreshTokens.userId, userId), keptFamilyId ? ne(refreshTokens.familyId, keptFamilyId) : undefined)!,
        now,
      );
    },
  };
}

export type RefreshTokensRepository = ReturnType<typeof createRefreshTokensRepository>;
