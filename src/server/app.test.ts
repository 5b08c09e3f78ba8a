/** Platform behaviour shared by every route: errors, limits, headers, docs, health, logging. */
import { connect, type AddressInfo } from 'node:net';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import {
  createTestApp,
  LogCapture,
  logIn,
  quickShoppers,
  setCookie,
  STARTUP_TIMEOUT,
  type Shopper,
  type TestApp,
} from '../../test/server/helpers/test-app';
import { TEST_PASSWORD } from '../../test/server/helpers/shop-data';

const CYRILLIC = /[а-яё]/i;
const SECRET_INTERNALS =
  'connection to /srv/secret-db failed: password=hunter2 at Object.<anonymous> (/app/src/server/app.ts:1:1)';

/** Routes that fail on purpose, added before the app is ready. */
function addFailingRoutes(app: FastifyInstance): void {
  app.get('/api/v1/test-only/boom', async () => {
    throw new Error(SECRET_INTERNALS);
  });
  app.get('/api/v1/test-only/type-error', async () => {
    const nothing = null as unknown as { field: string };
    return nothing.field;
  });
  app.get('/api/v1/test-only/database-down', async () => {
    throw Object.assign(new Error(`connect ECONNREFUSED 10.0.0.5:5432 ${SECRET_INTERNALS}`), { code: 'ECONNREFUSED' });
  });
}

/**
 * A connection kept alive as a balancer keeps it: requests one after another on the same socket,
 * and whether the server has closed it.
 */
