/**
 * Refresh-token theft, cross-site requests and password guessing; and secrets in the logs. (The
 * attack catalogue's scene and its rules: test/server/helpers/attack-scene.ts.)
 */
import { asc, eq } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { refreshTokens } from '../../../../src/server/db/schema';
import {
  bearer,
  createTestApp,
  json,
  LogCapture,
  logIn,
  sessionIdOf,
  setCookie,
  spentLongAgo,
  STARTUP_TIMEOUT,
  type TestApp,
} from '../../helpers/test-app';
import { TEST_PASSWORD } from '../../helpers/shop-data';
import { DEVICE_COOKIE } from '../../../../src/server/plugins/authentication';
import { attackScene, expectNoSecretLogged, refusalProblems } from '../../helpers/attack-scene';

const scene = attackScene();

describe('7. Refresh-token theft and cross-site requests', () => {
  // The Cookie header is written by hand so that any value, however odd, is sent as it is.
  const withCookie = (cookie: string | undefined, headers: Record<string, string>) =>
    cookie === undefined ? headers : { ...headers, cookie: `refresh_token=${cookie}` };
  const refresh = (app: FastifyInstance, cookie: string | undefined, headers: Record<string, string> = {}) =>
    app.inject({ method: 'POST', url: '/api/v1/auth/refresh', headers: withCookie(cookie, headers) });
  const logout = (app: FastifyInstance, cookie: string | undefined, headers: Record<string, string> = {}) =>
    app.inject({ method: 'POST', url: '/api/v1/auth/logout', headers: withCookie(cookie, headers) });
  const cookieOf = (response: LightMyRequestResponse) => {
    const value = setCookie(response, 'refresh_token')?.value;
    if (value) scene.secrets.add(value);
    return value;
  };
  async function login(app = scene.shop.app, headers: Record<string, string> = {}) {
    const response = await logIn(app, scene.victim.email, TEST_PASSWORD, headers);
    expect(response.statusCode).toBe(200);
    scene.secrets.add(json<{ access_token: string }>(response).access_token);
    return response;
  }

  it("a stolen cookie replayed after the victim used it: the thief is refused, and the victim's newest cookie dies with the family", async () => {
    const stolen = cookieOf(await login())!;
    // The victim refreshes twice: generation 2, then 3.
    const second = cookieOf(await refresh(scene.shop.app, stolen))!;
    const third = cookieOf(await refresh(scene.shop.app, second))!;
    expect(new Set([stolen, second, third]).size).toBe(3);
    // The thief replays generation 1 (later than two tabs of the victim's could have): refused,
    // and the whole family is revoked ...
    await spentLongAgo(scene.shop.app, stolen);
    const replay = await refresh(scene.shop.app, stolen);
    expect(refusalProblems('replay', replay, [401])).toEqual([]);
    expect(replay.body).not.toMatch(/access_token/);
    // ... so generation 3, which the thief might hold next, is refused too, as is generation 2.
    expect((await refresh(scene.shop.app, third)).statusCode).toBe(401);
    expect((await refresh(scene.shop.app, second)).statusCode).toBe(401);
    const family = await scene.shop.app.database.db
      .select()
      .from(refreshTokens)
      .where(eq(refreshTokens.userId, scene.victim.id));
    expect(family.length).toBeGreaterThanOrEqual(3);
  });

  it('a cookie rotated longer ago than the grace period is refused (the thief replaying it loses) and nothing new is issued', async () => {
    const cookie = cookieOf(await login())!;
    const first = await refresh(scene.shop.app, cookie);
    expect(first.statusCode).toBe(200);
    await spentLongAgo(scene.shop.app, cookie);
    const before = await scene.shop.app.database.db.select().from(refreshTokens);
    const again = await refresh(scene.shop.app, cookie);
    expect(again.statusCode).toBe(401);
    expect(setCookie(again, 'refresh_token')?.value ?? '').toBe('');
    // No new token row was issued for the replay.
    expect((await scene.shop.app.database.db.select().from(refreshTokens)).length).toBe(before.length);
  });

  it("a replay within the grace period (taken for the victim's second tab) gets only the victim's session: the victim's logout ends it", async () => {
    const cookie = cookieOf(await login())!;
    const victims = await refresh(scene.shop.app, cookie);
    const thiefs = await refresh(scene.shop.app, cookie);
    expect([victims.statusCode, thiefs.statusCode]).toEqual([200, 200]);
    const thiefToken = json<{ access_token: string }>(thiefs).access_token;
    scene.secrets.add(thiefToken);
    expect(sessionIdOf(thiefToken)).toBe(sessionIdOf(json<{ access_token: string }>(victims).access_token));
    expect((await logout(scene.shop.app, cookieOf(victims))).statusCode).toBe(204);
    for (const url of ['/api/v1/auth/user', `/api/v1/cart/${scene.victim.id}`]) {
      const response = await scene.shop.app.inject({ method: 'GET', url, headers: bearer(thiefToken) });
      expect(refusalProblems(url, response, [401])).toEqual([]);
    }
    expect((await refresh(scene.shop.app, cookieOf(thiefs))).statusCode).toBe(401);
  });

  it("made-up, truncated, padded and other users' hashed cookies → 401, nothing issued", async () => {
    const cookie = cookieOf(await login())!;
    const [row] = await scene.shop.app.database.db.select().from(refreshTokens).orderBy(asc(refreshTokens.id)).limit(1);
    await scene.changesNothing(async () => {
      const problems: string[] = [];
      for (const forged of [
        cookie.slice(0, -1),
        `${cookie}x`,
        `x${cookie}`,
        cookie.toUpperCase(),
        row!.tokenHash,
        "' OR '1'='1",
        'a'.repeat(4000),
        '%00',
        '%E0%A4%A',
        '',
      ]) {
        problems.push(
          ...refusalProblems(JSON.stringify(forged.slice(0, 20)), await refresh(scene.shop.app, forged), [401]),
        );
      }
      expect(problems).toEqual([]);
    });
  });

  it('a foreign Origin is refused (403) on refresh and on logout, with the cookie attached; the session survives both', async () => {
    const cookie = cookieOf(await login())!;
    await scene.changesNothing(async () => {
      for (const origin of [
        'https://evil.example',
        'http://localhost.evil.example',
        'null',
        'file://',
        'http://127.0.0.1:1',
      ]) {
        expect(
          refusalProblems(
            `refresh ${origin}`,
            await refresh(scene.shop.app, cookie, { host: 'shop.example', origin }),
            [403],
          ),
        ).toEqual([]);
        expect(
          refusalProblems(
            `logout ${origin}`,
            await logout(scene.shop.app, cookie, { host: 'shop.example', origin }),
            [403],
          ),
        ).toEqual([]);
      }
    });
    expect((await refresh(scene.shop.app, cookie)).statusCode).toBe(200);
  });

  it('logout ends the session: the cookie, and every cookie of that login, can no longer refresh', async () => {
    const first = cookieOf(await login())!;
    const current = cookieOf(await refresh(scene.shop.app, first))!;
    const out = await logout(scene.shop.app, current);
    expect(out.statusCode).toBe(204);
    expect(setCookie(out, 'refresh_token')!.value).toBe('');
    expect((await refresh(scene.shop.app, current)).statusCode).toBe(401);
    expect((await refresh(scene.shop.app, first)).statusCode).toBe(401);
    // Logging out again with the dead cookie changes nothing.
    await scene.changesNothing(async () => {
      expect((await logout(scene.shop.app, current)).statusCode).toBe(204);
    });
  });

  describe('cookie flags', () => {
    let proxied: TestApp;
    beforeAll(async () => {
      // The shop behind a TLS-terminating proxy that it trusts (TRUST_PROXY=true).
      proxied = await createTestApp({ trustProxy: true });
      expect(
        (
          await proxied.app.inject({
            method: 'POST',
            url: '/api/v1/auth/register',
            query: { email: scene.victim.email, password: TEST_PASSWORD, consent: 'true' },
          })
        ).statusCode,
      ).toBe(201);
    }, STARTUP_TIMEOUT);
    afterAll(() => proxied.close());

    const rawCookies = (response: LightMyRequestResponse) =>
      ([] as string[]).concat(response.headers['set-cookie'] ?? []);
    const flagsOf = (line: string) => {
      const parts = line.split(';').map((part) => part.trim().toLowerCase());
      return {
        httpOnly: parts.includes('httponly'),
        secure: parts.includes('secure'),
        sameSite: parts.find((part) => part.startsWith('samesite=')),
        path: parts.find((part) => part.startsWith('path=')),
      };
    };

    it('over https (x-forwarded-proto from the trusted proxy): HttpOnly, SameSite=Strict, Path=/api/v1/auth and Secure — on login, refresh and logout', async () => {
      const https = { 'x-forwarded-proto': 'https' };
      const signedIn = await login(proxied.app, https);
      const refreshed = await refresh(proxied.app, cookieOf(signedIn), https);
      expect(refreshed.statusCode).toBe(200);
      const out = await logout(proxied.app, cookieOf(refreshed), https);
      expect(out.statusCode).toBe(204);
      for (const response of [signedIn, refreshed, out]) {
        const line = rawCookies(response).find((candidate) => candidate.startsWith('refresh_token='));
        expect(line).toBeDefined();
        expect(flagsOf(line!)).toEqual({
          httpOnly: true,
          secure: true,
          sameSite: 'samesite=strict',
          path: 'path=/api/v1/auth',
        });
        // The readable session hint is Secure and Strict too, but (by design) not HttpOnly.
        const hint = rawCookies(response).find((candidate) => candidate.startsWith('session_hint='));
        expect(flagsOf(hint!)).toMatchObject({
          httpOnly: false,
          secure: true,
          sameSite: 'samesite=strict',
          path: 'path=/',
        });
      }
    });

    it('over plain http the cookie is not Secure (so a LAN shop works), still HttpOnly and Strict', async () => {
      const line = rawCookies(await login(proxied.app)).find((candidate) => candidate.startsWith('refresh_token='))!;
      expect(flagsOf(line)).toEqual({
        httpOnly: true,
        secure: false,
        sameSite: 'samesite=strict',
        path: 'path=/api/v1/auth',
      });
    });

    it("without TRUST_PROXY a client's own x-forwarded-proto is not believed", async () => {
      const line = rawCookies(await login(scene.shop.app, { 'x-forwarded-proto': 'https' })).find((candidate) =>
        candidate.startsWith('refresh_token='),
      )!;
      expect(flagsOf(line).secure).toBe(false);
    });
  });
});

