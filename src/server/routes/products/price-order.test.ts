import { eq } from 'drizzle-orm';
import type { AdminVariant, Product } from '../../../shared/api';
import { categories, products } from '../../db/schema';
import { json, STARTUP_TIMEOUT, type Shopper, type TestApp } from '../../../../test/server/helpers/test-app';
import { openBackOffice } from '../../../../test/server/helpers/back-office';

// Unfiltered, the price orders read products.min_price, which triggers on variants keep (migration
// 0009): whoever changes a variant, the order must follow at once.
const CATEGORY = 'Проверка цен';
const URL = `/api/v1/products/categories/${encodeURIComponent(CATEGORY)}`;

let shop: TestApp;
let manager: Shopper;
const ids: Record<'a' | 'b' | 'c', number> = { a: 0, b: 0, c: 0 };
type Letter = keyof typeof ids;

beforeAll(async () => {
  ({ shop, manager } = await openBackOffice());
  const { db } = shop.app.database;
  const [category] = await db
    .insert(categories)
    .values({ name: CATEGORY, position: 100 })
    .returning({ id: categories.id });
  for (const letter of Object.keys(ids) as Letter[]) {
    const [row] = await db
      .insert(products)
      .values({ art: `PRC-${letter}`, name: letter, image: 'MO-1001.svg', categoryId: category!.id, curatedRank: 1 })
      .returning({ id: products.id });
    ids[letter] = row!.id;
  }
}, STARTUP_TIMEOUT);
afterAll(() => shop.close());

const admin = (method: 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
  shop.app.inject({ method, url: `/api/v1/admin${url}`, payload, headers: manager.headers });

async function addVariant(letter: Letter, price: number, size: number): Promise<number> {
  const response = await admin('POST', `/products/${ids[letter]}/variants`, { color: 'серый', size, price, stock: 1 });
  expect(response.statusCode).toBe(201);
  return json<AdminVariant>(response).id;
}

async function order(sort: 'price_asc' | 'price_desc'): Promise<string[]> {
  const response = await shop.app.inject({ method: 'GET', url: URL, query: { sort } });
  expect(response.statusCode).toBe(200);
  return json<Product[]>(response).map((product) => product.name);
}

async function minPrice(letter: Letter): Promise<string | null> {
  const [row] = await shop.app.database.db
    .select({ minPrice: products.minPrice })
    .from(products)
    .where(eq(products.id, ids[letter]));
  return row!.minPrice;
}

it('follows added, repriced and deleted variants, products without any last', async () => {
  expect(await order('price_asc')).toEqual(['a', 'b', 'c']);

  await addVariant('a', 300, 20);
  const cheapA = await addVariant('a', 100, 30);
  await addVariant('b', 200, 20);
  expect(await minPrice('a')).toBe('100.00');
  expect(await order('price_asc')).toEqual(['a', 'b', 'c']);
  expect(await order('price_desc')).toEqual(['b', 'a', 'c']);

  expect((await admin('PATCH', `/variants/${cheapA}`, { price: 250.5 })).statusCode).toBe(200);
  expect(await minPrice('a')).toBe('250.50');
  expect(await order('price_asc')).toEqual(['b', 'a', 'c']);

  // A change of stock alone leaves the price where it was.
  expect((await admin('PATCH', `/variants/${cheapA}`, { stock: 7 })).statusCode).toBe(200);
  expect(await minPrice('a')).toBe('250.50');

  expect((await admin('DELETE', `/variants/${cheapA}`)).statusCode).toBe(204);
  expect(await minPrice('a')).toBe('300.00');
  expect(await order('price_desc')).toEqual(['a', 'b', 'c']);
});
