import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { Product } from '../../../shared/api';
import { buildApp } from '../../app';
import {
  allProducts,
  createTestApp,
  quickShoppers,
  setVariant,
  STARTUP_TIMEOUT,
  type Shopper,
  type TestApp,
} from '../../../../test/server/helpers/test-app';

let shop: TestApp;
let buyer: Shopper;
let product: Product;

beforeAll(async () => {
  shop = await createTestApp();
  [buyer] = (await quickShoppers(shop.app, 1)) as [Shopper];
  product = (await allProducts(shop.app)).find((candidate) => candidate.variants.length > 0)!;
  await setVariant(shop.app, product.variants[0]!.id, { stock: 50 });
}, STARTUP_TIMEOUT);
afterAll(() => shop.close());

const read = (headers: Record<string, string> = {}) =>
  shop.app.inject({ method: 'GET', url: `/api/v1/products/${product.art}`, headers });
const stockIn = (response: { json(): unknown }) =>
  (response.json() as Product).variants.find((variant) => variant.id === product.variants[0]!.id)!.stock;

function order(quantity: number) {
  return shop.app.inject({
    method: 'POST',
    url: '/api/v1/order/',
    headers: buyer.headers,
    payload: {
      user_id: buyer.id,
      address: 'Казань',
      items: [{ product_id: product.id, variant_id: product.variants[0]!.id, quantity }],
    },
  });
}

