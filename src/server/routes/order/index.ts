import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { BuyerOrder } from '../../../shared/api';
import { requisitesProblem } from '../../../shared/requisites';
import { notFound, unprocessable } from '../../api-error';
import { invoiceFileNames } from '../../invoices/invoicePdf';
import { keptInvoicePdf } from '../../services/invoice-pdf';
import { assertOwnUser } from '../../plugins/authentication';
import { orderSheetFileName, writeOrderSheet } from '../../services/order-sheet';
import { SPREADSHEET_CONTENT_TYPES } from '../../services/spreadsheet-file';
import { attachmentDisposition } from '../attachment';
import * as schema from './schema';

/** Optional text: blank becomes null, as SPEC §5 asks for the company fields. */
const optional = (value: string | null | undefined) => value?.trim() || null;

const orderRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { invoices, orders, users } = app.repositories;
  // onRequest: a request without a valid token is refused before its body is even parsed or validated.
  app.addHook('onRequest', app.authenticate);

  app.post('/', { schema: schema.placeOrder }, async (request, reply) => {
    const { body, member } = request;
    assertOwnUser(request, body.user_id);
    const address = body.address.trim();
    if (!address) throw unprocessable('Укажите адрес доставки');
    const companyInn = optional(body.company_inn);
    const companyKpp = optional(body.company_kpp);
    const requisitesRefused = requisitesProblem(companyInn, companyKpp);
    if (requisitesRefused) throw unprocessable(requisitesRefused);
    const contactName = optional(body.contact_name);
    // The legal entity named, or the company's one of the typed ИНН and КПП: its details are what
    // the order (and the invoice) print.
    const madeOutTo = await app.services.companies.orderRequisites(member, {
      legalEntityId: body.legal_entity_id ?? undefined,
      name: optional(body.company_name),
      inn: companyInn,
      kpp: companyKpp,
    });
    const details = {
      address,
      contactName,
      contactPhone: optional(body.contact_phone),
      ...madeOutTo,
      items: body.items,
    };
    const key = request.headers['idempotency-key'];
    const { order, replayed } = await app.services.orders.place(
      {
        userId: request.userId,
        companyId: member.companyId,
        placedByName: contactName ?? (await app.services.companies.emailOf(request.userId)),
        ...details,
        cartVersion: body.cart_version,
        // The digest is of the order as understood (trimmed, blanks as null): the same order
        // retried is recognised, a different one under the same key is refused.
        idempotency: key
          ? { key, digest: createHash('sha256').update(JSON.stringify(details)).digest('base64url') }
          : undefined,
      },
      member,
    );
    // Before answering: the buyer's next look at the product must show the new stock.
    app.catalogueCache.invalidate();
    if (replayed) reply.header('idempotent-replayed', 'true');
    else app.metrics.ordersCreated.inc();
    return reply.code(201).send(order);
  });

  // The company's orders for every employee, each naming who placed it; the total of those the
  // filters find in X-Total-Count, the answer staying SPEC's array.
  app.get('/:user_id', { schema: schema.listOrders }, async (request, reply) => {
    assertOwnUser(request, request.params.user_id);
    const { items, total } = await orders.listForCompany(request.member.companyId, request.query);
    reply.header('x-total-count', String(total));
    return items;
  });

  /** Another company's order, or an order under someone else's id, does not exist for this buyer. */
  async function ownOrder(request: FastifyRequest, params: { user_id: number; id: number }): Promise<BuyerOrder> {
    const order =
      params.user_id === request.userId ? await orders.findForBuyer(request.member.companyId, params.id) : null;
    if (!order) throw notFound('Заказ не найден');
    return order;
  }

  app.get('/:user_id/:id', { schema: schema.buyerOrder }, (request) => ownOrder(request, request.params));

  app.get('/:user_id/:id/export', { schema: schema.orderSheet }, async (request, reply) => {
    const order = await ownOrder(request, request.params);
    return reply
      .type(SPREADSHEET_CONTENT_TYPES.xlsx)
      .header('content-disposition', attachmentDisposition(orderSheetFileName(order.id), `order-${order.id}.xlsx`))
      .header('cache-control', 'private, no-store')
      .send(await writeOrderSheet(order));
  });

  app.get('/:id/status', { schema: schema.orderStatus }, async (request) => {
    const status = await orders.statusFor(request.member.companyId, request.params.id);
    if (!status) throw notFound('Заказ не найден');
    return status;
  });

  // Every employee of the buyer's company downloads the invoice from the profile, a manager from
  // the back office; for anyone else the order has no invoice, as if it did not exist. The role
  // is read now, not from the token.
  app.get('/:id/invoice', { schema: schema.invoicePdf }, async (request, reply) => {
    const orderId = request.params.id;
    const issued = await invoices.findIssued(orderId);
    const allowed =
      issued !== null &&
      (issued.companyId === request.member.companyId || (await users.findById(request.userId))?.role === 'manager');
    if (!allowed) throw notFound('Счёт по этому заказу не выставлен');
    const pdf = await keptInvoicePdf(invoices, orderId, issued);
    const { name, ascii } = invoiceFileNames(issued);
    return reply
      .type('application/pdf')
      .header('content-disposition', attachmentDisposition(name, ascii))
      .header('cache-control', 'private, no-store')
      .send(pdf);
  });

  app.delete('/:id', { schema: schema.cancelOrder }, async (request) => {
    const cancelled = await app.services.orders.cancel(request.member, request.params.id);
    app.catalogueCache.invalidate();
    app.metrics.ordersCancelled.inc({ by: 'buyer' });
    return cancelled;
  });
};

// Encapsulated (its hooks stay on its own routes), and named so that its dependencies are checked.
export default fp(orderRoutes, {
  name: 'order-routes',
  encapsulate: true,
  dependencies: ['database', 'services', 'authentication', 'catalogue-cache', 'metrics'],
});
