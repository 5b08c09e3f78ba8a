import { asc, eq } from 'drizzle-orm';
import type { Product, ProductPage } from '../../../shared/api';
import { conformityDocuments, productPhotos, products as productsTable, variants } from '../../db/schema';
import {
  allProducts,
  createTestApp,
  STARTUP_TIMEOUT,
  json,
  quickShoppers,
  type TestApp,
} from '../../../../test/server/helpers/test-app';

const PRODUCT_KEYS = [
  'art',
  'big_description',
  'description',
  'id',
  'image',
  'min_quantity',
  'multiple',
  'name',
  'variants',
];
// SPEC §3's, and beyond it what the storefront needs to say a new buyer's limit before checkout.
const VARIANT_KEYS = ['color', 'id', 'price', 'rrp', 'size', 'stock', 'tiers', 'tiers_scope', 'unproven_held'];
const CYRILLIC = /[а-яё]/i;

let shop: TestApp;
let catalogue: Product[];

beforeAll(async () => {
  shop = await createTestApp();
  catalogue = await allProducts(shop.app);
}, STARTUP_TIMEOUT);
afterAll(() => shop.close());

const get = (url: string, query?: Record<string, string>) => shop.app.inject({ method: 'GET', url, query });

/**
 * Exactly the fields of SPEC §3 (and unproven_held, the packaging, tiers and RRP of wholesale prices),
 * with the right JSON types, variants by size ascending.
 */
function expectProductShape(product: Product): void {
  expect(Object.keys(product).sort()).toEqual(PRODUCT_KEYS);
  expect(Number.isInteger(product.id)).toBe(true);
  expect(typeof product.art).toBe('string');
  expect(product.art.length).toBeGreaterThan(0);
  expect(typeof product.name).toBe('string');
  expect(['string', 'object']).toContain(typeof product.description);
  expect(['string', 'object']).toContain(typeof product.big_description);
  expect(typeof product.image).toBe('string');
  expect(Number.isInteger(product.multiple) && product.min_quantity % product.multiple === 0).toBe(true);
  expect(Array.isArray(product.variants)).toBe(true);
  for (const variant of product.variants) {
    expect(Object.keys(variant).sort()).toEqual(VARIANT_KEYS);
    expect(Number.isInteger(variant.id)).toBe(true);
    expect(typeof variant.color).toBe('string');
    expect(typeof variant.size).toBe('number');
    expect(typeof variant.price).toBe('number');
    expect(Array.isArray(variant.tiers)).toBe(true);
    expect(Number.isInteger(variant.stock)).toBe(true);
    expect(Number.isInteger(variant.unproven_held)).toBe(true);
    expect(variant.stock).toBeGreaterThanOrEqual(0);
  }
  const sizes = product.variants.map((variant) => variant.size);
  expect(sizes).toEqual([...sizes].sort((a, b) => a - b));
}

