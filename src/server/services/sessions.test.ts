import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { revokedSessions } from '../db/schema';
import { SessionExpiredError } from '../domain/domain-errors';
import { recordRevokedSessions } from '../repositories/revoked-sessions';
import { createTestApp, signUp, STARTUP_TIMEOUT, type TestApp } from '../../../test/server/helpers/test-app';
import { createSessions } from './sessions';

const DAY = 24 * 60 * 60;
const GRACE = 20;
const lifetimes = { refreshIdleSeconds: 2 * DAY, refreshMaxSeconds: 5 * DAY, refreshGraceSeconds: GRACE };

let shop: TestApp;
beforeAll(async () => {
  shop = await createTestApp();
}, STARTUP_TIMEOUT);
afterAll(() => shop.close());

describe('sessions service', () => {
  let userId: number;
  let clock: Date;
  let sessions: ReturnType<typeof createSessions>;
  /** The sessions the service said it revoked. */
  let revoked: string[];

  beforeAll(async () => {
    userId = (await signUp(shop.app)).id;
  });
  beforeEach(() => {
    clock = new Date('2026-01-01T00:00:00Z');
    revoked = [];
    sessions = createSessions(
      shop.app.database.db,
      lifetimes,
      { remember: (ids) => revoked.push(...ids) },
      () => clock,
    );
  });

  /** A sign-in of the test's account, whose password (session version 0) has never changed. */
  const begin = async () => (await sessions.start(userId, 0))!;

  const later = (seconds: number) => {
    clock = new Date(clock.getTime() + seconds * 1000);
  };

  it('rotates: each refresh spends the token and issues a new one for the same user', async () => {
    const started = await begin();
    expect(started.expiresAt).toEqual(new Date(clock.getTime() + lifetimes.refreshIdleSeconds * 1000));
    later(DAY);
    const rotated = await sessions.rotate(started.refreshToken);
    expect(rotated.userId).toBe(userId);
    expect(rotated.sessionId).toBe(started.sessionId);
    expect(rotated.refreshToken).not.toBe(started.refreshToken);
    expect(rotated.expiresAt).toEqual(new Date(clock.getTime() + lifetimes.refreshIdleSeconds * 1000));
  });

  it('ends the whole family when a spent token comes back after the grace period', async () => {
    const started = await begin();
    const owners = await sessions.rotate(started.refreshToken);
    later(GRACE);
    await expect(sessions.rotate(started.refreshToken)).rejects.toThrow(new SessionExpiredError());
    // The copy was detected: the rightful successor is revoked too, and the session's access tokens with it.
    await expect(sessions.rotate(owners.refreshToken)).rejects.toBeInstanceOf(SessionExpiredError);
    expect(revoked).toEqual([started.sessionId]);
  });

  it('within the grace period a spent token refreshes again, into a successor of its own in the same session', async () => {
    const started = await begin();
    const first = await sessions.rotate(started.refreshToken);
    later(GRACE - 1);
    const second = await sessions.rotate(started.refreshToken);
    expect(second.refreshToken).not.toBe(first.refreshToken);
    expect([first.sessionId, second.sessionId]).toEqual([started.sessionId, started.sessionId]);
    expect(revoked).toEqual([]);
    // Both successors go on, each spent in its turn.
    later(60);
    expect((await sessions.rotate(first.refreshToken)).sessionId).toBe(started.sessionId);
    expect((await sessions.rotate(second.refreshToken)).sessionId).toBe(started.sessionId);
  });

  it('the grace period runs from the first spending: a reuse within it does not extend it', async () => {
    const started = await begin();
    await sessions.rotate(started.refreshToken);
    later(GRACE - 1);
    await sessions.rotate(started.refreshToken);
    later(1);
    await expect(sessions.rotate(started.refreshToken)).rejects.toBeInstanceOf(SessionExpiredError);
    expect(revoked).toEqual([started.sessionId]);
  });

  it('no grace for a token whose session has ended', async () => {
    const started = await begin();
    await sessions.rotate(started.refreshToken);
    await sessions.end(started.refreshToken);
    expect(revoked).toEqual([started.sessionId]);
    await expect(sessions.rotate(started.refreshToken)).rejects.toBeInstanceOf(SessionExpiredError);
  });

  it('a grace period of 0 takes every reuse for theft', async () => {
    const strict = createSessions(
      shop.app.database.db,
      { ...lifetimes, refreshGraceSeconds: 0 },
      { remember: (ids) => revoked.push(...ids) },
      () => clock,
    );
    const started = (await strict.start(userId, 0))!;
    const owners = await strict.rotate(started.refreshToken);
    await expect(strict.rotate(started.refreshToken)).rejects.toBeInstanceOf(SessionExpiredError);
    await expect(strict.rotate(owners.refreshToken)).rejects.toBeInstanceOf(SessionExpiredError);
    expect(revoked).toEqual([started.sessionId]);
  });

  it('never outlives the sign-in by more than the maximum, however often it is refreshed', async () => {
    const started = await begin();
    const signedInAt = clock.getTime();
    let token = started.refreshToken;
    for (let day = 1; day <= 4; day += 1) {
      later(DAY);
      token = (await sessions.rotate(token)).refreshToken;
    }
    later(DAY - 60);
    const last = await sessions.rotate(token);
    expect(last.expiresAt).toEqual(new Date(signedInAt + lifetimes.refreshMaxSeconds * 1000));
    later(120);
    await expect(sessions.rotate(last.refreshToken)).rejects.toBeInstanceOf(SessionExpiredError);
  });

  it('expires a token left unused past the idle lifetime', async () => {
    const started = await begin();
    later(lifetimes.refreshIdleSeconds + 1);
    await expect(sessions.rotate(started.refreshToken)).rejects.toBeInstanceOf(SessionExpiredError);
  });

  it('refuses a missing or unknown token', async () => {
    await expect(sessions.rotate(undefined)).rejects.toThrow(
      new SessionExpiredError('Сессия не найдена. Войдите снова.'),
    );
    await expect(sessions.rotate('not-a-token')).rejects.toThrow(new SessionExpiredError());
  });

  it('ends the session on sign-out', async () => {
    const started = await begin();
    const rotated = await sessions.rotate(started.refreshToken);
    await sessions.end(started.refreshToken);
    await expect(sessions.rotate(rotated.refreshToken)).rejects.toBeInstanceOf(SessionExpiredError);
    expect(revoked).toEqual([started.sessionId]);
  });

  it('grants no session to a password checked against a version that has changed meanwhile', async () => {
    expect(await sessions.start(userId, 1)).toBeNull();
    const granted = await begin();
    expect(granted.userId).toBe(userId);
  });
});

describe('revoked sessions in the database', () => {
  it('are listed while an access token issued before them can live, and purged after', async () => {
    const { db } = shop.app.database;
    const [old, recent] = [randomUUID(), randomUUID()];
    expect(await db.transaction((tx) => recordRevokedSessions(tx, [old, recent]))).toEqual([old, recent]);
    // Recorded once: a second revocation of the same session announces nothing.
    expect(await db.transaction((tx) => recordRevokedSessions(tx, [recent]))).toEqual([]);
    await db
      .update(revokedSessions)
      .set({ revokedAt: sql`now() - interval '2 hours'` })
      .where(eq(revokedSessions.sessionId, old));

    const store = shop.app.repositories.revokedSessions;
    expect(await store.revokedWithin(3600)).toContain(recent);
    expect(await store.revokedWithin(3600)).not.toContain(old);
    await store.purgeOlderThan(3600);
    expect([await store.isRevoked(old), await store.isRevoked(recent)]).toEqual([false, true]);
  });
});
