import { eq } from 'drizzle-orm';
import type { Database } from '../db/database';
import { passwordResetTokens, users } from '../db/schema';
import type { ShopMail } from '../mail/letter';
import { passwordResetMail } from '../mail/password-reset';
import { liveToken } from './one-time-tokens';
import { queueMail } from './outbox';
import { createUsersRepository } from './users';

/** A reset link about to be sent: the stored hash of its token, when it expires, and the link itself. */
export interface ResetLink {
  tokenHash: string;
  expiresAt: Date;
  /** The storefront's path with the token, as the letter links to it. */
  link: string;
}

export function createPasswordResetsRepository(db: Database, shop: ShopMail) {
  return {
    /**
     * Records the link for the account with this e-mail and queues its letter in the same
     * transaction (both or neither); an address without an account gets nothing, silently.
     */
    async request(email: string, reset: ResetLink): Promise<void> {
      await db.transaction(async (tx) => {
        const [account] = await tx.select({ id: users.id }).from(users).where(eq(users.email, email));
        if (!account) return;
        await tx
          .insert(passwordResetTokens)
          .values({ userId: account.id, tokenHash: reset.tokenHash, expiresAt: reset.expiresAt });
        await queueMail(tx, passwordResetMail(shop, { email, link: reset.link }));
      });
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
