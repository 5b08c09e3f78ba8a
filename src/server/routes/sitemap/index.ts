import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { Type } from 'typebox';
import { LIST_PARAMS, PAGE_PATHS, productPath } from '../../../shared/paths';
import { notFound } from '../../api-error';
import { publicOrigin } from '../../public-origin';
import { sitemapIndex, sitemapParts, urlSet } from '../../services/sitemap';
import { CACHED_READ, sendCachedAnswer } from '../cached-answer';
import { errors } from '../common-schemas';

/** An XML answer in the OpenAPI document. */
const xmlFile = (description: string) => ({
  description,
  content: { 'application/xml': { schema: Type.String() } },
});

// Crawlers come back for it now and then; an hour old is fresh enough, and the ETag spares the body after.
const CACHE_CONTROL = 'public, max-age=3600';
const SITEMAP_ANSWER = { type: 'application/xml; charset=utf-8', cacheControl: CACHE_CONTROL };

/**
 * /sitemap.xml (sitemaps.org): the home page, the catalogue's categories, «О компании» and
 * every product on sale. Up to 50 000 addresses it is one file; beyond, an index of
 * /sitemap-1.xml, /sitemap-2.xml… (docs/decisions.md). Made from the database on demand and kept
 * in the catalogue cache, which every catalogue change clears.
 */
const sitemapRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const sitemap = app.repositories.sitemap;

  /**
   * The storefront's own pages, before the products. The catalogue is its categories' addresses:
   * /catalog alone shows the first category and names that address as its canonical one.
   */
  async function pageAddresses(origin: string): Promise<string[]> {
    const categories = await sitemap.categoriesWithProducts();
    return [
      `${origin}${PAGE_PATHS.home}`,
      ...categories.map(
        (category) => `${origin}${PAGE_PATHS.catalogue}?${new URLSearchParams({ [LIST_PARAMS.category]: category })}`,
      ),
      `${origin}${PAGE_PATHS.about}`,
    ];
  }

  /**
   * File `part` (zero-based) of the sitemap, or null past the last one; `root`: /sitemap.xml, the
   * one file when everything fits in it, else the index of the files.
   */
  async function sitemapXml(origin: string, part: number | 'root'): Promise<string | null> {
    const [pages, productCount] = await Promise.all([pageAddresses(origin), sitemap.visibleProductCount()]);
    const parts = sitemapParts(pages.length, productCount);
    if (part === 'root' && parts.count > 1) {
      return sitemapIndex(Array.from({ length: parts.count }, (_, index) => `${origin}/sitemap-${index + 1}.xml`));
    }
    const index = part === 'root' ? 0 : part;
    if (index >= parts.count) return null;
    const slice = parts.part(index);
    const articles = slice.products.limit > 0 ? await sitemap.visibleArticles(slice.products) : [];
    return urlSet([
      ...pages.slice(slice.pages.start, slice.pages.end),
      ...articles.map((art) => `${origin}${productPath(art)}`),
    ]);
  }

  // Keyed by the origin too: the addresses in it are absolute, and without PUBLIC_URL they are the request's.
  async function send(request: FastifyRequest, reply: FastifyReply, part: number | 'root') {
    const origin = publicOrigin(request);
    const answer = await app.catalogueCache.get(`sitemap:${part}:${origin}`, async () => {
      const xml = await sitemapXml(origin, part);
      return xml === null ? null : { body: xml, keep: 'yes' };
    });
    if (!answer) throw notFound('Нет такой части карты сайта');
    return sendCachedAnswer(request, reply, answer, SITEMAP_ANSWER);
  }

  app.get(
    '/sitemap.xml',
    {
      schema: {
        // Files for crawlers at the site's root, not API calls: left out of the API's document.
        hide: true,
        tags: ['crawlers'],
        summary: 'Карта сайта: главная, каталог и его категории, «О компании» и все товары витрины',
        response: {
          200: xmlFile('sitemaps.org urlset; больше 50 000 адресов — sitemapindex из /sitemap-N.xml'),
          304: Type.Null(),
        },
      },
      ...CACHED_READ,
    },
    (request, reply) => send(request, reply, 'root'),
  );

  app.get(
    '/sitemap-:part.xml',
    {
      schema: {
        // Files for crawlers at the site's root, not API calls: left out of the API's document.
        hide: true,
        tags: ['crawlers'],
        summary: 'Часть N карты сайта (по 50 000 адресов), на которую ссылается индекс /sitemap.xml',
        params: Type.Object({ part: Type.Integer({ minimum: 1 }) }),
        response: { 200: xmlFile('sitemaps.org urlset'), 304: Type.Null(), ...errors(404, 422) },
      },
      ...CACHED_READ,
    },
    (request, reply) => send(request, reply, request.params.part - 1),
  );
};

// Encapsulated (its hooks stay on its own routes), and named so that its dependencies are checked.
export default fp(sitemapRoutes, {
  name: 'sitemap-routes',
  encapsulate: true,
  dependencies: ['config', 'database', 'catalogue-cache'],
});