// ---------------------------------------------------------------------------------------------
describe('8. Password guessing, and secrets in the logs', () => {
  let limited: TestApp;
  const limitedLog = new LogCapture();
  let nextAddress = 0;
  const freshClient = () => `198.18.1.${++nextAddress}`;

  beforeAll(async () => {
    limited = await createTestApp(
      {
        logLevel: 'trace',
        loginRateLimitPerAccount: { max: 3, windowMs: 60_000 },
        loginRateLimitPerClient: { max: 5, windowMs: 60_000 },
      },
      { logStream: limitedLog },
    );
  }, STARTUP_TIMEOUT);
  afterAll(() => limited.close());

  const login = (payload: object | string, remoteAddress: string, headers: Record<string, string> = {}) =>
    limited.app.inject({ method: 'POST', url: '/api/v1/auth/token', payload, remoteAddress, headers });

  const register = (email: string, password: string, remoteAddress: string) =>
    limited.app.inject({
      method: 'POST',
      url: '/api/v1/auth/register',
      query: { email, password, consent: 'true' },
      remoteAddress,
    });

  it("sign-ups with someone's e-mail from many addresses (409 each) do not keep its owner out", async () => {
    const email = `target-${Date.now()}@example.com`;
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 6; attempt += 1) {
      const response = await register(
        attempt % 2 ? email.toUpperCase() : email,
        `${TEST_PASSWORD} ${attempt}`,
        freshClient(),
      );
      statuses.push(response.statusCode);
    }
    expect(statuses).toEqual([201, 409, 409, 409, 409, 409]);
    expect((await login({ username: email, password: `${TEST_PASSWORD} 0` }, freshClient())).statusCode).toBe(200);
  }, 60_000);

  it("form and JSON logins, and the e-mail in any case, count against one account: every client without the account's device cookie is then refused even with the right password; the owner's device is not", async () => {
    const email = `guessed-${Date.now()}@example.com`;
    expect((await register(email, TEST_PASSWORD, freshClient())).statusCode).toBe(201);
    const ownersSignIn = await login({ username: email, password: TEST_PASSWORD }, freshClient());
    expect(ownersSignIn.statusCode).toBe(200);
    const device = setCookie(ownersSignIn, DEVICE_COOKIE)!.value;
    scene.secrets.add(device);
    const wrong = [
      new URLSearchParams({ username: email, password: 'guess one' }).toString(),
      { username: email.toUpperCase(), password: 'guess two' },
      { username: `  ${email}\t`, password: 'guess three' },
    ];
    const guessers = wrong.map(() => freshClient());
    for (const [index, payload] of wrong.entries()) {
      const headers: Record<string, string> =
        typeof payload === 'string' ? { 'content-type': 'application/x-www-form-urlencoded' } : {};
      expect((await login(payload, guessers[index]!, headers)).statusCode).toBe(401);
    }
    for (const client of [guessers[0]!, freshClient()]) {
      const again = await login({ username: email, password: TEST_PASSWORD }, client, {
        'x-forwarded-for': '203.0.113.77',
      });
      expect(refusalProblems('a client without a device cookie', again, [429])).toEqual([]);
      expect(setCookie(again, 'refresh_token')).toBeUndefined();
    }
    const owner = await login({ username: email, password: TEST_PASSWORD }, freshClient(), {
      cookie: `${DEVICE_COOKIE}=${device}`,
    });
    expect(owner.statusCode).toBe(200);
    expect(setCookie(owner, 'refresh_token')?.value).toEqual(expect.any(String));
  }, 60_000);

  it("per client: rotating X-Forwarded-For and the account on every try does not reset the client's count (TRUST_PROXY off)", async () => {
    const client = freshClient();
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 8; attempt += 1) {
      const response = await login(
        { username: `spray${attempt}-${Date.now()}@example.com`, password: 'Summer2024!' },
        client,
        {
          'x-forwarded-for': `203.0.113.${attempt}, 10.0.0.${attempt}`,
          'x-real-ip': `198.51.100.${attempt}`,
          forwarded: `for=192.0.2.${attempt}`,
        },
      );
      statuses.push(response.statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
  }, 60_000);

  it('no password, access token, refresh cookie or JWT secret is ever logged, at trace level, by any call of this file', async () => {
    // A few more of the riskiest shapes: the password in the login URL, failed and throttled logins.
    const password = `Секрет-${Date.now()}-пароль`;
    scene.secrets.add(password);
    await limited.app.inject({
      method: 'POST',
      url: `/api/v1/auth/token?password=${encodeURIComponent(password)}&username=x%40y.ru`,
      payload: { username: 'x@y.ru', password },
    });
    await limited.app.inject({
      method: 'POST',
      url: '/api/v1/auth/register',
      query: { email: `logged-${Date.now()}@example.com`, password, consent: 'true' },
    });
    // A client bug sending broken JSON: the parser's error (which quotes the text) must not be logged.
    await limited.app.inject({
      method: 'POST',
      url: '/api/v1/auth/token',
      headers: { 'content-type': 'application/json' },
      payload: `{"username":"x@y.ru","password":"${password}"`,
    });
    await limited.app.inject({
      method: 'POST',
      url: '/api/v1/auth/token',
      headers: { 'content-type': 'application/json' },
      payload: `{"password":"${password}", oops}`,
    });
    // A request carrying a token that the server refuses.
    await limited.app.inject({
      method: 'GET',
      url: '/api/v1/auth/user',
      headers: { authorization: `Bearer ${scene.victim.token}` },
    });

    const texts = [scene.log.text, limitedLog.text];
    // The capture works: this file's calls are there.
    expect(scene.log.text).toContain('"url":"/api/v1/auth/refresh"');
    expect(limitedLog.text).toContain('"statusCode":429');
    expectNoSecretLogged(texts, scene.secrets);
    expect(scene.secrets.size).toBeGreaterThan(10);
  });
});
