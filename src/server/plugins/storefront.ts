import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  API_PREFIX,
  apiReadKey,
  imageUrl,
  INITIAL_RESPONSES_ELEMENT_ID,
  type Banner,
  type Product,
  type ProductPage,
} from '../../shared/api';
import { pagePhotosOf } from '../../shared/product-card';
import { PAGE_SIZE } from '../../shared/limits';
import { catalogueFiltersFrom } from '../../shared/catalogueFilters';
import { LIST_PARAMS, listPageIndex, PAGE_CHUNKS, PAGE_PATHS } from '../../shared/paths';
import { notFound } from '../api-error';
import { publicOrigin } from '../public-origin';
import {
  aboutHead,
  catalogueHead,
  homeHead,
  jsonInScript,
  MISSING_PRODUCT_HEAD,
  productHead,
  shellDescription,
  withHead,
  type PageHead,
} from '../services/page-head';

// Webpack names assets by content hash (main.3f9a1c2b.js), so a given URL never changes content.
// A product page's address with its article captured.
const PRODUCT_PAGE = new RegExp(`^${PAGE_PATHS.product.replace(':art', '([^/]+)')}$`);

const HASHED_ASSET = /\.[0-9a-f]{8,}\.(js|css|svg|png|woff2?)(\.(br|gz))?$/;

/**
 * Source maps hold the full TypeScript sources: the build writes them beside the bundles for error
 * reports (without the comment that would point a browser at them), and they are never served.
 */
const SOURCE_MAP = /\.map(\.(br|gz))?$/i;

/**
 * Serves the built storefront: hashed assets cached for a year, pre-compressed copies when the
 * browser accepts them, and index.html (never cached) for every client route.
 */
