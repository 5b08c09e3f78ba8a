import { Type } from 'typebox';
import { LoginBody, RegisterFields, TokenSchema, UserSchema } from '../../../shared/schemas/auth';
import { bearer, errors } from '../common-schemas';

export const login = {
  tags: ['auth'],
  summary: 'Вход: form-urlencoded username (email) и password; ставит cookie обновления',
  consumes: ['application/x-www-form-urlencoded', 'application/json'],
  body: LoginBody,
  response: { 200: TokenSchema, ...errors(401, 422, 429) },
};

export const register = {
  tags: ['auth'],
  summary: 'Регистрация: email и password в параметрах запроса или в JSON',
  querystring: RegisterFields,
  body: Type.Optional(RegisterFields),
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
