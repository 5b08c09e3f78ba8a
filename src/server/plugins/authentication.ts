import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { forbidden, unauthorized } from '../errors';
import { createAccessTokens, generateSecret, type AccessTokens } from '../services/tokens';

declare module 'fastify' {
  interface FastifyInstance {
    accessTokens: AccessTokens;
    /** Hook (onRequest or preHandler): refuses the request with 401 unless it carries a valid bearer token. */
    authenticate(request: FastifyRequest, reply: FastifyReply): Promise<void>;
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
      const userId = app.accessTokens.verify(match[1]!);
      if (userId === null) throw unauthorized('Сессия истекла или недействительна. Войдите снова.');
      request.userId = userId;
    });
  },
  { name: 'authentication', dependencies: ['database'] },
);
