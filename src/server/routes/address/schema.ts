import { Type } from 'typebox';
import { AddressBody, AddressSchema } from '../../../shared/schemas/address';
import { DetailSchema, Id } from '../../../shared/schemas/common';
import { bearer, errors } from '../common-schemas';

export const createAddress = {
  tags: ['address'],
  summary: 'Добавить адрес; 409, когда сохранено уже сколько можно (MAX_ADDRESSES)',
  security: bearer,
  body: AddressBody,
  response: { 201: AddressSchema, ...errors(401, 403, 409, 422) },
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
  response: { 200: DetailSchema, ...errors(401, 404, 422) },
};
