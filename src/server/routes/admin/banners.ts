import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import * as schema from './catalogue-schema';
import { checkedBanner, checkedBannerPatch } from './catalogue-input';

/** The home page's banners (/api/v1/admin/banners), inactive ones too. */
const bannersRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { banners } = app.services;

  app.get('/', { schema: schema.listBanners }, () => app.repositories.banners.listAll());

  app.post('/', { schema: schema.createBanner }, async (request, reply) => {
    const created = await banners.create(await checkedBanner(app, request.body), request.userId);
    app.catalogueCache.invalidate();
    return reply.code(201).send(created);
  });

  app.patch('/:id', { schema: schema.updateBanner }, async (request) => {
    const patch = await checkedBannerPatch(app, request.body);
    const updated = await banners.update(request.params.id, patch, request.userId);
    app.catalogueCache.invalidate();
    return updated;
  });

  app.delete('/:id', { schema: schema.deleteBanner }, async (request, reply) => {
    await banners.remove(request.params.id, request.userId);
    app.catalogueCache.invalidate();
    return reply.code(204).send(null);
  });
};

export default bannersRoutes;
