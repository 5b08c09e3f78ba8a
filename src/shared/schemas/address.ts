import { Type } from 'typebox';
import { Id, Nullable } from './common';

const Text = Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' });

/** What the buyer sends to create or change an address. */
export const AddressBody = Type.Object({
  country: Text,
  city: Text,
  street: Text,
  // Like the other required fields, it must hold something besides spaces.
  home_number: Type.String({ minLength: 1, maxLength: 50, pattern: '\\S' }),
  apartment_number: Type.Optional(Nullable(Type.String({ maxLength: 50 }))),
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
