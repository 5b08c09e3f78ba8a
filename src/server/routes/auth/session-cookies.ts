import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_HINT_COOKIE } from '../../../shared/api';
import { DEVICE_COOKIE, REFRESH_COOKIE } from '../../plugins/authentication';
import type { SessionGrant } from '../../services/sessions';
import { DEVICE_TOKEN_TTL_SECONDS } from '../../services/tokens';

const COOKIE_PATH = '/api/v1/auth';

const refreshCookie = (request: FastifyRequest) =>
  ({ httpOnly: true, sameSite: 'strict', secure: request.protocol === 'https', path: COOKIE_PATH }) as const;
const hintCookie = (request: FastifyRequest) =>
  ({ httpOnly: false, sameSite: 'strict', secure: request.protocol === 'https', path: '/' }) as const;

/** The cookies of the auth routes: the session's refresh token (and its hint to the storefront), and the device's. */
export function sessionCookies(app: FastifyInstance) {
  /** The id of the request's device cookie when it is a valid one issued for account `userId`, else null. */
  function deviceOf(request: FastifyRequest, userId: number | undefined): string | null {
    const token = request.cookies[DEVICE_COOKIE];
    if (token === undefined || userId === undefined) return null;
    const claims = app.deviceTokens.verify(token);
    return claims?.userId === userId ? claims.device : null;
  }

  return {
    /** The session's refresh token as its cookie, and the bearer token the answer carries. */
    grant(request: FastifyRequest, reply: FastifyReply, session: SessionGrant) {
      reply.setCookie(REFRESH_COOKIE, session.refreshToken, { ...refreshCookie(request), expires: session.expiresAt });
      reply.setCookie(SESSION_HINT_COOKIE, '1', { ...hintCookie(request), expires: session.expiresAt });
      return {
        access_token: app.accessTokens.sign(session.userId, session.sessionId),
        token_type: 'bearer' as const,
      };
    },

    clearRefreshCookie(request: FastifyRequest, reply: FastifyReply): void {
      reply.clearCookie(REFRESH_COOKIE, refreshCookie(request));
      reply.clearCookie(SESSION_HINT_COOKIE, hintCookie(request));
    },

    deviceOf,

    /**
     * A device cookie for the account, unless the request has a valid one for it already. It has the
     * refresh cookie's flags and path (HttpOnly, SameSite=Strict, Secure over https), lives a year and
     * is never cleared: logging out does not make a device a stranger's.
     */
    keepDeviceCookie(request: FastifyRequest, reply: FastifyReply, userId: number): void {
      if (deviceOf(request, userId) !== null) return;
      reply.setCookie(DEVICE_COOKIE, app.deviceTokens.issue(userId), {
        ...refreshCookie(request),
        maxAge: DEVICE_TOKEN_TTL_SECONDS,
      });
    },
  };
}
