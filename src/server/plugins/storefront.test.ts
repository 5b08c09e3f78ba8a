import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { asc, eq } from 'drizzle-orm';
import { INITIAL_RESPONSES_ELEMENT_ID } from '../../shared/api';
import { productPhotos, products, variants } from '../db/schema';
import { createTestApp, STARTUP_TIMEOUT, type TestApp } from '../../../test/server/helpers/test-app';

let shop: TestApp;
let storefront: string;
const SOURCE_MAP = JSON.stringify({ version: 3, sourcesContent: ['export const secret = "исходный код";'] });
const SHELL =
  '<!doctype html><html lang="ru"><head><title>Мягкий Опт</title></head><body><div id="root"></div></body></html>';

beforeAll(async () => {
  storefront = await mkdtemp(path.join(tmpdir(), 'storefront-'));
  await mkdir(path.join(storefront, 'assets'));
  await writeFile(path.join(storefront, 'index.html'), SHELL);
  const script = 'console.log("shop");'.repeat(200);
  await writeFile(path.join(storefront, 'assets', 'main.0123456789ab.js'), script);
  await writeFile(path.join(storefront, 'assets', 'main.0123456789ab.js.gz'), gzipSync(script));
  // The build keeps the source maps beside the bundles (for error reports), sources and all.
  await writeFile(path.join(storefront, 'assets', 'main.0123456789ab.js.map'), SOURCE_MAP);
  await writeFile(path.join(storefront, 'assets', 'main.0123456789ab.js.map.gz'), gzipSync(SOURCE_MAP));
  await writeFile(path.join(storefront, 'main.css.map'), SOURCE_MAP);
  await writeFile(
    path.join(storefront, 'asset-manifest.json'),
    JSON.stringify({
      'page-home': ['assets/228.0123456789ab.js', 'assets/page-home.0123456789ab.js'],
      'page-product': [
        'assets/228.0123456789ab.js',
        'assets/page-product.0123456789ab.css',
        'assets/page-product.0123456789ab.js',
      ],
    }),
  );
  shop = await createTestApp({ storefrontDir: storefront });
}, STARTUP_TIMEOUT);
afterAll(async () => {
  await shop.close();
  await rm(storefront, { recursive: true, force: true });
});