describe('GET /api/v1/products/', () => {
  it('answers the first 10 products by default, each with exactly the SPEC §3 fields', async () => {
    const response = await get('/api/v1/products/');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    const page = json<Product[]>(response);
    expect(page).toHaveLength(10);
    page.forEach(expectProductShape);
    expect(page.map((product) => product.id)).toEqual(catalogue.slice(0, 10).map((product) => product.id));
  });

  it('the whole catalogue has the right shape, unique ids and arts', () => {
    expect(catalogue.length).toBeGreaterThan(20);
    catalogue.forEach(expectProductShape);
    expect(new Set(catalogue.map((product) => product.id)).size).toBe(catalogue.length);
    expect(new Set(catalogue.map((product) => product.art)).size).toBe(catalogue.length);
  });

  it('skip and limit page through the list without gaps or overlaps', async () => {
    const first = json<Product[]>(await get('/api/v1/products/', { skip: '0', limit: '5' }));
    const second = json<Product[]>(await get('/api/v1/products/', { skip: '5', limit: '5' }));
    expect(first.map((product) => product.id)).toEqual(catalogue.slice(0, 5).map((product) => product.id));
    expect(second.map((product) => product.id)).toEqual(catalogue.slice(5, 10).map((product) => product.id));
  });

  it('a page past the end is empty, not an error', async () => {
    const response = await get('/api/v1/products/', { skip: String(catalogue.length), limit: '10' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([]);
  });

  it('limit 100 is the maximum: 100 is accepted, 101 is refused with 422', async () => {
    const max = await get('/api/v1/products/', { limit: '100' });
    expect(max.statusCode).toBe(200);
    expect(json<Product[]>(max).length).toBe(Math.min(100, catalogue.length));

    const over = await get('/api/v1/products/', { limit: '101' });
    expect(over.statusCode).toBe(422);
    expect(over.json()).toEqual({ detail: expect.stringMatching(CYRILLIC) });
  });

  it.each([
    ['negative skip', { skip: '-1' }, 'skip'],
    ['non-numeric limit', { limit: 'abc' }, 'limit'],
    ['fractional limit', { limit: '2.5' }, 'limit'],
    ['zero limit', { limit: '0' }, 'limit'],
    ['non-numeric skip', { skip: 'ten' }, 'skip'],
  ])('%s → 422 with a Russian detail naming the parameter', async (_name, query, field) => {
    const response = await get('/api/v1/products/', query);
    expect(response.statusCode).toBe(422);
    const body = response.json() as { detail: string };
    expect(Object.keys(body)).toEqual(['detail']);
    expect(body.detail).toMatch(CYRILLIC);
    expect(body.detail).toContain(field);
  });

  it('prices are JSON numbers, some with kopecks (not strings)', async () => {
    const prices = catalogue.flatMap((product) => product.variants.map((variant) => variant.price));
    expect(prices.every((price) => typeof price === 'number' && price >= 0)).toBe(true);
    const withKopecks = prices.filter((price) => !Number.isInteger(price));
    expect(withKopecks.length).toBeGreaterThan(0);
    // Whole kopecks only: never more than two decimals.
    expect(prices.every((price) => Math.abs(price! * 100 - Math.round(price! * 100)) < 1e-6)).toBe(true);

    // In the raw text, too: a number literal with a fraction, not a quoted decimal.
    const owner = catalogue.find((product) => product.variants.some((variant) => !Number.isInteger(variant.price)))!;
    const raw = (await get(`/api/v1/products/${encodeURIComponent(owner.art)}`)).body;
    expect(raw).toMatch(/"price":\d+\.\d{1,2}[,}]/);
    expect(raw).not.toMatch(/"price":"/);
  });

  it('at least one product has no variants (an empty array, not missing)', () => {
    const bare = catalogue.filter((product) => product.variants.length === 0);
    expect(bare.length).toBeGreaterThan(0);
    for (const product of bare) expect(product.variants).toEqual([]);
  });

  it('variants of one product come sorted by size even across colours', () => {
    const multi = catalogue.filter((product) => new Set(product.variants.map((variant) => variant.color)).size > 1);
    expect(multi.length).toBeGreaterThan(0);
    for (const product of multi) {
      const sizes = product.variants.map((variant) => variant.size);
      expect(sizes).toEqual([...sizes].sort((a, b) => a - b));
    }
  });
});

describe('GET /api/v1/products/{art}', () => {
  it('answers the product with all its variants, as the list has them, and what a marketplace card needs', async () => {
    const expected = catalogue.find((product) => product.variants.length > 1)!;
    const response = await get(`/api/v1/products/${encodeURIComponent(expected.art)}`);
    expect(response.statusCode).toBe(200);
    const { photos, brand, material, filler, age_from, country_of_origin, tnved, conformity_document, ...product } =
      json<ProductPage>(response);
    expect(Object.keys(product).sort()).toEqual(PRODUCT_KEYS);
    expect(product).toEqual({
      ...expected,
      variants: expected.variants.map((variant) => ({
        ...variant,
        barcode: expect.stringMatching(/^460\d{10}$/),
        marked: true,
        package: { length_cm: expect.any(Number), width_cm: expect.any(Number), height_cm: expect.any(Number) },
        weight_g: expect.any(Number),
      })),
    });
    // The demo catalogue has no photos of its own: the cover is the product's only one.
    expect(photos).toEqual([{ color: null, images: [expected.image] }]);
    expect({ brand, material, filler, age_from, country_of_origin, tnved, conformity_document }).toEqual({
      brand: 'Мягкий Опт',
      material: expect.stringMatching(CYRILLIC),
      filler: expect.stringMatching(CYRILLIC),
      age_from: expect.any(Number),
      country_of_origin: expect.stringMatching(CYRILLIC),
      tnved: expect.stringMatching(/^\d{10}$/),
      conformity_document: expect.objectContaining({ regulation: expect.stringMatching(/^ТР ТС 00[78]\/2011$/) }),
    });
  });

  it('shows its photos per colour, its characteristics and document, and only GTINs as barcodes', async () => {
    const { db } = shop.app.database;
    const target = catalogue.find((product) => new Set(product.variants.map(({ color }) => color)).size > 1)!;
    const [first, second] = target.variants.filter(
      (variant, index, all) => all.findIndex(({ color }) => color === variant.color) === index,
    );
    const [document] = await db
      .insert(conformityDocuments)
      .values({
        kind: 'certificate',
        regulation: 'ТР ТС 008/2011',
        number: 'ЕАЭС RU С-CN.АБ12.В.00042/26',
        validFrom: '2026-02-01',
        validTo: '2031-01-31',
        pdf: Buffer.from('%PDF-1.4\n%%EOF\n'),
        pdfBytes: 15,
      })
      .returning({ id: conformityDocuments.id });
    await db
      .update(productsTable)
      .set({ brand: 'Тедди-Тойс', material: null, ageFrom: 3, tnved: '9503004100', conformityDocumentId: document!.id })
      .where(eq(productsTable.id, target.id));
    await db
      .update(variants)
      .set({
        barcode: '4601234567893',
        marked: true,
        packageLengthMm: 305,
        packageWidthMm: 200,
        packageHeightMm: 150,
        weightG: 350,
      })
      .where(eq(variants.id, first!.id));
    // 1С's own carton code: kept in the database, never shown as a barcode to be printed.
    await db
      .update(variants)
      .set({
        barcode: 'CARTON-12',
        marked: false,
        packageLengthMm: null,
        packageWidthMm: null,
        packageHeightMm: null,
        weightG: null,
      })
      .where(eq(variants.id, second!.id));
    await db.insert(productPhotos).values([
      { productId: target.id, color: second!.color, position: 1, image: 'colour-1.webp' },
      { productId: target.id, color: null, position: 2, image: 'own-2.webp' },
      { productId: target.id, color: null, position: 1, image: 'own-1.webp' },
    ]);
    // Straight in the database: the catalogue cache is told as a manager's change would tell it.
    shop.app.catalogueCache.invalidate();

    const page = json<ProductPage>(await get(`/api/v1/products/${encodeURIComponent(target.art)}`));
    expect(page.photos).toEqual([
      { color: null, images: ['own-1.webp', 'own-2.webp'] },
      { color: second!.color, images: ['colour-1.webp'] },
    ]);
    expect(page).toMatchObject({
      brand: 'Тедди-Тойс',
      material: null,
      age_from: 3,
      tnved: '9503004100',
      conformity_document: {
        kind: 'certificate',
        regulation: 'ТР ТС 008/2011',
        number: 'ЕАЭС RU С-CN.АБ12.В.00042/26',
        valid_from: '2026-02-01',
        valid_to: '2031-01-31',
      },
    });
    const byId = new Map(page.variants.map((variant) => [variant.id, variant]));
    expect(byId.get(first!.id)).toMatchObject({
      barcode: '4601234567893',
      marked: true,
      package: { length_cm: 30.5, width_cm: 20, height_cm: 15 },
      weight_g: 350,
    });
    expect(byId.get(second!.id)).toMatchObject({ barcode: null, marked: false, package: null, weight_g: null });
  });

  it('answers a product without variants with variants: []', async () => {
    const bare = catalogue.find((product) => product.variants.length === 0)!;
    const product = json<Product>(await get(`/api/v1/products/${encodeURIComponent(bare.art)}`));
    expect(product.id).toBe(bare.id);
    expect(product.variants).toEqual([]);
  });

  it.each(['NO-SUCH-ART', 'MO-0000', 'артикул', '%20', "x'; drop table products; --"])(
    'unknown art %j → 404 {detail}',
    async (art) => {
      const response = await get(`/api/v1/products/${encodeURIComponent(art)}`);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ detail: expect.stringMatching(CYRILLIC) });
    },
  );

  it('an art longer than the limit is refused with 422, not looked up', async () => {
    const response = await get(`/api/v1/products/${'A'.repeat(65)}`);
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({ detail: expect.stringMatching(CYRILLIC) });
  });

  it('art is matched exactly (case matters, no prefix match)', async () => {
    const art = catalogue[0]!.art;
    expect((await get(`/api/v1/products/${encodeURIComponent(art.toLowerCase())}`)).statusCode).toBe(
      art === art.toLowerCase() ? 200 : 404,
    );
    expect((await get(`/api/v1/products/${encodeURIComponent(art.slice(0, -1))}`)).statusCode).toBe(404);
  });
});

