import { Type } from 'typebox';
import { LIMITS } from '../limits';
import { Id, Nullable } from './common';

const Text = Type.String({ minLength: 1, maxLength: LIMITS.addressPartMax, pattern: '\\S' });

/** What the buyer sends to create or change an address. */
export const AddressBody = Type.Object({
  country: Text,
  city: Text,
  street: Text,
  // Like the other required fields, it must hold something besides spaces.
  home_number: Type.String({ minLength: 1, maxLength: LIMITS.houseNumberMax, pattern: '\\S' }),
  apartment_number: Type.Optional(Nullable(Type.String({ maxLength: LIMITS.houseNumberMax }))),
  user_id: Id,
});

export const AddressSchema = Type.Object({
  id: Type.Integer(),
  country: Type.String(),
  city: Type.String(),
  street: Type.String(),
  home_number: Type.String(),
  apartment_number: Nullable(Type.String()),
  user_id: Type.Integer(),
});
