import fp from 'fastify-plugin';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { MESSAGES } from '../../../shared/messages';
import { unauthorized } from '../../api-error';
import { REFRESH_COOKIE } from '../../plugins/authentication';
import { verifyAgainstDecoy, verifyPassword } from '../../services/passwords';
import { createSessions } from '../../services/sessions';
import { createSignInThrottle } from '../../services/sign-in-throttle';
import { normaliseEmail, sameOriginOnly } from './checks';
import * as schema from './schema';
import { sessionCookies } from './session-cookies';
import { admitAttempt } from './throttling';

/** The session: sign-in, the refresh of its access token, and logout. */
const sessionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { users } = app.repositories;
  const sessions = createSessions(app.database.db, app.config, app.sessionRevocations);
  const throttle = createSignInThrottle(app.repositories.signInAttempts, app.config);
  const cookies = sessionCookies(app);
  const sameOrigin = sameOriginOnly(app.config.allowedOrigins);

  app.post('/token', { schema: schema.login, onRequest: sameOrigin }, async (request, reply) => {
    const email = normaliseEmail(request.body.username);
    const user = await users.findCredentials(email);
    // A device cookie counts only for the account it was issued to (an unknown e-mail has none).
    const device = cookies.deviceOf(request, user?.id);
    await admitAttempt(throttle, request, reply, email, device);
    const valid = user
      ? await verifyPassword(request.body.password, user.passwordHash)
      : await verifyAgainstDecoy(request.body.password);
    if (!user || !valid) throw unauthorized(MESSAGES.loginFailed);
    // Null when the password was changed while this one was being checked: it is no longer the password.
    const session = await sessions.start(user.id, user.sessionVersion);
    if (!session) throw unauthorized(MESSAGES.loginFailed);
    await throttle.succeeded(request.ip, email, device);
    cookies.keepDeviceCookie(request, reply, user.id);
    return cookies.grant(request, reply, session);
  });

  app.post('/refresh', { schema: schema.refresh, onRequest: sameOrigin }, async (request, reply) => {
    const session = await sessions.rotate(request.cookies[REFRESH_COOKIE]).catch((error: unknown) => {
      cookies.clearRefreshCookie(request, reply);
      throw error;
    });
    // A browser signed in before device cookies existed (or that lost its own) gets one here.
    cookies.keepDeviceCookie(request, reply, session.userId);
    return cookies.grant(request, reply, session);
  });

  app.post('/logout', { schema: schema.logout, onRequest: sameOrigin }, async (request, reply) => {
    await sessions.end(request.cookies[REFRESH_COOKIE]);
    cookies.clearRefreshCookie(request, reply);
    return reply.code(204).send(null);
  });
};

export default fp(sessionRoutes, {
  name: 'session-routes',
  encapsulate: true,
  dependencies: ['database', 'authentication'],
});
