import { and, desc, eq, sql } from 'drizzle-orm';
import type { Requisites } from '../../shared/api';
import type { Queryable } from '../db/database';
import { companies, legalEntities, orders, requisites } from '../db/schema';

type Contact = Pick<Requisites, 'contact_name' | 'contact_phone'>;
type CompanyCodes = Pick<Requisites, 'company_name' | 'company_inn' | 'company_kpp' | 'legal_entity_id'>;

const NO_CONTACT: Contact = { contact_name: null, contact_phone: null };
const NO_CODES: CompanyCodes = { company_name: null, company_inn: null, company_kpp: null, legal_entity_id: null };

export function createRequisitesRepository(db: Queryable) {
  return {
    /**
     * What prefills the employee's next checkout: their own contact details and the company's
     * default legal entity. Until the employee has saved any, those of their last order (its
     * company fields too when the company has no default entity), which do just as well.
     */
    async find(userId: number, companyId: number): Promise<Requisites> {
      const [[saved], [entity]] = await Promise.all([
        db
          .select({ contact_name: requisites.contactName, contact_phone: requisites.contactPhone })
          .from(requisites)
          .where(eq(requisites.userId, userId)),
        db
          .select({
            company_name: legalEntities.name,
            company_inn: legalEntities.inn,
            company_kpp: legalEntities.kpp,
            legal_entity_id: legalEntities.id,
          })
          .from(companies)
          .innerJoin(legalEntities, eq(legalEntities.id, companies.defaultLegalEntityId))
          .where(and(eq(companies.id, companyId), sql`${legalEntities.archivedAt} is null`)),
      ]);
      if (saved) return { ...(entity ?? NO_CODES), ...saved };
      const [lastOrder] = await db
        .select({
          company_name: orders.companyName,
          company_inn: orders.companyInn,
          company_kpp: orders.companyKpp,
          legal_entity_id: orders.legalEntityId,
          contact_name: orders.contactName,
          contact_phone: orders.contactPhone,
        })
        .from(orders)
        .where(eq(orders.userId, userId))
        .orderBy(desc(orders.id))
        .limit(1);
      if (!lastOrder) return { ...(entity ?? NO_CODES), ...NO_CONTACT };
      const { contact_name, contact_phone, ...codes } = lastOrder;
      return { ...(entity ?? codes), contact_name, contact_phone };
    },

    /** The employee's own contact details for the next checkout. */
    async saveContact(userId: number, contact: Contact): Promise<void> {
      const values = { contactName: contact.contact_name, contactPhone: contact.contact_phone };
      await db
        .insert(requisites)
        .values({ userId, ...values })
        .onConflictDoUpdate({ target: requisites.userId, set: { ...values, updatedAt: sql`now()` } });
    },
  };
}
