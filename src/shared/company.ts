// The buyer's company (контрагент): its employees' roles, what each role may do, its legal
// entities' kinds, and the sentences the server sends and the storefront shows about them.

/** Every account of a buyer belongs to one company, in one of these roles. */
export const COMPANY_ROLES = ['owner', 'purchaser', 'accountant'] as const;
export type CompanyRole = (typeof COMPANY_ROLES)[number];

export const COMPANY_ROLE_LABELS: Record<CompanyRole, string> = {
  owner: 'Владелец',
  purchaser: 'Закупщик',
  accountant: 'Бухгалтер',
};

/** What a role is for, as the invitation form and the letter explain it. */
export const COMPANY_ROLE_DESCRIPTIONS: Record<CompanyRole, string> = {
  owner: 'всё, включая сотрудников и юрлица компании',
  purchaser: 'корзина, заказы для компании, история заказов компании',
  accountant: 'заказы, счета и документы компании; без оформления заказов',
};

/** The owner and the purchasers order for the company; the accountant reads and downloads only. */
export const mayOrder = (role: CompanyRole): boolean => role !== 'accountant';

/** Only an owner invites, changes roles and removes employees. */
export const mayManageMembers = (role: CompanyRole): boolean => role === 'owner';

/** The owner and the accountant keep the company's legal entities (the accountant knows the bank details). */
export const mayEditLegalEntities = (role: CompanyRole): boolean => role !== 'purchaser';

/** An ИП (12-digit ИНН, no КПП) or an organisation (10-digit ИНН and a КПП). */
export const LEGAL_ENTITY_KINDS = ['ip', 'org'] as const;
export type LegalEntityKind = (typeof LEGAL_ENTITY_KINDS)[number];

export const LEGAL_ENTITY_KIND_LABELS: Record<LegalEntityKind, string> = {
  ip: 'ИП',
  org: 'Организация',
};

/** The ИНН's length each kind has. */
export const INN_LENGTH_OF_KIND: Record<LegalEntityKind, number> = { ip: 12, org: 10 };

/** How long an invitation's link works. */
export const INVITATION_TTL_DAYS = 7;

export const COMPANY_MESSAGES = {
  notOwner: 'Управлять сотрудниками компании может только её владелец.',
  accountantCannotOrder: 'Бухгалтер компании не оформляет заказы: это делают владелец и закупщики.',
  legalEntitiesReadOnly: 'Юрлица компании меняют владелец и бухгалтер.',
  companyBlocked:
    'Оформление заказов для вашей компании приостановлено магазином. История заказов и счета доступны; свяжитесь с вашим менеджером.',
  memberNotFound: 'Сотрудник не найден',
  legalEntityNotFound: 'Юрлицо не найдено',
  invitationNotFound: 'Приглашение не найдено',
  invitationGone: 'Приглашение уже использовано, отозвано или истекло. Попросите владельца компании прислать новое.',
  alreadyMember: 'Этот адрес уже принадлежит сотруднику вашей компании.',
  otherCompanyEmployee:
    'Этот адрес принадлежит сотруднику другой компании. Пригласить его можно через менеджера магазина.',
  ownOrdersNeedMerge:
    'У вашего аккаунта уже есть заказы своей компании. Чтобы перейти в компанию вместе с ними, обратитесь к менеджеру магазина: он объединит компании.',
  wrongAccount: 'Приглашение отправлено на другой адрес. Войдите под адресом из письма или выйдите из аккаунта.',
  accountExists: 'Аккаунт с этим адресом уже есть: войдите в него и примите приглашение.',
  passwordNeeded: 'Придумайте пароль для нового аккаунта.',
  lastOwner: 'В компании должен остаться владелец: сначала назначьте владельцем другого сотрудника.',
  ownerDeletionRefused:
    'Вы — единственный владелец компании, в которой есть другие сотрудники. Назначьте владельцем другого сотрудника или удалите сотрудников, затем удалите аккаунт.',
  innKindMismatch: 'У ИП ИНН из 12 цифр, у организации — из 10 цифр.',
  kppRequired: 'Укажите КПП организации.',
  kppForIp: 'У ИП нет КПП.',
  bikNeeded: 'Укажите БИК банка: по нему проверяются счета.',
  legalEntitiesLimit: (max: number) => `У компании может быть не больше ${max} юрлиц.`,
  legalEntityDuplicate: 'Юрлицо с таким ИНН и КПП уже есть в компании.',
  legalEntityNeeded: 'Выберите юрлицо, на которое оформить заказ.',
  mergeSameCompany: 'Нельзя объединить компанию саму с собой.',
  companyNotFound: 'Компания не найдена',
  managerNotFound: 'Менеджер не найден',
} as const;
