import { skipToken } from '@reduxjs/toolkit/query/react';
import { useAppSelector } from '@/app/withTypes';
import { selectUser } from '@/features/session/sessionSlice';
import { useGetCartQuery } from './cartApi';

/** Units in the current user's cart (0 for a visitor): the header badge and the cart summary agree. */
export function useCartCount(): number {
  const user = useAppSelector(selectUser);
  // currentData, not data: with skipToken (after logout) data would still be the last user's cart.
  const { currentData } = useGetCartQuery(user ? user.id : skipToken);
  return currentData?.items.reduce((sum, item) => sum + item.count, 0) ?? 0;
}
