import { Type } from 'typebox';
import { COMPANY_ROLES, LEGAL_ENTITY_KINDS } from '../company';
import { LIMITS, PAGE_SIZE } from '../limits';
import { Defaulted, Id, Nullable } from './common';

const Role = Type.Enum(COMPANY_ROLES, {
  description: 'owner — владелец, purchaser — закупщик, accountant — бухгалтер',
});
const Instant = Type.String({ format: 'date-time' });
const NullableText = Nullable(Type.String());
// Generous caps that only stop abuse: the ИНН, КПП, ОГРН and bank rules (src/shared/requisites.ts)
// are checked by the service, which answers with their own Russian messages.
const CodeInput = (description: string) => Type.String({ maxLength: 100, description });
const OptionalCode = (description: string) => Type.Optional(Nullable(CodeInput(description)));

/** A legal entity's id: a UUID, stable for life (the 1С exchange sends it as the Контрагент's Ид). */
export const LegalEntityId = Type.String({ format: 'uuid' });

export const LegalEntityParams = Type.Object({ id: LegalEntityId });

/** What the owner or the accountant sends to add a legal entity. */
export const LegalEntityBody = Type.Object({
  kind: Type.Enum(LEGAL_ENTITY_KINDS, { description: 'ip — ИП (ИНН из 12 цифр, без КПП), org — организация' }),
  name: Type.String({ minLength: 1, maxLength: LIMITS.companyNameMax, pattern: '\\S' }),
  inn: CodeInput('ИНН: 12 цифр у ИП, 10 — у организации'),
  kpp: OptionalCode('КПП организации; у ИП — null'),
  ogrn: OptionalCode('ОГРН (13 цифр) или ОГРНИП (15 цифр)'),
  address: Type.String({ maxLength: LIMITS.addressMax, description: 'Юридический адрес' }),
  bank_name: Type.Optional(Nullable(Type.String({ maxLength: LIMITS.companyNameMax }))),
  bik: OptionalCode('БИК банка'),
  account: OptionalCode('Расчётный счёт'),
  corr_account: OptionalCode('Корреспондентский счёт'),
});

/** A change of some of its fields; the rules apply to the result. */
export const LegalEntityPatchBody = Type.Partial(LegalEntityBody, { minProperties: 1 });

export const LegalEntitySchema = Type.Object({
  id: LegalEntityId,
  kind: Type.Enum(LEGAL_ENTITY_KINDS),
  name: Type.String(),
  inn: Type.String(),
  kpp: NullableText,
  ogrn: NullableText,
  address: Type.String(),
  bank_name: NullableText,
  bik: NullableText,
  account: NullableText,
  corr_account: NullableText,
  is_default: Type.Boolean({ description: 'Юрлицо компании по умолчанию' }),
  last_used_at: Nullable(Instant, { description: 'Когда на него последний раз оформили заказ' }),
});

export const MemberSchema = Type.Object({
  user_id: Type.Integer(),
  email: Type.String(),
  role: Role,
  name: Nullable(Type.String(), { description: 'Контактное имя из реквизитов сотрудника' }),
});

/** The shop's manager who looks after the company: the buyer's profile and every letter name them. */
export const ManagerContactSchema = Type.Object({
  name: Type.String(),
  email: Type.String(),
  phone: NullableText,
  messenger_url: Nullable(Type.String({ description: 'Ссылка на мессенджер (Telegram, WhatsApp, MAX)' })),
});

/** An invitation not yet accepted (only the owner sees them). */
export const InvitationSchema = Type.Object({
  id: Type.Integer(),
  email: Type.String(),
  role: Role,
  created_at: Instant,
  expires_at: Instant,
});

/** GET /api/v1/company. */
export const CompanySchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  role: Role,
  blocked: Type.Boolean({ description: 'Магазин приостановил оформление заказов для компании' }),
  members: Type.Array(MemberSchema),
  legal_entities: Type.Array(LegalEntitySchema, { description: 'Последнее использованное — первым' }),
  manager: Nullable(ManagerContactSchema),
  invitations: Type.Array(InvitationSchema, { description: 'Ожидающие ответа; видит только владелец' }),
});

/** The company's secret feed address as its owner sees it: whether there is one, never the address itself. */
export const CompanyFeedSchema = Type.Object({
  active: Type.Boolean({ description: 'У компании есть действующий адрес фида' }),
  created_at: Nullable(Instant, { description: 'Когда выдан действующий адрес' }),
});

/** A new secret feed address, shown this once (only its hash is kept). */
export const CompanyFeedIssuedSchema = Type.Object({
  url: Type.String({ description: 'Секретный адрес фида YML с ценами компании и остатками; показывается один раз' }),
  created_at: Instant,
});

export const CompanyRenameBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: LIMITS.companyNameMax, pattern: '\\S' }),
});

export const InvitationBody = Type.Object({
  email: Type.String({ maxLength: 1000 }),
  role: Role,
});

export const InvitationParams = Type.Object({ id: Id });

const InvitationToken = Type.String({ minLength: 1, maxLength: 200 });

export const InvitationTokenBody = Type.Object({ token: InvitationToken });

/** What the invitation page shows before the invitee answers. */
export const InvitationPreviewSchema = Type.Object({
  email: Type.String(),
  role: Role,
  company_name: Type.String(),
  expires_at: Instant,
  account_exists: Type.Boolean({ description: 'У адреса уже есть аккаунт: принять приглашение можно, войдя в него' }),
});

