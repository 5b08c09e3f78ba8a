import { Type } from 'typebox';
import { USER_ROLES } from '../user-roles';
import { COMPANY_ROLES } from '../company';
import { AddressSchema } from './address';
import { CartSchema } from './cart';
import { CompanySchema } from './company';
import { Nullable } from './common';
import { BuyerOrderSchema } from './order';
import { RequisitesSchema } from './requisites';

// Generous caps that only stop abuse; the real rules (SPEC §5, password length) are checked by
// the handler so that it can answer with the storefront's own Russian messages.
const EmailInput = Type.String({ maxLength: 1000 });
const PasswordInput = Type.String({ maxLength: 1000 });

export const TokenSchema = Type.Object({ access_token: Type.String(), token_type: Type.Literal('bearer') });

export const UserSchema = Type.Object({ id: Type.Integer(), email: Type.String(), role: Type.Enum(USER_ROLES) });

/**
 * GET /api/v1/auth/user: the account and what the shop asks of it before and while ordering, read
 * from the database on each call (a manager's trust or a paid order changes it without a new
 * token). The storefront shows these where quantities are typed; the server still decides.
 */
export const CurrentUserSchema = Type.Object({
  ...UserSchema.properties,
  email_confirmed: Type.Boolean({ description: 'Адрес почты подтверждён по ссылке из письма' }),
  must_confirm_email: Type.Boolean({
    description: 'Заказ не примут, пока адрес не подтверждён (REQUIRE_EMAIL_CONFIRMATION и адрес ещё не подтверждён)',
  }),
  proven: Type.Boolean({ description: 'Есть оплаченный заказ или менеджер отметил покупателя как проверенного' }),
  order_limits: Type.Object({
    line_share_percent: Nullable(Type.Integer(), {
      description:
        'Одна строка заказа — не больше этой доли остатка варианта (округляя вниз, но не меньше 1 шт.); ' +
        'null — в пределах остатка',
    }),
    unproven_pool_percent: Nullable(Type.Integer(), {
      description:
        'Неоплаченные заказы всех покупателей без оплаченных заказов вместе держат не больше этой доли ' +
        'остатка варианта (свободного и уже удержанного ими, см. unproven_held у варианта); null — не ограничено',
    }),
    max_unpaid_orders: Type.Integer({ description: 'Неоплаченных заказов одновременно' }),
  }),
  company: Nullable(
    Type.Object({
      id: Type.Integer(),
      name: Type.String(),
      role: Type.Enum(COMPANY_ROLES),
      blocked: Type.Boolean({ description: 'Магазин приостановил оформление заказов для компании' }),
    }),
    { description: 'Компания покупателя и его роль в ней; null у менеджера магазина' },
  ),
});

/** Sent form-urlencoded by the storefront (SPEC §7), JSON accepted too. */
export const LoginBody = Type.Object({ username: EmailInput, password: PasswordInput });

/** SPEC §7 sends them in the query; a JSON body is accepted too. */
export const RegisterFields = Type.Object({
  email: Type.Optional(EmailInput),
  password: Type.Optional(PasswordInput),
  consent: Type.Optional(
    Type.Boolean({
      description: 'Согласие на обработку персональных данных (152-ФЗ), обязательно: true. Без него — 422 {detail}',
    }),
  ),
});

/** POST /api/v1/auth/password: the buyer's own change of password. */
export const PasswordChangeBody = Type.Object({ current_password: PasswordInput, new_password: PasswordInput });

/** DELETE /api/v1/auth/user: the account's own password confirms its deletion. */
export const AccountDeleteBody = Type.Object({ password: PasswordInput });

/** POST /api/v1/auth/password-reset: the address to send the reset link to. */
export const PasswordResetRequestBody = Type.Object({ email: EmailInput });

/** POST /api/v1/auth/password-reset/confirm: the link's token and the new password. */
export const PasswordResetConfirmBody = Type.Object({
  token: Type.String({ maxLength: 200 }),
  password: PasswordInput,
});

/** The answer to every reset request, the same whether or not the address has an account. */
export const PasswordResetRequestedSchema = Type.Object({ detail: Type.String() });

const Instant = Type.String({ format: 'date-time' });

/** GET /api/v1/auth/user/export: everything the shop keeps about the buyer (152-ФЗ ст. 14). */
export const AccountExportSchema = Type.Object({
  exported_at: Instant,
  account: Type.Object({
    id: Type.Integer(),
    email: Type.String(),
    role: Type.Enum(USER_ROLES),
    created_at: Instant,
    personal_data_consent_at: Nullable(Instant),
  }),
  requisites: RequisitesSchema,
  company: Nullable(CompanySchema, {
    description: 'Компания и то, что сотрудник в ней видит: сотрудники, юрлица, менеджер; null у менеджера магазина',
  }),
  addresses: Type.Array(AddressSchema, { description: 'Адреса доставки компании' }),
  cart: CartSchema,
  orders: Type.Array(BuyerOrderSchema, { description: 'Заказы компании, которые сотрудник видит' }),
});

/** POST /api/v1/auth/email-confirmation/confirm: the token of the confirmation letter's link. */
export const EmailConfirmBody = Type.Object({ token: Type.String({ maxLength: 200 }) });
