import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { notFound } from '../../api-error';
import * as schema from './schema';

const buyersRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.put('/:id/trusted', { schema: schema.setBuyerTrusted }, async (request) => {
    const buyer = await app.repositories.users.setTrusted(request.params.id, request.body.trusted, request.userId);
    if (!buyer) throw notFound('Покупатель не найден');
    return buyer;
  });
};

export default buyersRoutes;
