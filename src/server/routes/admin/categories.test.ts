import { randomBytes } from 'node:crypto';
import type { AdminCategory, AdminProduct, ProductCreate } from '../../../shared/api';
import { json, STARTUP_TIMEOUT, type Shopper, type TestApp } from '../../../../test/server/helpers/test-app';
import { expectManagersOnly, latestAudit, openBackOffice } from '../../../../test/server/helpers/back-office';

let shop: TestApp;
let buyer: Shopper;
let manager: Shopper;

beforeAll(async () => {
  ({ shop, buyer, manager } = await openBackOffice());
}, STARTUP_TIMEOUT);
afterAll(() => shop.close());

const admin = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
  shop.app.inject({ method, url: `/api/v1/admin${url}`, payload, headers: manager.headers });
const storefrontCategories = async () =>
  (await shop.app.inject({ method: 'GET', url: '/api/v1/products/categories/all' })).json() as string[];
const uniqueName = (prefix: string) => `${prefix} ${randomBytes(3).toString('hex')}`;

async function createCategory(body: { name: string; position?: number }): Promise<AdminCategory> {
  const response = await admin('POST', '/categories', body);
  expect(response.statusCode).toBe(201);
  return json<AdminCategory>(response);
}

async function createProduct(category: string): Promise<AdminProduct> {
  const body: ProductCreate = {
    art: `C-${randomBytes(4).toString('hex')}`,
    name: 'Котик',
    category,
    image: 'MO-1001.svg',
    variants: [{ color: 'Серый', size: 20, price: 100, stock: 1 }],
  };
  const response = await admin('POST', '/products', body);
  expect(response.statusCode).toBe(201);
  return json<AdminProduct>(response);
}

it('every categories route: 401 without a token, 403 for a buyer', async () => {
  await expectManagersOnly(shop.app, buyer, [
    ['GET', '/api/v1/admin/categories'],
    ['POST', '/api/v1/admin/categories', { name: 'x' }],
    ['PATCH', '/api/v1/admin/categories/1', { name: 'x' }],
    ['DELETE', '/api/v1/admin/categories/1'],
  ]);
});

it('GET lists them in the storefront order with their products, hidden ones counted', async () => {
  const list = json<AdminCategory[]>(await admin('GET', '/categories'));
  expect(list.map((category) => category.name)).toEqual(await storefrontCategories());
  const [first] = list;
  expect(first).toEqual({ id: expect.any(Number), name: expect.any(String), position: 0, products_count: 9 });
});

it('POST adds one at the end (201), on the storefront at once, audited; a taken or blank name → 409 / 422', async () => {
  await storefrontCategories(); // cached now
  const name = uniqueName('Пазлы');
  const created = await createCategory({ name: `  ${name} ` });
  const list = json<AdminCategory[]>(await admin('GET', '/categories'));
  expect(list.at(-1)).toEqual(created);
  expect(created).toEqual({
    id: expect.any(Number),
    name,
    position: Math.max(...list.slice(0, -1).map((category) => category.position)) + 1,
    products_count: 0,
  });
  expect((await storefrontCategories()).at(-1)).toBe(name);
  expect((await latestAudit(shop.app, manager))[0]).toMatchObject({
    action: 'category.create',
    entity: 'category',
    entity_id: String(created.id),
    before: null,
    after: created,
  });

  const taken = await admin('POST', '/categories', { name });
  expect(taken.statusCode).toBe(409);
  expect(taken.json()).toEqual({ detail: `Категория «${name}» уже есть` });
  for (const body of [{ name: '   ' }, { name: '' }, {}, { name: 'x', position: -1 }]) {
    const response = await admin('POST', '/categories', body);
    expect([body, response.statusCode]).toEqual([body, 422]);
    expect(response.json()).toEqual({ detail: expect.stringMatching(/[а-яё]/i) });
  }
});

