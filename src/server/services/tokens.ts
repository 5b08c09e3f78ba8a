import { createHash, randomBytes } from 'node:crypto';
import { createSigner, createVerifier } from 'fast-jwt';

export interface AccessTokens {
  sign(userId: number): string;
  /** The user id of a valid, unexpired HS256 token; `null` for anything else. */
  verify(token: string): number | null;
}

export function createAccessTokens(secret: string, ttlSeconds: number): AccessTokens {
  const signer = createSigner({ key: secret, algorithm: 'HS256', expiresIn: ttlSeconds * 1000 });
  // Only HS256 is accepted: 'none' and every other algorithm are refused before any claim is read.
  const verifier = createVerifier({ key: secret, algorithms: ['HS256'], requiredClaims: ['sub', 'exp'] });
  return {
    sign: (userId) => signer({ sub: String(userId) }),
    verify(token) {
      try {
        const payload = verifier(token) as { sub?: unknown };
        const userId = Number(payload.sub);
        return Number.isSafeInteger(userId) && userId > 0 ? userId : null;
      } catch {
        return null;
      }
    },
  };
}

export function generateSecret(): string {
  return randomBytes(48).toString('base64url');
}

export function newRefreshToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashRefreshToken(token) };
}

/** Refresh tokens are stored as SHA-256 hashes: they are random, so a slow hash adds nothing. */
export function hashRefreshToken(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}
