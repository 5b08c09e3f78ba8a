import fp from 'fastify-plugin';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { catalogueFiltersProblem, FILTER_PARAMS } from '../../../shared/catalogueFilters';
import { notFound, unauthorized, unprocessable } from '../../api-error';
import { CACHED_READ, cachedAnswerNow, sendCachedAnswer } from '../cached-answer';
import * as schema from './schema';
import { searchProducts } from '../../services/product-search';
import { SEARCH_READ_AS_HEADER } from '../../../shared/search';
import { bearerToken } from '../../plugins/authentication';
import type { PriceView } from '../../domain/wholesale-price';

/** What a catalogue read gives: the answer's data and, for the search, the headers that go with it. */
interface Read {
  data: unknown;
  headers?: Record<string, string>;
}

/** A read whose answer is its data alone (null: not found). */
const dataOnly = (data: Promise<unknown>): Promise<Read | null> =>
  data.then((found) => (found === null ? null : { data: found }));

// Revalidated on every use: stock changes with every order. A signed-in buyer's prices are their
// company's: kept by no shared cache, and told apart from a visitor's by the browser's own.
const VARY = 'accept-encoding, authorization';
const VISITOR_ANSWER = { type: 'application/json; charset=utf-8', cacheControl: 'no-cache', vary: VARY };
const BUYER_ANSWER = { ...VISITOR_ANSWER, cacheControl: 'private, no-cache' };
/** The view of the reads that hold no price. */
const UNPRICED: PriceView = { key: 'all', types: null, rrpTypeId: null };

const productsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { products } = app.repositories;
  const { priceViews } = app;

  /**
   * The prices the caller sees: a visitor's, or a signed-in buyer's company's. A bearer token that
   * is no longer valid is refused (401) rather than answered as a visitor: the storefront renews
   * its session and asks again, and never shows a buyer the visitors' prices meanwhile.
   */
  function callerView(request: FastifyRequest): PriceView | Promise<PriceView> {
    // Known at once, once the visitors' prices or the buyer's token and view have been seen.
    const known = callerViewNow(request.headers.authorization);
    if (known) return known;
    if (bearerToken(request.headers.authorization) === null) return priceViews.forVisitor();
    return Promise.resolve(app.identify(request)).then(async (userId) => {
      const view = priceViews.buyerNow(userId) ?? (await priceViews.forBuyer(userId));
      if (!view) throw unauthorized('Сессия истекла или недействительна. Войдите снова.');
      return view;
    });
  }

  /** `callerView` if it is known without waiting; undefined otherwise (and for a token to refuse). */
  function callerViewNow(authorization: string | undefined): PriceView | undefined {
    if (bearerToken(authorization) === null) return priceViews.visitorNow();
    const userId = app.identifyNow(authorization);
    return userId === undefined ? undefined : priceViews.buyerNow(userId);
  }

  /** A signed-in buyer's answers are theirs: kept by no shared cache. */
  const answerOptionsOf = (authorization: string | undefined, view: PriceView) =>
    authorization && view !== UNPRICED ? BUYER_ANSWER : VISITOR_ANSWER;

  /**
   * After a GET answered with an answer the cache keeps (a page past the end, a search asked once
   * are not kept): the same address is answered in front of the router from now on while its
   * answer is kept (kept-reads.ts), with the view and the answer found as here.
   */
  function rememberKept(request: FastifyRequest, readKey: string, priced: boolean): void {
    if (request.method !== 'GET') return;
    app.keptReads.remember(request.url, request.routeOptions.url ?? request.url, (headers) => {
      const view = priced ? callerViewNow(headers.authorization) : UNPRICED;
      const kept = view && app.catalogueCache.peek(`${view.key}|${readKey}`);
      return kept && cachedAnswerNow(headers, kept, answerOptionsOf(headers.authorization, view));
    });
  }

  /**
   * Answers a catalogue read from the cache (serialised once by the route's own response schema,
   * compressed once per encoding), with an ETag so that a browser that has it gets a bodiless 304.
   * `skip`: the answer is a page, not kept when it is empty past the first (every offset beyond
   * the end would be one more); `rare`: kept only when asked for again (CatalogueCache's `asked-again`).
   */
  function cached(
    request: FastifyRequest,
    reply: FastifyReply,
    readKey: string,
    load: (view: PriceView) => Promise<Read | null>,
    options: { missing?: string; skip?: number; rare?: boolean; priced?: boolean } = {},
  ): Promise<void> | undefined {
    // The category names and colours hold no price: one answer for everybody, whatever the token.
    const priced = options.priced !== false;
    const view = priced ? callerView(request) : UNPRICED;
    return 'key' in view
      ? cachedIn(view, request, reply, readKey, priced, load, options)
      : view.then((known) => cachedIn(known, request, reply, readKey, priced, load, options));
  }

  /** `cached` once the caller's prices are known: the answers are kept per price type. */
  function cachedIn(
    view: PriceView,
    request: FastifyRequest,
    reply: FastifyReply,
    readKey: string,
    priced: boolean,
    load: (view: PriceView) => Promise<Read | null>,
    { missing, skip = 0, rare = false }: { missing?: string; skip?: number; rare?: boolean },
  ): Promise<void> | undefined {
    const answerOptions = answerOptionsOf(request.headers.authorization, view);
    const key = `${view.key}|${readKey}`;
    // A kept answer is sent at once, without a promise in between: most reads are such.
    const kept = app.catalogueCache.peek(key);
    if (kept) {
      rememberKept(request, readKey, priced);
      return sendCachedAnswer(request, reply, kept, answerOptions);
    }
    // Keyed by the validated parameters, not the raw URL: spelling a query differently cannot
    // make the cache keep the same answer twice.
    const made = app.catalogueCache.get(key, async () => {
      const read = await load(view);
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
      return sendCachedAnswer(request, reply, answer, answerOptions);
    });
  }

  app.get('/', { schema: schema.listProducts, ...CACHED_READ }, (request, reply) => {
    const { skip, limit } = request.query;
    return cached(request, reply, `list:${skip}:${limit}`, (view) => dataOnly(products.list(request.query, view)), {
      skip,
    });
  });

  app.get('/popular', { schema: schema.popularProducts, ...CACHED_READ }, (request, reply) => {
    const { skip, limit } = request.query;
    return cached(
      request,
      reply,
      `popular:${skip}:${limit}`,
      (view) => dataOnly(products.listPopular(request.query, view)),
      {
        skip,
      },
    );
  });

  app.get('/categories/all', { schema: schema.categoryNames, ...CACHED_READ }, (request, reply) =>
    cached(request, reply, 'categories', () => dataOnly(products.categoryNames()), { priced: false }),
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
      (view) => dataOnly(products.listByCategory(category, request.query, view)),
      { missing: 'Категория не найдена', skip, rare: filtered },
    );
  });

  app.get('/categories/:category/colors', { schema: schema.categoryColors, ...CACHED_READ }, (request, reply) =>
    cached(
      request,
      reply,
      `colors:${request.params.category}`,
      () => dataOnly(products.categoryColors(request.params.category)),
      { missing: 'Категория не найдена', priced: false },
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
      async (view): Promise<Read> => {
        const { products: found, readAs } = await searchProducts(products, query, request.query, view);
        return { data: found, headers: readAs === null ? {} : { [SEARCH_READ_AS_HEADER]: encodeURIComponent(readAs) } };
      },
      {
        skip,
        rare: true,
      },
    );
  });

  // Not cached: its keys would be every combination of articles a checkout can hold.
  app.post('/by-arts', { schema: schema.productsByArts }, async (request, reply) => {
    reply.header('cache-control', 'private, no-store');
    return products.findByArts(request.body.arts, await callerView(request));
  });

  app.get('/:art', { schema: schema.productByArt, ...CACHED_READ }, (request, reply) =>
    cached(
      request,
      reply,
      `art:${request.params.art}`,
      (view) => dataOnly(app.repositories.productPage.find(request.params.art, view)),
      {
        missing: 'Товар не найден',
      },
    ),
  );
};

// Encapsulated (its hooks stay on its own routes), and named so that its dependencies are checked.
export default fp(productsRoutes, {
  name: 'products-routes',
  encapsulate: true,
  dependencies: ['database', 'catalogue-cache'],
});
