/** The headers every answer carries (security-headers.ts): the security policy, and no-store on personal answers. */
import {
  createTestApp,
  logIn,
  quickShoppers,
  setCookie,
  STARTUP_TIMEOUT,
  type Shopper,
  type TestApp,
} from '../../../test/server/helpers/test-app';
import { TEST_PASSWORD } from '../../../test/server/helpers/shop-data';

let shop: TestApp;
let shopper: Shopper;

beforeAll(async () => {
  shop = await createTestApp();
  shopper = (await quickShoppers(shop.app, 1))[0]!;
}, STARTUP_TIMEOUT);
afterAll(() => shop.close());

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
      // A buyer's prices are their company's: no shared cache keeps them.
      expect(products.headers['cache-control']).toBe(headers === shopper.headers ? 'private, no-cache' : 'no-cache');
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
