import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { forbidden, unauthorized } from '../errors';
import { createAccessTokens, generateSecret, type AccessTokens } from '../services/tokens';

declare module 'fastify' {
  interface FastifyInstance {
    accessTokens: AccessTokens;
    /** Hook (onRequest or preHandler): refuses the request with 401 unless it carries a valid bearer token. */
    authenticate(request: FastifyRequest, reply: FastifyReply): Promise<void>;
    /**
     * Hook: `authenticate`, then 403 unless the account is a manager now. The role is read from
     * the database on every request, not from the token, so a revoked manager loses access at once.
     */
    authenticateManager(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  }
  interface FastifyRequest {
    /** The token's user; set by `authenticate`, 0 on routes that do not use it. */
    userId: number;
  }
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
    app.decorateRequest('userId', 0);
    app.decorate('authenticate', async (request: FastifyRequest) => {
      const header = request.headers.authorization;
      const match = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
      if (!match) throw unauthorized();
      const claims = app.accessTokens.verify(match[1]!);
      // A stateless token outlives what the account did since it was issued: a password changed
      // or reset raises the session version, and a deleted account has none (docs/decisions.md).
      const current = claims && (await app.repositories.users.sessionVersion(claims.userId));
      if (!claims || current !== claims.sessionVersion) {
        throw unauthorized('Сессия истекла или недействительна. Войдите снова.');
      }
      request.userId = claims.userId;
    });
    app.decorate('authenticateManager', async (request: FastifyRequest, reply: FastifyReply) => {
      await app.authenticate(request, reply);
      const user = await app.repositories.users.findById(request.userId);
      if (!user) throw unauthorized();
      if (user.role !== 'manager') throw forbidden('Раздел доступен только менеджерам магазина');
    });
  },
  { name: 'authentication', dependencies: ['database'] },
);
