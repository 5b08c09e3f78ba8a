import path from 'node:path';
import { clientCalls, clientCallsIn, undocumentedCalls, type ClientCall } from './helpers/client-calls';
import { createTestApp, STARTUP_TIMEOUT, type TestApp } from './helpers/test-app';

const CLIENT_DIR = path.join(__dirname, '../../src/client');
const named = (calls: ClientCall[]) => calls.map(({ method, path: called }) => `${method} ${called}`);

describe("the storefront's calls are operations of the served OpenAPI document", () => {
  let shop: TestApp;
  let paths: Record<string, Record<string, unknown>>;
  beforeAll(async () => {
    shop = await createTestApp();
    paths = (await shop.app.inject({ method: 'GET', url: '/api/docs/json' })).json<{ paths: typeof paths }>().paths;
  }, STARTUP_TIMEOUT);
  afterAll(() => shop.close());

  const found = clientCalls(CLIENT_DIR);

  it('every call of the storefront can be read from its source', () => {
    expect(found.unreadable).toEqual([]);
    // The reading itself works: a few calls of every kind are among those found.
    expect(named(found.calls)).toEqual(
      expect.arrayContaining([
        'POST api/v1/auth/refresh', // fetch() of its own
        'GET api/v1/cart/{}', // a query's template
        'PUT api/v1/cart/count', // { url, method }
        'DELETE api/v1/admin/variants/{}', // a constant's beginning
        'GET api/v1/order/{}/{}/export', // a download
      ]),
    );
  });

  it('every call the storefront makes (method and path) is documented', () => {
    const missing = undocumentedCalls(found.calls, paths);
    expect(missing.map(({ method, path: called, where }) => `${method} /${called} (${where})`)).toEqual([]);
  });

  it('a call the document does not have is reported, with where it is', () => {
    const { calls } = clientCallsIn(
      'src/client/features/example/exampleApi.ts',
      [
        "const ADMIN = 'api/v1/admin';",
        'export const exampleApi = baseApi.injectEndpoints({ endpoints: (build) => ({',
        '  cart: build.query({ query: (userId) => `api/v1/cart/${userId}` }),',
        "  gone: build.mutation({ query: (id) => ({ url: `${ADMIN}/things/${id}`, method: 'DELETE' }) }),",
        "  moved: build.mutation({ query: () => ({ url: 'api/v1/cart/count', method: 'POST' }) }),",
        '}) });',
      ].join('\n'),
    );
    expect(named(calls)).toEqual(['GET api/v1/cart/{}', 'DELETE api/v1/admin/things/{}', 'POST api/v1/cart/count']);
    expect(undocumentedCalls(calls, paths)).toEqual([
      { method: 'DELETE', path: 'api/v1/admin/things/{}', where: 'src/client/features/example/exampleApi.ts:4' },
      { method: 'POST', path: 'api/v1/cart/count', where: 'src/client/features/example/exampleApi.ts:5' },
    ]);
  });

  it('a url or method it cannot read is reported rather than passed', () => {
    const { unreadable } = clientCallsIn(
      'src/client/features/example/exampleApi.ts',
      [
        'export const exampleApi = baseApi.injectEndpoints({ endpoints: (build) => ({',
        '  some: build.query({ query: (where) => ({ url: where }) }),',
        "  other: build.mutation({ query: (verb) => ({ url: 'api/v1/cart/add', method: verb }) }),",
        '}) });',
      ].join('\n'),
    );
    expect(unreadable).toEqual([
      'src/client/features/example/exampleApi.ts:2: the url is not a plain path',
      'src/client/features/example/exampleApi.ts:3: the method is not a plain string',
    ]);
  });
});
