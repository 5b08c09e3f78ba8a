import type { CurrentUser } from '@shared/api';
import { COMPANY_MESSAGES, mayOrder } from '@shared/company';
import { useAppSelector } from '@/hooks/reduxHooks';
import { authApi } from '@/features/session/authApi';
import { selectUser } from '@/features/session/sessionSlice';

type CompanyOfUser = CurrentUser['company'];

/** Why this account may not place orders now (its role, or the shop's block of its company), or null. */
export function orderRefusalOf(company: CompanyOfUser): string | null {
  if (!company) return null;
  if (!mayOrder(company.role)) return COMPANY_MESSAGES.accountantCannotOrder;
  return company.blocked ? COMPANY_MESSAGES.companyBlocked : null;
}

/**
 * The signed-in buyer's company and role as GET /auth/user tells them now (a manager may block the
 * company, the owner change the role, without a new token). `known` once the server has answered
 * (or failed to: then nothing is refused here, and the server still decides).
 */
export function useCompanyStanding(): { known: boolean; company: CompanyOfUser; orderRefusal: string | null } {
  const user = useAppSelector(selectUser);
  const { data, isError } = authApi.endpoints.currentUser.useQuery(undefined, {
    skip: !user,
    refetchOnMountOrArgChange: 60,
  });
  const company = data?.company ?? null;
  return { known: data !== undefined || isError, company, orderRefusal: orderRefusalOf(company) };
}
