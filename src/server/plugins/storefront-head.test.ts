import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { INITIAL_RESPONSES_ELEMENT_ID, type Product } from '../../shared/api';
import { HOME_TITLE } from '../../shared/page-titles';
import { products, variants } from '../db/schema';
import { createTestApp, STARTUP_TIMEOUT, type TestApp } from '../../../test/server/helpers/test-app';
import { PRICES_FOR_VISITORS_SETTING } from '../services/price-views';

// The real shell (public/index.html), as webpack copies it: its title and description are replaced.
let storefront: string;
let shop: TestApp;
let behindProxy: TestApp;

beforeAll(async () => {
  storefront = await mkdtemp(path.join(tmpdir(), 'storefront-head-'));
  await copyFile(path.resolve(__dirname, '../../../public/index.html'), path.join(storefront, 'index.html'));
  shop = await createTestApp({ storefrontDir: storefront });
  behindProxy = await createTestApp({ storefrontDir: storefront, trustProxy: true });
}, STARTUP_TIMEOUT);
afterAll(async () => {
  await Promise.all([shop?.close(), behindProxy?.close()]);
  await rm(storefront, { recursive: true, force: true });
});

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };
const decode = (text: string) => text.replace(/&(?:amp|lt|gt|quot|#39);/g, (entity) => ENTITIES[entity]!);

/** What a page's head says, as a crawler reads it. */
async function headOf(url: string, app = shop.app, headers: Record<string, string> = {}) {
  const { body } = await app.inject({ method: 'GET', url, headers });
  const head = body.slice(0, body.indexOf('</head>'));
  const tags = (attribute: string) =>
    Object.fromEntries(
      [...head.matchAll(new RegExp(`<meta ${attribute}="([^"]+)" content="([^"]*)">`, 'g'))].map((match) => [
        match[1]!,
        decode(match[2]!),
      ]),
    );
  const names = tags('name');
  const canonical = /<link rel="canonical" href="([^"]+)">/.exec(head)?.[1];
  const jsonLd = [...head.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/gs)].map(
    (match) => JSON.parse(match[1]!) as Record<string, unknown>,
  );
  return {
    body,
    titles: [...head.matchAll(/<title>([^<]*)<\/title>/g)].map((match) => decode(match[1]!)),
    descriptions: [...head.matchAll(/<meta\s+name="description"/g)].length,
    description: names.description,
    robots: names.robots,
    og: tags('property'),
    canonical: canonical === undefined ? undefined : decode(canonical),
    jsonLd,
  };
}

const productOf = async (art: string) =>
  (await shop.app.inject({ method: 'GET', url: `/api/v1/products/${encodeURIComponent(art)}` })).json() as Product;

