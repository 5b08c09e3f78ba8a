import { randomUUID } from 'node:crypto';
import type { Database, Queryable } from '../db/database';
import { SessionExpiredError } from '../domain/errors';
import { createRefreshTokensRepository } from '../repositories/refresh-tokens';
import { createUsersRepository } from '../repositories/users';
import { hashRandomToken, newRandomToken } from './tokens';

export interface SessionLifetimes {
  /** A refresh token not used for this long expires. */
  refreshIdleSeconds: number;
  /** No session outlives its sign-in by more than this, however often it is refreshed. */
  refreshMaxSeconds: number;
}

/** What the client keeps (the refresh token, as a cookie) and until when. */
export interface SessionGrant {
  userId: number;
  refreshToken: string;
  expiresAt: Date;
  /** The account's session version the access token is to carry, read as the session was granted. */
  sessionVersion: number;
}

/**
 * Sign-in sessions as chains ("families") of single-use refresh tokens: each refresh spends the
 * token presented and issues the next one. Only the tokens' hashes are stored.
 */
export function createSessions(db: Database, lifetimes: SessionLifetimes, now: () => Date = () => new Date()) {
  async function issue(
    tx: Queryable,
    grantee: { userId: number; sessionVersion: number },
    familyId: string,
    familyExpiresAt: Date,
  ): Promise<SessionGrant> {
    const { token, hash } = newRandomToken();
    const expiresAt = new Date(
      Math.min(now().getTime() + lifetimes.refreshIdleSeconds * 1000, familyExpiresAt.getTime()),
    );
    await createRefreshTokensRepository(tx).insert({
      userId: grantee.userId,
      familyId,
      tokenHash: hash,
      expiresAt,
      familyExpiresAt,
    });
    return { ...grantee, refreshToken: token, expiresAt };
  }

  // Each grant holds the account's row (FOR SHARE) from reading its session version to writing
  // the new refresh token, and a password change or reset updates that row before revoking the
  // tokens: so one of the two waits for the other, and no token issued alongside a reset
  // outlives it (users.setPassword).
  return {
    /**
     * A new family, after a successful sign-in with the password that `sessionVersion` went with
     * (read with its hash); null when the password changed meanwhile or the account is gone.
     */
    start(userId: number, sessionVersion: number): Promise<SessionGrant | null> {
      return db.transaction(async (tx) => {
        const current = await createUsersRepository(tx).holdSessionVersion(userId);
        if (current !== sessionVersion) return null;
        return issue(
          tx,
          { userId, sessionVersion },
          randomUUID(),
          new Date(now().getTime() + lifetimes.refreshMaxSeconds * 1000),
        );
      });
    },

    /**
     * Spends the presented token and issues its successor. A spent token coming back means it was
     * copied: every session descended from that sign-in ends, the thief's and the owner's alike.
     */
    async rotate(presented: string | undefined): Promise<SessionGrant> {
      if (!presented) throw new SessionExpiredError('Сессия не найдена. Войдите снова.');
      const at = now();
      const tokenHash = hashRandomToken(presented);
      const granted = await db.transaction(async (tx): Promise<SessionGrant | null> => {
        const refreshTokens = createRefreshTokensRepository(tx);
        const owner = await refreshTokens.ownerOf(tokenHash);
        if (owner === null) return null;
        const sessionVersion = await createUsersRepository(tx).holdSessionVersion(owner);
        if (sessionVersion === null) return null;
        const result = await refreshTokens.spend(tokenHash, at);
        if (result.status === 'spent') {
          return issue(tx, { userId: owner, sessionVersion }, result.familyId, result.familyExpiresAt);
        }
        if (result.status === 'reused') await refreshTokens.revokeFamily(result.familyId, at);
        return null;
      });
      if (!granted) throw new SessionExpiredError();
      return granted;
    },

    /** Sign-out: the presented token's whole family is revoked. */
    async end(presented: string | undefined): Promise<void> {
      if (presented) await createRefreshTokensRepository(db).revokeFamilyOf(hashRandomToken(presented), now());
    },
  };
}

export type Sessions = ReturnType<typeof createSessions>;
