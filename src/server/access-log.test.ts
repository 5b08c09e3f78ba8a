/** The access log: one line per request (the public catalogue's reads sampled), and never a secret in it. */
import { addFailingRoutes } from '../../test/server/helpers/failing-routes';
import {
  createTestApp,
  LogCapture,
  logIn,
  quickShoppers,
  setCookie,
  STARTUP_TIMEOUT,
  type TestApp,
} from '../../test/server/helpers/test-app';
import { TEST_PASSWORD } from '../../test/server/helpers/shop-data';

let shop: TestApp;
let log: LogCapture;

beforeAll(async () => {
  log = new LogCapture();
  // 'info' is the level the shop runs at by default; every catalogue read logged, so that the
  // secrets a read carries are looked for in its line (the sampling has its own test).
  shop = await createTestApp(
    { logLevel: 'info', accessLogSample: 1 },
    { logStream: log, beforeReady: addFailingRoutes },
  );
}, STARTUP_TIMEOUT);
afterAll(() => shop.close());

describe('logging', () => {
  it('one line per request, and never the password, the access token or the refresh cookie', async () => {
    const email = `logged-${Date.now()}@example.com`;
    const password = `${TEST_PASSWORD} Пароль-${Date.now()}`;
    const registered = await shop.app.inject({
      method: 'POST',
      url: '/api/v1/auth/register',
      query: { email, password, consent: 'true' },
    });
    expect(registered.statusCode).toBe(201);
    const userId = (registered.json() as { id: number }).id;

    const jsonRegistration = await shop.app.inject({
      method: 'POST',
      url: '/api/v1/auth/register',
      payload: { email: `json-${email}`, password, consent: true },
    });
    expect(jsonRegistration.statusCode).toBe(201);

    const login = await logIn(shop.app, email, password);
    expect(login.statusCode).toBe(200);
    const accessToken = (login.json() as { access_token: string }).access_token;
    const firstCookie = setCookie(login, 'refresh_token')!.value;
    const failedLogin = await logIn(shop.app, email, `${password}-wrong`);
    expect(failedLogin.statusCode).toBe(401);

    const refreshed = await shop.app.inject({
      method: 'POST',
      url: '/api/v1/auth/refresh',
      cookies: { refresh_token: firstCookie },
    });
    expect(refreshed.statusCode).toBe(200);
    const secondCookie = setCookie(refreshed, 'refresh_token')!.value;
    const secondToken = (refreshed.json() as { access_token: string }).access_token;

    const headers = { authorization: `Bearer ${secondToken}` };
    expect((await shop.app.inject({ method: 'GET', url: `/api/v1/cart/${userId}`, headers })).statusCode).toBe(200);
    expect(
      (
        await shop.app.inject({
          method: 'GET',
          url: '/api/v1/auth/user',
          headers: { authorization: `Bearer ${accessToken}` },
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (
        await shop.app.inject({
          method: 'POST',
          url: '/api/v1/cart/add',
          headers,
          payload: { user_id: userId, product_id: 1, variant_id: 2_000_000_000, count: 1 },
        })
      ).statusCode,
    ).toBe(422);
    expect(
      (await shop.app.inject({ method: 'POST', url: '/api/v1/auth/logout', cookies: { refresh_token: secondCookie } }))
        .statusCode,
    ).toBe(204);
    // A replayed, revoked cookie and a bad token take the failure paths.
    expect(
      (await shop.app.inject({ method: 'POST', url: '/api/v1/auth/refresh', cookies: { refresh_token: firstCookie } }))
        .statusCode,
    ).toBe(401);
    expect(
      (
        await shop.app.inject({
          method: 'GET',
          url: '/api/v1/auth/user',
          headers: { authorization: `Bearer ${accessToken}x` },
        })
      ).statusCode,
    ).toBe(401);

    const text = log.text;
    // The capture works: the calls above are there.
    expect(text).toContain('"url":"/api/v1/auth/register"');
    expect(text).toContain('"url":"/api/v1/auth/refresh"');
    expect(text).toContain(`"url":"/api/v1/cart/${userId}"`);
    for (const line of log.lines) expect(() => JSON.parse(line)).not.toThrow();
    // Each request's line names the request, so it can be matched with that request's errors.
    const cartLine = JSON.parse(log.lines.find((line) => line.includes(`"url":"/api/v1/cart/${userId}"`))!) as Record<
      string,
      unknown
    >;
    expect(cartLine).toMatchObject({
      msg: 'request',
      method: 'GET',
      statusCode: 200,
      reqId: expect.stringMatching(/^req-/),
    });

    for (const secret of [
      password,
      encodeURIComponent(password),
      accessToken,
      secondToken,
      firstCookie,
      secondCookie,
    ]) {
      expect(text).not.toContain(secret);
    }
    // Nor the token's signature or the cookie in any other shape.
    expect(text).not.toContain(accessToken.split('.')[2]!);
    expect(text).not.toMatch(/refresh_token=/);
    expect(text).not.toMatch(/authorization/i);
    // The e-mail travels in the register query: the logged URL drops the query.
    expect(text).not.toContain(email);
  });
});

describe('access lines of the public catalogue', () => {
  it(
    'one in ACCESS_LOG_SAMPLE reads, anonymous or signed in, saying so; refusals and other calls each',
    async () => {
      const lines = new LogCapture();
      const sampling = await createTestApp({ logLevel: 'info', accessLogSample: 3 }, { logStream: lines });
      try {
        const requestLines = () =>
          lines.lines
            .map((line) => JSON.parse(line) as Record<string, unknown>)
            .filter((line) => line.msg === 'request');
        const popular = '/api/v1/products/popular?skip=0&limit=8';
        // The first read fills the catalogue cache. On a busy machine it can take over 500 ms, and a
        // slow read has a line of its own: the sampling is counted from the reads after it.
        expect((await sampling.app.inject({ method: 'GET', url: popular })).statusCode).toBe(200);
        lines.lines.length = 0;
        for (let read = 0; read < 9; read += 1) {
          expect((await sampling.app.inject({ method: 'GET', url: popular })).statusCode).toBe(200);
        }
        const [buyer] = await quickShoppers(sampling.app, 1);
        for (let read = 0; read < 3; read += 1) {
          expect((await sampling.app.inject({ method: 'GET', url: popular, headers: buyer!.headers })).statusCode).toBe(
            200,
          );
        }
        const refused = { authorization: `${buyer!.headers.authorization}x` };
        expect((await sampling.app.inject({ method: 'GET', url: popular, headers: refused })).statusCode).toBe(401);
        await sampling.app.inject({ method: 'GET', url: '/api/v1/products/NO-SUCH-ART' });
        await sampling.app.inject({ method: 'GET', url: '/api/v1/products/popular?skip=0&limit=100000' });
        for (let call = 0; call < 2; call += 1) await sampling.app.inject({ method: 'GET', url: '/api/health/live' });

        const reads = requestLines().filter((line) => String(line.url).startsWith('/api/v1/products/'));
        // Nine anonymous reads and three of a signed-in buyer: four lines, each standing for three.
        expect(reads.filter((line) => line.sampled === 3 && line.url === popular)).toHaveLength(4);
        // The refused token, the 404 and the 422: a line each, none of them sampled.
        expect(reads.filter((line) => line.sampled === undefined).map((line) => line.statusCode)).toEqual([
          401, 404, 422,
        ]);
        // Calls of other routes are all there.
        expect(requestLines().filter((line) => line.url === '/api/health/live')).toHaveLength(2);
      } finally {
        await sampling.close();
      }
    },
    STARTUP_TIMEOUT,
  );
});

describe('logging under odd spellings', () => {
  it('no password reaches the log, whatever the path and wherever the password is', async () => {
    const password = `Секрет-${Date.now()}-пароль`;
    const email = `odd-${Date.now()}@example.com`;
    const query = new URLSearchParams({ email, password }).toString();
    const calls: { method: 'GET' | 'POST'; url: string; payload?: string; headers?: Record<string, string> }[] = [
      { method: 'POST', url: `/api/v1/auth/register?${query}` },
      ...[
        '//api/v1/auth/register',
        '/API/v1/auth/register',
        '/api/v1//auth/register',
        '/api/V1/AUTH/REGISTER/',
        '/api/v1/%61uth/register',
        '/api/v1/auth/../auth/register',
      ].map((path) => ({ method: 'POST' as const, url: `${path}?${query}` })),
      // Encoded otherwise: every character of the password percent-encoded, and the name too.
      {
        method: 'POST',
        url: `//api/v1/auth/register?email=x&pass%77ord=${[...Buffer.from(password)].map((byte) => `%${byte.toString(16)}`).join('')}`,
      },
      { method: 'POST', url: `/api/v1/auth/token?username=${encodeURIComponent(email)}&password=${password}` },
      {
        method: 'POST',
        url: '/api/v1/auth/token',
        payload: new URLSearchParams({ username: email, password }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      },
      // Elsewhere in the API, where no password belongs, and on a storefront page.
      { method: 'GET', url: `/api/v1/products/?skip=0&new_password=${password}&current_password=${password}` },
      { method: 'GET', url: `/catalog?password=${encodeURIComponent(password)};token=${password}` },
      { method: 'GET', url: `/api/v1/test-only/boom?password=${password}` },
    ];
    for (const call of calls) await shop.app.inject(call);

    const text = log.text;
    // The capture works: the calls are there.
    expect(text).toContain('"url":"/api/v1/products/?skip=0&new_password=[redacted]&current_password=[redacted]"');
    expect(text).toContain('"url":"//api/v1/auth/register"');
    for (const secret of [password, encodeURIComponent(password), password.slice(0, 12), email]) {
      expect(text).not.toContain(secret);
    }
  });
});
