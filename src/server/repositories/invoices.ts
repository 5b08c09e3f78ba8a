import { asc, eq, sql } from 'drizzle-orm';
import type { InvoiceRef, OrderStatus } from '../../shared/api';
import { supplierRequisitesMissing } from '../../shared/requisites';
import type { SupplierRequisites } from '../../shared/schemas/settings';
import type { Database } from '../db/database';
import { invoiceCounters, invoices, orderLines, orders, products } from '../db/schema';
import { InvoiceAlreadyIssuedError, OrderNotFoundError, SupplierRequisitesMissingError } from '../domain/errors';
import { assertStatusChange, AWAITING_PAYMENT_STATUS } from '../domain/order-workflow';
import type { Invoice } from '../invoices/invoicePdf';
import { createAuditRepository } from './audit';
import { changeStatusLocked } from './orders';
import { findSupplierRequisites } from './supplier-requisites';

// Invoices are dated and numbered by the shop's calendar, whatever the server's clock zone.
const MOSCOW_DAY = new Intl.DateTimeFormat('en-US', {
  timeZone: 'Europe/Moscow',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/** The calendar day in Moscow at an instant, as YYYY-MM-DD. */
function moscowDay(instant: Date): string {
  const part = Object.fromEntries(MOSCOW_DAY.formatToParts(instant).map(({ type, value }) => [type, value]));
  return `${part.year}-${part.month}-${part.day}`;
}

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
        const [issued] = await tx
          .select({ number: invoices.number, date: invoices.issuedOn })
          .from(invoices)
          .where(eq(invoices.orderId, orderId));
        if (issued) throw new InvoiceAlreadyIssuedError(orderId, issued);
        assertStatusChange(orderId, order.status as OrderStatus, AWAITING_PAYMENT_STATUS, 'invoice');
        const supplier = await findSupplierRequisites(tx);
        const missing = supplierRequisitesMissing(supplier);
        if (missing) throw new SupplierRequisitesMissingError(missing);

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
      const lines = await db
        .select({
          art: products.art,
          name: orderLines.productName,
          color: orderLines.color,
          size: orderLines.size,
          price: orderLines.price,
          quantity: orderLines.quantity,
        })
        .from(orderLines)
        .innerJoin(products, eq(products.id, orderLines.productId))
        .where(eq(orderLines.orderId, orderId))
        .orderBy(asc(orderLines.id));
      return {
        ownerId: row.ownerId,
        invoice: {
          number: row.number,
          // Midday in Moscow of the day of issue: the document prints that day, in Moscow.
          date: new Date(`${row.issuedOn}T12:00:00+03:00`),
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
