import fastifyCookie from '@fastify/cookie';
import { setTimeout as sleep } from 'node:timers/promises';
import fp from 'fastify-plugin';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ACCOUNT_EXPORT_FILE_NAME, ACCOUNT_MESSAGES, RESET_TOKEN_PARAM } from '../../../shared/account';
import { EMAIL_PATTERN, LIMITS, SESSION_HINT_COOKIE } from '../../../shared/api';
import { MESSAGES } from '../../../shared/messages';
import { PAGE_PATHS } from '../../../shared/paths';
import { ApiError, conflict, forbidden, unauthorized, unprocessable } from '../../errors';
import type { RateLimitConfig } from '../../config';
import { exportAccount } from '../../services/account-export';
import { hashPassword, verifyAgainstDecoy, verifyPassword } from '../../services/passwords';
import { createSessions, type SessionGrant } from '../../services/sessions';
import { PASSWORD_RESET_LINK_HOURS } from '../../mail/password-reset';
import { hashRandomToken, newRandomToken } from '../../services/tokens';
import { attachmentDisposition } from '../attachment';
import * as schema from './schema';

export const REFRESH_COOKIE = 'refresh_token';
const COOKIE_PATH = '/api/v1/auth';

/** Reset letters one address may be sent in an hour: enough for a lost one, too few to flood a mailbox. */
const RESET_REQUESTS_PER_ADDRESS = { max: 5, windowMs: 60 * 60 * 1000 };
/**
 * A reset request is answered no sooner than this after it arrived, whether or not the address has
 * an account: the few milliseconds of writing a link and its letter must not tell the two apart.
 */
const RESET_ANSWER_MS = 250;

const normaliseEmail = (email: string) => email.trim().toLowerCase();

function validEmail(raw: string | undefined): string {
  const email = normaliseEmail(raw ?? '');
  if (!email) throw unprocessable(MESSAGES.emailRequired);
  if (email.length > LIMITS.emailMax || !EMAIL_PATTERN.test(email)) throw unprocessable(MESSAGES.emailInvalid);
  return email;
}

function validPassword(password: string | undefined): string {
  const length = [...(password ?? '')].length;
  if (length < LIMITS.passwordMin || length > LIMITS.passwordMax) {
    throw unprocessable(ACCOUNT_MESSAGES.passwordLength);
  }
  return password!;
}

const authRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { users } = app.repositories;
  const sessions = createSessions(app.database.db, app.config, app.sessionRevocations);
  const { allowedOrigins } = app.config;
  // Only these calls read or set cookies; registered here, its two hooks stay off every other request.
  await app.register(fastifyCookie);

  const tooManyAttempts = () => new ApiError(429, 'Слишком много попыток. Попробуйте позже.');
  /**
   * A hook that counts the request against `limit` and refuses it with 429 once it is exceeded.
   * Built on createRateLimit, not app.rateLimit: the hooks app.rateLimit makes share one
   * "already limited" flag per request, so the second of them on a route (per account after per
   * client) returned without counting anything.
   */
  function limiter(limit: RateLimitConfig, keyGenerator?: (request: FastifyRequest) => string) {
    const check = app.createRateLimit({
      max: limit.max,
      timeWindow: limit.windowMs,
      ...(keyGenerator ? { keyGenerator } : {}),
    });
    return async (request: FastifyRequest, reply: FastifyReply) => {
      const result = await check(request);
      if (!result.isAllowed && result.isExceeded) {
        reply.header('retry-after', String(result.ttlInSeconds));
        throw tooManyAttempts();
      }
    };
  }
  // One counter per client address for sign-in and sign-up together ...
  const perClient = limiter(app.config.loginRateLimitPerClient);
  // ... and one per e-mail address for each of them.
  const perAccount = (emailOf: (request: FastifyRequest) => string | undefined) =>
    limiter(app.config.loginRateLimitPerAccount, (request) => `account:${normaliseEmail(emailOf(request) ?? '')}`);
  // Guessing a signed-in account's password (to change it or delete the account) is limited like
  // a login: per client address, and per account, after `authenticate` has said whose it is.
  const perSignedInAccount = limiter(app.config.loginRateLimitPerAccount, (request) => `user:${request.userId}`);
  // Signed in before the body is validated: without a token the answer is 401, whatever was sent.
  const passwordChecked = { onRequest: [perClient, app.authenticate], preHandler: perSignedInAccount };

  /** 400 unless `password` is the signed-in account's own (401 when the account is gone). */
  async function assertOwnPassword(userId: number, password: string, wrong: string): Promise<void> {
    const stored = await users.findPasswordHash(userId);
    if (stored === null) throw unauthorized();
    if (!(await verifyPassword(password, stored))) throw new ApiError(400, wrong);
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

  app.post(
    '/token',
    {
      schema: schema.login,
      onRequest: perClient,
      preHandler: perAccount((request) => (request.body as { username?: string })?.username),
    },
    async (request, reply) => {
      const email = normaliseEmail(request.body.username);
      const user = await users.findCredentials(email);
      const valid = user
        ? await verifyPassword(request.body.password, user.passwordHash)
        : await verifyAgainstDecoy(request.body.password);
      if (!user || !valid) throw unauthorized(MESSAGES.loginFailed);
      // Null when the password was changed while this one was being checked: it is no longer the password.
      const session = await sessions.start(user.id, user.sessionVersion);
      if (!session) throw unauthorized(MESSAGES.loginFailed);
      return grant(request, reply, session);
    },
  );

  app.post(
    '/register',
    {
      schema: schema.register,
      onRequest: perClient,
      // SPEC §7's call sends no body at all (e-mail and password in the query); Fastify validates
      // the body regardless, and an absent one would fail the object schema, so read it as {}.
      preValidation: async (request) => {
        request.body ??= {};
      },
      preHandler: perAccount(
        (request) =>
          (request.query as { email?: string }).email ?? (request.body as { email?: string } | undefined)?.email,
      ),
    },
    async (request, reply) => {
      const email = validEmail(request.query.email ?? request.body?.email);
      const password = validPassword(request.query.password ?? request.body?.password);
      if ((request.query.consent ?? request.body?.consent) !== true)
        throw unprocessable(ACCOUNT_MESSAGES.consentRequired);
      const user = await users.create(email, await hashPassword(password), new Date());
      if (!user) throw conflict(MESSAGES.emailTaken);
      return reply.code(201).send(user);
    },
  );

  app.get('/user', { schema: schema.currentUser, preHandler: app.authenticate }, async (request) => {
    const user = await users.findById(request.userId);
    if (!user) throw unauthorized();
    return user;
  });

  app.post('/password', { schema: schema.changePassword, ...passwordChecked }, async (request, reply) => {
    const { current_password: current, new_password: next } = request.body;
    await assertOwnPassword(request.userId, current, ACCOUNT_MESSAGES.currentPasswordWrong);
    const presented = request.cookies[REFRESH_COOKIE];
    const revoked = await users.setPassword(
      request.userId,
      await hashPassword(validPassword(next)),
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

  app.delete('/user', { schema: schema.deleteAccount, ...passwordChecked }, async (request, reply) => {
    await assertOwnPassword(request.userId, request.body.password, ACCOUNT_MESSAGES.passwordWrong);
    app.sessionRevocations.remember(await users.deleteAccount(request.userId, new Date()));
    clearRefreshCookie(request, reply);
    return reply.code(204).send(null);
  });

  app.post(
    '/password-reset',
    {
      schema: schema.requestPasswordReset,
      onRequest: perClient,
      preHandler: limiter(
        RESET_REQUESTS_PER_ADDRESS,
        (request) => `reset:${normaliseEmail((request.body as { email?: string }).email ?? '')}`,
      ),
    },
    async (request, reply) => {
      const answerAt = performance.now() + RESET_ANSWER_MS;
      const email = validEmail(request.body.email);
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
    { schema: schema.confirmPasswordReset, onRequest: perClient },
    async (request, reply) => {
      const passwordHash = await hashPassword(validPassword(request.body.password));
      const reset = await app.repositories.passwordResets.resetPassword(
        hashRandomToken(request.body.token),
        passwordHash,
        new Date(),
      );
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
  dependencies: ['database', 'authentication', '@fastify/rate-limit'],
});
