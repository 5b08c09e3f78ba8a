import { randomUUID } from 'node:crypto';
import { SessionExpiredError } from '../domain/errors';
import type { RefreshTokensRepository } from '../repositories/refresh-tokens';
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
}

/**
 * Sign-in sessions as chains ("families") of single-use refresh tokens: each refresh spends the
 * token presented and issues the next one. Only the tokens' hashes are stored.
 */
export function createSessions(
  refreshTokens: RefreshTokensRepository,
  lifetimes: SessionLifetimes,
  now: () => Date = () => new Date(),
) {
  async function issue(userId: number, familyId: string, familyExpiresAt: Date): Promise<SessionGrant> {
    const { token, hash } = newRandomToken();
    const expiresAt = new Date(
      Math.min(now().getTime() + lifetimes.refreshIdleSeconds * 1000, familyExpiresAt.getTime()),
    );
    await refreshTokens.insert({ userId, familyId, tokenHash: hash, expiresAt, familyExpiresAt });
    return { userId, refreshToken: token, expiresAt };
  }

  return {
    /** A new family, after a successful sign-in. */
    start(userId: number): Promise<SessionGrant> {
      return issue(userId, randomUUID(), new Date(now().getTime() + lifetimes.refreshMaxSeconds * 1000));
    },

    /**
     * Spends the presented token and issues its successor. A spent token coming back means it was
     * copied: every session descended from that sign-in ends, the thief's and the owner's alike.
     */
    async rotate(presented: string | undefined): Promise<SessionGrant> {
      if (!presented) throw new SessionExpiredError('Сессия не найдена. Войдите снова.');
      const at = now();
      const result = await refreshTokens.spend(hashRandomToken(presented), at);
      if (result.status === 'spent') return issue(result.userId, result.familyId, result.familyExpiresAt);
      if (result.status === 'reused') await refreshTokens.revokeFamily(result.familyId, at);
      throw new SessionExpiredError();
    },

    /** Sign-out: the presented token's whole family is revoked. */
    async end(presented: string | undefined): Promise<void> {
      if (presented) await refreshTokens.revokeFamilyOf(hashRandomToken(presented), now());
    },
  };
}

export type Sessions = ReturnType<typeof createSessions>;
