/**
 * Routes that fail on purpose, for the suites of what the whole app does with a failure (its
 * answer, its log line): added before the app is ready (createTestApp's `beforeReady`).
 */
import type { FastifyInstance } from 'fastify';

/** What the failing routes carry in their errors: none of it may reach an answer. */
export const SECRET_INTERNALS =
  'connection to /srv/secret-db failed: password=hunter2 at Object.<anonymous> (/app/src/server/app.ts:1:1)';

export function addFailingRoutes(app: FastifyInstance): void {
  app.get('/api/v1/test-only/boom', async () => {
    throw new Error(SECRET_INTERNALS);
  });
  app.get('/api/v1/test-only/type-error', async () => {
    const nothing = null as unknown as { field: string };
    return nothing.field;
  });
  app.get('/api/v1/test-only/database-down', async () => {
    throw Object.assign(new Error(`connect ECONNREFUSED 10.0.0.5:5432 ${SECRET_INTERNALS}`), { code: 'ECONNREFUSED' });
  });
  // A route that knows when to come back says so before failing.
  app.get('/api/v1/test-only/database-down-for-a-minute', async (_request, reply) => {
    reply.header('retry-after', '60');
    throw Object.assign(new Error(`connect ECONNREFUSED 10.0.0.5:5432 ${SECRET_INTERNALS}`), { code: 'ECONNREFUSED' });
  });
}
