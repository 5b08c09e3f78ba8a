import { randomUUID } from 'node:crypto';
import type { Database, Queryable } from '../db/database';
import { SessionExpiredError } from '../domain/domain-errors';
import { createRefreshTokensRepository } from '../repositories/refresh-tokens';
import { createUsersRepository } from '../repositories/users';
import type { SessionRevocations } from './session-revocations';
import { hashRandomToken, newRandomToken } from './tokens';

export interface SessionLifetimes {
  /** A refresh token not used for this long expires. */
  refreshIdleSeconds: number;
  /** No session outlives its sign-in by more than this, however often it is refreshed. */
  refreshMaxSeconds: number;
  /** A token just spent still refreshes for this long (two tabs refreshing with one cookie); 0: never. */
  refreshGraceSeconds: number;
}

/** What the client keeps (the refresh token, as a cookie) and until when. */
export interface SessionGrant {
  userId: number;
  /** The session (the family of refresh tokens of one sign-in) the access token is to name. */
  sessionId: string;
  refreshToken: string;
  expiresAt: Date;
}

/**
 * Sign-in sessions as chains ("families") of single-use refresh tokens: each refresh spends the
 * token presented and issues the next one. Only the tokens' hashes are stored. The family's id is
 * the session's: every access token names it, and a session revoked here is told to `revocations`
 * as soon as it is committed, so this process refuses its access tokens at once.
 */
export function createSessions(
  db: Database,
  lifetimes: SessionLifetimes,
  revocations: Pick<SessionRevocations, 'remember'>,
  now: () => Date = () => new Date(),
) {
  async function issue(tx: Queryable, userId: number, familyId: string, familyExpiresAt: Date): Promise<SessionGrant> {
    const { token, hash } = newRandomToken();
    const expiresAt = new Date(
      Math.min(now().getTime() + lifetimes.refreshIdleSeconds * 1000, familyExpiresAt.getTime()),
    );
    await createRefreshTokensRepository(tx).insert({ userId, familyId, tokenHash: hash, expiresAt, familyExpiresAt });
    return { userId, sessionId: familyId, refreshToken: token, expiresAt };
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
        return issue(tx, userId, randomUUID(), new Date(now().getTime() + lifetimes.refreshMaxSeconds * 1000));
      });
    },

    /**
     * Spends the presented token and issues its successor. A spent token coming back means it was
     * copied: every session descended from that sign-in ends, the thief's and the owner's alike.
     * Unless it was spent less than the grace period ago: then it is a second tab that refreshed
     * with the same cookie at the same moment, and it gets a successor of its own in the family.
     */
    async rotate(presented: string | undefined): Promise<SessionGrant> {
      if (!presented) throw new SessionExpiredError('Сессия не найдена. Войдите снова.');
      const at = now();
      const tokenHash = hashRandomToken(presented);
      const revoked: string[] = [];
      const granted = await db.transaction(async (tx): Promise<SessionGrant | null> => {
        const refreshTokens = createRefreshTokensRepository(tx);
        const owner = await refreshTokens.ownerOf(tokenHash);
        if (owner === null) return null;
        if ((await createUsersRepository(tx).holdSessionVersion(owner)) === null) return null;
        const result = await refreshTokens.spend(tokenHash, at, lifetimes.refreshGraceSeconds);
        if (result.status === 'spent' || result.status === 'justSpent') {
          return issue(tx, owner, result.familyId, result.familyExpiresAt);
        }
        if (result.status === 'reused') revoked.push(...(await refreshTokens.revokeFamily(result.familyId, at)));
        return null;
      });
      revocations.remember(revoked);
      if (!granted) throw new SessionExpiredError();
      return granted;
    },

    /** Sign-out: the presented token's whole family is revoked. */
    async end(presented: string | undefined): Promise<void> {
      if (!presented) return;
      revocations.remember(await createRefreshTokensRepository(db).revokeFamilyOf(hashRandomToken(presented), now()));
    },
  };
}

export type Sessions = ReturnType<typeof createSessions>;
