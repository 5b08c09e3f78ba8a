import { eq, sql } from 'drizzle-orm';
import type { ManagerContact } from '../../shared/api';
import type { Queryable } from '../db/database';
import { passwordResetTokens, users } from '../db/schema';
import { managerContactOf } from './companies';
import { liveToken } from './one-time-tokens';
import { createUsersRepository } from './users';

/** A one-time link about to be sent (a password reset's, an address confirmation's): the stored hash of its token and when it expires. */
export interface StoredLink {
  tokenHash: string;
  expiresAt: Date;
}

export function createPasswordResetsRepository(db: Queryable) {
  return {
    /** Records the link for the account with this e-mail; false when no account has it. */
    async record(email: string, link: StoredLink): Promise<{ manager: ManagerContact | null } | null> {
      const [account] = await db
        .select({ id: users.id, manager: managerContactOf(sql`${users}.company_id`) })
        .from(users)
        .where(eq(users.email, email));
      if (!account) return null;
      await db
        .insert(passwordResetTokens)
        .values({ userId: account.id, tokenHash: link.tokenHash, expiresAt: link.expiresAt });
      return { manager: account.manager };
    },

    /**
     * The account a live (unused, unexpired) token resets, or null: the new password is checked
     * against its e-mail, and the device cookie the reset sets names its id.
     */
    async findLiveAccount(tokenHash: string, now: Date): Promise<{ id: number; email: string } | null> {
      const [row] = await db
        .select({ id: users.id, email: users.email })
        .from(passwordResetTokens)
        .innerJoin(users, eq(users.id, passwordResetTokens.userId))
        .where(liveToken(passwordResetTokens, tokenHash, now));
      return row ?? null;
    },

    /**
     * Spends a live token (one atomic update: of two tabs sending the same link, one wins) and sets
     * the new password, which retires the account's other links and which ends every session of the account
     * (refresh tokens revoked, access tokens refused): returns the sessions revoked. Null for a
     * used, expired or unknown token.
     */
    async resetPassword(tokenHash: string, passwordHash: string, now: Date): Promise<string[] | null> {
      return db.transaction(async (tx) => {
        const [spent] = await tx
          .update(passwordResetTokens)
          .set({ usedAt: now })
          .where(liveToken(passwordResetTokens, tokenHash, now))
          .returning({ userId: passwordResetTokens.userId });
        if (!spent) return null;
        // Also retires the account's other links: a new password, however set, outdates them.
        return createUsersRepository(tx).setPassword(spent.userId, passwordHash, now);
      });
    },
  };
}
