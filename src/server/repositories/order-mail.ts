// The messages an order's events send, queued inside the transaction of the event itself, so each
// shows the order as the event left it (a new order's from what its transaction already holds).
import { eq, or, sql, type SQL } from 'drizzle-orm';
import type { Transaction } from '../db/database';
import { orders, users } from '../db/schema';
import type { ShopMail } from '../mail/letter';
import {
  invoiceIssued,
  orderPlacedToBuyer,
  orderPlacedToManagers,
  statusChanged,
  type OrderForLetter,
  type StatusNews,
} from '../mail/order-letters';
import { orderDetailColumns, orderLineRows } from './order-lines';
import { queueMail, type OutgoingMail } from './outbox';

/** The order as its buyer's letters tell it; null when the buyer has deleted the account (nobody to write to). */
async function orderForLetter(tx: Transaction, orderId: number): Promise<OrderForLetter | null> {
  const [order] = await tx
    .select({ ...orderDetailColumns, buyerEmail: users.email })
    .from(orders)
    .innerJoin(users, eq(users.id, orders.userId))
    .where(eq(orders.id, orderId));
  return order ? { ...order, lines: await orderLineRows(tx, orderId) } : null;
}

/** Who hears of a new order: the buyer, and the accounts with the manager role (see orderPlacedMail). */
export interface OrderPlacedRecipients {
  buyer: string;
  managerAccounts: string[];
}

/**
 * The recipients as a JSON scalar subquery (OrderPlacedRecipients), for the statement that reads
 * all that placing an order needs while its variants are locked.
 */
export const orderPlacedRecipients = (buyerId: number): SQL =>
  sql`(select json_build_object(
    'buyer', max(${users.email}) filter (where ${users.id} = ${buyerId}),
    'managerAccounts', coalesce(json_agg(${users.email} order by ${users.id}) filter (where ${users.role} = 'manager'), '[]')
  ) from ${users} where ${or(eq(users.id, buyerId), eq(users.role, 'manager'))})`;

/**
 * The buyer's confirmation and the managers' notice of a new order, to every manager once
 * (MANAGER_EMAILS and the manager accounts), made from the order about to be written: placing
 * writes them in the statement that writes the order.
 */
export function orderPlacedMail(
  shop: ShopMail,
  placed: Omit<OrderForLetter, 'buyerEmail'>,
  { buyer, managerAccounts }: OrderPlacedRecipients,
): OutgoingMail[] {
  const order = { ...placed, buyerEmail: buyer };
  const toManagers = orderPlacedToManagers(shop, order);
  const managers = new Set([...shop.managerEmails, ...managerAccounts]);
  return [
    { to: buyer, sheetOrderId: order.id, ...orderPlacedToBuyer(shop, order) },
    ...[...managers].map((to) => ({ to, sheetOrderId: order.id, ...toManagers })),
  ];
}

/** The buyer's letter of a change of status, with the order's lines and, attached, its spreadsheet. */
export async function queueStatusChanged(
  tx: Transaction,
  shop: ShopMail,
  orderId: number,
  news: StatusNews,
): Promise<void> {
  const order = await orderForLetter(tx, orderId);
  // A buyer who deleted the account keeps no address: the order goes on for accounting, silently.
  if (order) await queueMail(tx, { to: order.buyerEmail, sheetOrderId: orderId, ...statusChanged(shop, order, news) });
}

/** The invoice to the buyer; its PDF is attached when the message is sent (see mail/outbox-sender). */
export async function queueInvoiceIssued(
  tx: Transaction,
  shop: ShopMail,
  orderId: number,
  invoice: { number: number; date: Date; paymentDays: number },
): Promise<void> {
  const order = await orderForLetter(tx, orderId);
  if (order)
    await queueMail(tx, { to: order.buyerEmail, invoiceOrderId: orderId, ...invoiceIssued(shop, order, invoice) });
}
