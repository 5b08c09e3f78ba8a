import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import fp from 'fastify-plugin';
import { Type } from 'typebox';
import { imageUrl } from '../../../shared/api';
import { PAGE_PATHS } from '../../../shared/paths';
import { publicOrigin } from '../../public-origin';

/**
 * The storefront is open to crawlers; the buyer's own pages and the back office are not, nor the
 * API, whose public reads the pages already carry in their HTML (plugins/storefront.ts) — except
 * the pictures, which image search and link previews show. Search results are closed too: every
 * query is another address of products the sitemap already lists, and the quick order and the
 * password reset and the address's confirmation (whose links carry a secret token) are forms.
 */
const CLOSED = [
  PAGE_PATHS.cart,
  PAGE_PATHS.checkout,
  PAGE_PATHS.orderSuccess,
  PAGE_PATHS.profile,
  PAGE_PATHS.admin,
  PAGE_PATHS.search,
  PAGE_PATHS.quickOrder,
  PAGE_PATHS.resetPassword,
  PAGE_PATHS.confirmEmail,
  PAGE_PATHS.invitation,
  '/api/',
];
/** The pictures' folder, /api/v1/image/. */
const OPEN = [imageUrl('/', '')];

export function robotsTxt(origin: string): string {
  return [
    'User-agent: *',
    ...OPEN.map((path) => `Allow: ${path}`),
    ...CLOSED.map((path) => `Disallow: ${path}`),
    '',
    `Sitemap: ${origin}/sitemap.xml`,
    '',
  ].join('\n');
}

const robotsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/robots.txt',
    {
      schema: {
        // Files for crawlers at the site's root, not API calls: left out of the API's document.
        hide: true,
        tags: ['crawlers'],
        summary:
          'Правила для поисковых роботов: витрина открыта; корзина, оформление, кабинет, панель менеджера и API закрыты',
        response: { 200: { description: 'robots.txt', content: { 'text/plain': { schema: Type.String() } } } },
      },
    },
    async (request, reply) => {
      reply.type('text/plain; charset=utf-8').header('cache-control', 'public, max-age=86400');
      return robotsTxt(publicOrigin(request));
    },
  );
};

// Encapsulated (its hooks stay on its own routes), and named so that its dependencies are checked.
export default fp(robotsRoutes, { name: 'robots-routes', encapsulate: true, dependencies: ['config'] });
