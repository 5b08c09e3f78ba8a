import { createHash, randomBytes } from 'node:crypto';
import { createSigner, createVerifier } from 'fast-jwt';

/** Whom a token was issued to, and in which session (the refresh-token family of one sign-in). */
export interface AccessClaims {
  userId: number;
  sessionId: string;
}

export interface AccessTokens {
  sign(userId: number, sessionId: string): string;
  /** The claims of a valid, unexpired HS256 token; `null` for anything else. */
  verify(token: string): AccessClaims | null;
}

// Session ids are the families' UUIDs; anything else in a token signed by the shop is refused
// before it reaches the database as a uuid.
const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The most valid access tokens a process remembers having verified; beyond it, the oldest are forgotten. */
const MAX_REMEMBERED_TOKENS = 10_000;

export function createAccessTokens(secret: string, ttlSeconds: number): AccessTokens {
  const signer = createSigner({ key: secret, algorithm: 'HS256', expiresIn: ttlSeconds * 1000 });
  // Only HS256 is accepted: 'none' and every other algorithm are refused before any claim is read.
  const verifier = createVerifier({ key: secret, algorithms: ['HS256'], requiredClaims: ['sub', 'exp', 'sid'] });
  // A buyer sends the same token with every request until it expires: checking its signature (an
  // HMAC) and claims took 15% of the server's CPU on a signed-in catalogue read (docs/performance.md),
  // and what they gave holds until it expires (revocation is checked apart, on every request). Only
  // tokens that passed are kept, so nobody fills this with tokens of their own making.
  const verified = new Map<string, { claims: AccessClaims; expiresAtMs: number }>();
  return {
    sign: (userId, sessionId) => signer({ sub: String(userId), sid: sessionId }),
    verify(token) {
      const known = verified.get(token);
      if (known) {
        // As fast-jwt checks `exp`: valid up to and including that instant.
        if (Date.now() <= known.expiresAtMs) return known.claims;
        verified.delete(token);
        return null;
      }
      try {
        const payload = verifier(token) as { sub?: unknown; sid?: unknown; exp: number };
        const userId = Number(payload.sub);
        const sessionId = payload.sid;
        if (!Number.isSafeInteger(userId) || userId <= 0) return null;
        if (typeof sessionId !== 'string' || !SESSION_ID.test(sessionId)) return null;
        const claims: AccessClaims = Object.freeze({ userId, sessionId });
        if (verified.size >= MAX_REMEMBERED_TOKENS) verified.delete(verified.keys().next().value!);
        verified.set(token, { claims, expiresAtMs: payload.exp * 1000 });
        return claims;
      } catch {
        return null;
      }
    },
  };
}

/** A device cookie's content: the account it was issued to, and the device's random id. */
export interface DeviceClaims {
  userId: number;
  device: string;
}

export interface DeviceTokens {
  /** A new device cookie's value for the account, with a new random device id. */
  issue(userId: number): string;
  /** The claims of a valid, unexpired device token signed by the shop; `null` for anything else. */
  verify(token: string): DeviceClaims | null;
}

/** A device cookie lasts a year from the sign-in, the reset or the refresh that set it; logout keeps it. */
export const DEVICE_TOKEN_TTL_SECONDS = 365 * 24 * 60 * 60;

/** 16 random bytes, base64url: the id of a device cookie. */
const DEVICE_ID = /^[\w-]{22}$/;

/**
 * Device cookies (OWASP «Slow Down Online Guessing Attacks with Device Cookies»): HS256 JWTs with the
 * shop's secret, naming the account (`sub`) and a random device id (`dev`). The claims tell them
 * from access tokens both ways: an access token has no `dev`, a device token no `sid`.
 */
export function createDeviceTokens(secret: string, ttlSeconds: number): DeviceTokens {
  const signer = createSigner({ key: secret, algorithm: 'HS256', expiresIn: ttlSeconds * 1000 });
  const verifier = createVerifier({ key: secret, algorithms: ['HS256'], requiredClaims: ['sub', 'exp', 'dev'] });
  return {
    issue: (userId) => signer({ sub: String(userId), dev: randomBytes(16).toString('base64url') }),
    verify(token) {
      try {
        const payload = verifier(token) as { sub?: unknown; dev?: unknown; sid?: unknown };
        const userId = Number(payload.sub);
        if (!Number.isSafeInteger(userId) || userId <= 0 || payload.sid !== undefined) return null;
        if (typeof payload.dev !== 'string' || !DEVICE_ID.test(payload.dev)) return null;
        return { userId, device: payload.dev };
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
