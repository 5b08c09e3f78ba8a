import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Nullable } from '../common-schemas';

const BannerSchema = Type.Object({ id: Type.Integer(), image: Type.String(), url: Nullable(Type.String()) });

const bannersRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/all',
    { schema: { tags: ['banners'], summary: 'Баннеры главной страницы', response: { 200: Type.Array(BannerSchema) } } },
    () => app.repositories.banners.list(),
  );
};

export default bannersRoutes;