async function registerStorefront(app: FastifyInstance): Promise<void> {
  const root = app.config.storefrontDir;
  const indexPath = root === null ? null : path.join(root, 'index.html');
  // Read once: the shell page is small and answers every client route.
  const indexHtml = indexPath && existsSync(indexPath) ? await readFile(indexPath) : null;
  const shell = indexHtml?.toString('utf8') ?? '';
  const shopDescription = shellDescription(shell);
  if (root && indexHtml) {
    await app.register(fastifyStatic, {
      root,
      prefix: '/',
      wildcard: false,
      index: false,
      decorateReply: false,
      globIgnore: ['**/*.map', '**/*.map.br', '**/*.map.gz'],
      preCompressed: true,
      cacheControl: false,
      setHeaders(reply, filePath) {
        reply.header('cache-control', HASHED_ASSET.test(filePath) ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }

  /** The storefront's lazily loaded page chunks by name (webpack writes asset-manifest.json). */
  const manifestPath = root === null ? null : path.join(root, 'asset-manifest.json');
  const pageChunks: Record<string, string[]> =
    manifestPath && existsSync(manifestPath) ? JSON.parse(await readFile(manifestPath, 'utf8')) : {};

  /** An API answer as the page would get it (cached catalogue reads, through every hook), or null. */
  async function apiRead(key: string): Promise<string | null> {
    const response = await app.inject({ method: 'GET', url: `/${key}` });
    return response.statusCode === 200 ? response.body : null;
  }

  /**
   * What a page's first render asks the API for, read here and written into the page: the
   * browser would otherwise learn of these requests only after downloading and running the
   * scripts, and of the images in them one round trip later still. Only public catalogue reads.
   * With them, what the page's head says about it to crawlers and link previews (services/page-head).
   */
  async function firstReads(
    pathname: string,
    query: URLSearchParams,
    origin: string,
  ): Promise<{ chunks: string[]; reads: Map<string, string>; images: string[]; head: PageHead } | null> {
    const reads = new Map<string, string>();
    const take = async (key: string) => {
      const body = await apiRead(key);
      if (body !== null) reads.set(key, body);
      return body === null ? null : (JSON.parse(body) as unknown);
    };
    /** The list's page the address names and, when that one is full, the next (read ahead for Forward). */
    const takeListPage = async (
      url: string,
      pageSize: number,
      filters: Record<string, string | number | boolean> = {},
    ) => {
      const page = listPageIndex(query.get(LIST_PARAMS.page), pageSize);
      const pageAt = (index: number) => take(apiReadKey(url, { skip: index * pageSize, limit: pageSize, ...filters }));
      const products = (await pageAt(page)) as Product[] | null;
      if (products?.length === pageSize) await pageAt(page + 1);
      return products;
    };
    if (pathname === PAGE_PATHS.home) {
      const [banners, popular] = (await Promise.all([
        take(apiReadKey(`${API_PREFIX}banners/all`)),
        takeListPage(`${API_PREFIX}products/popular`, PAGE_SIZE.home),
      ])) as [Banner[] | null, Product[] | null];
      return {
        chunks: [PAGE_CHUNKS.home],
        reads,
        images: [...(banners ?? []).slice(0, 1), ...(popular ?? []).slice(0, 2)].map((item) => item.image),
        head: homeHead(origin, listPageIndex(query.get(LIST_PARAMS.page), PAGE_SIZE.home), shopDescription),
      };
    }
    if (pathname === PAGE_PATHS.catalogue) {
      // The address's category, else SPEC §9's first one unless the shopper chose another (the client knows; it asks).
      const categories = ((await take(apiReadKey(`${API_PREFIX}products/categories/all`))) ?? []) as string[];
      const asked = query.get(LIST_PARAMS.category);
      const category = asked && categories.includes(asked) ? asked : categories[0];
      const categoryUrl = category && `${API_PREFIX}products/categories/${encodeURIComponent(category)}`;
      // With the filters and order read from the address as the page reads them: it asks for exactly these.
      const [products] = categoryUrl
        ? await Promise.all([
            takeListPage(categoryUrl, PAGE_SIZE.catalogue, catalogueFiltersFrom(query)),
            take(apiReadKey(`${categoryUrl}/colors`)),
          ])
        : [null];
      return {
        chunks: [PAGE_CHUNKS.catalogue],
        reads,
        images: (products ?? []).slice(0, 2).map((product) => product.image),
        head: catalogueHead(origin, category, listPageIndex(query.get(LIST_PARAMS.page), PAGE_SIZE.catalogue)),
      };
    }
    const productPage = PRODUCT_PAGE.exec(pathname);
    if (productPage) {
      // A path that does not decode throws here, and the page goes out without data (pageFor).
      const art = decodeURIComponent(productPage[1]!);
      const product = (await take(
        apiReadKey(`${API_PREFIX}products/${encodeURIComponent(art)}`),
      )) as ProductPage | null;
      return {
        chunks: [PAGE_CHUNKS.product],
        reads,
        // The photo the page shows first: its first variant's colour's, as the page chooses it.
        images: product ? pagePhotosOf(product, product.variants[0]?.color).slice(0, 1) : [],
        head: product ? productHead(product, origin) : MISSING_PRODUCT_HEAD,
      };
    }
    if (pathname === PAGE_PATHS.about) return { chunks: [], reads, images: [], head: aboutHead(origin) };
    return null;
  }

  /**
   * The shell page with its head, the first reads, their largest images and the page's own scripts
   * named in it.
   */
  async function pageFor(
    request: FastifyRequest,
    pathname: string,
    query: URLSearchParams,
    shellPage: Buffer,
  ): Promise<Buffer | string> {
    let page: Awaited<ReturnType<typeof firstReads>>;
    try {
      page = await firstReads(pathname, query, publicOrigin(request));
    } catch {
      // Without the database the page is still served; it asks for its data itself.
      return shellPage;
    }
    if (!page) return shellPage;
    const files = [...new Set(page.chunks.flatMap((chunk) => pageChunks[chunk] ?? []))];
    // The page's stylesheet too: its chunk renders only once it has arrived, and the script that
    // asks for it runs a round trip after the page (the product page's picture waited for it).
    const preload = (as: 'style' | 'script', extension: string) =>
      files.filter((file) => file.endsWith(extension)).map((file) => `<link rel="preload" as="${as}" href="/${file}">`);
    const scripts = [...preload('style', '.css'), ...preload('script', '.js')];
    const images = page.images.map(
      (image, index) =>
        `<link rel="preload" as="image" href="${imageUrl('/', image)}"${index === 0 ? ' fetchpriority="high"' : ''}>`,
    );
    const answers = jsonInScript([...page.reads].map(([key, body]) => `${JSON.stringify(key)}:${body}`).join(','));
    const data =
      page.reads.size > 0
        ? `<script type="application/json" id="${INITIAL_RESPONSES_ELEMENT_ID}">{${answers}}</script>`
        : '';
    return withHead(shell, page.head, `${images.join('')}${scripts.join('')}${data}`);
  }

  app.setNotFoundHandler(async (request: FastifyRequest, reply: FastifyReply) => {
    const wrongMethod = app.wrongMethod(request, reply);
    if (wrongMethod) throw wrongMethod;
    const pathname = request.url.split('?')[0]!;
    const query = new URLSearchParams(request.url.slice(pathname.length + 1));
    const isPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !pathname.startsWith('/api/') &&
      pathname !== '/api' &&
      !SOURCE_MAP.test(pathname);
    if (!indexHtml || !isPage) throw notFound('Не найдено');
    const page = await pageFor(request, pathname, query, indexHtml);
    return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(page);
  });
}

export default fp(registerStorefront, {
  name: 'storefront',
  dependencies: ['config', 'catalogue-cache', 'allowed-methods'],
});