async function keptAlive(port: number) {
  const socket = connect(port, '127.0.0.1');
  await once(socket, 'connect');
  socket.setEncoding('utf8');
  let received = '';
  let closed = false;
  socket.on('data', (chunk: string) => (received += chunk));
  socket.on('close', () => (closed = true));
  socket.on('error', () => {});
  /** The answer's status and headers (lower-cased names) once all of it has arrived, else null. */
  const answer = () => {
    const end = received.indexOf('\r\n\r\n');
    if (end < 0) return null;
    const [statusLine = '', ...lines] = received.slice(0, end).split('\r\n');
    const headers = Object.fromEntries(
      lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
    );
    const bodyBytes = Buffer.byteLength(received.slice(end + 4));
    return bodyBytes >= Number(headers['content-length'] ?? 0)
      ? { status: Number(statusLine.split(' ')[1]), headers }
      : null;
  };
  return {
    closed: () => closed,
    async ask(url: string) {
      received = '';
      socket.write(`GET ${url} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
      for (let waited = 0; waited < 5000; waited += 10) {
        const done = answer();
        if (done) return done;
        if (closed) throw new Error(`closed by the server before an answer to ${url}: ${JSON.stringify(received)}`);
        await sleep(10);
      }
      throw new Error(`no answer to ${url}: ${JSON.stringify(received)}`);
    },
  };
}

let shop: TestApp;
let log: LogCapture;
let shopper: Shopper;

beforeAll(async () => {
  log = new LogCapture();
  // 'info' is the level the shop runs at by default; every catalogue read logged, so that the
  // secrets a read carries are looked for in its line (the sampling has its own test).
  shop = await createTestApp(
    { logLevel: 'info', accessLogSample: 1 },
    { logStream: log, beforeReady: addFailingRoutes },
  );
  shopper = (await quickShoppers(shop.app, 1))[0]!;
}, STARTUP_TIMEOUT);
afterAll(() => shop.close());

const expectJsonDetail = (response: { headers: Record<string, unknown>; json(): unknown }) => {
  expect(String(response.headers['content-type'])).toMatch(/^application\/json/);
  const body = response.json() as Record<string, unknown>;
  expect(Object.keys(body)).toEqual(['detail']);
  expect(body.detail).toEqual(expect.stringMatching(CYRILLIC));
};

describe('errors', () => {
  it.each([
    ['GET', '/api/nothing-here'],
    ['GET', '/api/v1/unknown'],
    ['GET', '/api'],
    ['GET', '/api/v2/products/'],
  ] as const)('unknown %s %s → 404 JSON {detail}', async (method, url) => {
    const response = await shop.app.inject({ method, url });
    expect(response.statusCode).toBe(404);
    expectJsonDetail(response);
  });

  it.each([
    ['POST', '/api/v1/products/', 'GET, HEAD'],
    ['DELETE', '/api/v1/banners/all', 'GET, HEAD'],
  ] as const)('a known path under another method: %s %s → 405 JSON {detail}, Allow: %s', async (method, url, allow) => {
    const response = await shop.app.inject({ method, url });
    expect(response.statusCode).toBe(405);
    expect(response.headers.allow).toBe(allow);
    expectJsonDetail(response);
  });

  it('with no storefront built, a page route is a 404 too (not a crash)', async () => {
    const response = await shop.app.inject({ method: 'GET', url: '/catalog' });
    expect(response.statusCode).toBe(404);
  });

  it('malformed JSON → 400 {detail}', async () => {
    const response = await shop.app.inject({
      method: 'POST',
      url: '/api/v1/cart/add',
      headers: { ...shopper!.headers, 'content-type': 'application/json' },
      payload: '{"user_id": 1, "product_id": ',
    });
    expect(response.statusCode).toBe(400);
    expectJsonDetail(response);
  });

  it('an empty JSON body → 400 {detail}', async () => {
    const response = await shop.app.inject({
      method: 'POST',
      url: '/api/v1/cart/add',
      headers: { ...shopper!.headers, 'content-type': 'application/json' },
      payload: '',
    });
    expect(response.statusCode).toBe(400);
    expectJsonDetail(response);
  });

  it('a JSON body with __proto__ does not pollute anything and is refused or ignored', async () => {
    const response = await shop.app.inject({
      method: 'POST',
      url: '/api/v1/cart/add',
      headers: { ...shopper!.headers, 'content-type': 'application/json' },
      payload: '{"__proto__": {"polluted": true}, "user_id": 1}',
    });
    expect(response.statusCode).toBeGreaterThanOrEqual(400);
    expect(response.statusCode).toBeLessThan(500);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('text/plain to /api/v1/cart/add → 415 {detail}', async () => {
    const response = await shop.app.inject({
      method: 'POST',
      url: '/api/v1/cart/add',
      headers: { ...shopper!.headers, 'content-type': 'text/plain' },
      payload: 'user_id=1',
    });
    expect(response.statusCode).toBe(415);
    expectJsonDetail(response);
  });

  it('a body over 1 MB → 413 {detail}, for JSON and form bodies alike', async () => {
    const big = JSON.stringify({
      user_id: shopper!.id,
      product_id: 1,
      variant_id: 1,
      count: 1,
      padding: 'x'.repeat(1024 * 1024),
    });
    const json = await shop.app.inject({
      method: 'POST',
      url: '/api/v1/cart/add',
      headers: { ...shopper!.headers, 'content-type': 'application/json' },
      payload: big,
    });
    expect(json.statusCode).toBe(413);
    expectJsonDetail(json);

    const form = await shop.app.inject({
      method: 'POST',
      url: '/api/v1/auth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `username=a%40b.ru&password=${'x'.repeat(1024 * 1024)}`,
    });
    expect(form.statusCode).toBe(413);
    expectJsonDetail(form);
  });

  it('a body just under the limit is read normally', async () => {
    const response = await shop.app.inject({
      method: 'POST',
      url: '/api/v1/cart/add',
      headers: { ...shopper!.headers, 'content-type': 'application/json' },
      payload: JSON.stringify({
        user_id: shopper!.id,
        product_id: 1,
        variant_id: 2_000_000_000,
        count: 1,
        padding: 'x'.repeat(1000 * 1000),
      }),
    });
    // Parsed and validated: the unknown variant is the complaint, not the size.
    expect(response.statusCode).toBe(422);
  });

  it('an internal error → 500 with a generic Russian detail; the internals are logged, never sent', async () => {
    for (const url of ['/api/v1/test-only/boom', '/api/v1/test-only/type-error']) {
      const response = await shop.app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(500);
      expect(response.json()).toEqual({ detail: 'Внутренняя ошибка сервера' });
      expect(response.body).not.toMatch(/hunter2|secret-db|stack|at Object|TypeError|field/);
    }
    // The error itself, with its message and stack, is in the log at level error ...
    expect(
      log.lines.some((line) => line.includes('"level":50') && line.includes('secret-db') && line.includes('"stack"')),
    ).toBe(true);
    // ... next to the request line that says it answered 500.
    expect(
      log.lines.some((line) => line.includes('"url":"/api/v1/test-only/boom"') && line.includes('"statusCode":500')),
    ).toBe(true);
  });

  it('an error logged through request.log names its request (the logger is made on first use)', async () => {
    await shop.app.inject({ method: 'GET', url: '/api/v1/test-only/type-error?marker=named' });
    const lines = log.lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const answered = lines.filter((line) => line.msg === 'request' && String(line.url).endsWith('marker=named'));
    const failed = lines.findLast(
      (line) => line.msg === 'request failed' && (line.err as { type?: string } | undefined)?.type === 'TypeError',
    );
    expect(answered).toHaveLength(1);
    expect(failed?.reqId).toMatch(/^req-/);
    expect(failed?.reqId).toBe(answered[0]!.reqId);
  });

  it('a database outage → 503 with Retry-After, internals hidden', async () => {
    const response = await shop.app.inject({ method: 'GET', url: '/api/v1/test-only/database-down' });
    expect(response.statusCode).toBe(503);
    expect(response.headers['retry-after']).toBeDefined();
    expectJsonDetail(response);
    expect(response.body).not.toMatch(/ECONNREFUSED|10\.0\.0\.5|hunter2/);
  });
});

describe('security headers', () => {
  it.each([
    ['a JSON answer', '/api/v1/products/categories/all'],
    ['an error answer', '/api/nothing-here'],
  ])(
    'on %s: nosniff, a CSP that allows nothing and no framing, same-origin reads only, no X-Powered-By',
    async (_name, url) => {
      const response = await shop.app.inject({ method: 'GET', url });
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(response.headers['cross-origin-resource-policy']).toBe('same-origin');
      expect(response.headers['x-powered-by']).toBeUndefined();
    },
  );

  it.each([
    ['a storefront page', '/catalog'],
    ['the API documentation', '/api/docs'],
  ])('on %s: the document policy, with frames, referrers and the opener locked down', async (_name, url) => {
    const response = await shop.app.inject({ method: 'GET', url });
    // The docs page brings swagger-ui's own policy (its frame-ancestors is 'self').
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toMatch(/frame-ancestors '(none|self)'/);
    expect(csp).toContain("object-src 'none'");
    expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    expect(response.headers['cross-origin-opener-policy']).toBe('same-origin');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('OpenAPI document', () => {
  // SPEC §7, plus the image call the about page uses.
  const SPEC_CALLS = [
    'GET /api/v1/products/',
    'GET /api/v1/products/{art}',
    'GET /api/v1/products/categories/all',
    'GET /api/v1/products/categories/{category}',
    'GET /api/v1/products/popular',
    'GET /api/v1/banners/all',
    'POST /api/v1/auth/token',
    'POST /api/v1/auth/register',
    'GET /api/v1/auth/user',
    'POST /api/v1/auth/refresh',
    'GET /api/v1/cart/{user_id}',
    'PUT /api/v1/cart/count',
    'POST /api/v1/cart/add',
    'DELETE /api/v1/cart/{item_id}',
    'POST /api/v1/order/',
    'GET /api/v1/order/{user_id}',
    'DELETE /api/v1/order/{id}',
    'GET /api/v1/order/{id}/status',
    'POST /api/v1/address/',
    'GET /api/v1/address/{user_id}',
    'PUT /api/v1/address/{id}',
    'DELETE /api/v1/address/{id}',
    'GET /api/v1/image/{name}',
  ];
  const withoutTrailingSlash = (path: string) => path.replace(/(.)\/$/, '$1');

  let document: {
    openapi: string;
    info: { title: string };
    paths: Record<string, Record<string, { responses?: object }>>;
  };
  beforeAll(async () => {
    const response = await shop.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    document = response.json();
  });

  it('is an OpenAPI 3 document', () => {
    expect(document.openapi).toMatch(/^3\./);
    expect(document.info.title).toEqual(expect.any(String));
  });

  it.each(SPEC_CALLS)('lists %s', (call) => {
    const [method, path] = call.split(' ') as [string, string];
    const operations = document.paths[withoutTrailingSlash(path)];
    expect(operations).toBeDefined();
    expect(operations![method.toLowerCase()]).toBeDefined();
    expect(operations![method.toLowerCase()]!.responses).toBeDefined();
  });

  it("does not list the test-only routes' secrets or anything outside /api", () => {
    for (const path of Object.keys(document.paths)) expect(path.startsWith('/api/')).toBe(true);
  });

  it('the docs UI is served', async () => {
    const response = await shop.app.inject({ method: 'GET', url: '/api/docs' });
    expect([200, 302]).toContain(response.statusCode);
  });
});

describe('health', () => {
  it.each(['/api/health/live', '/api/health/ready'])('%s → 200 {status: "ok"}', async (url) => {
    const response = await shop.app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
  });

  it(
    '/ready → 503 once the database is gone',
    async () => {
      const doomed = await createTestApp();
      try {
        await doomed.app.database.close();
        const response = await doomed.app.inject({ method: 'GET', url: '/api/health/ready' });
        expect(response.statusCode).toBe(503);
        expect((await doomed.app.inject({ method: 'GET', url: '/api/health/live' })).statusCode).toBe(200);
      } finally {
        // The database handle is already closed; closing the app must not throw because of it.
        await doomed.close().catch(() => {});
      }
    },
    STARTUP_TIMEOUT,
  );

  it(
    'draining (the start of a graceful stop): /ready → 503 for balancers, every other request still served, on connections not kept',
    async () => {
      const stopping = await createTestApp();
      try {
        stopping.app.startDraining();
        const ready = await stopping.app.inject({ method: 'GET', url: '/api/health/ready' });
        expect(ready.statusCode).toBe(503);
        expect(ready.json()).toEqual({ status: 'shutting down' });
        expect((await stopping.app.inject({ method: 'GET', url: '/api/health/live' })).statusCode).toBe(200);
        const products = await stopping.app.inject({ method: 'GET', url: '/api/v1/products/?limit=1' });
        expect(products.statusCode).toBe(200);
        // No connection is kept for another request: none is left idle for a balancer when it stops accepting.
        expect(products.headers.connection).toBe('close');
      } finally {
        await stopping.close();
      }
    },
    STARTUP_TIMEOUT,
  );

  it(
    'draining closes no idle kept-alive connection (a balancer may be sending on it that moment): each is closed after its next answer',
    async () => {
      const stopping = await createTestApp();
      try {
        await stopping.app.listen({ host: '127.0.0.1', port: 0 });
        const { port } = stopping.app.server.address() as AddressInfo;
        const [first, second] = [await keptAlive(port), await keptAlive(port)];
        for (const connection of [first, second]) {
          expect((await connection.ask('/api/health/live')).status).toBe(200);
        }
        stopping.app.startDraining();
        await sleep(100);
        expect([first.closed(), second.closed()]).toEqual([false, false]);

        const products = await first.ask('/api/v1/products/?limit=1');
        expect(products.status).toBe(200);
        expect(products.headers.connection).toBe('close');
        // Another connection's answer closes none but its own either.
        await sleep(100);
        expect([first.closed(), second.closed()]).toEqual([true, false]);
        const live = await second.ask('/api/health/live');
        expect(live.status).toBe(200);
        expect(live.headers.connection).toBe('close');
        await sleep(100);
        expect(second.closed()).toBe(true);
      } finally {
        await stopping.close();
      }
    },
    STARTUP_TIMEOUT,
  );
});

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
  it('one in ACCESS_LOG_SAMPLE anonymous reads, saying so; signed-in reads, refusals and other calls each', async () => {
    const lines = new LogCapture();
    const sampling = await createTestApp({ logLevel: 'info', accessLogSample: 3 }, { logStream: lines });
    try {
      const requestLines = () =>
        lines.lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.msg === 'request');
      const popular = '/api/v1/products/popular?skip=0&limit=8';
      // The first read fills the catalogue cache. On a busy machine it can take over 500 ms, and a
      // slow read has a line of its own: the sampling is counted from the reads after it.
      expect((await sampling.app.inject({ method: 'GET', url: popular })).statusCode).toBe(200);
      lines.lines.length = 0;
      for (let read = 0; read < 9; read += 1) {
        expect((await sampling.app.inject({ method: 'GET', url: popular })).statusCode).toBe(200);
      }
      const [buyer] = await quickShoppers(sampling.app, 1);
      await sampling.app.inject({ method: 'GET', url: popular, headers: buyer!.headers });
      await sampling.app.inject({ method: 'GET', url: '/api/v1/products/NO-SUCH-ART' });
      await sampling.app.inject({ method: 'GET', url: '/api/v1/products/popular?skip=0&limit=100000' });
      for (let call = 0; call < 2; call += 1) await sampling.app.inject({ method: 'GET', url: '/api/health/live' });

      const reads = requestLines().filter((line) => String(line.url).startsWith('/api/v1/products/'));
      // Nine anonymous reads: three lines, each standing for three.
      expect(reads.filter((line) => line.sampled === 3 && line.url === popular)).toHaveLength(3);
      // The signed-in read, the 404 and the 422: a line each, none of them sampled.
      expect(reads.filter((line) => line.sampled === undefined).map((line) => line.statusCode)).toEqual([
        200, 404, 422,
      ]);
      // Calls of other routes are all there.
      expect(requestLines().filter((line) => line.url === '/api/health/live')).toHaveLength(2);
    } finally {
      await sampling.close();
    }
  });
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

describe('Cache-Control: no-store', () => {
  const NO_STORE = /(^|[ ,])no-store($|[ ,])/;

  it('on every answer to a request with an access token: cart, orders, addresses, the user, errors', async () => {
    const { headers, id } = shopper;
    for (const url of [`/api/v1/cart/${id}`, `/api/v1/order/${id}`, `/api/v1/address/${id}`, '/api/v1/auth/user']) {
      const response = await shop.app.inject({ method: 'GET', url, headers });
      expect([url, response.statusCode]).toEqual([url, 200]);
      expect([url, response.headers['cache-control']]).toEqual([url, expect.stringMatching(NO_STORE)]);
    }
    // Someone else's cart: refused, and not kept either.
    const foreign = await shop.app.inject({ method: 'GET', url: `/api/v1/cart/${id + 1000}`, headers });
    expect(foreign.statusCode).toBeGreaterThanOrEqual(400);
    expect(foreign.headers['cache-control']).toBe('no-store');
  });

  it('on every /auth answer: register, login, refresh (with the cookie), and their failures', async () => {
    const email = `no-store-${Date.now()}@example.com`;
    const register = await shop.app.inject({
      method: 'POST',
      url: '/api/v1/auth/register',
      query: { email, password: TEST_PASSWORD, consent: 'true' },
    });
    expect(register.statusCode).toBe(201);
    const login = await logIn(shop.app, email, TEST_PASSWORD);
    expect(login.statusCode).toBe(200);
    const refresh = await shop.app.inject({
      method: 'POST',
      url: '/api/v1/auth/refresh',
      cookies: { refresh_token: setCookie(login, 'refresh_token')!.value },
    });
    expect(refresh.statusCode).toBe(200);
    const failedLogin = await logIn(shop.app, email, `${TEST_PASSWORD}-wrong`);
    expect(failedLogin.statusCode).toBe(401);
    for (const response of [register, login, refresh, failedLogin]) {
      expect(response.headers['cache-control']).toBe('no-store');
    }
  });

  it('public catalogue reads keep their own caching, with or without a token (the storefront sends it on every call)', async () => {
    for (const headers of [{}, shopper.headers]) {
      const products = await shop.app.inject({ method: 'GET', url: '/api/v1/products/popular', headers });
      expect(products.headers['cache-control']).toBe('no-cache');
      expect(products.headers.etag).toEqual(expect.any(String));
      const revalidated = await shop.app.inject({
        method: 'GET',
        url: '/api/v1/products/popular',
        headers: { ...headers, 'if-none-match': String(products.headers.etag) },
      });
      expect(revalidated.statusCode).toBe(304);

      const image = await shop.app.inject({ method: 'GET', url: '/api/v1/image/MO-1001.svg', headers });
      expect(image.statusCode).toBe(200);
      expect(image.headers['cache-control']).not.toMatch(NO_STORE);
      const sitemap = await shop.app.inject({ method: 'GET', url: '/sitemap.xml', headers });
      expect(sitemap.headers['cache-control']).toBe('public, max-age=3600');
    }
  });
});