describe('a product page’s head', () => {
  it('says no price anywhere while the shop shows prices only after sign-in', async () => {
    await shop.app.repositories.settings.set(PRICES_FOR_VISITORS_SETTING, 'false');
    shop.app.priceViews.invalidate();
    shop.app.catalogueCache.invalidate();
    try {
      const head = await headOf('/product/MO-1003', shop.app, { host: 'shop.example' });
      expect(head.titles).toHaveLength(1);
      // Not in the first reads written into the page, nor in the JSON-LD, nor in the description.
      expect(head.body).toMatch(/"price":null/);
      expect(head.body).not.toMatch(/"price":\d|"lowPrice"|Оптом от/);
      expect(head.jsonLd[0]).not.toHaveProperty('offers');
      expect(Object.keys(head.og).some((property) => property.includes('price'))).toBe(false);
    } finally {
      await shop.app.repositories.settings.set(PRICES_FOR_VISITORS_SETTING, 'true');
      shop.app.priceViews.invalidate();
      shop.app.catalogueCache.invalidate();
    }
    expect((await headOf('/product/MO-1003', shop.app, { host: 'shop.example' })).description).toMatch(/Оптом от/);
  });

  it('has the product’s title, description, Open Graph tags and canonical address', async () => {
    const product = await productOf('MO-1001');
    const head = await headOf('/product/MO-1001', shop.app, { host: 'shop.example:8443' });
    const url = 'http://shop.example:8443/product/MO-1001';
    expect(head.titles).toEqual([`${product.name} — Мягкий Опт`]);
    expect(head.descriptions).toBe(1);
    expect(head.description).toContain('Артикул MO-1001.');
    expect(head.description!.length).toBeLessThanOrEqual(200);
    expect(head.og).toEqual({
      'og:type': 'product',
      'og:site_name': 'Мягкий Опт',
      'og:locale': 'ru_RU',
      'og:title': `${product.name} — Мягкий Опт`,
      'og:description': head.description,
      'og:url': url,
      'og:image': `http://shop.example:8443/api/v1/image/${encodeURIComponent(product.image)}`,
    });
    expect(head.canonical).toBe(url);
    expect(head.robots).toBeUndefined();
    // The image it names is served.
    expect((await shop.app.inject({ method: 'GET', url: new URL(head.og['og:image']!).pathname })).statusCode).toBe(
      200,
    );
  });

  it('has a JSON-LD Product with an offer per variant: price in roubles and stock', async () => {
    const product = await productOf('MO-1003');
    const [soldOut, ...others] = product.variants;
    await shop.app.database.db.update(variants).set({ stock: 0 }).where(eq(variants.id, soldOut!.id));
    shop.app.catalogueCache.invalidate();
    const { jsonLd } = await headOf('/product/MO-1003', shop.app, { host: 'shop.example' });
    expect(jsonLd).toHaveLength(1);
    const url = 'http://shop.example/product/MO-1003';
    const prices = product.variants.map((variant) => variant.price!);
    expect(jsonLd[0]).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'Product',
      name: product.name,
      sku: 'MO-1003',
      image: [`http://shop.example/api/v1/image/${encodeURIComponent(product.image)}`],
      url,
      brand: { '@type': 'Brand', name: 'Мягкий Опт' },
      offers: {
        '@type': 'AggregateOffer',
        priceCurrency: 'RUB',
        lowPrice: Math.min(...prices),
        highPrice: Math.max(...prices),
        offerCount: product.variants.length,
        availability: others.some((variant) => variant.stock > 0)
          ? 'https://schema.org/InStock'
          : 'https://schema.org/OutOfStock',
      },
    });
    expect(typeof jsonLd[0]!.description).toBe('string');
    const offers = (jsonLd[0]!.offers as { offers: Record<string, unknown>[] }).offers;
    expect(offers).toEqual(
      product.variants.map((variant) => ({
        '@type': 'Offer',
        name: `${variant.color}, ${variant.size} см`,
        // The demo catalogue's EAN-13s, each offer's own.
        gtin: expect.stringMatching(/^460\d{10}$/),
        price: variant.price,
        priceCurrency: 'RUB',
        availability: variant.id === soldOut!.id ? 'https://schema.org/OutOfStock' : 'https://schema.org/InStock',
        itemCondition: 'https://schema.org/NewCondition',
        url,
        seller: { '@type': 'Organization', name: 'Мягкий Опт', url: 'http://shop.example' },
      })),
    );
    expect(offers.some((offer) => offer.availability === 'https://schema.org/OutOfStock')).toBe(true);
  });

  it('cannot be broken out of by what a product is called or says', async () => {
    const hostile = `Мишка "Тед" 'Ted' </script><script>alert(1)</script><!-- & $& $' $\``;
    await shop.app.database.db
      .update(products)
      .set({ name: hostile, description: hostile, bigDescription: `</SCRIPT >${hostile}` })
      .where(eq(products.art, 'MO-1004'));
    shop.app.catalogueCache.invalidate();
    const head = await headOf('/product/MO-1004');
    expect(head.body).not.toMatch(/<script>alert/i);
    expect(head.body).not.toContain('<!--');
    // Only the shop's own two data elements are scripts: the JSON-LD and the first reads.
    expect(head.body.match(/<\/script/gi)).toHaveLength(2);
    expect(head.titles).toEqual([`${hostile} — Мягкий Опт`]);
    expect(head.og['og:title']).toBe(`${hostile} — Мягкий Опт`);
    expect(head.description!.startsWith(`Мишка "Тед" 'Ted'`)).toBe(true);
    expect(head.jsonLd[0]).toMatchObject({ name: hostile, description: `</SCRIPT >${hostile}` });
    // The text with "$&" and "$'" in it is written as it is, not as a replacement pattern, here
    // and in the page's first data.
    expect(head.body).toContain('$&amp; $&#39; $`');
    const data = new RegExp(`<script type="application/json" id="${INITIAL_RESPONSES_ELEMENT_ID}">(.*?)</script>`, 's');
    expect(JSON.parse(data.exec(head.body)![1]!)).toMatchObject({ 'api/v1/products/MO-1004': { name: hostile } });
  });

  it('of an article nobody sells: the not-found title, not to be indexed, no product tags', async () => {
    await shop.app.database.db.update(products).set({ hiddenAt: new Date() }).where(eq(products.art, 'MO-1005'));
    shop.app.catalogueCache.invalidate();
    for (const url of ['/product/NO-SUCH-ART', '/product/MO-1005']) {
      const head = await headOf(url);
      expect(head.titles).toEqual(['Страница не найдена — Мягкий Опт']);
      expect(head.robots).toBe('noindex');
      expect(head.og).toEqual({});
      expect(head.jsonLd).toEqual([]);
      expect(head.canonical).toBeUndefined();
    }
  });

  it('takes its absolute addresses from X-Forwarded-* only behind a trusted proxy', async () => {
    const forwarded = { host: 'internal:3000', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'opt.example' };
    expect((await headOf('/product/MO-1001', behindProxy.app, forwarded)).og['og:url']).toBe(
      'https://opt.example/product/MO-1001',
    );
    expect((await headOf('/product/MO-1001', shop.app, forwarded)).og['og:url']).toBe(
      'http://internal:3000/product/MO-1001',
    );
  });
});

