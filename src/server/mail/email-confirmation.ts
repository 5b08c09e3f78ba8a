import type { ManagerContact } from '../../shared/api';
import { EMAIL_CONFIRMATION_LINK_HOURS } from '../../shared/account';
import { letter, type AddressedLetter, type ShopMail } from './letter';

/**
 * The message with the link that confirms a buyer's address (REQUIRE_EMAIL_CONFIRMATION), queued
 * in the transaction that records the link, as the password reset's is. `link` is a path on the
 * storefront carrying the one-time token.
 */
export function emailConfirmationMail(
  shop: ShopMail,
  { email, link, manager = null }: { email: string; link: string; manager?: ManagerContact | null },
): AddressedLetter {
  return {
    to: email,
    ...letter(shop, {
      subject: 'Подтвердите адрес почты',
      heading: 'Подтвердите адрес почты',
      blocks: [
        { paragraph: `Здравствуйте! Этот адрес указан при регистрации в магазине: ${email}.` },
        {
          paragraph: `Чтобы оформлять заказы, подтвердите его: откройте ссылку ниже в течение ${EMAIL_CONFIRMATION_LINK_HOURS} часов. Если вы не регистрировались, просто не отвечайте на это письмо.`,
        },
      ],
      link: { path: link, label: 'Подтвердить адрес' },
      manager,
    }),
  };
}
