import type { Product } from '../../../shared/api';
import { createTestApp, json, STARTUP_TIMEOUT, type TestApp } from '../../../../test/server/helpers/test-app';

let shop: TestApp;
let image: string;
beforeAll(async () => {
  shop = await createTestApp();
  const [product] = json<Product[]>(
    await shop.app.inject({ method: 'GET', url: '/api/v1/products/', query: { limit: '1' } }),
  );
  image = product!.image;
}, STARTUP_TIMEOUT);
afterAll(() => shop.close());

const get = (url: string, headers: Record<string, string> = {}) => shop.app.inject({ method: 'GET', url, headers });

describe('GET /api/v1/image/{name}', () => {
  it('serves a product image as SVG with caching headers', async () => {
    const response = await get(`/api/v1/image/${encodeURIComponent(image)}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(response.headers['cache-control']).toMatch(/max-age=\d+/);
    expect(Number(/max-age=(\d+)/.exec(String(response.headers['cache-control']))![1])).toBeGreaterThan(0);
    expect(response.headers.etag).toEqual(expect.any(String));
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    // An SVG opened directly must not be able to run script.
    expect(response.headers['content-security-policy']).toMatch(/sandbox/);
    expect(response.body).toMatch(/<svg[\s>]/);
  });

  it('answers 304 with no body when If-None-Match carries the current ETag', async () => {
    const first = await get(`/api/v1/image/${encodeURIComponent(image)}`);
    const etag = String(first.headers.etag);
    const again = await get(`/api/v1/image/${encodeURIComponent(image)}`, { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    const stale = await get(`/api/v1/image/${encodeURIComponent(image)}`, { 'if-none-match': '"not-the-etag"' });
    expect(stale.statusCode).toBe(200);
  });

  it('an unknown image is 404 {detail}', async () => {
    const response = await get('/api/v1/image/no-such-image.svg');
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.json()).toEqual({ detail: expect.any(String) });
  });

  it.each([
    '..%2F..%2Fetc%2Fpasswd',
    '%2e%2e%2fpackage.json',
    '..%2fpackage.json',
    '%2e%2e%5c%2e%2e%5cpackage.json',
    '..',
    '.env',
    '.%2e',
    'a/b.svg',
    '..%2F..%2F..%2Fsrc%2Fserver%2Fapp.ts',
    'x.exe',
    'x.svg%00.exe',
    'x.svg%2F',
    '%2Fetc%2Fpasswd',
    'MO-1001.svg%2F..%2F..%2Fpackage.json',
  ])('traversal or odd name %j is never served (no 200) and never breaks the server (no 500)', async (name) => {
    const response = await get(`/api/v1/image/${name}`);
    expect(response.statusCode).not.toBe(200);
    expect(response.statusCode).toBeLessThan(500);
    expect([400, 404, 422]).toContain(response.statusCode);
    expect(response.body).not.toMatch(/root:|"dependencies"|buildApp/);
    expect(response.json()).toEqual({ detail: expect.any(String) });
  });

  it('does not list the image folder', async () => {
    for (const url of ['/api/v1/image/', '/api/v1/image']) {
      const response = await get(url);
      expect(response.statusCode).toBe(404);
    }
  });
});
