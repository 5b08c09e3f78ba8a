import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { notFound } from '../../errors';
import * as schema from './schema';

const productsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { products } = app.repositories;

  app.get('/', { schema: schema.listProducts }, (request) => products.list(request.query));

  app.get('/popular', { schema: schema.popularProducts }, (request) => products.listPopular(request.query));

  app.get('/categories/all', { schema: schema.categoryNames }, () => products.categoryNames());

  app.get('/categories/:category', { schema: schema.productsInCategory }, async (request) => {
    const found = await products.listByCategory(request.params.category, request.query);
    if (!found) throw notFound('Категория не найдена');
    return found;
  });

  app.get('/:art', { schema: schema.productByArt }, async (request) => {
    const product = await products.findByArt(request.params.art);
    if (!product) throw notFound('Товар не найден');
    return product;
  });
};

export default productsRoutes;
