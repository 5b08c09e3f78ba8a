// The messages an order's events send, queued inside the transaction of the event itself, so each
// shows the order as the event left it (a new order's from what its transaction already holds).
import type { Transaction } from '../db/database';
import type { ShopMail } from '../mail/letter';
import {
  invoiceIssued,
  orderPlacedToBuyer,
  orderPlacedToManagers,
  statusChanged,
  type OrderForLetter,
  type StatusNews,
} from '../mail/order-letters';
import { createOrdersRepository, type OrderPlacedRecipients } from '../repositories/orders';
import { createOutboxRepository, type OutgoingMail } from '../repositories/outbox';

/**
 * The buyer's confirmation and the managers' notice of a new order, to every manager once
 * (MANAGER_EMAILS, and the company's personal manager or, without one, every manager account), made
 * from the order about to be written: placing writes them in the statement that writes the order.
 */
export function orderPlacedMail(
  shop: ShopMail,
  placed: Omit<OrderForLetter, 'buyerEmail'>,
  { buyer, managerAccounts, manager }: OrderPlacedRecipients,
): OutgoingMail[] {
  const order = { ...placed, buyerEmail: buyer, manager };
  const toManagers = orderPlacedToManagers(shop, order);
  const managers = new Set([...shop.managerEmails, ...managerAccounts]);
  return [
    { to: buyer, sheetOrderId: order.id, ...orderPlacedToBuyer(shop, order) },
    ...[...managers].map((to) => ({ to, sheetOrderId: order.id, ...toManagers })),
  ];
}

/**
 * Queues a letter to the order's buyer, made from the order as the transaction holds it. A buyer who
 * deleted the account keeps no address: the order goes on for accounting, silently.
 */
async function queueToBuyer(
  tx: Transaction,
  orderId: number,
  message: (order: OrderForLetter) => Omit<OutgoingMail, 'to'>,
): Promise<void> {
  const order = await createOrdersRepository(tx).findForLetter(orderId);
  if (order) await createOutboxRepository(tx).queue({ to: order.buyerEmail, ...message(order) });
}

/** The buyer's letter of a change of status, with the order's lines and, attached, its spreadsheet. */
export function queueStatusChanged(tx: Transaction, shop: ShopMail, orderId: number, news: StatusNews): Promise<void> {
  return queueToBuyer(tx, orderId, (order) => ({ sheetOrderId: orderId, ...statusChanged(shop, order, news) }));
}

/** The invoice to the buyer; its PDF is attached when the message is sent (see services/outbox-sender). */
export function queueInvoiceIssued(
  tx: Transaction,
  shop: ShopMail,
  orderId: number,
  invoice: { number: number; date: Date; paymentDays: number },
): Promise<void> {
  return queueToBuyer(tx, orderId, (order) => ({ invoiceOrderId: orderId, ...invoiceIssued(shop, order, invoice) }));
}
