import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { createTestApp, STARTUP_TIMEOUT, type TestApp } from '../test/test-app';

let shop: TestApp;
let storefront: string;
const SHELL = '<!doctype html><html lang="ru"><head><title>Мягкий Опт</title></head><body><div id="root"></div></body></html>';

beforeAll(async () => {
  storefront = await mkdtemp(path.join(tmpdir(), 'storefront-'));
  await mkdir(path.join(storefront, 'assets'));
  await writeFile(path.join(storefront, 'index.html'), SHELL);
  const script = 'console.log("shop");'.repeat(200);
  await writeFile(path.join(storefront, 'assets', 'main.0123456789ab.js'), script);
  await writeFile(path.join(storefront, 'assets', 'main.0123456789ab.js.gz'), gzipSync(script));
  shop = await createTestApp({ storefrontDir: storefront });
}, STARTUP_TIMEOUT);
afterAll(async () => {
  await shop.close();
  await rm(storefront, { recursive: true, force: true });
});

describe('the storefront', () => {
  it('answers every client route with the shell page, never cached', async () => {
    for (const url of ['/catalog', '/product/MO-1001', '/cart', '/no/such/page']) {
      const response = await shop.app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.body).toBe(SHELL);
    }
  });

  it('names the home page’s first banner and popular toys so the browser fetches them early', async () => {
    const response = await shop.app.inject({ method: 'GET', url: '/' });
    const hints = [...response.body.matchAll(/<link rel="preload" as="image" href="([^"]+)"/g)].map((match) => match[1]);
    expect(hints).toHaveLength(3);
    expect(hints[0]).toMatch(/^\/api\/v1\/image\/banner-\d+\.svg$/);
    for (const href of hints) expect((await shop.app.inject({ method: 'GET', url: href! })).statusCode).toBe(200);
  });

  it('sends hashed assets compressed and cached for a year; unknown /api paths stay JSON 404s', async () => {
    const asset = await shop.app.inject({ method: 'GET', url: '/assets/main.0123456789ab.js', headers: { 'accept-encoding': 'gzip' } });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['content-encoding']).toBe('gzip');
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const api = await shop.app.inject({ method: 'GET', url: '/api/v1/nothing' });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({ detail: 'Не найдено' });
  });
});
