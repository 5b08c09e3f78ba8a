import { count, eq, isNull, sql } from 'drizzle-orm';
import { categories, products } from '../../db/schema';
import { sitemapParts } from '../../services/sitemap';
import { allProducts, createTestApp, STARTUP_TIMEOUT, type TestApp } from '../../../../test/server/helpers/test-app';

let shop: TestApp;

beforeAll(async () => {
  shop = await createTestApp();
}, STARTUP_TIMEOUT);
afterAll(() => shop.close());

const ORIGIN = 'http://shop.example';
const read = (url: string, headers: Record<string, string> = {}) =>
  shop.app.inject({ method: 'GET', url, headers: { host: 'shop.example', ...headers } });

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };
const TEXT = '[^<>&]*(?:&(?:amp|lt|gt|quot|#39);[^<>&]*)*';
// The whole file, element by element: anything else in it (an unescaped '&' or '<' in an address,
// a stray tag) fails to match.
const URL_SET = new RegExp(
  `^<\\?xml version="1\\.0" encoding="UTF-8"\\?>\\n<urlset xmlns="http://www\\.sitemaps\\.org/schemas/sitemap/0\\.9">\\n((?:<url><loc>${TEXT}</loc></url>\\n)*)</urlset>\\n$`,
);

/** The addresses a sitemap file lists, after checking that it is well-formed. */
function addressesIn(xml: string): string[] {
  const match = URL_SET.exec(xml);
  if (!match) throw new Error(`not a sitemap: ${xml.slice(0, 300)}`);
  return [...match[1]!.matchAll(/<loc>([^<]*)<\/loc>/g)].map((loc) =>
    loc[1]!.replace(/&(?:amp|lt|gt|quot|#39);/g, (entity) => ENTITIES[entity]!),
  );
}

describe('/sitemap.xml', () => {
  it('lists the home page, the catalogue’s categories, «О компании» and every product, as XML', async () => {
    const response = await read('/sitemap.xml');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/xml; charset=utf-8');
    const addresses = addressesIn(response.body);
    const categoryNames = (
      await shop.app.inject({ method: 'GET', url: '/api/v1/products/categories/all' })
    ).json() as string[];
    const catalogue = await allProducts(shop.app);
    expect(addresses).toEqual([
      `${ORIGIN}/`,
      ...categoryNames.map(
        (name) => `${ORIGIN}/catalog?category=${new URLSearchParams({ x: name }).toString().slice(2)}`,
      ),
      `${ORIGIN}/about`,
      ...catalogue.map((product) => `${ORIGIN}/product/${encodeURIComponent(product.art)}`),
    ]);
    // Each one is a page the storefront serves, for a product the API has.
    const product = catalogue[0]!;
    expect(
      (await shop.app.inject({ method: 'GET', url: `/api/v1/products/${encodeURIComponent(product.art)}` })).statusCode,
    ).toBe(200);
  });

  it('is cacheable: an ETag answered with 304, compressed once', async () => {
    const first = await read('/sitemap.xml');
    expect(first.headers['cache-control']).toBe('public, max-age=3600');
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^W\/".+"$/);
    expect((await read('/sitemap.xml', { 'if-none-match': etag })).statusCode).toBe(304);
    const gzipped = await read('/sitemap.xml', { 'accept-encoding': 'gzip' });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
  });

  it('leaves out hidden products and empty categories, and escapes what names hold', async () => {
    const [hiddenOne] = await shop.app.database.db
      .update(products)
      .set({ hiddenAt: new Date() })
      .where(eq(products.art, 'MO-1002'))
      .returning({ art: products.art });
    expect(hiddenOne).toBeDefined();
    const odd = 'Куклы & <мишки> "100%"';
    const [category] = await shop.app.database.db
      .insert(categories)
      .values({ name: odd, position: 100 })
      .returning({ id: categories.id });
    await shop.app.database.db
      .insert(categories)
      .values({ name: 'Пустая', position: 101 })
      .returning({ id: categories.id });
    await shop.app.database.db.insert(products).values({
      art: 'A&B<1>',
      name: 'Странный артикул',
      image: 'bear-1.svg',
      categoryId: category!.id,
      curatedRank: 1000,
    });
    shop.app.catalogueCache.invalidate();

    const addresses = addressesIn((await read('/sitemap.xml')).body);
    expect(addresses).not.toContain(`${ORIGIN}/product/MO-1002`);
    expect(addresses).toContain(`${ORIGIN}/product/${encodeURIComponent('A&B<1>')}`);
    expect(addresses).toContain(`${ORIGIN}/catalog?${new URLSearchParams({ category: odd })}`);
    expect(addresses.some((address) => address.includes(encodeURIComponent('Пустая')))).toBe(false);
  });

  it('names the request’s own host unless PUBLIC_URL is set', async () => {
    const addresses = addressesIn((await read('/sitemap.xml', { host: 'other.example:8080' })).body);
    expect(addresses[0]).toBe('http://other.example:8080/');
    expect(addresses.every((address) => address.startsWith('http://other.example:8080/'))).toBe(true);
  });

  it('its parts: /sitemap-1.xml is the whole of a small shop; past the last part, 404; not a number, 422', async () => {
    expect((await read('/sitemap-1.xml')).body).toBe((await read('/sitemap.xml')).body);
    const past = await read('/sitemap-2.xml');
    expect(past.statusCode).toBe(404);
    expect(past.json()).toEqual({ detail: expect.any(String) });
    expect((await read('/sitemap-0.xml')).statusCode).toBe(422);
    expect((await read('/sitemap-x.xml')).statusCode).toBe(422);
  });
});

// Last: it grows the catalogue past one file's 50 000 addresses.
describe('a catalogue of more than 50 000 products', () => {
  it(
    'is a sitemap index of files that together list every product once',
    async () => {
      const [bears] = await shop.app.database.db.select({ id: categories.id }).from(categories).limit(1);
      await shop.app.database.db.execute(sql`
        insert into products (art, name, image, category_id, curated_rank)
        select 'BULK-' || n, 'Игрушка ' || n, 'bear-1.svg', ${bears!.id}, 100000 + n from generate_series(1, 50000) n`);
      shop.app.catalogueCache.invalidate();
      const [{ total }] = (await shop.app.database.db
        .select({ total: count() })
        .from(products)
        .where(isNull(products.hiddenAt))) as [{ total: number }];

      const index = await read('/sitemap.xml');
      expect(index.statusCode).toBe(200);
      expect(index.body).toBe(
        '<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n' +
          `<sitemap><loc>${ORIGIN}/sitemap-1.xml</loc></sitemap>\n<sitemap><loc>${ORIGIN}/sitemap-2.xml</loc></sitemap>\n` +
          '</sitemapindex>\n',
      );
      const [first, second] = await Promise.all(
        ['/sitemap-1.xml', '/sitemap-2.xml'].map(async (url) => addressesIn((await read(url)).body)),
      );
      expect(first).toHaveLength(50_000);
      const listed = [...first!, ...second!].filter((address) => address.includes('/product/'));
      expect(new Set(listed).size).toBe(total);
      expect(listed).toContain(`${ORIGIN}/product/BULK-50000`);
      expect(first![0]).toBe(`${ORIGIN}/`);
      expect((await read('/sitemap-3.xml')).statusCode).toBe(404);
    },
    STARTUP_TIMEOUT,
  );
});

describe('sitemapParts: 50 000 addresses a file, the pages first, then the products', () => {
  it('one file while everything fits', () => {
    const parts = sitemapParts(5, 49_995);
    expect(parts.count).toBe(1);
    expect(parts.part(0)).toEqual({ pages: { start: 0, end: 5 }, products: { skip: 0, limit: 49_995 } });
  });

  it('past 50 000, files that together list every address once', () => {
    const parts = sitemapParts(5, 100_000);
    expect(parts.count).toBe(3);
    expect([0, 1, 2].map((part) => parts.part(part))).toEqual([
      { pages: { start: 0, end: 5 }, products: { skip: 0, limit: 49_995 } },
      { pages: { start: 5, end: 5 }, products: { skip: 49_995, limit: 50_000 } },
      { pages: { start: 5, end: 5 }, products: { skip: 99_995, limit: 50_000 } },
    ]);
  });

  it('an empty shop still has its one file of pages', () => {
    expect(sitemapParts(3, 0)).toMatchObject({ count: 1 });
  });
});
