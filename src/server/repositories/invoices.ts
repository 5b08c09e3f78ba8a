import { and, eq, isNull, sql } from 'drizzle-orm';
import type { InvoiceRef } from '../../shared/api';
import type { OrderStatus } from '../../shared/order-statuses';
import { supplierRequisitesMissing } from '../../shared/requisites';
import type { SupplierRequisites } from '../../shared/schemas/settings';
import type { Database } from '../db/database';
import { invoiceCounters, invoices, orders } from '../db/schema';
import { InvoiceAlreadyIssuedError, OrderNotFoundError, SupplierRequisitesMissingError } from '../domain/errors';
import { assertStatusChange, AWAITING_PAYMENT_STATUS } from '../domain/order-workflow';
import type { Invoice } from '../invoices/invoicePdf';
import { moscowDay, moscowInstant } from '../../shared/dates';
import { createAuditRepository } from './audit';
import type { ShopMail } from '../mail/letter';
import { orderLineRows } from './order-lines';
import { queueInvoiceIssued } from './order-mail';
import { changeStatusLocked, invoiceRefColumns } from './orders';
import { findSupplierRequisites } from './supplier-requisites';

/** An issued invoice: whose order it is (the route decides who may read it), and its PDF once rendered. */
export interface IssuedInvoice extends Pick<Invoice, 'number' | 'date'> {
  /** Null once the buyer deleted the account: only managers may read it then. */
  ownerId: number | null;
  pdf: Buffer | null;
}

/** Midday in Moscow of the day of issue: the document prints that day, in Moscow. */
const issuedInstant = (day: string) => moscowInstant(day, '12:00');

export function createInvoicesRepository(db: Database, shop: ShopMail) {
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
        await changeStatusLocked(tx, orderId, { to: AWAITING_PAYMENT_STATUS, source: 'invoice', byUserId }, shop);
        await queueInvoiceIssued(tx, shop, orderId, {
          number: invoice.number,
          date: issuedInstant(date),
          paymentDays: supplier!.payment_days,
        });
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

    /** Whose order it is, the invoice's number and day, and its PDF once rendered; null before issue. */
    async findIssued(orderId: number): Promise<IssuedInvoice | null> {
      const [row] = await db
        .select({ ownerId: orders.userId, number: invoices.number, issuedOn: invoices.issuedOn, pdf: invoices.pdf })
        .from(invoices)
        .innerJoin(orders, eq(orders.id, invoices.orderId))
        .where(eq(invoices.orderId, orderId));
      if (!row) return null;
      return { ownerId: row.ownerId, number: row.number, date: issuedInstant(row.issuedOn), pdf: row.pdf };
    },

    /** What the document prints, as it was issued (the supplier's details of that day). */
    async document(orderId: number, { number, date }: Pick<Invoice, 'number' | 'date'>): Promise<Invoice> {
      const [[row], lines] = await Promise.all([
        db
          .select({
            supplier: invoices.supplier,
            companyName: orders.companyName,
            companyInn: orders.companyInn,
            companyKpp: orders.companyKpp,
            contactName: orders.contactName,
            address: orders.address,
          })
          .from(invoices)
          .innerJoin(orders, eq(orders.id, invoices.orderId))
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
