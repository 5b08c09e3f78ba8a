import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import * as schema from './catalogue-schema';
import { putVariantPrices } from './price-types-schema';
import { checkedVariantPatch } from './catalogue-input';

/** Variants (/api/v1/admin/variants), created under their product (products.ts). */
const variantsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { adminProducts } = app.services;

  app.patch('/:id', { schema: schema.updateVariant }, async (request) => {
    const patch = checkedVariantPatch(request.body);
    const updated = await adminProducts.updateVariant(request.params.id, patch, request.userId);
    app.catalogueCache.invalidate();
    return updated;
  });

  app.put('/:id/prices', { schema: putVariantPrices }, async (request) => {
    const updated = await app.services.priceTypes.setVariantPrices(request.params.id, request.body, request.userId);
    app.catalogueCache.invalidate();
    return updated;
  });

  app.delete('/:id', { schema: schema.deleteVariant }, async (request, reply) => {
    await adminProducts.removeVariant(request.params.id, request.userId);
    app.catalogueCache.invalidate();
    return reply.code(204).send(null);
  });
};

export default variantsRoutes;
