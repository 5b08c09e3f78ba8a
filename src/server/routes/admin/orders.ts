import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CANCELLED_STATUS } from '../../domain/order-workflow';
import { notFound, unprocessable } from '../../api-error';
import { moscowInstant } from '../../../shared/dates';
import * as schema from './schema';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The first instant of a calendar day in Moscow, the shop's time. */
function moscowDayStart(day: string, field: string): Date {
  // Date rolls 30 February over into March instead of refusing it, so the day is read back.
  const asUtc = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(asUtc.getTime()) || asUtc.toISOString().slice(0, 10) !== day) {
    throw unprocessable(`Некорректные данные: в поле «${field}» нет такого дня: ${day}`);
  }
  return moscowInstant(day);
}

const ordersRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { orders } = app.repositories;

  app.get('/', { schema: schema.listOrders }, async (request) => {
    const { from, to, mine, ...rest } = request.query;
    return orders.listForManagers({
      ...rest,
      managerId: mine ? request.userId : undefined,
      from: from === undefined ? undefined : moscowDayStart(from, 'from'),
      to: to === undefined ? undefined : new Date(moscowDayStart(to, 'to').getTime() + DAY_MS),
    });
  });

  app.get('/:id', { schema: schema.getOrder }, async (request) => {
    const order = await orders.findForManager(request.params.id);
    if (!order) throw notFound('Заказ не найден');
    return order;
  });

  app.post('/:id/status', { schema: schema.changeStatus }, async (request) => {
    const changed = await app.services.orders.changeStatus(request.params.id, {
      to: request.body.status,
      source: 'manager',
      byUserId: request.userId,
      comment: request.body.comment,
      carrier: request.body.carrier,
      trackingNumber: request.body.tracking_number,
    });
    // A cancel puts goods back on the shelf: the storefront must show them at once.
    app.catalogueCache.invalidate();
    if (changed.status === CANCELLED_STATUS) app.metrics.ordersCancelled.inc({ by: 'manager' });
    return changed;
  });

  app.post('/:id/invoice', { schema: schema.issueInvoice }, async (request, reply) => {
    const invoice = await app.services.invoices.issue(request.params.id, {
      byUserId: request.userId,
      now: new Date(),
    });
    return reply.code(201).send(invoice);
  });
};

export default ordersRoutes;
