import { Type } from 'typebox';
import { bearer, errors } from '../common-schemas';

// Generous caps that only stop abuse; the real rules (SPEC §5, password length) are checked by
// the handler so that it can answer with the storefront's own Russian messages.
const EmailInput = Type.String({ maxLength: 1000 });
const PasswordInput = Type.String({ maxLength: 1000 });

const TokenSchema = Type.Object({ access_token: Type.String(), token_type: Type.Literal('bearer') });
export const UserSchema = Type.Object({ id: Type.Integer(), email: Type.String() });

export const login = {
  tags: ['auth'],
  summary: 'Вход: form-urlencoded username (email) и password; ставит cookie обновления',
  consumes: ['application/x-www-form-urlencoded', 'application/json'],
  body: Type.Object({ username: EmailInput, password: PasswordInput }),
  response: { 200: TokenSchema, ...errors(401, 422, 429) },
};

export const register = {
  tags: ['auth'],
  summary: 'Регистрация: email и password в параметрах запроса или в JSON',
  querystring: Type.Object({ email: Type.Optional(EmailInput), password: Type.Optional(PasswordInput) }),
  body: Type.Optional(Type.Object({ email: Type.Optional(EmailInput), password: Type.Optional(PasswordInput) })),
  response: { 201: UserSchema, ...errors(409, 422, 429) },
};

export const currentUser = {
  tags: ['auth'],
  summary: 'Текущий пользователь',
  security: bearer,
  response: { 200: UserSchema, ...errors(401) },
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
