import type { LineLimits } from '@shared/order-limits';
import type { RootState } from '@/app/store';
import { useAppSelector } from '@/hooks/reduxHooks';
import { authApi } from './authApi';
import { selectUser } from './sessionSlice';

/**
 * The signed-in buyer's standing as the server reads it now (GET /auth/user: a payment or a
 * manager's trust changes it without a new token): whether the address must be confirmed before
 * ordering, and what one order line may take of a variant (null: up to the stock; also for a
 * visitor). The server still decides; the storefront says it where quantities are typed.
 */
export function useOrderLimits(): { known: boolean; mustConfirmEmail: boolean; lineLimits: LineLimits | null } {
  const user = useAppSelector(selectUser);
  // Asked again when a page that shows them opens at least a minute later: a payment or a
  // manager's trust may have lifted the limits meanwhile.
  const { data } = authApi.endpoints.currentUser.useQuery(undefined, { skip: !user, refetchOnMountOrArgChange: 60 });
  return {
    known: data !== undefined,
    mustConfirmEmail: data?.must_confirm_email ?? false,
    lineLimits: data?.order_limits ?? null,
  };
}

const selectCurrentUser = authApi.endpoints.currentUser.select();

/**
 * What one order line may take, from what useOrderLimits has fetched: for the many lines of a long
 * cart, which read it without a subscription each.
 */
export const selectLineLimits = (state: RootState): LineLimits | null =>
  selectCurrentUser(state).data?.order_limits ?? null;
