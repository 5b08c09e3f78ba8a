import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
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

  app.setNotFoundHandler(async (request: FastifyRequest, reply: FastifyReply) => {
    const pathname = request.url.split('?')[0]!;
    const isPage = (request.method === 'GET' || request.method === 'HEAD') && !pathname.startsWith('/api/') && pathname !== '/api';
    if (!indexHtml || !isPage) throw notFound('Не найдено');
    return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(indexHtml);
  });
}
