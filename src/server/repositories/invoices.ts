import { and, eq, isNull, sql } from 'drizzle-orm';
import type { InvoiceRef } from '../../shared/api';
import type { SupplierRequisites } from '../../shared/schemas/settings';
import type { Queryable } from '../db/database';
import { invoiceCounters, invoices, legalEntities, orders } from '../db/schema';
import { moscowInstant } from '../../shared/dates';
import { orderLineRows } from './order-lines';
import { invoiceRefColumns } from './orders';

/** An invoice's number and the moment it is dated (midday in Moscow of its day). */
export interface InvoiceNumber {
  number: number;
  date: Date;
}

/** An issued invoice: whose order it is (the route decides who may read it), and its PDF once rendered. */
export interface IssuedInvoice extends InvoiceNumber {
  /** The company whose order it is (its employees read it); null once the company is dissolved: only managers may then. */
  companyId: number | null;
  pdf: Buffer | null;
}

/** Midday in Moscow of the day of issue: the document prints that day, in Moscow. */
export const issuedInstant = (day: string) => moscowInstant(day, '12:00');

export function createInvoicesRepository(db: Queryable) {
  return {
    /** The order's invoice as its answers name it; null before one is issued. */
    async findRef(orderId: number): Promise<InvoiceRef | null> {
      const [issued] = await db.select(invoiceRefColumns).from(invoices).where(eq(invoices.orderId, orderId));
      return issued ?? null;
    },

    /**
     * The next number of the year, from its counter row. Taking it locks the year's counter until
     * the transaction ends, so issuers queue there, and a transaction that fails gives its number
     * back: no gaps, no duplicates, in one process or many.
     */
    async takeNumber(year: number): Promise<number> {
      const [counter] = await db
        .insert(invoiceCounters)
        .values({ year, lastNumber: 1 })
        .onConflictDoUpdate({
          target: invoiceCounters.year,
          set: { lastNumber: sql`${invoiceCounters.lastNumber} + 1` },
        })
        .returning({ number: invoiceCounters.lastNumber });
      return counter!.number;
    },

    /** Records an invoice with the copy of the supplier's details it prints. */
    async insert(invoice: {
      orderId: number;
      year: number;
      number: number;
      issuedOn: string;
      issuedAt: Date;
      byUserId: number;
      supplier: SupplierRequisites;
    }): Promise<void> {
      await db.insert(invoices).values(invoice);
    },

    /** Whose order it is, the invoice's number and day, and its PDF once rendered; null before issue. */
    async findIssued(orderId: number): Promise<IssuedInvoice | null> {
      const [row] = await db
        .select({
          companyId: orders.companyId,
          number: invoices.number,
          issuedOn: invoices.issuedOn,
          pdf: invoices.pdf,
        })
        .from(invoices)
        .innerJoin(orders, eq(orders.id, invoices.orderId))
        .where(eq(invoices.orderId, orderId));
      if (!row) return null;
      return { companyId: row.companyId, number: row.number, date: issuedInstant(row.issuedOn), pdf: row.pdf };
    },

    /** What the document prints, as it was issued (the supplier's details of that day). */
    async document(orderId: number, { number, date }: InvoiceNumber) {
      const [[row], lines] = await Promise.all([
        db
          .select({
            supplier: invoices.supplier,
            companyName: orders.companyName,
            companyInn: orders.companyInn,
            companyKpp: orders.companyKpp,
            contactName: orders.contactName,
            // The buyer's registered address when the order names a legal entity that has one, as
            // a «счёт» prints the party; else the delivery address, as before companies.
            address: sql<string>`coalesce(nullif(${legalEntities.address}, ''), ${orders.address})`,
          })
          .from(invoices)
          .innerJoin(orders, eq(orders.id, invoices.orderId))
          .leftJoin(legalEntities, eq(legalEntities.id, orders.legalEntityId))
          .where(eq(invoices.orderId, orderId)),
        orderLineRows(db, orderId),
      ]);
      return {
        number,
        date,
        supplier: row!.supplier as SupplierRequisites,
        buyer: {
          company_name: row!.companyName,
          company_inn: row!.companyInn,
          company_kpp: row!.companyKpp,
          contact_name: row!.contactName,
          address: row!.address,
        },
        lines,
      };
    },

    /** Keeps the first rendering: two processes rendering at once both send theirs, and one is kept. */
    async keepPdf(orderId: number, pdf: Buffer): Promise<void> {
      await db
        .update(invoices)
        .set({ pdf })
        .where(and(eq(invoices.orderId, orderId), isNull(invoices.pdf)));
    },
  };
}

export type InvoicesRepository = ReturnType<typeof createInvoicesRepository>;