describe('the other pages’ heads', () => {
  it('the home page keeps the shell’s title and description, with its address for link previews', async () => {
    const head = await headOf('/', shop.app, { host: 'shop.example' });
    expect(head.titles).toEqual([HOME_TITLE]);
    expect(head.description).toMatch(/^Мягкий Опт — мягкие игрушки и детские товары оптом/);
    expect(head.og).toMatchObject({ 'og:type': 'website', 'og:url': 'http://shop.example/' });
    expect((await headOf('/?page=2')).titles).toEqual(['Популярные игрушки, страница 2 — Мягкий Опт']);
  });

  it('the catalogue is named by the category it shows, as the page names itself', async () => {
    const category = 'Зайцы и кролики';
    const head = await headOf(`/catalog?category=${encodeURIComponent(category)}&page=2`, shop.app, {
      host: 'shop.example',
    });
    expect(head.titles).toEqual([`Каталог: ${category}, страница 2 — Мягкий Опт`]);
    expect(head.description).toContain(category);
    expect(head.canonical).toBe(`http://shop.example/catalog?${new URLSearchParams({ category, page: '2' })}`);
    expect((await headOf('/catalog')).titles).toEqual(['Каталог: Мишки — Мягкий Опт']);
  });

  it('«О компании» has its title; pages without a head of their own keep the shell’s', async () => {
    expect((await headOf('/about')).titles).toEqual(['О компании — Мягкий Опт']);
    const cart = await headOf('/cart');
    expect(cart.titles).toEqual([HOME_TITLE]);
    expect(cart.og).toEqual({});
  });
});

describe('PUBLIC_URL', () => {
  it(
    'names the shop’s address whatever the request says',
    async () => {
      const configured = await createTestApp({ storefrontDir: storefront, publicUrl: 'https://myagkiy-opt.example' });
      try {
        const head = await headOf('/product/MO-1001', configured.app, { host: 'elsewhere.example' });
        expect(head.og['og:url']).toBe('https://myagkiy-opt.example/product/MO-1001');
      } finally {
        await configured.close();
      }
    },
    STARTUP_TIMEOUT,
  );
});
