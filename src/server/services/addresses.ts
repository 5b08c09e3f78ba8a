// The company's delivery addresses: how many one company may keep (MAX_ADDRESSES), checked in the
// transaction that adds one.
import type { Address, AddressInput } from '../../shared/api';
import type { BuyerLimits } from '../config';
import type { Database } from '../db/database';
import { AddressesLimitError } from '../domain/domain-errors';
import { createAddressesRepository, type AddressScope } from '../repositories/addresses';

export function createAddressService(db: Database, { maxAddresses }: Pick<BuyerLimits, 'maxAddresses'>) {
  return {
    /** Saves a new address of the company, unless it already has `maxAddresses`. */
    create(scope: AddressScope, input: AddressInput): Promise<Address> {
      return db.transaction(async (tx) => {
        const addresses = createAddressesRepository(tx);
        await addresses.lockAdditions(scope.companyId);
        if ((await addresses.countUpTo(scope.companyId, maxAddresses)) >= maxAddresses)
          throw new AddressesLimitError(maxAddresses);
        return addresses.insert(scope, input);
      });
    },
  };
}
