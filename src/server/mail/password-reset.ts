import type { ManagerContact } from '../../shared/api';
import { letter, type AddressedLetter, type ShopMail } from './letter';

/** How long a reset link works, as the message says; the reset routes must expire it the same. */
export const PASSWORD_RESET_LINK_HOURS = 1;

/**
 * The message with a password-reset link, ready to queue in the transaction that records the
 * request (services/password-reset.ts). `link` is a path on the storefront (or a whole address on
 * it) carrying the one-time token.
 */
export function passwordResetMail(
  shop: ShopMail,
  { email, link, manager = null }: { email: string; link: string; manager?: ManagerContact | null },
): AddressedLetter {
  return {
    to: email,
    ...letter(shop, {
      subject: 'Восстановление пароля',
      heading: 'Восстановление пароля',
      blocks: [
        { paragraph: `Здравствуйте! Для учётной записи ${email} запрошена смена пароля.` },
        {
          paragraph: `Чтобы задать новый пароль, откройте ссылку ниже в течение ${PASSWORD_RESET_LINK_HOURS} часа. Если вы не запрашивали смену пароля, просто не отвечайте на это письмо: пароль останется прежним.`,
        },
      ],
      link: { path: link, label: 'Задать новый пароль' },
      manager,
    }),
  };
}
