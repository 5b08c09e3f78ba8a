import type { FastifyInstance } from 'fastify';
import type { OrderStatus } from '../../../src/shared/api';

/** The way an order goes when nothing goes wrong, each step taken as it is in the shop. */
const HAPPY_PATH: readonly OrderStatus[] = ['Создан', 'Ожидает оплаты', 'Оплачен', 'Отправлен', 'Доставлен'];

/**
 * Test set-up: moves a new order along the state machine up to `status` through the orders
 * repository (the invoice step as issuing an invoice takes it), so every step is checked and
 * written to the history like any other.
 */
export async function advanceOrder(
  app: FastifyInstance,
  orderId: number,
  status: OrderStatus,
  byUserId: number | null = null,
): Promise<void> {
  for (const to of HAPPY_PATH.slice(1, HAPPY_PATH.indexOf(status) + 1)) {
    await app.repositories.orders.changeStatus(orderId, {
      to,
      source: to === 'Ожидает оплаты' ? 'invoice' : 'manager',
      byUserId,
    });
  }
}
