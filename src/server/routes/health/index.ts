import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import fp from 'fastify-plugin';
import { Type } from 'typebox';

const Health = Type.Object({ status: Type.String() });

const healthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/live', { schema: { tags: ['health'], summary: 'Процесс жив', response: { 200: Health } } }, () => ({
    status: 'ok',
  }));

  app.get(
    '/ready',
    {
      schema: {
        tags: ['health'],
        summary: 'Готов обслуживать запросы (база данных доступна, процесс не останавливается)',
        response: { 200: Health, 503: Health },
      },
    },
    async (_request, reply) => {
      // Stopping: still serving what it is sent, but balancers should send it nothing new.
      if (app.isDraining()) return reply.code(503).send({ status: 'shutting down' });
      try {
        await app.database.ping();
        return { status: 'ok' };
      } catch {
        return reply.code(503).send({ status: 'database unavailable' });
      }
    },
  );
};

// Encapsulated (its hooks stay on its own routes), and named so that its dependencies are checked.
export default fp(healthRoutes, { name: 'health-routes', encapsulate: true, dependencies: ['database'] });
