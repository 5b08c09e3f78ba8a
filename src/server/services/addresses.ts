// The buyer's saved addresses: how many one buyer may keep (MAX_ADDRESSES), checked in the
// transaction that adds one.
import type { Address, AddressInput } from '../../shared/api';
import type { BuyerLimits } from '../config';
import type { Database } from '../db/database';
import { AddressesLimitError } from '../domain/domain-errors';
import { createAddressesRepository } from '../repositories/addresses';

export function createAddressService(db: Database, { maxAddresses }: Pick<BuyerLimits, 'maxAddresses'>) {
  return {
    /** Saves a new address, unless the buyer already has `maxAddresses`. */
    create(userId: number, input: AddressInput): Promise<Address> {
      return db.transaction(async (tx) => {
        const addresses = createAddressesRepository(tx);
        await addresses.lockAdditions(userId);
        if ((await addresses.countUpTo(userId, maxAddresses)) >= maxAddresses)
          throw new AddressesLimitError(maxAddresses);
        return addresses.insert(userId, input);
      });
    },
  };
}
