import { setTimeout as sleep } from 'node:timers/promises';
import fp from 'fastify-plugin';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ACCOUNT_MESSAGES } from '../../../shared/account';
import { ApiError } from '../../api-error';
import { hashPassword } from '../../services/passwords';
import { createSignInThrottle, LETTER_LIMITS, throttledClient } from '../../services/sign-in-throttle';
import { hashRandomToken } from '../../services/tokens';
import { sameOriginOnly, validEmail, validNewPassword } from './checks';
import * as schema from './schema';
import { sessionCookies } from './session-cookies';
import { countedPerClient } from './throttling';

/**
 * A reset request is answered no sooner than this after it arrived, whether or not the address has
 * an account: the few milliseconds of writing a link and its letter must not tell the two apart.
 */
const RESET_ANSWER_MS = 250;

/** The password reset: the letter with its link, and the new password set through it. */
const passwordResetRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { users, resetRequests } = app.repositories;
  const throttle = createSignInThrottle(app.repositories.signInAttempts, app.config);
  const perClient = countedPerClient(throttle);
  const cookies = sessionCookies(app);
  const sameOrigin = sameOriginOnly(app.config.allowedOrigins);

  app.post(
    '/password-reset',
    { schema: schema.requestPasswordReset, onRequest: [sameOrigin, perClient] },
    async (request, reply) => {
      const answerAt = performance.now() + RESET_ANSWER_MS;
      const email = validEmail(request.body.email);
      const account = await users.findCredentials(email);
      // Beyond the letters' limits the answer is the same 202, only no letter goes: a stranger's
      // requests cannot turn the owner's into a refusal, and no answer tells whether one was sent.
      const letterAllowed = await resetRequests.record(
        { email, client: throttledClient(request.ip), ownersDevice: cookies.deviceOf(request, account?.id) !== null },
        LETTER_LIMITS,
      );
      if (letterAllowed) {
        await app.services.passwordResets.request(email);
      }
      await sleep(Math.max(0, answerAt - performance.now()));
      return reply.code(202).send({ detail: ACCOUNT_MESSAGES.resetRequested });
    },
  );

  app.post(
    '/password-reset/confirm',
    { schema: schema.confirmPasswordReset, onRequest: [sameOrigin, perClient] },
    async (request, reply) => {
      const { passwordResets } = app.repositories;
      const tokenHash = hashRandomToken(request.body.token);
      // The password is checked against the account's e-mail before the link is spent: a refused
      // password leaves it working.
      const account = await passwordResets.findLiveAccount(tokenHash, new Date());
      if (account === null) throw new ApiError(400, ACCOUNT_MESSAGES.resetLinkInvalid);
      const passwordHash = await hashPassword(validNewPassword(request.body.password, account.email));
      const reset = await passwordResets.resetPassword(tokenHash, passwordHash, new Date());
      if (!reset) throw new ApiError(400, ACCOUNT_MESSAGES.resetLinkInvalid);
      app.sessionRevocations.remember(reset);
      cookies.clearRefreshCookie(request, reply);
      // Whoever holds the link is the owner: this device signs in whatever strangers have guessed,
      // and whatever the owner mistyped on it before (its own cookie's failures are forgiven).
      const device = cookies.deviceOf(request, account.id);
      if (device !== null) await throttle.succeeded(request.ip, account.email, device);
      cookies.keepDeviceCookie(request, reply, account.id);
      return reply.code(204).send(null);
    },
  );
};

export default fp(passwordResetRoutes, {
  name: 'password-reset-routes',
  encapsulate: true,
  dependencies: ['database', 'services', 'authentication'],
});
