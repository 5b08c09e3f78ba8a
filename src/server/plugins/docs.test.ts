/** The OpenAPI document the shop serves (docs.ts), generated from the routes' schemas. */
import { addFailingRoutes } from '../../../test/server/helpers/failing-routes';
import { createTestApp, STARTUP_TIMEOUT, type TestApp } from '../../../test/server/helpers/test-app';

let shop: TestApp;

beforeAll(async () => {
  // With the test-only routes too, which the document must not list.
  shop = await createTestApp({}, { beforeReady: addFailingRoutes });
}, STARTUP_TIMEOUT);
afterAll(() => shop.close());

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
