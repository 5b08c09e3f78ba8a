import { Type } from 'typebox';
import {
  AccountDeleteBody,
  AccountExportSchema,
  CurrentUserSchema,
  LoginBody,
  PasswordChangeBody,
  PasswordResetConfirmBody,
  PasswordResetRequestBody,
  PasswordResetRequestedSchema,
  RegisterFields,
  TokenSchema,
  UserSchema,
} from '../../../shared/schemas/auth';
import { LIMITS } from '../../../shared/limits';
import { bearer, errors } from '../common-schemas';

const NEW_PASSWORD_RULES =
  `Новый пароль: от ${LIMITS.passwordMin} до ${LIMITS.passwordMax} символов, не из самых распространённых ` +
  '(в любом регистре и раскладке) и не совпадает с email или его частью до «@»; иначе 422 {detail} с причиной.';
const THROTTLED =
  '429 с Retry-After: слишком много попыток с этого адреса, или неверных паролей к этому аккаунту: ' +
  'отдельно для каждого устройства с cookie устройства этого аккаунта (её ставят вход, сброс пароля ' +
  'и обновление токена) и одним счётом для всех клиентов без неё.';
const SAME_ORIGIN =
  '403 {detail}, если запрос пришёл с чужого сайта (заголовок Origin не магазина и не из ALLOWED_ORIGINS).';

export const login = {
  tags: ['auth'],
  summary: 'Вход: form-urlencoded username (email) и password; ставит cookie обновления',
  description: `${THROTTLED} ${SAME_ORIGIN}`,
  consumes: ['application/x-www-form-urlencoded', 'application/json'],
  body: LoginBody,
  response: { 200: TokenSchema, ...errors(401, 403, 422, 429) },
};

export const register = {
  tags: ['auth'],
  summary: 'Регистрация: email, password и consent=true в параметрах запроса или в JSON',
  description:
    'consent=true — согласие на обработку персональных данных (152-ФЗ, политика: /privacy), обязательно: ' +
    `без него или с false — 422 {detail}. Момент согласия сохраняется. ${NEW_PASSWORD_RULES} ${SAME_ORIGIN}`,
  querystring: RegisterFields,
  body: Type.Optional(RegisterFields),
  response: { 201: UserSchema, ...errors(403, 409, 422, 429) },
};

export const currentUser = {
  tags: ['auth'],
  summary: 'Текущий пользователь: подтверждён ли адрес почты, проверен ли покупатель и его лимиты заказа',
  security: bearer,
  response: { 200: CurrentUserSchema, ...errors(401) },
};

export const refresh = {
  tags: ['auth'],
  summary: 'Новый токен доступа по cookie обновления (cookie меняется при каждом вызове)',
  response: { 200: TokenSchema, ...errors(401, 403) },
};

export const logout = {
  tags: ['auth'],
  summary: 'Выход: отзывает cookie обновления',
  response: { 204: Type.Null(), ...errors(403) },
};

export const changePassword = {
  tags: ['auth'],
  summary: 'Смена пароля: текущий и новый; остальные сессии аккаунта завершаются, текущая остаётся',
  description:
    'Неверный текущий пароль — 400 {detail}. Токены доступа, выданные до смены, больше не принимаются; ' +
    'сессия, чья cookie обновления пришла с запросом, получает новый токен через /auth/refresh. ' +
    `${NEW_PASSWORD_RULES} ${THROTTLED}`,
  security: bearer,
  body: PasswordChangeBody,
  response: { 204: Type.Null(), ...errors(400, 401, 422, 429) },
};

export const exportAccount = {
  tags: ['auth'],
  summary: 'Мои данные (152-ФЗ): аккаунт, реквизиты, адреса, корзина и заказы одним JSON-файлом',
  security: bearer,
  response: { 200: AccountExportSchema, ...errors(401) },
};

export const deleteAccount = {
  tags: ['auth'],
  summary: 'Удаление аккаунта с подтверждением паролем',
  description:
    'Удаляются аккаунт, его сессии, корзина и контакты; e-mail можно зарегистрировать снова. ' +
    'Единственный сотрудник компании удаляет и её: адреса, юрлица и приглашения; заказы остаются для ' +
    'бухгалтерского учёта, их персональные поля заменяются на «удалено». У компании с другими сотрудниками ' +
    'заказы остаются её, из них стираются имя и телефон удалившегося. Единственному владельцу компании с ' +
    'другими сотрудниками — 409 {detail}: сначала назначьте владельцем другого. Неверный пароль — 400 {detail}.',
  security: bearer,
  body: AccountDeleteBody,
  response: { 204: Type.Null(), ...errors(400, 401, 409, 422, 429) },
};

export const requestPasswordReset = {
  tags: ['auth'],
  summary: 'Сброс пароля: письмо со ссылкой на адрес аккаунта',
  description:
    'Ответ всегда 202 с одним и тем же текстом и примерно за одно время, есть ли у адреса аккаунт или нет. ' +
    'Ссылка /reset-password?token=… одноразовая и действует 1 час. Писем на адрес не больше 5 в час с одного ' +
    'клиента и 20 в сутки со всех (кроме запросов с cookie устройства аккаунта): сверх них ответ тот же 202, ' +
    `но письмо не отправляется. 429 — только при слишком многих запросах с этого клиента. ${SAME_ORIGIN}`,
  body: PasswordResetRequestBody,
  response: { 202: PasswordResetRequestedSchema, ...errors(403, 422, 429) },
};

export const confirmPasswordReset = {
  tags: ['auth'],
  summary: 'Новый пароль по ссылке из письма; все сессии аккаунта завершаются',
  description:
    'Использованная, просроченная или неизвестная ссылка — 400 «Ссылка для сброса пароля недействительна или устарела.». ' +
    'После смены все cookie обновления отозваны, выданные токены доступа больше не принимаются; ' +
    `ставится cookie устройства, с которой вход проходит и во время подбора пароля. ${NEW_PASSWORD_RULES} ${SAME_ORIGIN}`,
  body: PasswordResetConfirmBody,
  response: { 204: Type.Null(), ...errors(400, 403, 422, 429) },
};