describe('catalogue reads are cached and revalidated', () => {
  it('answers with an ETag, and 304 without a body when the browser already has it', async () => {
    const first = await read();
    expect(first.headers['cache-control']).toBe('no-cache');
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^W\/".+"$/);
    const again = await read({ 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect((await read({ 'if-none-match': '"something-else"' })).statusCode).toBe(200);
  });

  it.each([
    ['br', 'gzip, deflate, br', brotliDecompressSync],
    ['gzip', 'gzip, deflate', gunzipSync],
  ] as const)(
    'sends the cached answer %s-compressed to a browser that accepts it, with the same ETag',
    async (encoding, accepted, decode) => {
      const plain = await read();
      const compressed = await read({ 'accept-encoding': accepted });
      expect(compressed.statusCode).toBe(200);
      expect(compressed.headers['content-encoding']).toBe(encoding);
      expect(compressed.headers.vary).toMatch(/accept-encoding/i);
      expect(decode(compressed.rawPayload).toString('utf8')).toBe(plain.body);
      expect(compressed.headers.etag).toBe(plain.headers.etag);
      expect((await read({ 'accept-encoding': 'identity' })).headers['content-encoding']).toBeUndefined();
    },
  );

  it('never shows stock older than the last order or cancellation', async () => {
    const before = stockIn(await read());
    const placed = await order(3);
    expect(placed.statusCode).toBe(201);
    const afterOrder = await read();
    expect(stockIn(afterOrder)).toBe(before - 3);

    await shop.app.inject({
      method: 'DELETE',
      url: `/api/v1/order/${(placed.json() as { id: number }).id}`,
      headers: buyer.headers,
    });
    expect(stockIn(await read())).toBe(before);
  });

  it('a changed answer has a new ETag, so a browser’s old copy is not confirmed', async () => {
    const etag = String((await read()).headers.etag);
    await order(1);
    const after = await read({ 'if-none-match': etag });
    expect(after.statusCode).toBe(200);
    expect(after.headers.etag).not.toBe(etag);
  });

  it('the popular list follows orders too (its order depends on units ordered)', async () => {
    const popular = () => shop.app.inject({ method: 'GET', url: '/api/v1/products/popular?limit=100' });
    const last = (await popular()).json() as Product[];
    const laggard = last.filter((candidate) => candidate.variants.some((variant) => variant.stock > 0)).at(-1)!;
    const variant = laggard.variants.find((candidate) => candidate.stock > 0)!;
    await setVariant(shop.app, variant.id, { stock: 1000 });
    const response = await shop.app.inject({
      method: 'POST',
      url: '/api/v1/order/',
      headers: buyer.headers,
      payload: {
        user_id: buyer.id,
        address: 'Казань',
        items: [{ product_id: laggard.id, variant_id: variant.id, quantity: 500 }],
      },
    });
    expect(response.statusCode).toBe(201);
    expect(((await popular()).json() as Product[])[0]!.id).toBe(laggard.id);
  });
});

describe('what the catalogue cache keeps', () => {
  const get = (url: string) => shop.app.inject({ method: 'GET', url: `/api/v1/products${url}` });
  /** How many times `read` made the repository's `method` load, rather than the cache answer. */
  async function loadsOf(method: 'list' | 'listPopular' | 'search' | 'listByCategory', read: () => Promise<unknown>) {
    const spy = jest.spyOn(shop.app.repositories.products, method);
    try {
      await read();
      return spy.mock.calls.length;
    } finally {
      spy.mockRestore();
    }
  }
  const twice = (url: string) => async () => {
    for (let time = 0; time < 2; time += 1) expect((await get(url)).statusCode).toBe(200);
  };

  it('an empty page past the end is answered but not kept: every offset beyond would be one more', async () => {
    expect((await get('/?skip=5000')).json()).toEqual([]);
    expect(await loadsOf('list', twice('/?skip=5001&limit=7'))).toBe(2);
    expect(await loadsOf('listPopular', twice('/popular?skip=5001'))).toBe(2);
    // A page with products is kept.
    expect(await loadsOf('list', twice('/?skip=1&limit=7'))).toBe(1);
  });

  it('a search is kept once it is asked for a second time', async () => {
    // A query that finds something: one that finds nothing is asked again in the other keyboard layout.
    const query = `/search?q=${encodeURIComponent('заяц')}`;
    expect(await loadsOf('search', twice(query))).toBe(2);
    expect(await loadsOf('search', twice(query))).toBe(0);
  });

  it('spellings of one query share one answer: numbers as numbers, in_stock=false as no filter', async () => {
    const [category] = (await get('/categories/all')).json() as string[];
    const page = `/categories/${encodeURIComponent(category!)}`;
    const asked = async () => {
      for (const url of ['/?skip=02&limit=07', '/?skip=2&limit=7', '/?skip=2&limit=7.0'])
        expect((await get(url)).statusCode).toBe(200);
    };
    expect(await loadsOf('list', asked)).toBe(1);
    const unfiltered = async () => {
      for (const url of [page, `${page}?in_stock=false`, `${page}?skip=0&in_stock=false`])
        expect((await get(url)).statusCode).toBe(200);
    };
    expect(await loadsOf('listByCategory', unfiltered)).toBe(1);
  });

  it('a refused query is answered 422 and never reaches the cache', async () => {
    expect(await loadsOf('list', async () => expect((await get('/?limit=101')).statusCode).toBe(422))).toBe(0);
    expect(await loadsOf('list', async () => expect((await get('/?skip=-1')).statusCode).toBe(422))).toBe(0);
  });
});

// Two server processes on one PostgreSQL database: an order placed through one must reach the
// other's cache too (the order's transaction announces it with NOTIFY).
if (process.env.TEST_DATABASE_URL) {
  it(
    'an order placed through another server process invalidates this one’s cache',
    async () => {
      const other = await buildApp({ ...shop.config });
      await other.ready();
      try {
        const before = stockIn(await read());
        const placed = await other.inject({
          method: 'POST',
          url: '/api/v1/order/',
          headers: buyer.headers,
          payload: {
            user_id: buyer.id,
            address: 'Тула',
            items: [{ product_id: product.id, variant_id: product.variants[0]!.id, quantity: 2 }],
          },
        });
        expect(placed.statusCode).toBe(201);
        const deadline = Date.now() + 3000;
        let seen = before;
        while (Date.now() < deadline && seen !== before - 2) {
          await new Promise((resolve) => setTimeout(resolve, 50));
          seen = stockIn(await read());
        }
        expect(seen).toBe(before - 2);
      } finally {
        await other.close();
      }
    },
    STARTUP_TIMEOUT,
  );
}
