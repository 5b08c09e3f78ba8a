import { and, eq, isNull, sql } from 'drizzle-orm';
import type { ManagerContact } from '../../shared/api';
import type { Queryable } from '../db/database';
import { managerContactOf } from './companies';
import { emailConfirmationTokens, users } from '../db/schema';
import { liveToken } from './one-time-tokens';
import type { StoredLink } from './password-resets';

export function createEmailConfirmationsRepository(db: Queryable) {
  return {
    /** The account's address, whether it is confirmed, and its company's manager; null for an unknown account. */
    async findAddress(
      userId: number,
    ): Promise<{ email: string; confirmed: boolean; manager: ManagerContact | null } | null> {
      const [account] = await db
        .select({
          email: users.email,
          confirmed: sql<boolean>`${users.emailConfirmedAt} is not null`,
          manager: managerContactOf(sql`${users}.company_id`),
        })
        .from(users)
        .where(eq(users.id, userId));
      return account ?? null;
    },

    async recordLink(userId: number, link: StoredLink): Promise<void> {
      await db.insert(emailConfirmationTokens).values({ userId, tokenHash: link.tokenHash, expiresAt: link.expiresAt });
    },

    /**
     * Spends a live token (one atomic update: of two tabs opening the same link, one wins), confirms
     * its account's address and retires the account's other links. False for a used, expired or
     * unknown token.
     */
    confirm(tokenHash: string, now: Date): Promise<boolean> {
      return db.transaction(async (tx) => {
        const [spent] = await tx
          .update(emailConfirmationTokens)
          .set({ usedAt: now })
          .where(liveToken(emailConfirmationTokens, tokenHash, now))
          .returning({ userId: emailConfirmationTokens.userId });
        if (!spent) return false;
        await tx
          .update(users)
          .set({ emailConfirmedAt: sql`coalesce(${users.emailConfirmedAt}, ${now})` })
          .where(eq(users.id, spent.userId));
        await tx
          .update(emailConfirmationTokens)
          .set({ usedAt: now })
          .where(and(eq(emailConfirmationTokens.userId, spent.userId), isNull(emailConfirmationTokens.usedAt)));
        return true;
      });
    },
  };
}

export type EmailConfirmationsRepository = ReturnType<typeof createEmailConfirmationsRepository>;
