import fastifyCookie from '@fastify/cookie';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import { EMAIL_PATTERN, LIMITS, MESSAGES, SESSION_HINT_COOKIE } from '../../../shared/api';
import { ApiError, conflict, forbidden, unauthorized, unprocessable } from '../../errors';
import type { RateLimitConfig } from '../../config';
import { hashPassword, verifyAgainstDecoy, verifyPassword } from '../../services/passwords';
import { hashRefreshToken, newRefreshToken } from '../../services/tokens';
import * as schema from './schema';

export const REFRESH_COOKIE = 'refresh_token';
const COOKIE_PATH = '/api/v1/auth';

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
    throw unprocessable(`Пароль должен содержать от ${LIMITS.passwordMin} до ${LIMITS.passwordMax} символов`);
  }
  return password!;
}

const authRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { users, refreshTokens } = app.repositories;
  const { refreshIdleSeconds, refreshMaxSeconds, allowedOrigins } = app.config;
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
    const check = app.createRateLimit({ max: limit.max, timeWindow: limit.windowMs, ...(keyGenerator ? { keyGenerator } : {}) });
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

  const refreshCookie = (request: FastifyRequest) =>
    ({ httpOnly: true, sameSite: 'strict', secure: request.protocol === 'https', path: COOKIE_PATH }) as const;
  const hintCookie = (request: FastifyRequest) => ({ httpOnly: false, sameSite: 'strict', secure: request.protocol === 'https', path: '/' }) as const;

  function setRefreshCookie(request: FastifyRequest, reply: FastifyReply, token: string, expiresAt: Date): void {
    reply.setCookie(REFRESH_COOKIE, token, { ...refreshCookie(request), expires: expiresAt });
    reply.setCookie(SESSION_HINT_COOKIE, '1', { ...hintCookie(request), expires: expiresAt });
  }

  function clearRefreshCookie(request: FastifyRequest, reply: FastifyReply): void {
    reply.clearCookie(REFRESH_COOKIE, refreshCookie(request));
    reply.clearCookie(SESSION_HINT_COOKIE, hintCookie(request));
  }

  async function issueRefreshToken(request: FastifyRequest, reply: FastifyReply, userId: number, familyId: string, familyExpiresAt: Date) {
    const { token, hash } = newRefreshToken();
    const expiresAt = new Date(Math.min(Date.now() + refreshIdleSeconds * 1000, familyExpiresAt.getTime()));
    await refreshTokens.insert({ userId, familyId, tokenHash: hash, expiresAt, familyExpiresAt });
    setRefreshCookie(request, reply, token, expiresAt);
  }

  /** Refresh and logout act on a cookie the browser sends by itself, so a foreign page must not trigger them. */
  function assertSameOrigin(request: FastifyRequest): void {
    const origin = request.headers.origin;
    if (origin === undefined) return;
    if (origin === `${request.protocol}://${request.host}` || allowedOrigins.includes(origin)) return;
    throw forbidden('Запрос с чужого сайта отклонён');
  }

  const bearerToken = (userId: number) => ({ access_token: app.accessTokens.sign(userId), token_type: 'bearer' as const });

  app.post(
    '/token',
    { schema: schema.login, onRequest: perClient, preHandler: perAccount((request) => (request.body as { username?: string })?.username) },
    async (request, reply) => {
      const email = normaliseEmail(request.body.username);
      const user = await users.findCredentials(email);
      const valid = user ? await verifyPassword(request.body.password, user.passwordHash) : await verifyAgainstDecoy(request.body.password);
      if (!user || !valid) throw unauthorized(MESSAGES.loginFailed);
      await issueRefreshToken(request, reply, user.id, randomUUID(), new Date(Date.now() + refreshMaxSeconds * 1000));
      return bearerToken(user.id);
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
      preHandler: perAccount((request) => (request.query as { email?: string }).email ?? (request.body as { email?: string } | undefined)?.email),
    },
    async (request, reply) => {
      const email = validEmail(request.query.email ?? request.body?.email);
      const password = validPassword(request.query.password ?? request.body?.password);
      const user = await users.create(email, await hashPassword(password));
      if (!user) throw conflict(MESSAGES.emailTaken);
      return reply.code(201).send(user);
    },
  );

  app.get('/user', { schema: schema.currentUser, preHandler: app.authenticate }, async (request) => {
    const user = await users.findById(request.userId);
    if (!user) throw unauthorized();
    return user;
  });

  app.post('/refresh', { schema: schema.refresh }, async (request, reply) => {
    assertSameOrigin(request);
    const presented = request.cookies[REFRESH_COOKIE];
    if (!presented) {
      clearRefreshCookie(request, reply);
      throw unauthorized('Сессия не найдена. Войдите снова.');
    }
    const now = new Date();
    const result = await refreshTokens.spend(hashRefreshToken(presented), now);
    if (result.status !== 'spent') {
      // A spent token coming back means it was copied: end every session descended from that login.
      if (result.status === 'reused') await refreshTokens.revokeFamily(result.familyId, now);
      clearRefreshCookie(request, reply);
      throw unauthorized('Сессия истекла. Войдите снова.');
    }
    await issueRefreshToken(request, reply, result.userId, result.familyId, result.familyExpiresAt);
    return bearerToken(result.userId);
  });

  app.post('/logout', { schema: schema.logout }, async (request, reply) => {
    assertSameOrigin(request);
    const presented = request.cookies[REFRESH_COOKIE];
    if (presented) await refreshTokens.revokeFamilyOf(hashRefreshToken(presented), new Date());
    clearRefreshCookie(request, reply);
    return reply.code(204).send(null);
  });
};

export default authRoutes;
