import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Queryable } from '../db/database';
import { refreshTokens } from '../db/schema';

export interface IssuedRefreshToken {
  userId: number;
  familyId: string;
  tokenHash: string;
  expiresAt: Date;
  familyExpiresAt: Date;
}

export type SpendResult =
  | { status: 'spent'; userId: number; familyId: string; familyExpiresAt: Date }
  | { status: 'reused'; familyId: string }
  | { status: 'invalid' };

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
     * only one can spend it. A token that was already spent or revoked is reported as reused.
     */
    async spend(tokenHash: string, now: Date): Promise<SpendResult> {
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
        .returning({
          userId: refreshTokens.userId,
          familyId: refreshTokens.familyId,
          familyExpiresAt: refreshTokens.familyExpiresAt,
        });
      if (spent) return { status: 'spent', ...spent };
      const [known] = await db
        .select({ familyId: refreshTokens.familyId, usedAt: refreshTokens.usedAt, revokedAt: refreshTokens.revokedAt })
        .from(refreshTokens)
        .where(eq(refreshTokens.tokenHash, tokenHash));
      if (known && (known.usedAt || known.revokedAt)) return { status: 'reused', familyId: known.familyId };
      return { status: 'invalid' };
    },

    async revokeFamily(familyId: string, now: Date): Promise<void> {
      await db
        .update(refreshTokens)
        .set({ revokedAt: now })
        .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)));
    },

    async revokeFamilyOf(tokenHash: string, now: Date): Promise<void> {
      await db
        .update(refreshTokens)
        .set({ revokedAt: now })
        .where(
          and(
            isNull(refreshTokens.revokedAt),
            sql`${refreshTokens.familyId} = (select family_id from refresh_tokens where token_hash = ${tokenHash})`,
          ),
        );
    },
  };
}

export type RefreshTokensRepository = ReturnType<typeof createRefreshTokensRepository>;
