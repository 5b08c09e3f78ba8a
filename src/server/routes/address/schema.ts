import { Type } from 'typebox';
import { bearer, errors, Id, Nullable } from '../common-schemas';

const Text = Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' });

const AddressFields = {
  country: Text,
  city: Text,
  street: Text,
  // Like the other required fields, it must hold something besides spaces.
  home_number: Type.String({ minLength: 1, maxLength: 50, pattern: '\\S' }),
  apartment_number: Type.Optional(Nullable(Type.String({ maxLength: 50 }))),
};

const AddressSchema = Type.Object({
  id: Type.Integer(),
  country: Type.String(),
  city: Type.String(),
  street: Type.String(),
  home_number: Type.String(),
  apartment_number: Nullable(Type.String()),
  user_id: Type.Integer(),
});

const AddressBody = Type.Object({ ...AddressFields, user_id: Id });

export const createAddress = {
  tags: ['address'],
  summary: 'Добавить адрес',
  security: bearer,
  body: AddressBody,
  response: { 201: AddressSchema, ...errors(401, 403, 422) },
};

export const listAddresses = {
  tags: ['address'],
  summary: 'Адреса пользователя',
  security: bearer,
  params: Type.Object({ user_id: Id }),
  response: { 200: Type.Array(AddressSchema), ...errors(401, 403, 422) },
};

export const updateAddress = {
  tags: ['address'],
  summary: 'Изменить адрес',
  security: bearer,
  params: Type.Object({ id: Id }),
  body: AddressBody,
  response: { 200: AddressSchema, ...errors(401, 403, 404, 422) },
};

export const deleteAddress = {
  tags: ['address'],
  summary: 'Удалить адрес',
  security: bearer,
  params: Type.Object({ id: Id }),
  response: { 200: Type.Object({ detail: Type.String() }), ...errors(401, 404, 422) },
};
