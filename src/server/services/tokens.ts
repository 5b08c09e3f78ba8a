import { createHash, randomBytes } from 'node:crypto';
import { createSigner, createVerifier } from 'fast-jwt';

/** Whom a token was issued to, and the account's session version then (users.session_version). */
export interface AccessClaims {
  userId: number;
  sessionVersion: number;
}

export interface AccessTokens {
  /** `sessionVersion` 0 is the version of an account whose password never changed. */
  sign(userId: number, sessionVersion?: number): string;
  /** The claims of a valid, unexpired HS256 token; `null` for anything else. */
  verify(token: string): AccessClaims | null;
}

export function createAccessTokens(secret: string, ttlSeconds: number): AccessTokens {
  const signer = createSigner({ key: secret, algorithm: 'HS256', expiresIn: ttlSeconds * 1000 });
  // Only HS256 is accepted: 'none' and every other algorithm are refused before any claim is read.
  const verifier = createVerifier({ key: secret, algorithms: ['HS256'], requiredClaims: ['sub', 'exp'] });
  return {
    // The version travels only when it is not 0, so the tokens of most accounts stay as they were.
    sign: (userId, sessionVersion = 0) =>
      signer(sessionVersion === 0 ? { sub: String(userId) } : { sub: String(userId), ver: sessionVersion }),
    verify(token) {
      try {
        const payload = verifier(token) as { sub?: unknown; ver?: unknown };
        const userId = Number(payload.sub);
        const sessionVersion = payload.ver ?? 0;
        if (!Number.isSafeInteger(userId) || userId <= 0 || !Number.isSafeInteger(sessionVersion)) return null;
        return { userId, sessionVersion: sessionVersion as number };
      } catch {
        return null;
      }
    },
  };
}

export function generateSecret(): string {
  return randomBytes(48).toString('base64url');
}

export function newRandomToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashRandomToken(token) };
}

/** Refresh tokens and reset links are stored as SHA-256 hashes: they are random, so a slow hash adds nothing. */
export function hashRandomToken(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}
