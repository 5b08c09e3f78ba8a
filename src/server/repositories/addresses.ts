import { and, asc, eq, sql } from 'drizzle-orm';
import type { Address, AddressInput } from '../../shared/api';
import type { Queryable } from '../db/database';
import { addresses } from '../db/schema';

/**
 * An address as the API answers it. The address is the company's; SPEC §7's `user_id` names the
 * employee asking, as the path of the list does.
 */
const columnsFor = (userId: number) => ({
  id: addresses.id,
  country: addresses.country,
  city: addresses.city,
  street: addresses.street,
  home_number: addresses.homeNumber,
  apartment_number: addresses.apartmentNumber,
  user_id: sql<number>`${userId}::int`,
});

const toRow = (input: AddressInput) => ({
  country: input.country,
  city: input.city,
  street: input.street,
  homeNumber: input.home_number,
  apartmentNumber: input.apartment_number,
});

/** The company whose addresses are read or changed, and the employee doing it. */
export interface AddressScope {
  companyId: number;
  userId: number;
}

// Advisory locks' two-key space: (this, company id) is one company's addresses being added.
const ADD_ADDRESS_LOCK = 0x616464; // 'add'

/** Every call is scoped by the company: another company's address behaves as if it did not exist. */
export function createAddressesRepository(db: Queryable) {
  return {
    /**
     * Queues the company's additions on a lock of their own until the caller's transaction ends, so
     * two at once cannot both take the last place (services/addresses.ts).
     */
    async lockAdditions(companyId: number): Promise<void> {
      await db.execute(sql`select pg_advisory_xact_lock(${ADD_ADDRESS_LOCK}::int, ${companyId}::int)`);
    },

    /** How many addresses the company has saved, counted up to `atMost`. */
    async countUpTo(companyId: number, atMost: number): Promise<number> {
      const saved = await db
        .select({ id: addresses.id })
        .from(addresses)
        .where(eq(addresses.companyId, companyId))
        .limit(atMost);
      return saved.length;
    },

    async insert({ companyId, userId }: AddressScope, input: AddressInput): Promise<Address> {
      const [row] = await db
        .insert(addresses)
        .values({ companyId, userId, ...toRow(input) })
        .returning(columnsFor(userId));
      return row!;
    },

    list({ companyId, userId }: AddressScope): Promise<Address[]> {
      return db
        .select(columnsFor(userId))
        .from(addresses)
        .where(eq(addresses.companyId, companyId))
        .orderBy(asc(addresses.id));
    },

    async update({ companyId, userId }: AddressScope, id: number, input: AddressInput): Promise<Address | null> {
      const [row] = await db
        .update(addresses)
        .set(toRow(input))
        .where(and(eq(addresses.id, id), eq(addresses.companyId, companyId)))
        .returning(columnsFor(userId));
      return row ?? null;
    },

    async remove({ companyId }: AddressScope, id: number): Promise<boolean> {
      const rows = await db
        .delete(addresses)
        .where(and(eq(addresses.id, id), eq(addresses.companyId, companyId)))
        .returning({ id: addresses.id });
      return rows.length > 0;
    },
  };
}
