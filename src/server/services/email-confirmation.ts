import { EMAIL_CONFIRMATION_LINK_HOURS, EMAIL_CONFIRMATION_TOKEN_PARAM } from '../../shared/account';
import { PAGE_PATHS } from '../../shared/paths';
import type { Database } from '../db/database';
import { emailConfirmationMail } from '../mail/email-confirmation';
import type { ShopMail } from '../mail/letter';
import { createEmailConfirmationsRepository } from '../repositories/email-confirmations';
import { createOutboxRepository } from '../repositories/outbox';
import { newRandomToken } from './tokens';

/** What sending a confirmation letter came to. */
export type ConfirmationSent = 'sent' | 'already-confirmed' | 'no-account';

export function createEmailConfirmationService(db: Database, shop: ShopMail) {
  return {
    /**
     * Sends the account a new confirmation link (`/confirm-email?token=…`, valid for
     * EMAIL_CONFIRMATION_LINK_HOURS), at sign-up and when the buyer asks for the letter again: the
     * link is recorded and its letter queued in one transaction (both or neither), unless the
     * address is confirmed already.
     */
    send(userId: number): Promise<ConfirmationSent> {
      const { token, hash } = newRandomToken();
      const link = `${PAGE_PATHS.confirmEmail}?${new URLSearchParams({ [EMAIL_CONFIRMATION_TOKEN_PARAM]: token })}`;
      return db.transaction(async (tx) => {
        const confirmations = createEmailConfirmationsRepository(tx);
        const account = await confirmations.findAddress(userId);
        if (!account) return 'no-account';
        if (account.confirmed) return 'already-confirmed';
        await confirmations.recordLink(userId, {
          tokenHash: hash,
          expiresAt: new Date(Date.now() + EMAIL_CONFIRMATION_LINK_HOURS * 60 * 60 * 1000),
        });
        await createOutboxRepository(tx).queue(
          emailConfirmationMail(shop, { email: account.email, link, manager: account.manager }),
        );
        return 'sent';
      });
    },
  };
}

export type EmailConfirmationService = ReturnType<typeof createEmailConfirmationService>;
