import { EMAIL_CONFIRMATION_LINK_HOURS, EMAIL_CONFIRMATION_TOKEN_PARAM } from '../../shared/account';
import { PAGE_PATHS } from '../../shared/paths';
import type { ConfirmationSent, EmailConfirmationsRepository } from '../repositories/email-confirmations';
import { newRandomToken } from './tokens';

/**
 * Sends the account a new confirmation link (`/confirm-email?token=…`, valid for
 * EMAIL_CONFIRMATION_LINK_HOURS), at sign-up and when the buyer asks for the letter again.
 */
export function sendConfirmationLetter(
  confirmations: EmailConfirmationsRepository,
  userId: number,
): Promise<ConfirmationSent> {
  const { token, hash } = newRandomToken();
  return confirmations.send(userId, {
    tokenHash: hash,
    expiresAt: new Date(Date.now() + EMAIL_CONFIRMATION_LINK_HOURS * 60 * 60 * 1000),
    link: `${PAGE_PATHS.confirmEmail}?${new URLSearchParams({ [EMAIL_CONFIRMATION_TOKEN_PARAM]: token })}`,
  });
}
