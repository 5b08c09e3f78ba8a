import { eq, sql } from 'drizzle-orm';
import type { InvoiceRef, OrderStatus } from '../../shared/api';
import { supplierRequisitesMissing } from '../../shared/requisites';
import type { SupplierRequisites } from '../../shared/schemas/settings';
import type { Database } from '../db/database';
import { invoiceCounters, invoices, orders } from '../db/schema';
import { InvoiceAlreadyIssuedError, OrderNotFoundError, SupplierRequisitesMissingError } from '../domain/errors';
import { assertStatusChange, AWAITING_PAYMENT_STATUS } from '../domain/order-workflow';
import type { Invoice } from '../invoices/invoicePdf';
import { moscowDay, moscowInstant } from '../moscow-time';
import { createAuditRepository } from './audit';
import { changeStatusLocked, invoiceRefColumns, orderLineRows } from './orders';
import { findSupplierRequisites } from './supplier-requisites';

/** What a rendered invoice needs, and whose order it is (the route decides who may read it). */
export interface InvoiceDocument {
  ownerId: number;
  invoice: Invoice;
}

export function createInvoicesRepository(db: Database) {
  return {
    /**
     * Issues the order's invoice in one transaction: the order row is locked (a second issue of the
     * same order waits and then finds the first invoice), the next number of the year is taken from
     * its counter row, the invoice keeps a copy of the supplier's details, and the order moves to
     * «Ожидает оплаты». Taking a number locks the year's counter until the transaction ends, so
     * issuers queue there, and a transaction that fails gives its number back: no gaps, no
     * duplicates, in one process or many. `now` is the moment of issue (tests move it).
     */
    issue(orderId: number, { byUserId, now }: { byUserId: number; now: Date }): Promise<InvoiceRef> {
      return db.transaction(async (tx) => {
        const [order] = await tx
          .select({ id: orders.id, status: orders.status })
          .from(orders)
          .where(eq(orders.id, orderId))
          .for('update');
        if (!order) throw new OrderNotFoundError();
        const [issued] = await tx.select(invoiceRefColumns).from(invoices).where(eq(invoices.orderId, orderId));
        if (issued) throw new InvoiceAlreadyIssuedError(orderId, issued);
        assertStatusChange(orderId, order.status as OrderStatus, AWAITING_PAYMENT_STATUS, 'invoice');
        const supplier = await findSupplierRequisites(tx);
        const missing = supplierRequisitesMissing(supplier);
        if (missing) throw new SupplierRequisitesMissingError(missing);

        // Dated and numbered by the shop's calendar.
        const date = moscowDay(now);
        const year = Number(date.slice(0, 4));
        const [counter] = await tx
          .insert(invoiceCounters)
          .values({ year, lastNumber: 1 })
          .onConflictDoUpdate({
            target: invoiceCounters.year,
            set: { lastNumber: sql`${invoiceCounters.lastNumber} + 1` },
          })
          .returning({ number: invoiceCounters.lastNumber });
        const invoice: InvoiceRef = { number: counter!.number, date };
        await tx.insert(invoices).values({
          orderId,
          year,
          number: invoice.number,
          issuedOn: date,
          issuedAt: now,
          byUserId,
          supplier,
        });
        await changeStatusLocked(tx, orderId, { to: AWAITING_PAYMENT_STATUS, source: 'invoice', byUserId });
        await createAuditRepository(tx).record({
          byUserId,
          action: 'invoice.issue',
          entity: 'order',
          entityId: orderId,
          after: { ...invoice, supplier },
        });
        return invoice;
      });
    },

    /** The issued invoice of an order as it was issued (the supplier's details of that day); null before. */
    async findDocument(orderId: number): Promise<InvoiceDocument | null> {
      const [row] = await db
        .select({
          ownerId: orders.userId,
          number: invoices.number,
          issuedOn: invoices.issuedOn,
          supplier: invoices.supplier,
          companyName: orders.companyName,
          companyInn: orders.companyInn,
          companyKpp: orders.companyKpp,
          contactName: orders.contactName,
          address: orders.address,
        })
        .from(invoices)
        .innerJoin(orders, eq(orders.id, invoices.orderId))
        .where(eq(invoices.orderId, orderId));
      if (!row) return null;
      const lines = await orderLineRows(db, orderId);
      return {
        ownerId: row.ownerId,
        invoice: {
          number: row.number,
          // Midday in Moscow of the day of issue: the document prints that day, in Moscow.
          date: moscowInstant(row.issuedOn, '12:00'),
          supplier: row.supplier as SupplierRequisites,
          buyer: {
            company_name: row.companyName,
            company_inn: row.companyInn,
            company_kpp: row.companyKpp,
            contact_name: row.contactName,
            address: row.address,
          },
          lines,
        },
      };
    },
  };
}

export type InvoicesRepository = ReturnType<typeof createInvoicesRepository>;