describe('categories', () => {
  let names: string[];
  beforeAll(async () => {
    names = json<string[]>(await get('/api/v1/products/categories/all'));
  });

  it('categories/all is a list of at least 6 distinct non-empty Russian names', () => {
    expect(names.length).toBeGreaterThanOrEqual(6);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) {
      expect(typeof name).toBe('string');
      expect(name).toMatch(CYRILLIC);
    }
  });

  it('every category answers its products (URL-encoded Cyrillic name), and together they cover the catalogue', async () => {
    const seen = new Set<number>();
    for (const name of names) {
      const response = await get(`/api/v1/products/categories/${encodeURIComponent(name)}`, { limit: '100' });
      expect(response.statusCode).toBe(200);
      const page = json<Product[]>(response);
      expect(page.length).toBeGreaterThan(0);
      page.forEach(expectProductShape);
      for (const product of page) {
        expect(seen.has(product.id)).toBe(false);
        seen.add(product.id);
      }
    }
    expect(seen.size).toBe(catalogue.length);
  });

  it('category pages default to 10 and honour skip/limit', async () => {
    const name = names[0]!;
    const url = `/api/v1/products/categories/${encodeURIComponent(name)}`;
    const everything = json<Product[]>(await get(url, { limit: '100' }));
    const byDefault = json<Product[]>(await get(url));
    expect(byDefault.map((product) => product.id)).toEqual(everything.slice(0, 10).map((product) => product.id));
    const second = json<Product[]>(await get(url, { skip: '2', limit: '3' }));
    expect(second.map((product) => product.id)).toEqual(everything.slice(2, 5).map((product) => product.id));
  });

  it('category paging is validated like the list: 101 → 422, skip -1 → 422', async () => {
    const url = `/api/v1/products/categories/${encodeURIComponent(names[0]!)}`;
    expect((await get(url, { limit: '101' })).statusCode).toBe(422);
    expect((await get(url, { skip: '-1' })).statusCode).toBe(422);
  });

  it.each(['Нет такой категории', 'nope', "x' or '1'='1"])('unknown category %j → 404 {detail}', async (name) => {
    const response = await get(`/api/v1/products/categories/${encodeURIComponent(name)}`);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ detail: expect.stringMatching(CYRILLIC) });
  });
});

