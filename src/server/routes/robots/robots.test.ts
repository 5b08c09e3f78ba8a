import { createTestApp, STARTUP_TIMEOUT, type TestApp } from '../../../../test/server/helpers/test-app';

let shop: TestApp;

beforeAll(async () => {
  shop = await createTestApp({ trustProxy: true });
}, STARTUP_TIMEOUT);
afterAll(() => shop.close());

describe('/robots.txt', () => {
  it('opens the storefront and the pictures, closes the buyer’s pages, the back office and the API, and names the sitemap', async () => {
    const response = await shop.app.inject({
      method: 'GET',
      url: '/robots.txt',
      headers: { host: 'internal:3000', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'opt.example' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(response.headers['cache-control']).toMatch(/^public, max-age=\d+$/);
    expect(response.body).toBe(
      [
        'User-agent: *',
        'Allow: /api/v1/image/',
        'Disallow: /cart',
        'Disallow: /checkout',
        'Disallow: /order-success',
        'Disallow: /profile',
        'Disallow: /admin',
        'Disallow: /search',
        'Disallow: /quick-order',
        'Disallow: /reset-password',
        'Disallow: /confirm-email',
        'Disallow: /invite',
        'Disallow: /api/',
        '',
        'Sitemap: https://opt.example/sitemap.xml',
        '',
      ].join('\n'),
    );
  });
});
