import { eq } from 'drizzle-orm';
import type { SupplierRequisites } from '../../shared/schemas/settings';
import type { Queryable } from '../db/database';
import { supplierRequisites } from '../db/schema';
import { createAuditRepository } from './audit';

// The table holds one row (a CHECK keeps its id at 1): the shop is one supplier.
const ROW_ID = 1;

const columns = {
  name: supplierRequisites.name,
  inn: supplierRequisites.inn,
  kpp: supplierRequisites.kpp,
  ogrn: supplierRequisites.ogrn,
  address: supplierRequisites.address,
  bank_name: supplierRequisites.bankName,
  bik: supplierRequisites.bik,
  account: supplierRequisites.account,
  corr_account: supplierRequisites.corrAccount,
  vat_rate: supplierRequisites.vatRate,
  payment_days: supplierRequisites.paymentDays,
};

/** The supplier's details as they are now, or null before a manager has filled them in. */
async function findSupplierRequisites(db: Queryable, { forUpdate = false } = {}): Promise<SupplierRequisites | null> {
  const query = db.select(columns).from(supplierRequisites).where(eq(supplierRequisites.id, ROW_ID));
  const [row] = await (forUpdate ? query.for('update') : query);
  // Only the PUT writes the row, and it takes only the tax code's rates.
  return row ? { ...row, vat_rate: row.vat_rate as SupplierRequisites['vat_rate'] } : null;
}

export function createSupplierRequisitesRepository(db: Queryable) {
  return {
    /** In the caller's transaction when issuing an invoice, so the invoice copies exactly what it checked. */
    find: () => findSupplierRequisites(db),

    /** Replaces the details (already checked) and logs what they were and what they are. */
    save(details: SupplierRequisites, byUserId: number): Promise<SupplierRequisites> {
      return db.transaction(async (tx) => {
        // Locked once the row exists, so of two saves at once the second logs what the first left.
        const before = await findSupplierRequisites(tx, { forUpdate: true });
        const values = {
          name: details.name,
          inn: details.inn,
          kpp: details.kpp,
          ogrn: details.ogrn,
          address: details.address,
          bankName: details.bank_name,
          bik: details.bik,
          account: details.account,
          corrAccount: details.corr_account,
          vatRate: details.vat_rate,
          paymentDays: details.payment_days,
          updatedAt: new Date(),
        };
        await tx
          .insert(supplierRequisites)
          .values({ id: ROW_ID, ...values })
          .onConflictDoUpdate({ target: supplierRequisites.id, set: values });
        await createAuditRepository(tx).record({
          byUserId,
          action: 'settings.requisites',
          entity: 'supplier_requisites',
          entityId: null,
          before,
          after: details,
        });
        return details;
      });
    },
  };
}
