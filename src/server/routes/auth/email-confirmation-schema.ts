import { Type } from 'typebox';
import { EmailConfirmBody, PasswordResetRequestedSchema } from '../../../shared/schemas/auth';
import { bearer, errors } from '../common-schemas';

export const resendConfirmation = {
  tags: ['auth'],
  summary: 'Письмо со ссылкой для подтверждения адреса почты, ещё раз',
  description:
    'Ссылка /confirm-email?token=… одноразовая и действует 24 часа. Адрес уже подтверждён — 409 {detail}. ' +
    'Вместе с письмами сброса пароля: не больше 5 писем в час на адрес с одного клиента и 20 в сутки на адрес со всех, ' +
    'и не чаще, чем позволяет лимит клиента (429).',
  security: bearer,
  response: { 202: PasswordResetRequestedSchema, ...errors(401, 409, 429) },
};

export const confirmEmail = {
  tags: ['auth'],
  summary: 'Подтверждение адреса почты по ссылке из письма (вход не нужен)',
  description:
    'Использованная, просроченная или неизвестная ссылка — 400 {detail}. Пока адрес не подтверждён, ' +
    'заказ не принимается (403), если магазин этого требует (REQUIRE_EMAIL_CONFIRMATION).',
  body: EmailConfirmBody,
  response: { 204: Type.Null(), ...errors(400, 429) },
};