describe('the storefront', () => {
  it('answers every client route with the shell page, never cached', async () => {
    for (const url of [
      '/',
      '/catalog',
      '/product/MO-1001',
      '/cart',
      '/privacy',
      '/reset-password?token=abc',
      '/no/such/page',
    ]) {
      const response = await shop.app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.body).toMatch(/^<!doctype html>.*<div id="root"><\/div><\/body><\/html>$/s);
    }
    // Pages whose first render reads nothing public get the shell as built.
    expect((await shop.app.inject({ method: 'GET', url: '/cart' })).body).toBe(SHELL);
  });

  /** The API answers written into a page, by API path. */
  async function firstReadsOf(url: string): Promise<Record<string, unknown>> {
    const { body } = await shop.app.inject({ method: 'GET', url });
    const element = new RegExp(
      `<script type="application/json" id="${INITIAL_RESPONSES_ELEMENT_ID}">(.*?)</script>`,
      's',
    ).exec(body);
    return element ? (JSON.parse(element[1]!) as Record<string, unknown>) : {};
  }
  const api = async (key: string) => (await shop.app.inject({ method: 'GET', url: `/${key}` })).json();

  const bears = `api/v1/products/categories/${encodeURIComponent('Мишки')}`;
  const hares = `api/v1/products/categories/${encodeURIComponent('Зайцы и кролики')}`;
  // A full page comes with the next one, which the page reads ahead to offer Forward.
  it.each([
    ['/', ['api/v1/banners/all', 'api/v1/products/popular?limit=8&skip=0', 'api/v1/products/popular?limit=8&skip=8']],
    [
      '/?page=2',
      ['api/v1/banners/all', 'api/v1/products/popular?limit=8&skip=8', 'api/v1/products/popular?limit=8&skip=16'],
    ],
    [
      '/?page=abc',
      ['api/v1/banners/all', 'api/v1/products/popular?limit=8&skip=0', 'api/v1/products/popular?limit=8&skip=8'],
    ],
    [
      '/catalog',
      ['api/v1/products/categories/all', `${bears}?limit=9&skip=0`, `${bears}?limit=9&skip=9`, `${bears}/colors`],
    ],
    [
      `/catalog?category=${encodeURIComponent('Зайцы и кролики')}`,
      ['api/v1/products/categories/all', `${hares}?limit=9&skip=0`, `${hares}?limit=9&skip=9`, `${hares}/colors`],
    ],
    // The order and filters of the address, read as the page reads them; the ones the API
    // would refuse left out, as the page leaves them out.
    [
      '/catalog?sort=price_desc',
      [
        'api/v1/products/categories/all',
        `${bears}?limit=9&skip=0&sort=price_desc`,
        `${bears}?limit=9&skip=9&sort=price_desc`,
        `${bears}/colors`,
      ],
    ],
    [
      '/catalog?sort=cheap&size_min=50&size_max=20&price_min=-1&in_stock=yes',
      ['api/v1/products/categories/all', `${bears}?limit=9&skip=0`, `${bears}?limit=9&skip=9`, `${bears}/colors`],
    ],
    // Past the last page: the empty page, and nothing after it.
    [
      `/catalog?category=${encodeURIComponent('Зайцы и кролики')}&page=2`,
      ['api/v1/products/categories/all', `${hares}?limit=9&skip=9`, `${hares}/colors`],
    ],
    // Not a category: the first one, as the page shows without a stored choice.
    [
      '/catalog?category=nope',
      ['api/v1/products/categories/all', `${bears}?limit=9&skip=0`, `${bears}?limit=9&skip=9`, `${bears}/colors`],
    ],
    ['/product/MO-1001', ['api/v1/products/MO-1001']],
  ])('writes into %s the API answers its first render asks for, exactly as the API gives them', async (url, keys) => {
    const reads = await firstReadsOf(url);
    expect(Object.keys(reads).sort()).toEqual(keys.sort());
    for (const key of keys) expect(reads[key]).toEqual(await api(key));
  });

  it('writes a filtered catalogue page under the very key the page asks for', async () => {
    const query = { color: 'коричневый', in_stock: 'true', price_max: '1500.5', size_min: '20', sort: 'name' };
    const reads = await firstReadsOf(`/catalog?${new URLSearchParams(query)}`);
    // apiReadKey's order: the parameters sorted by name.
    const key = `${bears}?color=${encodeURIComponent('коричневый')}&in_stock=true&limit=9&price_max=1500.5&size_min=20&skip=0&sort=name`;
    expect(reads).toHaveProperty([key]);
    expect(reads[key]).toEqual(await api(key));
    expect((reads[key] as unknown[]).length).toBeGreaterThan(0);
  });

  it('writes nothing for an article that does not exist (the page asks, and shows its error)', async () => {
    expect(await firstReadsOf('/product/NO-SUCH-ART')).toEqual({});
  });

  it('cannot be made to close its data element early by what a product says', async () => {
    const hostile = '</script><script>alert(1)</script><!--';
    await shop.app.database.db.update(products).set({ description: hostile }).where(eq(products.art, 'MO-1002'));
    shop.app.catalogueCache.invalidate();
    const { body } = await shop.app.inject({ method: 'GET', url: '/product/MO-1002' });
    expect(body).not.toContain('<script>alert');
    expect(body).not.toContain('<!--');
    expect((await firstReadsOf('/product/MO-1002'))['api/v1/products/MO-1002']).toMatchObject({ description: hostile });
  });

  it('names the page’s own scripts so the browser fetches them with the page', async () => {
    const { body } = await shop.app.inject({ method: 'GET', url: '/' });
    const scripts = [...body.matchAll(/<link rel="preload" as="script" href="([^"]+)"/g)].map((match) => match[1]);
    expect(scripts).toEqual(['/assets/228.0123456789ab.js', '/assets/page-home.0123456789ab.js']);
  });

  it('names the page’s own stylesheet too, after its picture and before its scripts', async () => {
    const { body } = await shop.app.inject({ method: 'GET', url: '/product/MO-1001' });
    const hints = [...body.matchAll(/<link rel="preload" as="(\w+)" href="([^"]+)"/g)].map(
      ([, as, href]) => `${as} ${href}`,
    );
    expect(hints).toEqual([
      expect.stringMatching(/^image \/api\/v1\/image\/MO-1001\./),
      'style /assets/page-product.0123456789ab.css',
      'script /assets/228.0123456789ab.js',
      'script /assets/page-product.0123456789ab.js',
    ]);
  });

  it('preloads the photo the product page shows first: its first variant’s colour’s own, when it has one', async () => {
    const { db } = shop.app.database;
    const [bear] = await db.select({ id: products.id }).from(products).where(eq(products.art, 'MO-1002'));
    const [first] = await db
      .select({ color: variants.color })
      .from(variants)
      .where(eq(variants.productId, bear!.id))
      .orderBy(asc(variants.size), asc(variants.id))
      .limit(1);
    await db.insert(productPhotos).values([
      { productId: bear!.id, color: null, position: 1, image: 'MO-1002.svg' },
      { productId: bear!.id, color: first!.color, position: 1, image: 'MO-1003.svg' },
    ]);
    shop.app.catalogueCache.invalidate();
    try {
      const { body } = await shop.app.inject({ method: 'GET', url: '/product/MO-1002' });
      const hints = [...body.matchAll(/<link rel="preload" as="image" href="([^"]+)"/g)].map((match) => match[1]);
      expect(hints).toEqual(['/api/v1/image/MO-1003.svg']);
    } finally {
      await db.delete(productPhotos).where(eq(productPhotos.productId, bear!.id));
      shop.app.catalogueCache.invalidate();
    }
  });

  it('names the home page’s first banner and popular toys so the browser fetches them early', async () => {
    const response = await shop.app.inject({ method: 'GET', url: '/' });
    const hints = [...response.body.matchAll(/<link rel="preload" as="image" href="([^"]+)"/g)].map(
      (match) => match[1],
    );
    expect(hints).toHaveLength(3);
    expect(hints[0]).toMatch(/^\/api\/v1\/image\/banner-\d+\.svg$/);
    for (const href of hints) expect((await shop.app.inject({ method: 'GET', url: href! })).statusCode).toBe(200);
  });

  it('sends hashed assets compressed and cached for a year; unknown /api paths stay JSON 404s', async () => {
    const asset = await shop.app.inject({
      method: 'GET',
      url: '/assets/main.0123456789ab.js',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['content-encoding']).toBe('gzip');
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const api = await shop.app.inject({ method: 'GET', url: '/api/v1/nothing' });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({ detail: 'Не найдено' });
  });

  it('never serves a source map, however asked for: 404, and not the shell page either', async () => {
    for (const url of [
      '/assets/main.0123456789ab.js.map',
      '/assets/main.0123456789ab.js.map.gz',
      '/assets/main.0123456789ab.JS.MAP',
      '/main.css.map',
      '/assets/no-such.js.map',
    ]) {
      for (const headers of [{}, { 'accept-encoding': 'gzip' }]) {
        const response = await shop.app.inject({ method: 'GET', url, headers });
        expect([url, response.statusCode]).toEqual([url, 404]);
        expect(response.body).not.toContain('sourcesContent');
      }
    }
  });
});
