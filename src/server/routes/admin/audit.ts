import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import * as schema from './catalogue-schema';

/** The back office's journal (/api/v1/admin/audit): newest first. */
const auditRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/', { schema: schema.listAudit }, async (request) => {
    const { items, total } = await app.repositories.audit.list(request.query);
    return {
      total,
      items: items.map(({ by_user_id: byUserId, by_email: email, at, ...entry }) => ({
        ...entry,
        at: at.toISOString(),
        // The manager's account may since have been deleted (by_user_id is then null).
        by: byUserId === null || email === null ? null : { id: byUserId, email },
      })),
    };
  });
};

export default auditRoutes;
