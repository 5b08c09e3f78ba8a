import { Type } from 'typebox';
import {
  CompanyFeedIssuedSchema,
  CompanyFeedSchema,
  CompanyRenameBody,
  CompanySchema,
  InvitationAcceptBody,
  InvitationAcceptedSchema,
  InvitationBody,
  InvitationParams,
  InvitationPreviewSchema,
  InvitationSchema,
  InvitationTokenBody,
  LegalEntityBody,
  LegalEntityParams,
  LegalEntityPatchBody,
  LegalEntitySchema,
  MemberParams,
  MemberPatchBody,
} from '../../../shared/schemas/company';
import { bearer, errors } from '../common-schemas';

const tags = ['company'];

export const getCompany = {
  tags,
  summary: 'Компания пользователя: его роль, сотрудники, юрлица, персональный менеджер',
  security: bearer,
  response: { 200: CompanySchema, ...errors(401) },
};

export const renameCompany = {
  tags,
  summary: 'Переименовать компанию (владелец)',
  security: bearer,
  body: CompanyRenameBody,
  response: { 200: CompanySchema, ...errors(401, 403, 422) },
};

export const invite = {
  tags,
  summary: 'Пригласить сотрудника по e-mail (владелец): письмо со ссылкой на 7 дней',
  description:
    'Ссылка ведёт на /invite#<токен>: токен во фрагменте не попадает ни в журналы, ни в Referer; хранится только его хеш. ' +
    'Новое приглашение на тот же адрес отзывает прежнее. 409 — адрес уже у сотрудника этой компании или ' +
    'у сотрудника другой компании, где есть и другие сотрудники.',
  security: bearer,
  body: InvitationBody,
  response: { 201: InvitationSchema, ...errors(401, 403, 409, 422, 429) },
};

export const revokeInvitation = {
  tags,
  summary: 'Отозвать приглашение (владелец)',
  security: bearer,
  params: InvitationParams,
  response: { 204: Type.Null(), ...errors(401, 403, 404, 422) },
};

export const previewInvitation = {
  tags,
  summary: 'Что за приглашение: компания, роль, адрес и срок (без входа)',
  body: InvitationTokenBody,
  response: { 200: InvitationPreviewSchema, ...errors(403, 404, 410, 422, 429) },
};

export const acceptInvitation = {
  tags,
  summary: 'Принять приглашение: новый аккаунт (с паролем) или существующий (с его сессией)',
  description:
    'Без сессии и с паролем — создаётся аккаунт приглашённого адреса в компании. С сессией аккаунта того же ' +
    'адреса — он переходит в компанию; его компания из одного человека без заказов распускается в неё вместе с ' +
    'адресами и юрлицами (с заказами — 409: объединяет менеджер). Адрес считается подтверждённым, согласие на ' +
    'обработку персональных данных записывается от имени приглашённого (consent: true обязательно). ' +
    '410 — приглашение использовано, отозвано или истекло.',
  body: InvitationAcceptBody,
  response: { 200: InvitationAcceptedSchema, ...errors(401, 403, 404, 409, 410, 422, 429) },
};

export const changeRole = {
  tags,
  summary: 'Сменить роль сотрудника (владелец); у компании всегда остаётся владелец',
  security: bearer,
  params: MemberParams,
  body: MemberPatchBody,
  response: { 200: CompanySchema, ...errors(401, 403, 404, 409, 422) },
};

export const removeMember = {
  tags,
  summary: 'Удалить сотрудника из компании (владелец): его сессии завершаются сразу, заказы остаются компании',
  description:
    'Аккаунт сотрудника остаётся — как компания из одного человека; войти в компанию снова можно по новому приглашению.',
  security: bearer,
  params: MemberParams,
  response: { 200: CompanySchema, ...errors(401, 403, 404, 409, 422) },
};

export const listLegalEntities = {
  tags,
  summary: 'Юрлица компании, последнее использованное — первым',
  security: bearer,
  response: { 200: Type.Array(LegalEntitySchema), ...errors(401) },
};

export const addLegalEntity = {
  tags,
  summary: 'Добавить юрлицо (владелец и бухгалтер)',
  description:
    'ИП — ИНН из 12 цифр и без КПП, организация — ИНН из 10 цифр и КПП; контрольные числа ИНН, ОГРН и счетов ' +
    'проверяются (422 {detail}). Не больше MAX_LEGAL_ENTITIES и не два с одним ИНН и КПП (409).',
  security: bearer,
  body: LegalEntityBody,
  response: { 201: LegalEntitySchema, ...errors(401, 403, 409, 422) },
};

export const updateLegalEntity = {
  tags,
  summary: 'Изменить юрлицо (владелец и бухгалтер)',
  security: bearer,
  params: LegalEntityParams,
  body: LegalEntityPatchBody,
  response: { 200: LegalEntitySchema, ...errors(401, 403, 404, 409, 422) },
};

export const deleteLegalEntity = {
  tags,
  summary: 'Удалить юрлицо из списков компании (владелец и бухгалтер); заказы на него остаются',
  security: bearer,
  params: LegalEntityParams,
  response: { 204: Type.Null(), ...errors(401, 403, 404, 422) },
};

export const getFeed = {
  tags,
  summary: 'Есть ли у компании секретный адрес фида товаров (владелец)',
  security: bearer,
  response: { 200: CompanyFeedSchema, ...errors(401, 403) },
};

export const issueFeed = {
  tags,
  summary: 'Выдать или заменить секретный адрес фида товаров в YML (владелец)',
  description:
    'Фид по адресу — товары витрины с ценами типа цен компании, рекомендованной розничной ценой и остатками. ' +
    'Адрес показывается один раз: хранится только хеш токена. Новый адрес заменяет прежний, прежний перестаёт работать сразу.',
  security: bearer,
  response: { 201: CompanyFeedIssuedSchema, ...errors(401, 403) },
};

export const revokeFeed = {
  tags,
  summary: 'Отключить секретный адрес фида товаров (владелец)',
  security: bearer,
  response: { 204: Type.Null(), ...errors(401, 403) },
};
