import type { ManagerContact } from '../../shared/api';
import {
  COMPANY_ROLE_DESCRIPTIONS,
  COMPANY_ROLE_LABELS,
  INVITATION_TTL_DAYS,
  type CompanyRole,
} from '../../shared/company';
import { pluralForm } from '../../shared/plurals';
import { letter, oneLine, type AddressedLetter, type ShopMail } from './letter';

/**
 * The owner's invitation to join the company, queued with the invitation. `link` is the invitation
 * page with the token in its fragment.
 */
export function companyInvitationMail(
  shop: ShopMail,
  invitation: {
    email: string;
    role: CompanyRole;
    companyName: string;
    inviter: string;
    link: string;
    manager: ManagerContact | null;
  },
): AddressedLetter {
  // The company's name is typed by its owner: one line, so that it cannot forge lines of the text part.
  const companyName = oneLine(invitation.companyName)!;
  const days = `${INVITATION_TTL_DAYS} ${pluralForm(INVITATION_TTL_DAYS, { one: 'день', few: 'дня', many: 'дней' })}`;
  return {
    to: invitation.email,
    ...letter(shop, {
      subject: `Приглашение в компанию «${companyName}»`,
      heading: `Вас приглашают в компанию «${companyName}»`,
      blocks: [
        {
          paragraph: `${invitation.inviter} приглашает вас работать с оптовым магазином от имени компании «${companyName}».`,
        },
        {
          facts: [
            ['Роль', `${COMPANY_ROLE_LABELS[invitation.role]} — ${COMPANY_ROLE_DESCRIPTIONS[invitation.role]}`],
            ['Адрес', invitation.email],
          ],
        },
        {
          paragraph: `Ссылка действует ${days}. Если вы не ждали этого письма, просто не отвечайте на него.`,
        },
      ],
      link: { path: invitation.link, label: 'Принять приглашение' },
      manager: invitation.manager,
    }),
  };
}
