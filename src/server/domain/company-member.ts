import { COMPANY_MESSAGES, mayOrder, type CompanyRole } from '../../shared/company';
import { CompanyBlockedError, CompanyRoleError } from './domain-errors';

/**
 * The caller as their company knows them, read from the database on every request (never from
 * the token): a role changed or a company blocked a moment ago applies to the next request.
 */
export interface Member {
  userId: number;
  companyId: number;
  role: CompanyRole;
  /** A manager has blocked the company: no order is taken from it. */
  blocked: boolean;
  /** The company's price type; null: the default type. */
  priceTypeId: number | null;
}

/** An order is placed (or cancelled) only by an owner or a purchaser of a company that is not blocked. */
export function assertMayOrder(member: Pick<Member, 'role' | 'blocked'>): void {
  if (!mayOrder(member.role)) throw new CompanyRoleError(COMPANY_MESSAGES.accountantCannotOrder);
  if (member.blocked) throw new CompanyBlockedError();
}
