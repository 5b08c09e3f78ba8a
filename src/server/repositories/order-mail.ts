// The messages an order's events send, queued inside the transaction of the event itself: read
// here, in that transaction, so each message shows the order as the event left it.
import { eq } from 'drizzle-orm';
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
import { orderLineRows } from './order-lines';
import { queueMail } from './outbox';

async function orderForLetter(tx: Transaction, orderId: number): Promise<OrderForLetter> {
  const [order] = await tx
    .select({
      id: orders.id,
      createdAt: orders.createdAt,
      totalPrice: orders.totalPrice,
      buyerEmail: users.email,
      contactName: orders.contactName,
      contactPhone: orders.contactPhone,
      address: orders.address,
      companyName: orders.companyName,
      companyInn: orders.companyInn,
      companyKpp: orders.companyKpp,
    })
    .from(orders)
    .innerJoin(users, eq(users.id, orders.userId))
    .where(eq(orders.id, orderId));
  return { ...order!, lines: await orderLineRows(tx, orderId) };
}

/** MANAGER_EMAILS and every account with the manager role, each once. */
async function managerAddresses(tx: Transaction, shop: ShopMail): Promise<string[]> {
  const managers = await tx.select({ email: users.email }).from(users).where(eq(users.role, 'manager'));
  return [...new Set([...shop.managerEmails, ...managers.map(({ email }) => email)])];
}

/** The buyer's confirmation and the managers' notice of a new order. */
export async function queueOrderPlaced(tx: Transaction, shop: ShopMail, orderId: number): Promise<void> {
  const order = await orderForLetter(tx, orderId);
  const toManagers = orderPlacedToManagers(shop, order);
  await queueMail(tx, [
    { to: order.buyerEmail, ...orderPlacedToBuyer(shop, order) },
    ...(await managerAddresses(tx, shop)).map((to) => ({ to, ...toManagers })),
  ]);
}

export async function queueStatusChanged(
  tx: Transaction,
  shop: ShopMail,
  orderId: number,
  status: OrderStatus,
): Promise<void> {
  const [order] = await tx
    .select({ email: users.email })
    .from(orders)
    .innerJoin(users, eq(users.id, orders.userId))
    .where(eq(orders.id, orderId));
  await queueMail(tx, { to: order!.email, ...statusChanged(shop, orderId, status) });
}

/** The invoice to the buyer; its PDF is attached when the message is sent (see mail/outbox-sender). */
export async function queueInvoiceIssued(
  tx: Transaction,
  shop: ShopMail,
  orderId: number,
  invoice: { number: number; date: Date; paymentDays: number },
): Promise<void> {
  const order = await orderForLetter(tx, orderId);
  await queueMail(tx, { to: order.buyerEmail, invoiceOrderId: orderId, ...invoiceIssued(shop, order, invoice) });
}
