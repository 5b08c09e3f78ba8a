import type { Static } from 'typebox';
import type { Cart, Company } from '../../shared/api';
import type { Member } from '../domain/company-member';
import type { AccountExportSchema } from '../../shared/schemas/auth';
import type { createAddressesRepository } from '../repositories/addresses';
import type { OrdersRepository } from '../repositories/orders';
import type { createRequisitesRepository } from '../repositories/requisites';
import type { UsersRepository } from '../repositories/users';

/** The repositories an account's data is read from (the app's set has them all). */
interface AccountRepositories {
  users: UsersRepository;
  requisites: ReturnType<typeof createRequisitesRepository>;
  addresses: ReturnType<typeof createAddressesRepository>;
  orders: OrdersRepository;
}

export type AccountExport = Static<typeof AccountExportSchema>;

/**
 * Everything the shop keeps about one employee (152-ФЗ ст. 14: the right to know it) and what of
 * their company they can see (its employees, legal entities, manager, addresses and orders), read
 * through the same company-scoped calls the profile uses, so no other company's rows can come
 * along. `company` is the company and `cart` the cart as the employee sees them. `null` when the account is gone.
 */
export async function exportAccount(
  repositories: AccountRepositories,
  member: Member,
  company: Company,
  cart: Cart,
): Promise<AccountExport | null> {
  const { userId, companyId } = member;
  const account = await repositories.users.findAccount(userId);
  if (!account) return null;
  const [requisites, addresses, summaries] = await Promise.all([
    repositories.requisites.find(userId, companyId),
    repositories.addresses.list(member),
    repositories.orders.listForCompany(companyId, {}),
  ]);
  const orders = await Promise.all(
    summaries.items.map((order) => repositories.orders.findForBuyer(companyId, order.id)),
  );
  return {
    exported_at: new Date().toISOString(),
    account: {
      id: account.id,
      email: account.email,
      role: account.role,
      created_at: account.createdAt.toISOString(),
      personal_data_consent_at: account.personalDataConsentAt?.toISOString() ?? null,
    },
    requisites,
    company,
    addresses,
    cart,
    orders: orders.filter((order) => order !== null),
  };
}
