import fp from 'fastify-plugin';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ACCOUNT_EXPORT_FILE_NAME, ACCOUNT_MESSAGES } from '../../../shared/account';
import { MESSAGES } from '../../../shared/messages';
import { ApiError, conflict, unauthorized, unprocessable } from '../../api-error';
import { currentUserAnswer } from '../../domain/buyer-standing';
import { REFRESH_COOKIE } from '../../plugins/authentication';
import { exportAccount } from '../../services/account-export';
import { hashPassword, verifyPassword } from '../../services/passwords';
import { createSignInThrottle } from '../../services/sign-in-throttle';
import { hashRandomToken } from '../../services/tokens';
import { attachmentDisposition } from '../attachment';
import { sameOriginOnly, validEmail, validNewPassword } from './checks';
import * as schema from './schema';
import { sessionCookies } from './session-cookies';
import { admitAttempt, countedPerClient } from './throttling';

/** The account: sign-up, the signed-in user, the change of password, the export of its data and its deletion. */
const accountRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { users } = app.repositories;
  const throttle = createSignInThrottle(app.repositories.signInAttempts, app.config);
  const perClient = countedPerClient(throttle);
  const cookies = sessionCookies(app);
  const sameOrigin = sameOriginOnly(app.config.allowedOrigins);

  /**
   * 400 unless `password` is the signed-in account's own (401 when the account is gone); counted as
   * an attempt at the account like a sign-in. Answers the account's e-mail.
   */
  async function assertOwnPassword(
    request: FastifyRequest,
    reply: FastifyReply,
    password: string,
    wrong: string,
  ): Promise<string> {
    const account = await users.findCredentialsById(request.userId);
    if (account === null) throw unauthorized();
    const device = cookies.deviceOf(request, request.userId);
    await admitAttempt(throttle, request, reply, account.email, device);
    if (!(await verifyPassword(password, account.passwordHash))) throw new ApiError(400, wrong);
    await throttle.succeeded(request.ip, account.email, device);
    return account.email;
  }

  app.post(
    '/register',
    {
      schema: schema.register,
      onRequest: [sameOrigin, perClient],
      // SPEC §7's call sends no body at all (e-mail and password in the query); Fastify validates
      // the body regardless, and an absent one would fail the object schema, so read it as {}.
      preValidation: async (request) => {
        request.body ??= {};
      },
    },
    async (request, reply) => {
      const email = validEmail(request.query.email ?? request.body?.email);
      const password = validNewPassword(request.query.password ?? request.body?.password, email);
      if ((request.query.consent ?? request.body?.consent) !== true)
        throw unprocessable(ACCOUNT_MESSAGES.consentRequired);
      const user = await users.create(email, await hashPassword(password), new Date());
      if (!user) throw conflict(MESSAGES.emailTaken);
      if (app.config.requireEmailConfirmation) await app.services.emailConfirmations.send(user.id);
      return reply.code(201).send(user);
    },
  );

  app.get('/user', { schema: schema.currentUser, preHandler: app.authenticate }, async (request) => {
    const user = await users.findWithStanding(request.userId);
    if (!user) throw unauthorized();
    return currentUserAnswer(user, app.config);
  });

  // Signed in before the body is validated: without a token the answer is 401, whatever was sent.
  app.post('/password', { schema: schema.changePassword, onRequest: app.authenticate }, async (request, reply) => {
    const { current_password: current, new_password: next } = request.body;
    const email = await assertOwnPassword(request, reply, current, ACCOUNT_MESSAGES.currentPasswordWrong);
    const presented = request.cookies[REFRESH_COOKIE];
    const revoked = await users.setPassword(
      request.userId,
      await hashPassword(validNewPassword(next, email)),
      new Date(),
      presented ? hashRandomToken(presented) : undefined,
    );
    app.sessionRevocations.remember(revoked);
    return reply.code(204).send(null);
  });

  app.get('/user/export', { schema: schema.exportAccount, preHandler: app.authenticate }, async (request, reply) => {
    const data = await exportAccount(
      app.repositories,
      request.member,
      await app.services.companies.view(request.member),
      await app.services.cart.view(request.member),
    );
    if (!data) throw unauthorized();
    reply
      .header('content-disposition', attachmentDisposition(ACCOUNT_EXPORT_FILE_NAME))
      .header('cache-control', 'no-store');
    return data;
  });

  app.delete('/user', { schema: schema.deleteAccount, onRequest: app.authenticate }, async (request, reply) => {
    await assertOwnPassword(request, reply, request.body.password, ACCOUNT_MESSAGES.passwordWrong);
    app.sessionRevocations.remember(await app.services.companies.deleteAccount(request.member));
    cookies.clearRefreshCookie(request, reply);
    return reply.code(204).send(null);
  });
};

export default fp(accountRoutes, {
  name: 'account-routes',
  encapsulate: true,
  dependencies: ['database', 'services', 'authentication'],
});
