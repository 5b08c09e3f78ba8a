import { and, asc, eq } from 'drizzle-orm';
import type { Address } from '../../shared/api';
import type { Queryable } from '../db/database';
import { addresses } from '../db/schema';

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

/** Every call is scoped by the owner: another user's address behaves as if it did not exist. */
export function createAddressesRepository(db: Queryable) {
  return {
    async create(userId: number, input: AddressInput): Promise<Address> {
      const [row] = await db
        .insert(addresses)
        .values({ userId, ...toRow(input) })
        .returning(columns);
      return row!;
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
