import { RESET_TOKEN_PARAM } from '../../shared/account';
import { PAGE_PATHS } from '../../shared/paths';
import type { Database } from '../db/database';
import type { ShopMail } from '../mail/letter';
import { PASSWORD_RESET_LINK_HOURS, passwordResetMail } from '../mail/password-reset';
import { createOutboxRepository } from '../repositories/outbox';
import { createPasswordResetsRepository } from '../repositories/password-resets';
import { newRandomToken } from './tokens';

export function createPasswordResetService(db: Database, shop: ShopMail) {
  return {
    /**
     * Records a new reset link (`/reset-password?token=…`, valid for PASSWORD_RESET_LINK_HOURS) for
     * the account with this e-mail and queues its letter in the same transaction (both or neither);
     * an address without an account gets nothing, silently.
     */
    async request(email: string): Promise<void> {
      const { token, hash } = newRandomToken();
      const link = `${PAGE_PATHS.resetPassword}?${new URLSearchParams({ [RESET_TOKEN_PARAM]: token })}`;
      await db.transaction(async (tx) => {
        const recorded = await createPasswordResetsRepository(tx).record(email, {
          tokenHash: hash,
          expiresAt: new Date(Date.now() + PASSWORD_RESET_LINK_HOURS * 60 * 60 * 1000),
        });
        if (recorded)
          await createOutboxRepository(tx).queue(passwordResetMail(shop, { email, link, manager: recorded.manager }));
      });
    },
  };
}

export type PasswordResetService = ReturnType<typeof createPasswordResetService>;
