import { skipToken } from '@reduxjs/toolkit/query/react';
import { useAppSelector } from '@/hooks/reduxHooks';
import { selectUser } from '@/features/session/sessionSlice';
import { useGetCartQuery } from './cartApi';
import { linesWithEdits, selectPendingEdits } from './cartEditsSlice';

/** Units in the current user's cart (0 for a visitor): the header badge and the cart summary agree. */
export function useCartCount(): number {
  const user = useAppSelector(selectUser);
  // currentData, not data: with skipToken (after logout) data would still be the last user's cart.
  const { currentData } = useGetCartQuery(user ? user.id : skipToken);
  const pending = useAppSelector(selectPendingEdits);
  return linesWithEdits(currentData?.items ?? [], pending).reduce((sum, line) => sum + line.count, 0);
}
