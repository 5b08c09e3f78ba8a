import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Database } from '../db/database';
import { emailConfirmationTokens, users } from '../db/schema';
import type { ShopMail } from '../mail/letter';
import { emailConfirmationMail } from '../mail/email-confirmation';
import { liveToken } from './one-time-tokens';
import { queueMail } from './outbox';
import type { ResetLink as EmailedLink } from './password-resets';

/** What sending a confirmation letter came to. */
export type ConfirmationSent = 'sent' | 'already-confirmed' | 'no-account';

export function createEmailConfirmationsRepository(db: Database, shop: ShopMail) {
  return {
    /**
     * Records the link for the account and queues its letter in the same transaction (both or
     * neither), unless the address is confirmed already.
     */
    send(userId: number, link: EmailedLink): Promise<ConfirmationSent> {
      return db.transaction(async (tx) => {
        const [account] = await tx
          .select({ email: users.email, confirmed: sql<boolean>`${users.emailConfirmedAt} is not null` })
          .from(users)
          .where(eq(users.id, userId));
        if (!account) return 'no-account';
        if (account.confirmed) return 'already-confirmed';
        await tx
          .insert(emailConfirmationTokens)
          .values({ userId, tokenHash: link.tokenHash, expiresAt: link.expiresAt });
        await queueMail(tx, emailConfirmationMail(shop, { email: account.email, link: link.link }));
        return 'sent';
      });
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
