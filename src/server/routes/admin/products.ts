import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { notFound } from '../../api-error';
import * as schema from './catalogue-schema';
import { putProductPrices } from './price-types-schema';
import { checkedPhotos, checkedProduct, checkedProductPatch, checkedVariant } from './catalogue-input';

/**
 * Products (/api/v1/admin/products). Each change commits, then drops this process's catalogue
 * cache before answering (other processes drop theirs on the transaction's NOTIFY), so the
 * storefront shows it at once.
 */
const productsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { adminProducts } = app.services;

  app.get('/', { schema: schema.listProducts }, (request) => app.repositories.adminProducts.list(request.query));

  app.get('/:id', { schema: schema.getProduct }, async (request) => {
    const product = await app.repositories.adminProducts.find(request.params.id);
    if (!product) throw notFound('Товар не найден');
    return product;
  });

  app.post('/', { schema: schema.createProduct }, async (request, reply) => {
    const created = await adminProducts.create(await checkedProduct(app, request.body), request.userId);
    app.catalogueCache.invalidate();
    return reply.code(201).send(created);
  });

  app.patch('/:id', { schema: schema.updateProduct }, async (request) => {
    const patch = await checkedProductPatch(app, request.body);
    const updated = await adminProducts.update(request.params.id, patch, request.userId);
    app.catalogueCache.invalidate();
    return updated;
  });

  app.put('/:id/prices', { schema: putProductPrices }, async (request) => {
    const updated = await app.services.priceTypes.setProductTiers(request.params.id, request.body, request.userId);
    app.catalogueCache.invalidate();
    return updated;
  });

  app.put('/:id/photos', { schema: schema.putProductPhotos }, async (request) => {
    const sets = await checkedPhotos(app, request.body);
    const updated = await adminProducts.setPhotos(request.params.id, sets, request.userId);
    app.catalogueCache.invalidate();
    return updated;
  });

  app.delete('/:id', { schema: schema.hideProduct }, async (request) => {
    const hidden = await adminProducts.hide(request.params.id, request.userId);
    app.catalogueCache.invalidate();
    return hidden;
  });

  app.post('/:id/variants', { schema: schema.addVariant }, async (request, reply) => {
    const variant = checkedVariant(request.body);
    const added = await adminProducts.addVariant(request.params.id, variant, request.userId);
    app.catalogueCache.invalidate();
    return reply.code(201).send(added);
  });
};

export default productsRoutes;
