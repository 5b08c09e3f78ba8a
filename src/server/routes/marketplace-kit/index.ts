import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { notFound, unprocessable } from '../../api-error';
import { assertOwnUser } from '../../plugins/authentication';
import { publicOrigin } from '../../public-origin';
import { isLinkable } from '../../services/download-links';
import { checkKitSize, kitFileName, marketplaceKit } from '../../services/marketplace-kit';
import { MAX_ID } from '../../../shared/schemas/common';
import { attachmentDisposition } from '../attachment';
import * as schema from './schema';

/** The marketplace kit's downloads (services/marketplace-kit.ts) and the links the browser follows to them. */
const marketplaceKitRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { orders, productCards } = app.repositories;
  // A link made by POST /download-links stands for the bearer token on the kit's GET routes alone.
  app.addHook('onRequest', app.authenticateDownload);

  async function sendKit(request: FastifyRequest, reply: FastifyReply, productIds: number[], fileName: string) {
    const { rrpTypeId } = await app.priceViews.catalogueTypes();
    const sources = {
      cards: productCards,
      photos: app.services.marketplacePhotos,
      origin: publicOrigin(request),
      imageDir: app.config.imageDir,
      rrpTypeId,
    };
    return reply
      .type('application/zip')
      .header('content-disposition', attachmentDisposition(fileName))
      .header('cache-control', 'private, no-store')
      .send(marketplaceKit(sources, productIds));
  }

  /** 422 naming the ids that are no visible product. */
  async function visibleSelection(ids: number[]): Promise<number[]> {
    const unique = [...new Set(ids)];
    // An id past the column's range (the link's form takes any 10 digits) is no product either.
    const visible = await productCards.visibleIds(unique.filter((id) => id <= MAX_ID));
    const unknown = unique.filter((id) => !visible.has(id));
    if (unknown.length > 0) throw unprocessable(`Товары не найдены или сняты с продажи: ${unknown.join(', ')}`);
    return unique;
  }

  app.get('/order/:user_id/:id/marketplace-kit', { schema: schema.orderKit }, async (request, reply) => {
    const { user_id, id } = request.params;
    // As the order's own routes (routes/order): another company's order does not exist for this buyer.
    const order = user_id === request.userId ? await orders.findForBuyer(request.member.companyId, id) : null;
    if (!order) throw notFound('Заказ не найден');
    const productIds = await productCards.ofOrder(order.id);
    checkKitSize(productIds, 'order');
    return sendKit(request, reply, productIds, kitFileName({ orderId: order.id }));
  });

  app.get('/cart/:user_id/marketplace-kit', { schema: schema.cartKit }, async (request, reply) => {
    assertOwnUser(request, request.params.user_id);
    const productIds = await productCards.ofCart(request.userId);
    if (productIds.length === 0) throw unprocessable('Корзина пуста: добавьте товары, чтобы собрать карточки');
    checkKitSize(productIds, 'cart');
    return sendKit(request, reply, productIds, kitFileName('cart'));
  });

  app.post('/marketplace-kit', { schema: schema.selectionKit }, async (request, reply) =>
    sendKit(request, reply, await visibleSelection(request.body.products), kitFileName('selection')),
  );

  app.get('/marketplace-kit', { schema: schema.selectionKitByLink }, async (request, reply) =>
    sendKit(
      request,
      reply,
      await visibleSelection(request.query.products.split(',').map(Number)),
      kitFileName('selection'),
    ),
  );

  app.post('/download-links', { schema: schema.downloadLink }, async (request) => {
    const { path } = request.body;
    if (!isLinkable(path)) throw unprocessable('Для этого адреса ссылка для скачивания не выдаётся');
    return { url: app.downloadLinks.urlOf({ userId: request.userId, sessionId: request.sessionId }, path) };
  });
};

// Encapsulated (its hooks stay on its own routes), and named so that its dependencies are checked.
export default fp(marketplaceKitRoutes, {
  name: 'marketplace-kit-routes',
  encapsulate: true,
  dependencies: ['database', 'services', 'authentication', 'catalogue-cache'],
});
