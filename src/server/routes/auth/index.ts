import fastifyCookie from '@fastify/cookie';
import fp from 'fastify-plugin';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import accountRoutes from './account';
import passwordResetRoutes from './password-reset';
import sessionRoutes from './session';

/**
 * The auth calls, one plugin per topic. Only these read or set cookies: @fastify/cookie is
 * registered here, so its two hooks stay off every other request.
 */
const authRoutes: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(fastifyCookie);
  await app.register(sessionRoutes);
  await app.register(accountRoutes);
  await app.register(passwordResetRoutes);
};

// Encapsulated (its hooks stay on its own routes), and named so that its dependencies are checked.
export default fp(authRoutes, {
  name: 'auth-routes',
  encapsulate: true,
  dependencies: ['database', 'services', 'authentication'],
});
