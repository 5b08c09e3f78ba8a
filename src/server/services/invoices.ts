import type { InvoiceRef } from '../../shared/api';
import { supplierRequisitesMissing } from '../../shared/requisites';
import type { Database } from '../db/database';
import { InvoiceAlreadyIssuedError, OrderNotFoundError, SupplierRequisitesMissingError } from '../domain/domain-errors';
import { assertStatusChange, AWAITING_PAYMENT_STATUS } from '../domain/order-workflow';
import type { ShopMail } from '../mail/letter';
import { moscowDay } from '../../shared/dates';
import { createAuditRepository } from '../repositories/audit';
import { createInvoicesRepository, issuedInstant } from '../repositories/invoices';
import { createOrdersRepository } from '../repositories/orders';
import { createSupplierRequisitesRepository } from '../repositories/supplier-requisites';
import { queueInvoiceIssued } from './order-mail';
import { changeStatusLocked } from './orders';

export function createInvoiceService(db: Database, shop: ShopMail) {
  return {
    /**
     * Issues the order's invoice in one transaction: the order row is locked (a second issue of the
     * same order waits and then finds the first invoice), the next number of the year is taken from
     * its counter row (no gaps, no duplicates: InvoicesRepository.takeNumber), the invoice keeps a
     * copy of the supplier's details, and the order moves to «Ожидает оплаты». `now` is the moment
     * of issue (tests move it).
     */
    issue(orderId: number, { byUserId, now }: { byUserId: number; now: Date }): Promise<InvoiceRef> {
      return db.transaction(async (tx) => {
        const invoices = createInvoicesRepository(tx);
        const order = await createOrdersRepository(tx).lockForChange(orderId);
        if (!order) throw new OrderNotFoundError();
        const issued = await invoices.findRef(orderId);
        if (issued) throw new InvoiceAlreadyIssuedError(orderId, issued);
        assertStatusChange(orderId, order.status, AWAITING_PAYMENT_STATUS, 'invoice');
        const supplier = await createSupplierRequisitesRepository(tx).find();
        const missing = supplierRequisitesMissing(supplier);
        if (missing) throw new SupplierRequisitesMissingError(missing);

        // Dated and numbered by the shop's calendar.
        const date = moscowDay(now);
        const year = Number(date.slice(0, 4));
        const invoice: InvoiceRef = { number: await invoices.takeNumber(year), date };
        await invoices.insert({
          orderId,
          year,
          number: invoice.number,
          issuedOn: date,
          issuedAt: now,
          byUserId,
          supplier: supplier!,
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
  };
}

export type InvoiceService = ReturnType<typeof createInvoiceService>;
