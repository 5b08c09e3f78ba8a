/**
 * What the whole app answers when a request goes wrong, whichever part refuses it (the router, the
 * body parsers and limits, the error handler): a clean JSON {detail} in Russian, internals logged
 * and never sent.
 */
import { addFailingRoutes } from '../../test/server/helpers/failing-routes';
import {
  createTestApp,
  LogCapture,
  quickShoppers,
  STARTUP_TIMEOUT,
  type Shopper,
  type TestApp,
} from '../../test/server/helpers/test-app';

const CYRILLIC = /[а-яё]/i;

let shop: TestApp;
let log: LogCapture;
let shopper: Shopper;

beforeAll(async () => {
  log = new LogCapture();
  shop = await createTestApp({ logLevel: 'info' }, { logStream: log, beforeReady: addFailingRoutes });
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
    expect(response.headers['retry-after']).toBe('5');
    expectJsonDetail(response);
    expect(response.body).not.toMatch(/ECONNREFUSED|10\.0\.0\.5|hunter2/);
  });

  it('a 503 keeps the Retry-After its route set before failing', async () => {
    const response = await shop.app.inject({ method: 'GET', url: '/api/v1/test-only/database-down-for-a-minute' });
    expect(response.statusCode).toBe(503);
    expect(response.headers['retry-after']).toBe('60');
    expectJsonDetail(response);
  });
});