export const InvitationAcceptBody = Type.Object({
  token: InvitationToken,
  password: Type.Optional(
    Type.String({ maxLength: 1000, description: 'Пароль нового аккаунта; без него — с сессией существующего' }),
  ),
  consent: Type.Boolean({
    description: 'Согласие приглашённого на обработку персональных данных (152-ФЗ), обязательно: true',
  }),
});

export const InvitationAcceptedSchema = Type.Object({
  user_id: Type.Integer(),
  email: Type.String(),
  company_id: Type.Integer(),
  role: Role,
});

export const MemberParams = Type.Object({ user_id: Id });

export const MemberPatchBody = Type.Object({ role: Role });

// The back office.

export const AdminCompaniesQuery = Type.Object({
  q: Type.Optional(Type.String({ maxLength: 200, description: 'Часть названия, ИНН или e-mail сотрудника' })),
  mine: Type.Optional(Type.Boolean({ description: 'Только компании, которые ведёт спрашивающий менеджер' })),
  skip: Defaulted(Type.Integer({ minimum: 0, maximum: PAGE_SIZE.skipMax, default: 0 })),
  limit: Defaulted(Type.Integer({ minimum: 1, maximum: PAGE_SIZE.serviceMax, default: PAGE_SIZE.serviceDefault })),
});

const StaffRef = Type.Object({ id: Type.Integer(), name: Type.String(), email: Type.String() });

export const AdminCompanyListItemSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  inns: Type.Array(Type.String(), { description: 'ИНН юрлиц компании' }),
  owner_email: NullableText,
  members_count: Type.Integer(),
  orders_count: Type.Integer(),
  blocked: Type.Boolean(),
  trusted: Type.Boolean(),
  manager: Nullable(StaffRef),
  price_type: Nullable(Type.String({ description: 'Назначенный тип цен; null — по умолчанию' })),
  created_at: Instant,
});

export const AdminCompanyListSchema = Type.Object({
  items: Type.Array(AdminCompanyListItemSchema),
  total: Type.Integer(),
});

export const AdminCompanyParams = Type.Object({ id: Id });

export const AdminCompanySchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  created_at: Instant,
  blocked: Type.Boolean(),
  trusted: Type.Boolean({ description: 'Менеджер отметил компанию как проверенную' }),
  has_paid_order: Type.Boolean({ description: 'У компании есть оплаченный заказ' }),
  manager: Nullable(StaffRef),
  price_type: Nullable(Type.Object({ id: Type.Integer(), name: Type.String() }), {
    description: 'Назначенный тип цен; null — тип цен по умолчанию',
  }),
  members: Type.Array(MemberSchema),
  legal_entities: Type.Array(
    Type.Object({
      ...LegalEntitySchema.properties,
      same_inn_kpp: Type.Array(Type.Object({ company_id: Type.Integer(), company_name: Type.String() }), {
        description: 'Другие компании с юрлицом того же ИНН и КПП (предупреждение менеджеру)',
      }),
    }),
  ),
  invitations: Type.Array(InvitationSchema),
  orders: Type.Array(
    Type.Object({
      id: Type.Integer(),
      created_at: Instant,
      status: Type.String(),
      total_price: Type.Number(),
      placed_by: NullableText,
      legal_entity: NullableText,
    }),
    { description: 'Последние 50 заказов компании' },
  ),
  audit: Type.Array(
    Type.Object({
      at: Instant,
      action: Type.String(),
      by: NullableText,
      details: Type.Unknown(),
    }),
    { description: 'Последние 100 изменений компании' },
  ),
});

export const AdminCompanyPatchBody = Type.Object(
  {
    name: Type.Optional(CompanyRenameBody.properties.name),
    blocked: Type.Optional(Type.Boolean({ description: 'true — сотрудники не могут оформлять заказы' })),
    manager_id: Type.Optional(Nullable(Id, { description: 'Персональный менеджер; null — снять' })),
    trusted: Type.Optional(Type.Boolean({ description: 'Проверенная компания: без ограничений непроверенных' })),
    price_type_id: Type.Optional(Nullable(Id, { description: 'Тип цен компании; null — тип по умолчанию' })),
  },
  { minProperties: 1 },
);

export const AdminCompanyMergeBody = Type.Object({
  from_company_id: Id,
});

/** A manager as the buyers see them (name, phone, e-mail, messenger), edited in the back office. */
export const StaffProfileSchema = Type.Object({
  id: Type.Integer(),
  email: Type.String({ description: 'Адрес входа' }),
  name: Type.String(),
  contact_email: NullableText,
  phone: NullableText,
  messenger_url: NullableText,
  companies_count: Type.Integer({ description: 'Компаний, которые он ведёт' }),
});

export const StaffProfileBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: LIMITS.nameMax, pattern: '\\S' })),
    contact_email: Type.Optional(Nullable(Type.String({ maxLength: LIMITS.emailMax }))),
    phone: Type.Optional(Nullable(Type.String({ maxLength: LIMITS.phoneMax }))),
    messenger_url: Type.Optional(Nullable(Type.String({ maxLength: 500, format: 'uri' }))),
  },
  { minProperties: 1 },
);

export const StaffParams = Type.Object({ id: Id });
