/** POST /api/v1/products/by-arts: the checkout's products in one request. */
import type { Product } from '../../../shared/api';
import { ORDER_MAX_LINES } from '../../../shared/limits';
import { allProducts, createTestApp, STARTUP_TIMEOUT, type TestApp } from '../../../../test/server/helpers/test-app';

let shop: TestApp;
let catalogue: Product[];

beforeAll(async () => {
  shop = await createTestApp();
  catalogue = await allProducts(shop.app);
}, STARTUP_TIMEOUT);
afterAll(() => shop.close());

const byArts = (arts: unknown) =>
  shop.app.inject({ method: 'POST', url: '/api/v1/products/by-arts', payload: { arts } });

it('answers the products on sale among the articles, with their variants, each once; the unknown left out', async () => {
  const [first, second] = catalogue;
  const answer = await byArts([second!.art, 'NO-SUCH-ART', first!.art, second!.art]);
  expect(answer.statusCode).toBe(200);
  const products = answer.json() as Product[];
  expect(products.map((product) => product.art).sort()).toEqual([first!.art, second!.art].sort());
  expect(products.find((product) => product.art === first!.art)).toEqual(first);
});

it('takes as many articles as an order has lines, and no more', async () => {
  const many = Array.from({ length: ORDER_MAX_LINES }, (_, index) => `ART-${index}`);
  expect((await byArts(many)).statusCode).toBe(200);
  expect((await byArts([...many, 'one more'])).statusCode).toBe(422);
  expect((await byArts([])).statusCode).toBe(422);
});
