import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import * as schema from './catalogue-schema';
import { checkedCategoryName, checkedCategoryPatch } from './catalogue-input';

/** Categories (/api/v1/admin/categories); a change is on the storefront when it is answered. */
const categoriesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { categories } = app.services;

  app.get('/', { schema: schema.listCategories }, () => app.repositories.categories.list());

  app.post('/', { schema: schema.createCategory }, async (request, reply) => {
    const body = { ...request.body, name: checkedCategoryName(request.body.name) };
    const created = await categories.create(body, request.userId);
    app.catalogueCache.invalidate();
    return reply.code(201).send(created);
  });

  app.patch('/:id', { schema: schema.updateCategory }, async (request) => {
    const updated = await categories.update(request.params.id, checkedCategoryPatch(request.body), request.userId);
    app.catalogueCache.invalidate();
    return updated;
  });

  app.delete('/:id', { schema: schema.deleteCategory }, async (request, reply) => {
    await categories.remove(request.params.id, request.userId);
    app.catalogueCache.invalidate();
    return reply.code(204).send(null);
  });
};

export default categoriesRoutes;
