import { and, asc, eq, sql } from 'drizzle-orm';
import type { Address, AddressInput } from '../../shared/api';
import type { Queryable } from '../db/database';
import { addresses } from '../db/schema';

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
export function createAddressesRepository(db: Queryable) {
  return {
    /**
     * Queues the buyer's additions on a lock of their own until the caller's transaction ends, so
     * two at once cannot both take the last place (services/addresses.ts).
     */
    async lockAdditions(userId: number): Promise<void> {
      await db.execute(sql`select pg_advisory_xact_lock(${ADD_ADDRESS_LOCK}::int, ${userId}::int)`);
    },

    /** How many addresses the buyer has saved, counted up to `atMost`. */
    async countUpTo(userId: number, atMost: number): Promise<number> {
      const saved = await db
        .select({ id: addresses.id })
        .from(addresses)
        .where(eq(addresses.userId, userId))
        .limit(atMost);
      return saved.length;
    },

    async insert(userId: number, input: AddressInput): Promise<Address> {
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
