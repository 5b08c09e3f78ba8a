import { and, asc, eq, sql } from 'drizzle-orm';
import type { Address } from '../../shared/api';
import type { BuyerLimits } from '../config';
import type { Queryable } from '../db/database';
import { addresses } from '../db/schema';
import { AddressesLimitError } from '../domain/domain-errors';

export interface AddressInput {
  country: string;
  city: string;
  street: string;
  home_number: string;
  apartment_number: string | null;
}

const columns = {
  id: addresses.id,
  country: addresses.country,
  city: addresses.city,
  street: addresses.street,
  home_number: addresses.homeNumber,
  apartment_number: addresses.apartmentNumber,
  user_id: addresses.userId,
};

const toRow = (input: AddressInput) => ({
  country: input.country,
  city: input.city,
  street: input.street,
  homeNumber: input.home_number,
  apartmentNumber: input.apartment_number,
});

// Advisory locks' two-key space: (this, user id) is one buyer's addresses being added.
const ADD_ADDRESS_LOCK = 0x616464; // 'add'

/** Every call is scoped by the owner: another user's address behaves as if it did not exist. */
export function createAddressesRepository(db: Queryable, { maxAddresses }: Pick<BuyerLimits, 'maxAddresses'>) {
  return {
    /**
     * Saves a new address, unless the buyer already has `maxAddresses`. The buyer's additions
     * queue on a lock of their own, so two at once cannot both take the last place.
     */
    create(userId: number, input: AddressInput): Promise<Address> {
      return db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(${ADD_ADDRESS_LOCK}::int, ${userId}::int)`);
        const saved = await tx
          .select({ id: addresses.id })
          .from(addresses)
          .where(eq(addresses.userId, userId))
          .limit(maxAddresses);
        if (saved.length >= maxAddresses) throw new AddressesLimitError(maxAddresses);
        const [row] = await tx
          .insert(addresses)
          .values({ userId, ...toRow(input) })
          .returning(columns);
        return row!;
      });
    },

    list(userId: number): Promise<Address[]> {
      return db.select(columns).from(addresses).where(eq(addresses.userId, userId)).orderBy(asc(addresses.id));
    },

    async update(userId: number, id: number, input: AddressInput): Promise<Address | null> {
      const [row] = await db
        .update(addresses)
        .set(toRow(input))
        .where(and(eq(addresses.id, id), eq(addresses.userId, userId)))
        .returning(columns);
      return row ?? null;
    },

    async remove(userId: number, id: number): Promise<boolean> {
      const rows = await db
        .delete(addresses)
        .where(and(eq(addresses.id, id), eq(addresses.userId, userId)))
        .returning({ id: addresses.id });
      return rows.length > 0;
    },
  };
}
