import fastifyCookie from '@fastify/cookie';
import { setTimeout as sleep } from 'node:timers/promises';
import fp from 'fastify-plugin';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ACCOUNT_EXPORT_FILE_NAME, ACCOUNT_MESSAGES, RESET_TOKEN_PARAM } from '../../../shared/account';
import { EMAIL_PATTERN, LIMITS, SESSION_HINT_COOKIE } from '../../../shared/api';
import { MESSAGES } from '../../../shared/messages';
import { PAGE_PATHS } from '../../../shared/paths';
import { currentUserAnswer } from '../../domain/buyer-standing';
import { ApiError, conflict, forbidden, unauthorized, unprocessable } from '../../errors';
import { exportAccount } from '../../services/account-export';
import { sendConfirmationLetter } from '../../services/email-confirmation';
import { newPasswordProblem } from '../../services/password-rules';
import { hashPassword, verifyAgainstDecoy, verifyPassword } from '../../services/passwords';
import { createSessions, type SessionGrant } from '../../services/sessions';
import { createSignInThrottle } from '../../services/sign-in-throttle';
import { PASSWORD_RESET_LINK_HOURS } from '../../mail/password-reset';
import { hashRandomToken, newRandomToken } from '../../services/tokens';
import { attachmentDisposition } from '../attachment';
import * as schema from './schema';

export const REFRESH_COOKIE = 'refresh_token';
const COOKIE_PATH = '/api/v1/auth';

/**
 * Reset letters one address may be sent in an hour, counted in the database for every process:
 * enough for a lost one, too few to flood a mailbox.
 */
const RESET_REQUESTS_PER_ADDRESS = { max: 5, windowMs: 60 * 60 * 1000 };
/**
 * A reset request is answered no sooner than this after it arrived, whether or not the address has
 * an account: the few milliseconds of writing a link and its letter must not tell the two apart.
 */
const RESET_ANSWER_MS = 250;
/** How often the attempts and reset requests no window counts any more are deleted. */
const ATTEMPTS_PURGE_INTERVAL_MS = 60 * 1000;

const normaliseEmail = (email: string) => email.trim().toLowerCase();

function validEmail(raw: string | undefined): string {
  const email = normaliseEmail(raw ?? '');
  if (!email) throw unprocessable(MESSAGES.emailRequired);
  if (email.length > LIMITS.emailMax || !EMAIL_PATTERN.test(email)) throw unprocessable(MESSAGES.emailInvalid);
  return email;
}

/** `password` when it may be the account's new one, else 422 saying why (services/password-rules). */
function validNewPassword(password: string | undefined, email: string): string {
  const problem = newPasswordProblem(password ?? '', email);
  if (problem) throw unprocessable(problem);
  return password!;
}

const authRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { users, resetRequests } = app.repositories;
  const sessions = createSessions(app.database.db, app.config, app.sessionRevocations);
  const { allowedOrigins } = app.config;
  // Only these calls read or set cookies; registered here, its two hooks stay off every other request.
  await app.register(fastifyCookie);

  const tooManyAttempts = (reply: FastifyReply, retryAfterSeconds: number) => {
    reply.header('retry-after', String(retryAfterSeconds));
    return new ApiError(429, 'Слишком много попыток. Попробуйте позже.');
  };

  // Sign-in, sign-up, the password checks and the reset, counted in the database for every process.
  const throttle = createSignInThrottle(app.repositories.signInAttempts, app.config);
  const purgeAttempts = () =>
    Promise.all([throttle.purge(), resetRequests.purge(RESET_REQUESTS_PER_ADDRESS.windowMs)]).catch((error: unknown) =>
      app.log.warn({ err: error }, 'purging sign-in attempts or reset requests failed'),
    );
  const purgeTimer = setInterval(purgeAttempts, ATTEMPTS_PURGE_INTERVAL_MS).unref();
  app.addHook('onClose', async () => clearInterval(purgeTimer));

  /** Counts an attempt at `account` (or, null, per client only), or refuses it with 429 (services/sign-in-throttle). */
  async function admit(request: FastifyRequest, reply: FastifyReply, account: string | null): Promise<void> {
    const retryAfter = await throttle.admit(request.ip, account);
    if (retryAfter !== null) throw tooManyAttempts(reply, retryAfter);
  }
  const countedPerClient = (request: FastifyRequest, reply: FastifyReply) => admit(request, reply, null);

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
    await admit(request, reply, account.email);
    if (!(await verifyPassword(password, account.passwordHash))) throw new ApiError(400, wrong);
    await throttle.succeeded(request.ip, account.email);
    return account.email;
  }

  const refreshCookie = (request: FastifyRequest) =>
    ({ httpOnly: true, sameSite: 'strict', secure: request.protocol === 'https', path: COOKIE_PATH }) as const;
  const hintCookie = (request: FastifyRequest) =>
    ({ httpOnly: false, sameSite: 'strict', secure: request.protocol === 'https', path: '/' }) as const;

  /** The session's refresh token as its cookie, and the bearer token the answer carries. */
  function grant(request: FastifyRequest, reply: FastifyReply, session: SessionGrant) {
    reply.setCookie(REFRESH_COOKIE, session.refreshToken, { ...refreshCookie(request), expires: session.expiresAt });
    reply.setCookie(SESSION_HINT_COOKIE, '1', { ...hintCookie(request), expires: session.expiresAt });
    return {
      access_token: app.accessTokens.sign(session.userId, session.sessionId),
      token_type: 'bearer' as const,
    };
  }

  function clearRefreshCookie(request: FastifyRequest, reply: FastifyReply): void {
    reply.clearCookie(REFRESH_COOKIE, refreshCookie(request));
    reply.clearCookie(SESSION_HINT_COOKIE, hintCookie(request));
  }

  /** Refresh and logout act on a cookie the browser sends by itself, so a foreign page must not trigger them. */
  function assertSameOrigin(request: FastifyRequest): void {
    const origin = request.headers.origin;
    if (origin === undefined) return;
    if (origin === `${request.protocol}://${request.host}` || allowedOrigins.includes(origin)) return;
    throw forbidden('Запрос с чужого сайта отклонён');
  }

  app.post('/token', { schema: schema.login }, async (request, reply) => {
    const email = normaliseEmail(request.body.username);
    await admit(request, reply, email);
    const user = await users.findCredentials(email);
    const valid = user
      ? await verifyPassword(request.body.password, user.passwordHash)
      : await verifyAgainstDecoy(request.body.password);
    if (!user || !valid) throw unauthorized(MESSAGES.loginFailed);
    // Null when the password was changed while this one was being checked: it is no longer the password.
    const session = await sessions.start(user.id, user.sessionVersion);
    if (!session) throw unauthorized(MESSAGES.loginFailed);
    await throttle.succeeded(request.ip, email);
    return grant(request, reply, session);
  });

  app.post(
    '/register',
    {
      schema: schema.register,
      onRequest: countedPerClient,
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
      if (app.config.requireEmailConfirmation)
        await sendConfirmationLetter(app.repositories.emailConfirmations, user.id);
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
    const data = await exportAccount(app.repositories, request.userId);
    if (!data) throw unauthorized();
    reply
      .header('content-disposition', attachmentDisposition(ACCOUNT_EXPORT_FILE_NAME))
      .header('cache-control', 'no-store');
    return data;
  });

  app.delete('/user', { schema: schema.deleteAccount, onRequest: app.authenticate }, async (request, reply) => {
    await assertOwnPassword(request, reply, request.body.password, ACCOUNT_MESSAGES.passwordWrong);
    app.sessionRevocations.remember(await users.deleteAccount(request.userId, new Date()));
    clearRefreshCookie(request, reply);
    return reply.code(204).send(null);
  });

  app.post(
    '/password-reset',
    { schema: schema.requestPasswordReset, onRequest: countedPerClient },
    async (request, reply) => {
      const answerAt = performance.now() + RESET_ANSWER_MS;
      const email = validEmail(request.body.email);
      // Per address after per client, and before the account is looked up: a 429 tells nothing of one.
      const retryAfter = await resetRequests.record(email, RESET_REQUESTS_PER_ADDRESS);
      if (retryAfter !== null) throw tooManyAttempts(reply, retryAfter);
      const { token, hash } = newRandomToken();
      await app.repositories.passwordResets.request(email, {
        tokenHash: hash,
        expiresAt: new Date(Date.now() + PASSWORD_RESET_LINK_HOURS * 60 * 60 * 1000),
        link: `${PAGE_PATHS.resetPassword}?${new URLSearchParams({ [RESET_TOKEN_PARAM]: token })}`,
      });
      await sleep(Math.max(0, answerAt - performance.now()));
      return reply.code(202).send({ detail: ACCOUNT_MESSAGES.resetRequested });
    },
  );

  app.post(
    '/password-reset/confirm',
    { schema: schema.confirmPasswordReset, onRequest: countedPerClient },
    async (request, reply) => {
      const { passwordResets } = app.repositories;
      const tokenHash = hashRandomToken(request.body.token);
      // The password is checked against the account's e-mail before the link is spent: a refused
      // password leaves it working.
      const email = await passwordResets.findLiveAccountEmail(tokenHash, new Date());
      if (email === null) throw new ApiError(400, ACCOUNT_MESSAGES.resetLinkInvalid);
      const passwordHash = await hashPassword(validNewPassword(request.body.password, email));
      const reset = await passwordResets.resetPassword(tokenHash, passwordHash, new Date());
      if (!reset) throw new ApiError(400, ACCOUNT_MESSAGES.resetLinkInvalid);
      app.sessionRevocations.remember(reset);
      clearRefreshCookie(request, reply);
      return reply.code(204).send(null);
    },
  );

  app.post('/refresh', { schema: schema.refresh }, async (request, reply) => {
    assertSameOrigin(request);
    const session = await sessions.rotate(request.cookies[REFRESH_COOKIE]).catch((error: unknown) => {
      clearRefreshCookie(request, reply);
      throw error;
    });
    return grant(request, reply, session);
  });

  app.post('/logout', { schema: schema.logout }, async (request, reply) => {
    assertSameOrigin(request);
    await sessions.end(request.cookies[REFRESH_COOKIE]);
    clearRefreshCookie(request, reply);
    return reply.code(204).send(null);
  });
};

// Encapsulated (its hooks stay on its own routes), and named so that its dependencies are checked.
export default fp(authRoutes, {
  name: 'auth-routes',
  encapsulate: true,
  dependencies: ['database', 'authentication'],
});
