import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { forbidden, unauthorized } from '../api-error';
import { SESSIONS_REVOKED_CHANNEL } from '../db/notifications';
import type { Member } from '../domain/company-member';
import { createDownloadLinks, DOWNLOAD_LINK_TTL_SECONDS, type DownloadLinks } from '../services/download-links';
import { SessionRevocations } from '../services/session-revocations';
import {
  createAccessTokens,
  createDeviceTokens,
  DEVICE_TOKEN_TTL_SECONDS,
  generateSecret,
  type AccessTokens,
  type DeviceTokens,
} from '../services/tokens';

/** The session's refresh token, HttpOnly on the auth routes' path (routes/auth). */
export const REFRESH_COOKIE = 'refresh_token';
/** The device cookie of the sign-in throttling (services/sign-in-throttle): kept after logout. */
export const DEVICE_COOKIE = 'sign_in_device';

declare module 'fastify' {
  interface FastifyInstance {
    accessTokens: AccessTokens;
    /** The device cookies of the sign-in throttling, signed with the same secret. */
    deviceTokens: DeviceTokens;
    /** Short-lived signed URLs of the downloads the browser saves itself (services/download-links.ts). */
    downloadLinks: DownloadLinks;
    /**
     * Hook of the linkable downloads: `authenticate`, or a valid download link made for exactly
     * this URL (403 for an expired or altered one; 401 once its session is revoked).
     */
    authenticateDownload(request: FastifyRequest, reply: FastifyReply): Promise<void>;
    /** Sessions ended before their access tokens expire; whoever revokes one tells it (`remember`) once committed. */
    sessionRevocations: SessionRevocations;
    /** Hook (onRequest or preHandler): refuses the request with 401 unless it carries a valid bearer token. */
    authenticate(request: FastifyRequest, reply: FastifyReply): Promise<void>;
    /**
     * The account of the request's bearer token, checked as `authenticate` checks it (signature,
     * expiry, revoked session) without reading the account: 401 for a token that is not valid.
     * Without a promise when the revoked sessions are known at once (most calls), as the catalogue
     * answers its kept reads.
     */
    identify(request: FastifyRequest): number | Promise<number>;
    /**
     * The user of an `Authorization` header's access token when that is known without waiting: the
     * token valid and its session known not to be revoked. Undefined otherwise (`identify` decides).
     */
    identifyNow(authorization: string | undefined): number | undefined;
    /**
     * Hook: `authenticate`, then 403 unless the account is a manager now. The role is read from
     * the database on every request, not from the token, so a revoked manager loses access at once.
     */
    authenticateManager(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  }
  interface FastifyRequest {
    /** The token's user; set by `authenticate`, 0 on routes that do not use it. */
    userId: number;
    /** The token's user in their company, read now; set by `authenticate`. */
    member: Member;
    /** The token's session; set by `authenticate`. */
    sessionId: string;
  }
}

/** The token of an `Authorization: Bearer <token>` header, or null. */
export function bearerToken(header: string | undefined): string | null {
  return /^Bearer\s+(\S+)\s*$/i.exec(header ?? '')?.[1] ?? null;
}

/** 403 when a path or body names a user other than the one the token belongs to. */
export function assertOwnUser(request: FastifyRequest, userId: number): void {
  if (userId !== request.userId) throw forbidden('Нет доступа к данным другого пользователя');
}

export default fp(
  async (app) => {
    // A secret generated on first start is kept in the database, so every process of the shop
    // and every restart signs with the same one; no default secret lives in the code.
    const secret =
      app.config.jwtSecret ?? (await app.repositories.settings.getOrInsert('jwt_secret', generateSecret()));
    app.decorate('accessTokens', createAccessTokens(secret, app.config.accessTokenTtlSeconds));
    app.decorate('deviceTokens', createDeviceTokens(secret, DEVICE_TOKEN_TTL_SECONDS));
    app.decorate('downloadLinks', createDownloadLinks(secret, DOWNLOAD_LINK_TTL_SECONDS));

    const revocations = new SessionRevocations(app.repositories.revokedSessions, app.config.accessTokenTtlSeconds);
    app.decorate('sessionRevocations', revocations);
    // Sessions revoked by the shop's other processes reach this one here, each notification naming one.
    const stopListening = await app.database.listen(SESSIONS_REVOKED_CHANNEL, {
      onNotify: (sessionId) => revocations.remember([sessionId]),
      onLost: () => revocations.suspend(),
      onRestored: () => revocations.resume(),
    });
    app.addHook('preClose', stopListening);

    app.decorateRequest('userId', 0);
    app.decorateRequest('member', null as unknown as Member);
    app.decorateRequest('sessionId', '');
    const claimsOf = (authorization: string | undefined) => {
      const token = bearerToken(authorization);
      return token === null ? null : app.accessTokens.verify(token);
    };
    app.decorate('identifyNow', (authorization: string | undefined): number | undefined => {
      const claims = claimsOf(authorization);
      return claims && revocations.revokedNow(claims.sessionId) === false ? claims.userId : undefined;
    });
    app.decorate('identify', (request: FastifyRequest): number | Promise<number> => {
      const claims = claimsOf(request.headers.authorization);
      const refused = () => unauthorized('Сессия истекла или недействительна. Войдите снова.');
      if (!claims) throw refused();
      const revoked = revocations.revokedNow(claims.sessionId);
      if (revoked === undefined) {
        return revocations.isRevoked(claims.sessionId).then((later) => {
          if (later) throw refused();
          return claims.userId;
        });
      }
      if (revoked) throw refused();
      return claims.userId;
    });
    app.decorate('authenticate', async (request: FastifyRequest) => {
      const token = bearerToken(request.headers.authorization);
      if (token === null) throw unauthorized();
      const claims = app.accessTokens.verify(token);
      // A stateless token outlives its session: a logout, a password change or reset, the
      // account's deletion revoke the session, and its tokens are refused at once (docs/decisions.md).
      // The account's row is read too, with its company and role: one deleted by an operator's SQL
      // ends its sessions by a trigger whose notification reaches this process only milliseconds
      // after the commit, and a write in between would break on the missing row (a 500) instead of
      // being refused; a role changed or a company blocked a moment ago applies to this request.
      const membership =
        claims && !(await revocations.isRevoked(claims.sessionId))
          ? await app.repositories.companies.membershipOf(claims.userId)
          : null;
      if (!claims || !membership) throw unauthorized('Сессия истекла или недействительна. Войдите снова.');
      request.userId = claims.userId;
      request.member = { userId: claims.userId, ...membership };
      request.sessionId = claims.sessionId;
    });
    app.decorate('authenticateDownload', async (request: FastifyRequest, reply: FastifyReply) => {
      // A link opens a download, which is a GET: a POST to the same address takes a token.
      const reads = request.method === 'GET' || request.method === 'HEAD';
      const verdict = reads ? app.downloadLinks.verify(request.url) : null;
      if (verdict === null) return app.authenticate(request, reply);
      if (verdict === 'expired') throw forbidden('Ссылка для скачивания устарела. Нажмите кнопку скачивания ещё раз.');
      if (verdict === 'invalid') throw forbidden('Ссылка для скачивания недействительна.');
      // As `authenticate` checks a token: a session ended since the link was made ends the link.
      const membership = !(await revocations.isRevoked(verdict.sessionId))
        ? await app.repositories.companies.membershipOf(verdict.userId)
        : null;
      if (!membership) throw unauthorized('Сессия истекла или недействительна. Войдите снова.');
      request.userId = verdict.userId;
      request.member = { userId: verdict.userId, ...membership };
      request.sessionId = verdict.sessionId;
    });
    app.decorate('authenticateManager', async (request: FastifyRequest, reply: FastifyReply) => {
      // A link is honoured only on its linkable path (an exchange's file); any other takes a token.
      await app.authenticateDownload(request, reply);
      const user = await app.repositories.users.findById(request.userId);
      if (!user) throw unauthorized();
      if (user.role !== 'manager') throw forbidden('Раздел доступен только менеджерам магазина');
    });
  },
  { name: 'authentication', dependencies: ['database'] },
);