describe('GET /api/v1/products/popular', () => {
  async function popularIds(): Promise<number[]> {
    const response = await get('/api/v1/products/popular', { limit: '100' });
    expect(response.statusCode).toBe(200);
    const page = json<Product[]>(response);
    page.forEach(expectProductShape);
    return page.map((product) => product.id);
  }

  it('defaults to 10, validates paging like the list', async () => {
    expect(json<Product[]>(await get('/api/v1/products/popular'))).toHaveLength(10);
    expect((await get('/api/v1/products/popular', { limit: '101' })).statusCode).toBe(422);
    expect((await get('/api/v1/products/popular', { skip: '-1' })).statusCode).toBe(422);
    const home = json<Product[]>(await get('/api/v1/products/popular', { skip: '8', limit: '8' }));
    expect(home).toHaveLength(8);
  });

  it('ranks by units ordered, then curated rank; an order moves a product up', async () => {
    // Before any order: the shop's curated rank decides.
    const ranks = await shop.app.database.db
      .select({ id: productsTable.id })
      .from(productsTable)
      .orderBy(asc(productsTable.curatedRank), asc(productsTable.id));
    const before = await popularIds();
    expect(before).toEqual(ranks.map((row) => row.id));

    // Order 2 units of the least popular product that can be bought, and 1 unit of another.
    const buyable = before
      .map((id) => catalogue.find((product) => product.id === id)!)
      .filter((product) => product.variants.some((variant) => variant.stock >= 2));
    const last = buyable[buyable.length - 1]!;
    const secondLast = buyable[buyable.length - 2]!;
    const [buyer] = await quickShoppers(shop.app, 1);
    const order = async (product: Product, quantity: number) => {
      const variant = product.variants.find((candidate) => candidate.stock >= quantity)!;
      const response = await shop.app.inject({
        method: 'POST',
        url: '/api/v1/order/',
        headers: buyer!.headers,
        payload: {
          user_id: buyer!.id,
          address: 'Москва, ул. Тестовая, 1',
          items: [{ product_id: product.id, variant_id: variant.id, quantity }],
        },
      });
      expect(response.statusCode).toBe(201);
    };
    await order(secondLast, 1);
    await order(last, 2);

    const after = await popularIds();
    expect(after[0]).toBe(last.id);
    expect(after[1]).toBe(secondLast.id);
    // Everyone else keeps the curated order.
    expect(after.slice(2)).toEqual(before.filter((id) => id !== last.id && id !== secondLast.id));
  });
});
