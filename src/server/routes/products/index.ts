import fp from 'fastify-plugin';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { catalogueFiltersProblem, FILTER_PARAMS } from '../../../shared/catalogueFilters';
import { notFound, unprocessable } from '../../api-error';
import { CACHED_READ, sendCachedAnswer } from '../cached-answer';
import * as schema from './schema';
import { searchProducts } from '../../services/product-search';
import { SEARCH_READ_AS_HEADER } from '../../../shared/search';

/** What a catalogue read gives: the answer's data and, for the search, the headers that go with it. */
interface Read {
  data: unknown;
  headers?: Record<string, string>;
}

/** A read whose answer is its data alone (null: not found). */
const dataOnly = (data: Promise<unknown>): Promise<Read | null> =>
  data.then((found) => (found === null ? null : { data: found }));

// Revalidated on every use: stock changes with every order.
const JSON_ANSWER = { type: 'application/json; charset=utf-8', cacheControl: 'no-cache' };

const productsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { products } = app.repositories;

  /**
   * Answers a catalogue read from the cache (serialised once by the route's own response schema,
   * compressed once per encoding), with an ETag so that a browser that has it gets a bodiless 304.
   * `skip`: the answer is a page, not kept when it is empty past the first (every offset beyond
   * the end would be one more); `rare`: kept only when asked for again (CatalogueCache's `asked-again`).
   */
  function cached(
    request: FastifyRequest,
    reply: FastifyReply,
    key: string,
    load: () => Promise<Read | null>,
    { missing, skip = 0, rare = false }: { missing?: string; skip?: number; rare?: boolean } = {},
  ): Promise<void> | undefined {
    // A kept answer is sent at once, without a promise in between: most reads are such.
    const kept = app.catalogueCache.peek(key);
    if (kept) return sendCachedAnswer(request, reply, kept, JSON_ANSWER);
    // Keyed by the validated parameters, not the raw URL: spelling a query differently cannot
    // make the cache keep the same answer twice.
    const made = app.catalogueCache.get(key, async () => {
      const read = await load();
      if (read === null) return null;
      const pastTheEnd = skip > 0 && Array.isArray(read.data) && read.data.length === 0;
      return {
        body: reply.serialize(read.data) as string,
        headers: read.headers,
        keep: pastTheEnd ? 'no' : rare ? 'asked-again' : 'yes',
      };
    });
    return made.then((answer) => {
      if (!answer) throw notFound(missing ?? 'Не найдено');
      return sendCachedAnswer(request, reply, answer, JSON_ANSWER);
    });
  }

  app.get('/', { schema: schema.listProducts, ...CACHED_READ }, (request, reply) => {
    const { skip, limit } = request.query;
    return cached(request, reply, `list:${skip}:${limit}`, () => dataOnly(products.list(request.query)), { skip });
  });

  app.get('/popular', { schema: schema.popularProducts, ...CACHED_READ }, (request, reply) => {
    const { skip, limit } = request.query;
    return cached(request, reply, `popular:${skip}:${limit}`, () => dataOnly(products.listPopular(request.query)), {
      skip,
    });
  });

  app.get('/categories/all', { schema: schema.categoryNames, ...CACHED_READ }, (request, reply) =>
    cached(request, reply, 'categories', () => dataOnly(products.categoryNames())),
  );

  app.get('/categories/:category', { schema: schema.productsInCategory, ...CACHED_READ }, (request, reply) => {
    const { category } = request.params;
    const { skip, limit } = request.query;
    const problem = catalogueFiltersProblem(request.query);
    if (problem) throw unprocessable(problem);
    // The filters in a fixed order, absent ones (and in_stock=false, which filters nothing) as null;
    // JSON quotes a colour, so the key stays unambiguous. A page without any (most are) has a short
    // key of its own: the key is made and hashed on every read.
    const values = FILTER_PARAMS.map((name) => (request.query[name] === false ? null : (request.query[name] ?? null)));
    const plain = values.every((value) => value === null);
    // A page filtered by values (not only sorted) is one of countless combinations, most asked once.
    const filtered = values.some((value, index) => value !== null && FILTER_PARAMS[index] !== 'sort');
    return cached(
      request,
      reply,
      plain
        ? `category:${skip}:${limit}:${category}`
        : `category-with:${skip}:${limit}:${JSON.stringify(values)}:${category}`,
      () => dataOnly(products.listByCategory(category, request.query)),
      { missing: 'Категория не найдена', skip, rare: filtered },
    );
  });

  app.get('/categories/:category/colors', { schema: schema.categoryColors, ...CACHED_READ }, (request, reply) =>
    cached(
      request,
      reply,
      `colors:${request.params.category}`,
      () => dataOnly(products.categoryColors(request.params.category)),
      { missing: 'Категория не найдена' },
    ),
  );

  app.get('/search', { schema: schema.searchProducts, ...CACHED_READ }, (request, reply) => {
    const { skip, limit } = request.query;
    // Search ignores case and spacing, so «Мишка  » and «мишка» share one cached answer.
    const query = request.query.q.trim().replace(/\s+/g, ' ').toLowerCase();
    if (!query) throw unprocessable('Введите, что искать: слово из названия или артикул');
    // Free text: most queries are asked once, and each would otherwise take a place.
    return cached(
      request,
      reply,
      `search:${skip}:${limit}:${query}`,
      async (): Promise<Read> => {
        const { products: found, readAs } = await searchProducts(products, query, request.query);
        return { data: found, headers: readAs === null ? {} : { [SEARCH_READ_AS_HEADER]: encodeURIComponent(readAs) } };
      },
      {
        skip,
        rare: true,
      },
    );
  });

  // Not cached: its keys would be every combination of articles a checkout can hold.
  app.post('/by-arts', { schema: schema.productsByArts }, (request) => products.findByArts(request.body.arts));

  app.get('/:art', { schema: schema.productByArt, ...CACHED_READ }, (request, reply) =>
    cached(request, reply, `art:${request.params.art}`, () => dataOnly(products.findByArt(request.params.art)), {
      missing: 'Товар не найден',
    }),
  );
};

// Encapsulated (its hooks stay on its own routes), and named so that its dependencies are checked.
export default fp(productsRoutes, {
  name: 'products-routes',
  encapsulate: true,
  dependencies: ['database', 'catalogue-cache'],
});
