import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { imageUrl, PAGE_SIZE } from '../../shared/api';
import { notFound } from '../errors';

// Webpack names assets by content hash (main.3f9a1c2b.js), so a given URL never changes content.
const HASHED_ASSET = /\.[0-9a-f]{8,}\.(js|css|svg|png|woff2?)(\.(br|gz))?$/;

/**
 * Serves the built storefront: hashed assets cached for a year, pre-compressed copies when the
 * browser accepts them, and index.html (never cached) for every client route.
 */
export async function registerStorefront(app: FastifyInstance): Promise<void> {
  const root = app.config.storefrontDir;
  const indexPath = root === null ? null : path.join(root, 'index.html');
  // Read once: the shell page is small and answers every client route.
  const indexHtml = indexPath && existsSync(indexPath) ? await readFile(indexPath) : null;
  if (root && indexHtml) {
    await app.register(fastifyStatic, {
      root,
      prefix: '/',
      wildcard: false,
      index: false,
      decorateReply: false,
      preCompressed: true,
      cacheControl: false,
      setHeaders(reply, filePath) {
        reply.header('cache-control', HASHED_ASSET.test(filePath) ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }

  /**
   * The home page's largest images (the first banner, the first popular toys) are only known
   * after its script has run and asked the API; naming them in the page lets the browser fetch
   * them alongside the script. Without the database the page is still served, just without hints.
   */
  async function homePage(shell: Buffer): Promise<Buffer> {
    try {
      const [banners, popular] = await Promise.all([
        app.repositories.banners.list(),
        app.repositories.products.listPopular({ skip: 0, limit: PAGE_SIZE.home }),
      ]);
      const images = [...banners.slice(0, 1), ...popular.slice(0, 2)].map((item) => imageUrl('/', item.image));
      const hints = images.map((href, index) => `<link rel="preload" as="image" href="${href}"${index === 0 ? ' fetchpriority="high"' : ''}>`).join('');
      return Buffer.from(shell.toString('utf8').replace('</head>', `${hints}</head>`));
    } catch {
      return shell;
    }
  }

  app.setNotFoundHandler(async (request: FastifyRequest, reply: FastifyReply) => {
    const pathname = request.url.split('?')[0]!;
    const isPage = (request.method === 'GET' || request.method === 'HEAD') && !pathname.startsWith('/api/') && pathname !== '/api';
    if (!indexHtml || !isPage) throw notFound('Не найдено');
    const page = pathname === '/' ? await homePage(indexHtml) : indexHtml;
    return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(page);
  });
}
