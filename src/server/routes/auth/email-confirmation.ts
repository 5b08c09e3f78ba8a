import fp from 'fastify-plugin';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { EMAIL_CONFIRMATION_MESSAGES } from '../../../shared/account';
import { ApiError, conflict, unauthorized } from '../../errors';
import { sendConfirmationLetter } from '../../services/email-confirmation';
import { createSignInThrottle } from '../../services/sign-in-throttle';
import { hashRandomToken } from '../../services/tokens';
import * as schema from './email-confirmation-schema';

/**
 * Letters one address may be sent in an hour, counted with the password reset's letters in
 * reset_requests (the auth routes purge its rows older than the same hour): together they cannot
 * flood a mailbox.
 */
const LETTERS_PER_ADDRESS = { max: 5, windowMs: 60 * 60 * 1000 };

/**
 * The confirmation of the buyer's address (issue 35, item 2): the letter again, and the link's
 * landing. Apart from the other auth routes; sign-up sends the first letter.
 */
const emailConfirmationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { emailConfirmations, resetRequests, users } = app.repositories;
  const throttle = createSignInThrottle(app.repositories.signInAttempts, app.config);

  /** Counted per client as the sign-in's attempts are, or refused with 429. */
  async function countedPerClient(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const retryAfter = await throttle.admit(request.ip, null);
    if (retryAfter !== null) throw tooManyAttempts(reply, retryAfter);
  }

  function tooManyAttempts(reply: FastifyReply, retryAfterSeconds: number): ApiError {
    reply.header('retry-after', String(retryAfterSeconds));
    return new ApiError(429, 'Слишком много попыток. Попробуйте позже.');
  }

  app.post(
    '/email-confirmation',
    { schema: schema.resendConfirmation, onRequest: [app.authenticate, countedPerClient] },
    async (request, reply) => {
      const account = await users.findWithStanding(request.userId);
      if (!account) throw unauthorized();
      if (account.confirmed) throw conflict(EMAIL_CONFIRMATION_MESSAGES.alreadyConfirmed);
      const retryAfter = await resetRequests.record(account.email, LETTERS_PER_ADDRESS);
      if (retryAfter !== null) throw tooManyAttempts(reply, retryAfter);
      const sent = await sendConfirmationLetter(emailConfirmations, request.userId);
      if (sent === 'no-account') throw unauthorized();
      if (sent === 'already-confirmed') throw conflict(EMAIL_CONFIRMATION_MESSAGES.alreadyConfirmed);
      return reply.code(202).send({ detail: EMAIL_CONFIRMATION_MESSAGES.sent });
    },
  );

  app.post(
    '/email-confirmation/confirm',
    { schema: schema.confirmEmail, onRequest: countedPerClient },
    async (request, reply) => {
      const confirmed = await emailConfirmations.confirm(hashRandomToken(request.body.token), new Date());
      if (!confirmed) throw new ApiError(400, EMAIL_CONFIRMATION_MESSAGES.linkInvalid);
      return reply.code(204).send(null);
    },
  );
};

// Encapsulated (its hooks stay on its own routes), and named so that its dependencies are checked.
export default fp(emailConfirmationRoutes, {
  name: 'email-confirmation-routes',
  encapsulate: true,
  dependencies: ['database', 'authentication'],
});
