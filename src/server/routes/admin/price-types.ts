import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import * as schema from './price-types-schema';

/** The supplier's price types (/api/v1/admin/price-types). */
const priceTypesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { priceTypes } = app.services;

  app.get('/', { schema: schema.listPriceTypes }, () => priceTypes.list());

  app.post('/', { schema: schema.createPriceType }, async (request, reply) => {
    const created = await priceTypes.create(request.body, request.userId);
    app.catalogueCache.invalidate();
    return reply.code(201).send(created);
  });

  app.patch('/:id', { schema: schema.updatePriceType }, async (request) => {
    const updated = await priceTypes.update(request.params.id, request.body, request.userId);
    app.catalogueCache.invalidate();
    return updated;
  });

  app.delete('/:id', { schema: schema.deletePriceType }, async (request, reply) => {
    await priceTypes.remove(request.params.id, request.userId);
    app.catalogueCache.invalidate();
    return reply.code(204).send(null);
  });
};

export default priceTypesRoutes;
