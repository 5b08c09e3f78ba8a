/**
 * Malformed requests and protocol abuse: clean 4xx JSON, no internals. (The attack catalogue's
 * scene and its rules: test/server/helpers/attack-scene.ts.)
 */
import type { LightMyRequestResponse } from 'fastify';
import { logIn } from '../../helpers/test-app';
import { TEST_PASSWORD } from '../../helpers/shop-data';
import { ADDRESS_FIELDS, attackScene, inStock, itLogsNoSecret, refusalProblems } from '../../helpers/attack-scene';

const scene = attackScene();

describe('5. Malformed requests and protocol abuse: clean 4xx JSON, no internals', () => {
  const POST_ROUTES = [
    '/api/v1/cart/add',
    '/api/v1/order/',
    '/api/v1/address/',
    '/api/v1/auth/token',
    '/api/v1/auth/register',
  ];
  const send = (method: 'POST' | 'PUT' | 'DELETE', url: string, payload: string | Buffer, contentType?: string) =>
    scene.shop.app.inject({
      method,
      url,
      headers: { ...scene.attacker.headers, ...(contentType ? { 'content-type': contentType } : {}) },
      payload,
    });

  it.each([
    ['truncated', '{"user_id": 1, "items": ['],
    ['single quotes', "{'user_id': 1}"],
    ['trailing comma', '{"user_id": 1,}'],
    ['NaN', '{"user_id": NaN}'],
    ['comments', '{"user_id": 1 /* me */}'],
    ['two documents', '{"user_id": 1}{"user_id": 2}'],
    ['__proto__', '{"__proto__": {"isAdmin": true}, "user_id": 1}'],
    ['constructor.prototype', '{"constructor": {"prototype": {"isAdmin": true}}}'],
    ['a BOM and garbage', '\uFEFF\u0000\u0001{'],
    ['binary', Buffer.from([0xff, 0xfe, 0x00, 0x7b, 0x22])],
    // Valid JSON, but nested deeper than any recursive walk over it could go.
    ['100 000 nested arrays', `${'['.repeat(100_000)}${']'.repeat(100_000)}`],
    ['50 000 nested objects', `${'{"a":'.repeat(50_000)}"\u0000"${'}'.repeat(50_000)}`],
  ] as const)('malformed JSON (%s) on every body route → 400/422 {detail}', async (_name, payload) => {
    await scene.changesNothing(async () => {
      const problems: string[] = [];
      for (const url of POST_ROUTES)
        problems.push(...refusalProblems(url, await send('POST', url, payload, 'application/json'), [400, 422]));
      problems.push(
        ...refusalProblems(
          'PUT address',
          await send('PUT', `/api/v1/address/${scene.victimAddresses[0]!.id}`, payload, 'application/json'),
          [400, 422],
        ),
      );
      expect(problems).toEqual([]);
    });
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
  });

  it.each([
    ['text/plain', 'user_id=1'],
    ['application/xml', '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>'],
    ['text/xml', '<x/>'],
    [
      'multipart/form-data; boundary=XyZ',
      '--XyZ\r\nContent-Disposition: form-data; name="user_id"\r\n\r\n1\r\n--XyZ--\r\n',
    ],
    ['application/octet-stream', '\u0000\u0001'],
    ['text/html', '<script>alert(1)</script>'],
    ['application/jsonp', '{}'],
    ['', '{}'],
  ])('content type %j → 415 {detail} on every body route', async (contentType, payload) => {
    await scene.changesNothing(async () => {
      const problems: string[] = [];
      for (const url of POST_ROUTES) {
        const response = await scene.shop.app.inject({
          method: 'POST',
          url,
          headers: { ...scene.attacker.headers, 'content-type': contentType },
          payload,
        });
        problems.push(...refusalProblems(`${url} ${contentType}`, response, [415]));
      }
      expect(problems).toEqual([]);
    });
  });

  it('a 3 MB body → 413 {detail} on every route that takes a body, JSON or form', async () => {
    const huge = 'я'.repeat(1_500_000); // 3 MB of UTF-8
    await scene.changesNothing(async () => {
      const problems: string[] = [];
      for (const url of POST_ROUTES) {
        problems.push(
          ...refusalProblems(
            `${url} json`,
            await send('POST', url, JSON.stringify({ user_id: scene.attacker.id, padding: huge }), 'application/json'),
            [413],
          ),
        );
        problems.push(
          ...refusalProblems(
            `${url} form`,
            await send('POST', url, `username=a&password=${huge}`, 'application/x-www-form-urlencoded'),
            [413],
          ),
        );
      }
      problems.push(
        ...refusalProblems(
          'PUT address',
          await send(
            'PUT',
            `/api/v1/address/${scene.victimAddresses[0]!.id}`,
            JSON.stringify({ padding: huge }),
            'application/json',
          ),
          [413],
        ),
      );
      problems.push(
        ...refusalProblems(
          'DELETE cart',
          await send(
            'DELETE',
            `/api/v1/cart/${scene.victimLines[0]}`,
            JSON.stringify({ padding: huge }),
            'application/json',
          ),
          [413],
        ),
      );
      problems.push(
        ...refusalProblems(
          'refresh',
          await send('POST', '/api/v1/auth/refresh', JSON.stringify({ padding: huge }), 'application/json'),
          [413],
        ),
      );
      expect(problems).toEqual([]);
    });
  });

  it('unknown routes and versions → 404 {detail}; a known path under a method it does not take → 405 {detail}', async () => {
    const problems: string[] = [];
    for (const [method, url] of [
      ['POST', '/api/v1/order/1/status'],
      ['PATCH', `/api/v1/order/${scene.victimOrder.id}`],
      ['PUT', `/api/v1/order/${scene.victimOrder.id}`],
      ['PATCH', '/api/v1/cart/count'],
      ['PUT', '/api/v1/auth/user'],
      ['GET', '/api/v1/auth/token'],
    ] as const) {
      const response = await scene.shop.app.inject({ method, url, headers: scene.attacker.headers });
      problems.push(...refusalProblems(`${method} ${url}`, response, [405]));
      if (!response.headers.allow) problems.push(`${method} ${url}: 405 without Allow`);
    }
    for (const [method, url] of [
      ['GET', '/api/v1/admin'],
      ['GET', '/api/v1/users'],
      ['GET', '/api/v1/users/1'],
      ['GET', '/api/v1/../../etc/passwd'],
      ['GET', '/api/v0/products/'],
      ['GET', '/api/v1/products/categories/all/extra'],
      ['GET', '/.env'],
      ['GET', '/package.json'],
      ['GET', '/src/server/app.ts'],
      ['GET', '/.git/config'],
    ] as const) {
      problems.push(
        ...refusalProblems(
          `${method} ${url}`,
          await scene.shop.app.inject({ method, url, headers: scene.attacker.headers }),
          [404],
        ),
      );
    }
    expect(problems).toEqual([]);
  });

  it('OPTIONS and TRACE on API routes → 405 {detail}; TRACE does not echo the request (no cross-site tracing)', async () => {
    const problems: string[] = [];
    for (const method of ['OPTIONS', 'TRACE'] as const) {
      for (const url of [
        '/api/v1/products/',
        `/api/v1/cart/${scene.victim.id}`,
        '/api/v1/cart/add',
        '/api/v1/order/',
        '/api/v1/auth/token',
        '/api/v1/auth/refresh',
      ]) {
        const response = await scene.shop.app.inject({
          method,
          url,
          headers: {
            ...scene.victim.headers,
            cookie: 'refresh_token=secret-cookie-value',
            origin: 'https://evil.example',
          },
        });
        problems.push(...refusalProblems(`${method} ${url}`, response, [405]));
        if (response.body.includes(scene.victim.token) || response.body.includes('secret-cookie-value'))
          problems.push(`${method} ${url} echoes the request`);
        if (response.headers['access-control-allow-origin']) problems.push(`${method} ${url} grants CORS`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('HEAD on protected API routes without a token → 401 with a JSON type and no body; on POST-only routes → 405', async () => {
    const problems: string[] = [];
    for (const url of [
      `/api/v1/cart/${scene.victim.id}`,
      `/api/v1/order/${scene.victim.id}`,
      `/api/v1/address/${scene.victim.id}`,
      '/api/v1/auth/user',
      `/api/v1/order/${scene.victimOrder.id}/status`,
    ]) {
      const response = await scene.shop.app.inject({ method: 'HEAD', url });
      problems.push(...refusalProblems(`HEAD ${url}`, response, [401]));
      if (response.body !== '') problems.push(`HEAD ${url} has a body`);
    }
    // With the attacker's token: refused the same way, the victim's data not even sized.
    const peek = await scene.shop.app.inject({
      method: 'HEAD',
      url: `/api/v1/cart/${scene.victim.id}`,
      headers: scene.attacker.headers,
    });
    problems.push(...refusalProblems('HEAD victim cart', peek, [403]));
    // HEAD /cart/add reads as the cart of a user called "add": refused before anything else.
    for (const url of ['/api/v1/cart/add', '/api/v1/order/', '/api/v1/auth/token', '/api/v1/auth/refresh']) {
      problems.push(
        ...refusalProblems(`HEAD ${url}`, await scene.shop.app.inject({ method: 'HEAD', url }), [401, 405]),
      );
    }
    expect(problems).toEqual([]);
  });

  // Regression: Fastify answered these itself, bypassing the error handler, with its own body
  // ({"error","code":"FST_ERR_BAD_URL","message","statusCode"}) and none of the security headers.
  it.each([
    ['a lone %', '/api/v1/cart/%'],
    ['a truncated escape', '/api/v1/products/categories/%E0%A4%A'],
    ['an overlong UTF-8 slash', '/api/v1/products/%C0%AF'],
    ['invalid UTF-8', '/api/v1/address/%FF'],
    ['a bad escape on an unknown route', '/api/v1/nothing/%'],
    ['a path segment over 500 characters', `/api/v1/products/${'a'.repeat(600)}`],
    ['an over-long id', `/api/v1/order/${'9'.repeat(600)}/status`],
  ])("%s in the URL → clean 400/414 {detail} with nosniff, not Fastify's own body", async (_name, url) => {
    const response = await scene.shop.app.inject({ method: 'GET', url, headers: scene.attacker.headers });
    expect(refusalProblems(url, response, [400, 414])).toEqual([]);
    expect(response.body).not.toMatch(/not a valid url|max param|statusCode/);
  });

  // Regression: PostgreSQL text cannot hold U+0000, and these reached SQL and answered 500.
  it('a NUL character in any text (path, query, form or JSON) → 422 {detail}, nothing stored', async () => {
    await scene.changesNothing(async () => {
      const problems: string[] = [];
      const checks: [string, Promise<LightMyRequestResponse>][] = [
        ['category', scene.shop.app.inject({ method: 'GET', url: '/api/v1/products/categories/%D0%9C%00' })],
        ['art', scene.shop.app.inject({ method: 'GET', url: '/api/v1/products/MO-1001%00' })],
        ['login form', logIn(scene.shop.app, `${scene.victim.email}\u0000`, TEST_PASSWORD)],
        [
          'login json',
          scene.shop.app.inject({
            method: 'POST',
            url: '/api/v1/auth/token',
            payload: { username: scene.victim.email, password: `${TEST_PASSWORD}\u0000` },
          }),
        ],
        [
          'register query',
          scene.shop.app.inject({
            method: 'POST',
            url: '/api/v1/auth/register',
            query: { email: 'nul\u0000@example.com', password: TEST_PASSWORD, consent: 'true' },
          }),
        ],
        [
          'register json',
          scene.shop.app.inject({
            method: 'POST',
            url: '/api/v1/auth/register',
            payload: { email: 'nul@example.com\u0000', password: TEST_PASSWORD, consent: true },
          }),
        ],
        [
          'address',
          scene.shop.app.inject({
            method: 'POST',
            url: '/api/v1/address/',
            headers: scene.attacker.headers,
            payload: { ...ADDRESS_FIELDS, street: 'ул.\u0000Ленина', user_id: scene.attacker.id },
          }),
        ],
        [
          'address update',
          scene.shop.app.inject({
            method: 'PUT',
            url: `/api/v1/address/${scene.victimAddresses[0]!.id}`,
            headers: scene.victim.headers,
            payload: { ...ADDRESS_FIELDS, apartment_number: '\u0000', user_id: scene.victim.id },
          }),
        ],
        [
          'order',
          scene.shop.app.inject({
            method: 'POST',
            url: '/api/v1/order/',
            headers: scene.attacker.headers,
            payload: {
              user_id: scene.attacker.id,
              address: 'г. Тула',
              company_name: 'ООО\u0000',
              items: [{ product_id: scene.spare[0]!.id, variant_id: inStock(scene.spare[0]!)[0]!.id, quantity: 1 }],
            },
          }),
        ],
      ];
      for (const [label, pending] of checks) problems.push(...refusalProblems(label, await pending, [422]));
      expect(problems).toEqual([]);
    });
  });
});

itLogsNoSecret(scene);