it('PATCH renames and moves it; the storefront follows at once; a taken name → 409; unknown → 404', async () => {
  const category = await createCategory({ name: uniqueName('Мячи') });
  const product = await createProduct(category.name);
  const renamed = uniqueName('Мячики');
  const response = await admin('PATCH', `/categories/${category.id}`, { name: renamed, position: 0 });
  expect(response.statusCode).toBe(200);
  const after = json<AdminCategory>(response);
  expect(after).toEqual({ ...category, name: renamed, position: 0, products_count: 1 });
  expect(await storefrontCategories()).toContain(renamed);
  expect(await storefrontCategories()).not.toContain(category.name);
  const inCategory = await shop.app.inject({
    method: 'GET',
    url: `/api/v1/products/categories/${encodeURIComponent(renamed)}`,
  });
  expect((inCategory.json() as { id: number }[]).map((item) => item.id)).toEqual([product.id]);
  expect(json<AdminProduct>(await admin('GET', `/products/${product.id}`)).category).toBe(renamed);
  expect((await latestAudit(shop.app, manager))[0]).toMatchObject({
    action: 'category.update',
    before: { name: category.name, position: category.position },
    after: { name: renamed, position: 0 },
  });

  const [seeded] = json<AdminCategory[]>(await admin('GET', '/categories')).filter((c) => c.id !== category.id);
  const taken = await admin('PATCH', `/categories/${category.id}`, { name: seeded!.name });
  expect(taken.statusCode).toBe(409);
  expect(taken.json()).toEqual({ detail: `Категория «${seeded!.name}» уже есть` });
  expect((await admin('PATCH', `/categories/${category.id}`, {})).statusCode).toBe(422);
  expect((await admin('PATCH', '/categories/2147483647', { name: 'x' })).statusCode).toBe(404);
});

it('DELETE: with products (hidden ones too) → 409 naming how many; empty → 204, audited; unknown → 404', async () => {
  const category = await createCategory({ name: uniqueName('Куклы') });
  const product = await createProduct(category.name);
  await createProduct(category.name);
  expect((await admin('DELETE', `/products/${product.id}`)).statusCode).toBe(200);
  const refused = await admin('DELETE', `/categories/${category.id}`);
  expect(refused.statusCode).toBe(409);
  expect(refused.json()).toEqual({
    detail: `В категории «${category.name}» ещё есть товары (2, считая снятые с продажи): перенесите их в другую категорию, прежде чем удалять эту.`,
  });
  expect(json<AdminCategory[]>(await admin('GET', '/categories')).map((c) => c.id)).toContain(category.id);

  const empty = await createCategory({ name: uniqueName('Пустая') });
  await storefrontCategories(); // cached now
  expect((await admin('DELETE', `/categories/${empty.id}`)).statusCode).toBe(204);
  expect(await storefrontCategories()).not.toContain(empty.name);
  expect((await latestAudit(shop.app, manager))[0]).toMatchObject({
    action: 'category.delete',
    entity_id: String(empty.id),
    before: empty,
    after: null,
  });
  expect((await admin('DELETE', `/categories/${empty.id}`)).statusCode).toBe(404);
});

it('a category deleted while a product is put into it: never both, never a 500 (run on PostgreSQL too)', async () => {
  for (let round = 0; round < 3; round += 1) {
    const category = await createCategory({ name: uniqueName('Гонка') });
    const [created, deleted] = await Promise.all([
      admin('POST', '/products', {
        art: `R-${randomBytes(4).toString('hex')}`,
        name: 'Гонщик',
        category: category.name,
        image: 'MO-1001.svg',
        variants: [{ color: 'Синий', size: 10, price: 1, stock: 1 }],
      }),
      admin('DELETE', `/categories/${category.id}`),
    ]);
    // Either the product came first (the category stays: 409) or the deletion did (no category: 422).
    expect([
      [201, 409],
      [422, 204],
    ]).toContainEqual([created.statusCode, deleted.statusCode]);
  }
});
