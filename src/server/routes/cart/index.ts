import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import fp from 'fastify-plugin';
import { notFound } from '../../api-error';
import { assertOwnUser } from '../../plugins/authentication';
import quickOrderRoutes from './quick-order';
import * as schema from './schema';

const COUNT_CHANGED_ELSEWHERE = 'Количество изменилось в другой вкладке или на другом устройстве.';

const cartRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { cart } = app.repositories;
  const carts = app.services.cart;
  // onRequest: a request without a valid token is refused before its body is even parsed or validated.
  app.addHook('onRequest', app.authenticate);

  app.get('/:user_id', { schema: schema.getCart }, (request) => {
    assertOwnUser(request, request.params.user_id);
    return carts.view(request.member);
  });

  app.put('/count', { schema: schema.setCount }, async (request, reply) => {
    const { item_id, count, expected } = request.query;
    const result = await carts.setCount(request.member, item_id, count, expected);
    if (result.status === 'not-found') throw notFound('Товар в корзине не найден');
    if (result.status === 'conflict') {
      return reply.code(409).send({ detail: COUNT_CHANGED_ELSEWHERE, item: result.item });
    }
    return { detail: 'Количество изменено' };
  });

  app.post('/add', { schema: schema.addToCart }, async (request, reply) => {
    const { user_id, ...line } = request.body;
    assertOwnUser(request, user_id);
    const itemId = await carts.add(request.member, line);
    return reply.code(201).send({ id: itemId, detail: 'Товар добавлен в корзину' });
  });

  app.post('/bulk', { schema: schema.addManyToCart }, async (request) => {
    const { user_id, items } = request.body;
    assertOwnUser(request, user_id);
    await carts.addMany(request.member, items);
    return carts.view(request.member);
  });

  app.delete('/:item_id', { schema: schema.removeItem }, async (request) => {
    if (!(await cart.remove(request.userId, request.params.item_id))) throw notFound('Товар в корзине не найден');
    return { detail: 'Товар удалён из корзины' };
  });

  // Its own context: the import's text and file bodies stay refused (415) on the routes above.
  await app.register(quickOrderRoutes);
};

// Encapsulated (its hooks stay on its own routes), and named so that its dependencies are checked.
export default fp(cartRoutes, {
  name: 'cart-routes',
  encapsulate: true,
  dependencies: ['database', 'services', 'authentication'],
});
