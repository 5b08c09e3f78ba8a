import type { Static } from 'typebox';
import type { AccountExportSchema } from '../../shared/schemas/auth';
import type { createAddressesRepository } from '../repositories/addresses';
import type { CartRepository } from '../repositories/cart';
import type { OrdersRepository } from '../repositories/orders';
import type { createRequisitesRepository } from '../repositories/requisites';
import type { UsersRepository } from '../repositories/users';

/** The repositories an account's data is read from (the app's set has them all). */
interface AccountRepositories {
  users: UsersRepository;
  requisites: ReturnType<typeof createRequisitesRepository>;
  addresses: ReturnType<typeof createAddressesRepository>;
  cart: CartRepository;
  orders: OrdersRepository;
}

export type AccountExport = Static<typeof AccountExportSchema>;

/**
 * Everything the shop keeps about one buyer (152-ФЗ ст. 14: the right to know it), read through
 * the same owner-scoped calls the profile uses, so nobody else's rows can come along. `null` when
 * the account is gone.
 */
export async function exportAccount(repositories: AccountRepositories, userId: number): Promise<AccountExport | null> {
  const account = await repositories.users.findAccount(userId);
  if (!account) return null;
  const [requisites, addresses, cart, summaries] = await Promise.all([
    repositories.requisites.find(userId),
    repositories.addresses.list(userId),
    repositories.cart.get(userId),
    repositories.orders.listForUser(userId),
  ]);
  const orders = await Promise.all(summaries.map((order) => repositories.orders.findForBuyer(userId, order.id)));
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
    addresses,
    cart,
    orders: orders.filter((order) => order !== null),
  };
}
