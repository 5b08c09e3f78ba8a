import { desc, eq, sql } from 'drizzle-orm';
import type { Requisites } from '../../shared/api';
import type { Queryable } from '../db/database';
import { orders, requisites } from '../db/schema';

const columns = {
  company_name: requisites.companyName,
  company_inn: requisites.companyInn,
  company_kpp: requisites.companyKpp,
  contact_name: requisites.contactName,
  contact_phone: requisites.contactPhone,
};

const lastOrderColumns = {
  company_name: orders.companyName,
  company_inn: orders.companyInn,
  company_kpp: orders.companyKpp,
  contact_name: orders.contactName,
  contact_phone: orders.contactPhone,
};

const NOTHING_KNOWN: Requisites = {
  company_name: null,
  company_inn: null,
  company_kpp: null,
  contact_name: null,
  contact_phone: null,
};

export function createRequisitesRepository(db: Queryable) {
  return {
    /**
     * The buyer's saved details; until some are saved, those of their last order, which prefill
     * the next checkout just as well; all null for a buyer who has neither.
     */
    async find(userId: number): Promise<Requisites> {
      const [saved] = await db.select(columns).from(requisites).where(eq(requisites.userId, userId));
      if (saved) return saved;
      const [lastOrder] = await db
        .select(lastOrderColumns)
        .from(orders)
        .where(eq(orders.userId, userId))
        .orderBy(desc(orders.id))
        .limit(1);
      return lastOrder ?? NOTHING_KNOWN;
    },

    async save(userId: number, input: Requisites): Promise<Requisites> {
      const values = {
        companyName: input.company_name,
        companyInn: input.company_inn,
        companyKpp: input.company_kpp,
        contactName: input.contact_name,
        contactPhone: input.contact_phone,
      };
      const [row] = await db
        .insert(requisites)
        .values({ userId, ...values })
        .onConflictDoUpdate({ target: requisites.userId, set: { ...values, updatedAt: sql`now()` } })
        .returning(columns);
      return row!;
    },
  };
}
