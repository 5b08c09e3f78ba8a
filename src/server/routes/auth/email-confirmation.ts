import fp from 'fastify-plugin';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { EMAIL_CONFIRMATION_MESSAGES } from '../../../shared/account';
import { ApiError, conflict, unauthorized } from '../../api-error';
import { createSignInThrottle, LETTER_LIMITS, throttledClient } from '../../services/sign-in-throttle';
import { hashRandomToken } from '../../services/tokens';
import * as schema from './email-confirmation-schema';
import { countedPerClient, tooManyAttempts } from './throttling';

/**
 * The confirmation of the buyer's address: the letter again, and the link's
 * landing. Apart from the other auth routes; sign-up sends the first letter.
 */
const emailConfirmationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { emailConfirmations, resetRequests, users } = app.repositories;

  const perClient = countedPerClient(createSignInThrottle(app.repositories.signInAttempts, app.config));

  app.post(
    '/email-confirmation',
    { schema: schema.resendConfirmation, onRequest: [app.authenticate, perClient] },
    async (request, reply) => {
      const account = await users.findWithStanding(request.userId);
      if (!account) throw unauthorized();
      if (account.confirmed) throw conflict(EMAIL_CONFIRMATION_MESSAGES.alreadyConfirmed);
      // An unconfirmed account has not shown that the mailbox is its own (anyone may sign up with a
      // stranger's address), so its letters count like anyone's: per client and under the address's
      // daily ceiling. Beyond them, the wait is at most the window that refused.
      const letterAllowed = await resetRequests.record(
        { email: account.email, client: throttledClient(request.ip), ownersDevice: false },
        LETTER_LIMITS,
      );
      if (!letterAllowed) throw tooManyAttempts(reply, LETTER_LIMITS.perAddress.windowMs / 1000);
      const sent = await app.services.emailConfirmations.send(request.userId);
      if (sent === 'no-account') throw unauthorized();
      if (sent === 'already-confirmed') throw conflict(EMAIL_CONFIRMATION_MESSAGES.alreadyConfirmed);
      return reply.code(202).send({ detail: EMAIL_CONFIRMATION_MESSAGES.sent });
    },
  );

  app.post(
    '/email-confirmation/confirm',
    { schema: schema.confirmEmail, onRequest: perClient },
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
  dependencies: ['database', 'services', 'authentication'],
});
