import fastifyCookie from '@fastify/cookie';
import { setTimeout as sleep } from 'node:timers/promises';
import fp from 'fastify-plugin';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ACCOUNT_EXPORT_FILE_NAME, ACCOUNT_MESSAGES } from '../../../shared/account';
import { EMAIL_PATTERN, LIMITS, SESSION_HINT_COOKIE } from '../../../shared/api';
import { MESSAGES } from '../../../shared/messages';
import { currentUserAnswer } from '../../domain/buyer-standing';
import { ApiError, conflict, forbidden, unauthorized, unprocessable } from '../../api-error';
import { exportAccount } from '../../services/account-export';
import { newPasswordProblem } from '../../services/password-rules';
import { hashPassword, verifyAgainstDecoy, verifyPassword } from '../../services/passwords';
import { createSessions, type SessionGrant } from '../../services/sessions';
import { createSignInThrottle, throttledClient } from '../../services/sign-in-throttle';
import { DEVICE_TOKEN_TTL_SECONDS, hashRandomToken } from '../../services/tokens';
import { attachmentDisposition } from '../attachment';
import * as schema from './schema';
import { countedPerClient, LETTER_LIMITS, tooManyAttempts } from './throttling';

export const REFRESH_COOKIE = 'refresh_token';
/** The device cookie of the sign-in throttling (services/sign-in-throttle): kept after logout. */
export const DEVICE_COOKIE = 'sign_in_device';
const COOKIE_PATH = '/api/v1/auth';

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

  // Sign-in, sign-up, the password checks and the reset, counted in the database for every process.
  const throttle = createSignInThrottle(app.repositories.signInAttempts, app.config);
  const purgeAttempts = () =>
    Promise.all([throttle.purge(), resetRequests.purge(LETTER_LIMITS.perAddress.windowMs)]).catch((error: unknown) =>
      app.log.warn({ err: error }, 'purging sign-in attempts or reset requests failed'),
    );
  const purgeTimer = setInterval(purgeAttempts, ATTEMPTS_PURGE_INTERVAL_MS).unref();
  app.addHook('onClose', async () => clearInterval(purgeTimer));

  /**
   * Counts an attempt at `account` (or, null, per client only) made with `device` (a valid device
   * cookie's id), or refuses it with 429 (services/sign-in-throttle).
   */
  async function admit(
    request: FastifyRequest,
    reply: FastifyReply,
    account: string | null,
    device: string | null = null,
  ): Promise<void> {
    const retryAfter = await throttle.admit(request.ip, account, device);
    if (retryAfter !== null) throw tooManyAttempts(reply, retryAfter);
  }
  const perClient = countedPerClient(throttle);

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
    const device = deviceOf(request, request.userId);
    await admit(request, reply, account.email, device);
    if (!(await verifyPassword(password, account.passwordHash))) throw new ApiError(400, wrong);
    await throttle.succeeded(request.ip, account.email, device);
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

  /** The id of the request's device cookie when it is a valid one issued for account `userId`, else null. */
  function deviceOf(request: FastifyRequest, userId: number | undefined): string | null {
    const token = request.cookies[DEVICE_COOKIE];
    if (token === undefined || userId === undefined) return null;
    const claims = app.deviceTokens.verify(token);
    return claims?.userId === userId ? claims.device : null;
  }

  /**
   * A device cookie for the account, unless the request has a valid one for it already. It has the
   * refresh cookie's flags and path (HttpOnly, SameSite=Strict, Secure over https), lives a year and
   * is never cleared: logging out does not make a device a stranger's.
   */
  function keepDeviceCookie(request: FastifyRequest, reply: FastifyReply, userId: number): void {
    if (deviceOf(request, userId) !== null) return;
    reply.setCookie(DEVICE_COOKIE, app.deviceTokens.issue(userId), {
      ...refreshCookie(request),
      maxAge: DEVICE_TOKEN_TTL_SECONDS,
    });
  }

  /**
   * onRequest of the calls a foreign page could send from the buyer's browser: refresh and logout act
   * on a cookie the browser sends by itself, and a foreign form must neither sign the browser in to
   * an account of its choosing (login CSRF), nor sign up, nor ask for or complete a reset. A request
   * without an Origin header (not a browser's) passes, as before.
   */
  async function assertSameOrigin(request: FastifyRequest): Promise<void> {
    const origin = request.headers.origin;
    if (origin === undefined) return;
    if (origin === `${request.protocol}://${request.host}` || allowedOrigins.includes(origin)) return;
    throw forbidden('Запрос с чужого сайта отклонён');
  }

  app.post('/token', { schema: schema.login, onRequest: assertSameOrigin }, async (request, reply) => {
    const email = normaliseEmail(request.body.username);
    const user = await users.findCredentials(email);
    // A device cookie counts only for the account it was issued to (an unknown e-mail has none).
    const device = deviceOf(request, user?.id);
    await admit(request, reply, email, device);
    const valid = user
      ? await verifyPassword(request.body.password, user.passwordHash)
      : await verifyAgainstDecoy(request.body.password);
    if (!user || !valid) throw unauthorized(MESSAGES.loginFailed);
    // Null when the password was changed while this one was being checked: it is no longer the password.
    const session = await sessions.start(user.id, user.sessionVersion);
    if (!session) throw unauthorized(MESSAGES.loginFailed);
    await throttle.succeeded(request.ip, email, device);
    keepDeviceCookie(request, reply, user.id);
    return grant(request, reply, session);
  });

  app.post(
    '/register',
    {
      schema: schema.register,
      onRequest: [assertSameOrigin, perClient],
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
    { schema: schema.requestPasswordReset, onRequest: [assertSameOrigin, perClient] },
    async (request, reply) => {
      const answerAt = performance.now() + RESET_ANSWER_MS;
      const email = validEmail(request.body.email);
      const account = await users.findCredentials(email);
      // Beyond the letters' limits the answer is the same 202, only no letter goes: a stranger's
      // requests cannot turn the owner's into a refusal, and no answer tells whether one was sent.
      const letterAllowed = await resetRequests.record(
        { email, client: throttledClient(request.ip), ownersDevice: deviceOf(request, account?.id) !== null },
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
    { schema: schema.confirmPasswordReset, onRequest: [assertSameOrigin, perClient] },
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
      clearRefreshCookie(request, reply);
      // Whoever holds the link is the owner: this device signs in whatever strangers have guessed,
      // and whatever the owner mistyped on it before (its own cookie's failures are forgiven).
      const device = deviceOf(request, account.id);
      if (device !== null) await throttle.succeeded(request.ip, account.email, device);
      keepDeviceCookie(request, reply, account.id);
      return reply.code(204).send(null);
    },
  );

  app.post('/refresh', { schema: schema.refresh, onRequest: assertSameOrigin }, async (request, reply) => {
    const session = await sessions.rotate(request.cookies[REFRESH_COOKIE]).catch((error: unknown) => {
      clearRefreshCookie(request, reply);
      throw error;
    });
    // A browser signed in before device cookies existed (or that lost its own) gets one here.
    keepDeviceCookie(request, reply, session.userId);
    return grant(request, reply, session);
  });

  app.post('/logout', { schema: schema.logout, onRequest: assertSameOrigin }, async (request, reply) => {
    await sessions.end(request.cookies[REFRESH_COOKIE]);
    clearRefreshCookie(request, reply);
    return reply.code(204).send(null);
  });
};

// Encapsulated (its hooks stay on its own routes), and named so that its dependencies are checked.
export default fp(authRoutes, {
  name: 'auth-routes',
  encapsulate: true,
  dependencies: ['database', 'services', 'authentication'],
});
