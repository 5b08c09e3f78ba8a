import { SessionExpiredError } from '../domain/errors';
import { createTestApp, signUp, STARTUP_TIMEOUT, type TestApp } from '../../../test/server/helpers/test-app';
import { createSessions } from './sessions';

const DAY = 24 * 60 * 60;
const lifetimes = { refreshIdleSeconds: 2 * DAY, refreshMaxSeconds: 5 * DAY };

describe('sessions service', () => {
  let shop: TestApp;
  let userId: number;
  let clock: Date;
  let sessions: ReturnType<typeof createSessions>;

  beforeAll(async () => {
    shop = await createTestApp();
    userId = (await signUp(shop.app)).id;
  }, STARTUP_TIMEOUT);
  afterAll(() => shop.close());
  beforeEach(() => {
    clock = new Date('2026-01-01T00:00:00Z');
    sessions = createSessions(shop.app.database.db, lifetimes, () => clock);
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
    expect(rotated.refreshToken).not.toBe(started.refreshToken);
    expect(rotated.expiresAt).toEqual(new Date(clock.getTime() + lifetimes.refreshIdleSeconds * 1000));
  });

  it('ends the whole family when a spent token comes back', async () => {
    const started = await begin();
    const owners = await sessions.rotate(started.refreshToken);
    await expect(sessions.rotate(started.refreshToken)).rejects.toThrow(new SessionExpiredError());
    // The copy was detected: the rightful successor is revoked too.
    await expect(sessions.rotate(owners.refreshToken)).rejects.toBeInstanceOf(SessionExpiredError);
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
  });

  it('grants no session to a password checked against a version that has changed meanwhile', async () => {
    expect(await sessions.start(userId, 1)).toBeNull();
    const granted = await begin();
    expect(granted.sessionVersion).toBe(0);
  });
});
