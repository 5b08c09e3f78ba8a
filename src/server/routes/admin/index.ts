import fp from 'fastify-plugin';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import catalogueRoutes from './catalogue';
import imagesRoutes from './images';
import ordersRoutes from './orders';
import settingsRoutes from './settings';

/**
 * The back office's API. Every route under it is for managers only: the hook runs before the body
 * is parsed, and reads the role from the database on each request.
 */
const adminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('onRequest', app.authenticateManager);
  await app.register(ordersRoutes, { prefix: '/orders' });
  await app.register(settingsRoutes, { prefix: '/settings' });
  await app.register(imagesRoutes, { prefix: '/images' });
  await app.register(catalogueRoutes, { prefix: '/catalogue' });
};

// Encapsulated (its hook stays on its own routes), and named so that its dependencies are checked.
export default fp(adminRoutes, {
  name: 'admin-routes',
  encapsulate: true,
  dependencies: ['database', 'authentication', 'catalogue-cache'],
});
