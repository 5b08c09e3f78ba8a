import { Type } from 'typebox';
import { LIMITS } from '../api';
import { Id, Nullable } from './common';

const Count = Type.Integer({ minimum: LIMITS.minQuantity, maximum: LIMITS.maxCartCount });

export const CartItemSchema = Type.Object({
  id: Type.Integer(),
  count: Type.Integer(),
  item_total: Type.Number(),
  product: Type.Object({
    id: Type.Integer(),
    art: Type.String(),
    name: Type.String(),
    description: Nullable(Type.String()),
    image: Type.String(),
  }),
  variant: Type.Object({ price: Type.Number() }),
  variant_id: Type.Integer(),
});

export const CartSchema = Type.Object({ items: Type.Array(CartItemSchema), total_price: Type.Number() });

export const CartAddBody = Type.Object({ user_id: Id, product_id: Id, variant_id: Id, count: Count });

export const CartAdded = Type.Object({ id: Type.Integer(), detail: Type.String() });

export const CartCountQuery = Type.Object({ item_id: Id, count: Count });
