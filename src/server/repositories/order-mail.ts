// The messages an order's events send, queued inside the transaction of the event itself, so each
// shows the order as the event left it (a new order's from what its transaction already holds).
import { eq, or } from 'drizzle-orm';
import type { OrderStatus } from '../../shared/api';
import type { Transaction } from '../db/database';
import { orders, users } from '../db/schema';
import type { ShopMail } from '../mail/letter';
import {
  invoiceIssued,
  orderPlacedToBuyer,
  orderPlacedToManagers,
  statusChanged,
  type OrderForLetter,
} from '../mail/order-letters';
import { orderDetailColumns, orderLineRows } from './order-lines';
import { queueMail } from './outbox';

/** The order as its buyer's letters tell it; null when the buyer has deleted the account (nobody to write to). */
async function orderForLetter(tx: Transaction, orderId: number): Promise<OrderForLetter | null> {
  const [order] = await tx
    .select({ ...orderDetailColumns, buyerEmail: users.email })
    .from(orders)
    .innerJoin(users, eq(users.id, orders.userId))
    .where(eq(orders.id, orderId));
  return order ? { ...order, lines: await orderLineRows(tx, orderId) } : null;
}

/** The buyer's e-mail, and every manager's: MANAGER_EMAILS and the accounts with the manager role, each once. */
async function buyerAndManagers(
  tx: Transaction,
  shop: ShopMail,
  buyerId: number,
): Promise<{ buyer: string; managers: string[] }> {
  // One read for both: it runs while the order holds its variants' locks.
  const rows = await tx
    .select({ id: users.id, email: users.email, role: users.role })
    .from(users)
    .where(or(eq(users.id, buyerId), eq(users.role, 'manager')));
  const managers = rows.filter((row) => row.role === 'manager').map(({ email }) => email);
  return {
    buyer: rows.find((row) => row.id === buyerId)!.email,
    managers: [...new Set([...shop.managerEmails, ...managers])],
  };
}

/** The buyer's confirmation and the managers' notice of a new order, made from the order as just written. */
export async function queueOrderPlaced(
  tx: Transaction,
  shop: ShopMail,
  buyerId: number,
  written: Omit<OrderForLetter, 'buyerEmail'>,
): Promise<void> {
  const { buyer, managers } = await buyerAndManagers(tx, shop, buyerId);
  const order = { ...written, buyerEmail: buyer };
  const toManagers = orderPlacedToManagers(shop, order);
  await queueMail(tx, [
    { to: buyer, ...orderPlacedToBuyer(shop, order) },
    ...managers.map((to) => ({ to, ...toManagers })),
  ]);
}

export async function queueStatusChanged(
  tx: Transaction,
  shop: ShopMail,
  orderId: number,
  status: OrderStatus,
  reason?: string,
): Promise<void> {
  const [order] = await tx
    .select({ email: users.email })
    .from(orders)
    .innerJoin(users, eq(users.id, orders.userId))
    .where(eq(orders.id, orderId));
  // A buyer who deleted the account keeps no address: the order goes on for accounting, silently.
  if (order) await queueMail(tx, { to: order.email, ...statusChanged(shop, orderId, status, reason) });
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
