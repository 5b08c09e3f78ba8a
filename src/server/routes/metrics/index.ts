import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import fp from 'fastify-plugin';
import { Type } from 'typebox';
import { notFound, unauthorized } from '../../api-error';
import { bearerToken } from '../../plugins/authentication';
import { errors } from '../common-schemas';

/** Equal tokens, compared in a time that does not tell where they differ (their digests have one length). */
function sameToken(given: string, expected: string): boolean {
  const digest = (token: string) => createHash('sha256').update(token).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/**
 * GET /metrics on the shop's own port, for `Authorization: Bearer <METRICS_TOKEN>` only; without
 * METRICS_TOKEN it is not found, whatever is sent (METRICS_PORT serves metrics on a port of their
 * own: plugins/metrics.ts). Never passed on by the nginx of deploy/.
 */
const metricsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { token } = app.config.metrics;
  const { registry } = app.metrics;
  app.get(
    '/metrics',
    {
      schema: {
        // In the document only where it is served; the storefront never calls it.
        hide: token === null,
        tags: ['operations'],
        summary: 'Метрики процесса в формате Prometheus, по токену METRICS_TOKEN (README, «Metrics»)',
        security: [{ metricsToken: [] }],
        response: {
          200: {
            description: 'Prometheus text exposition format 0.0.4',
            content: { 'text/plain': { schema: Type.String() } },
          },
          ...errors(401, 404),
        },
      },
    },
    async (request, reply) => {
      if (token === null) throw notFound('Не найдено');
      reply.header('cache-control', 'no-store');
      const given = bearerToken(request.headers.authorization);
      if (given === null || !sameToken(given, token)) {
        reply.header('www-authenticate', 'Bearer realm="metrics"');
        throw unauthorized('Нужен токен метрик: Authorization: Bearer <METRICS_TOKEN>');
      }
      return reply.type(registry.contentType).send(await registry.metrics());
    },
  );
};

// Encapsulated (its hooks stay on its own routes), and named so that its dependencies are checked.
export default fp(metricsRoutes, { name: 'metrics-routes', encapsulate: true, dependencies: ['config', 'metrics'] });
