import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import fp from 'fastify-plugin';
import { Type } from 'typebox';
import { BannerSchema } from '../../../shared/schemas/products';

const bannersRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/all',
    { schema: { tags: ['banners'], summary: 'Баннеры главной страницы', response: { 200: Type.Array(BannerSchema) } } },
    () => app.repositories.banners.list(),
  );
};

// Encapsulated (its hooks stay on its own routes), and named so that its dependencies are checked.
export default fp(bannersRoutes, { name: 'banners-routes', encapsulate: true, dependencies: ['database'] });
