import { negotiate } from '@fastify/accept-negotiator';
import fp from 'fastify-plugin';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { notFound, unprocessable } from '../../errors';
import type { ContentEncoding } from '../../services/catalogue-cache';
import * as schema from './schema';

const ENCODINGS: ContentEncoding[] = ['br', 'gzip'];

// These answers are compressed once, in the cache; @fastify/compress's hooks would only look at each.
const OWN_ENCODING = { compress: false, decompress: false } as const;

const productsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { products } = app.repositories;

  /**
   * Answers a catalogue read from the cache (serialised once by the route's own response schema,
   * compressed once per encoding), with an ETag so that a browser that has it gets a bodiless 304.
   */
  async function cached(
    request: FastifyRequest,
    reply: FastifyReply,
    key: string,
    load: () => Promise<unknown>,
    missing?: string,
  ) {
    // Keyed by the validated parameters, not the raw URL: spelling a query differently cannot
    // make the cache keep the same answer twice.
    const answer = await app.catalogueCache.get(key, async () => {
      const data = await load();
      return data === null ? null : (reply.serialize(data) as string);
    });
    if (!answer) throw notFound(missing ?? 'Не найдено');
    // Revalidated on every use: stock changes with every order.
    reply.header('cache-control', 'no-cache').header('etag', answer.etag).header('vary', 'accept-encoding');
    if (request.headers['if-none-match'] === answer.etag) return reply.code(304).send();
    reply.type('application/json; charset=utf-8');
    const accepted = request.headers['accept-encoding'];
    const encoding = accepted ? (negotiate(accepted.toLowerCase(), ENCODINGS) as ContentEncoding | null) : null;
    if (!encoding) return reply.send(answer.body);
    return reply.header('content-encoding', encoding).send(await answer.compressed(encoding));
  }

  app.get('/', { schema: schema.listProducts, ...OWN_ENCODING }, (request, reply) => {
    const { skip, limit } = request.query;
    return cached(request, reply, `list:${skip}:${limit}`, () => products.list(request.query));
  });

  app.get('/popular', { schema: schema.popularProducts, ...OWN_ENCODING }, (request, reply) => {
    const { skip, limit } = request.query;
    return cached(request, reply, `popular:${skip}:${limit}`, () => products.listPopular(request.query));
  });

  app.get('/categories/all', { schema: schema.categoryNames, ...OWN_ENCODING }, (request, reply) =>
    cached(request, reply, 'categories', () => products.categoryNames()),
  );

  app.get('/categories/:category', { schema: schema.productsInCategory, ...OWN_ENCODING }, (request, reply) => {
    const { category } = request.params;
    const { skip, limit } = request.query;
    return cached(
      request,
      reply,
      `category:${skip}:${limit}:${category}`,
      () => products.listByCategory(category, request.query),
      'Категория не найдена',
    );
  });

  app.get('/search', { schema: schema.searchProducts, ...OWN_ENCODING }, (request, reply) => {
    const { skip, limit } = request.query;
    // Search ignores case and spacing, so «Мишка  » and «мишка» share one cached answer.
    const query = request.query.q.trim().replace(/\s+/g, ' ').toLowerCase();
    if (!query) throw unprocessable('Введите, что искать: слово из названия или артикул');
    return cached(request, reply, `search:${skip}:${limit}:${query}`, () => products.search(query, request.query));
  });

  app.get('/:art', { schema: schema.productByArt, ...OWN_ENCODING }, (request, reply) =>
    cached(
      request,
      reply,
      `art:${request.params.art}`,
      () => products.findByArt(request.params.art),
      'Товар не найден',
    ),
  );
};

// Encapsulated (its hooks stay on its own routes), and named so that its dependencies are checked.
export default fp(productsRoutes, {
  name: 'products-routes',
  encapsulate: true,
  dependencies: ['database', 'catalogue-cache'],
});
