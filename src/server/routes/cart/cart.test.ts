import type { Cart, Product } from '../../../shared/api';
import {
  allProducts,
  createTestApp,
  json,
  quickShoppers,
  setVariant,
  signUp,
  STARTUP_TIMEOUT,
  type Shopper,
  type TestApp,
} from '../../../../test/server/helpers/test-app';

const CYRILLIC = /[а-яё]/i;

let shop: TestApp;
let catalogue: Product[];
/** Products with at least two variants in stock, each used by one test so that tests stay independent. */
let spare: Product[];
let owner: Shopper;
let intruder: Shopper;

beforeAll(async () => {
  shop = await createTestApp();
  catalogue = await allProducts(shop.app);
  spare = catalogue.filter((product) => product.variants.filter((variant) => variant.stock > 0).length >= 2);
  // One user through the real sign-up and login, the rest quickly.
  owner = await signUp(shop.app);
  intruder = (await quickShoppers(shop.app, 1))[0]!;
}, STARTUP_TIMEOUT);
afterAll(() => shop.close());

/** A product (with ≥ 2 variants in stock) that no other test touches. */
function takeProduct(): Product {
  const product = spare.shift();
  if (!product) throw new Error('ran out of products with two variants in stock');
  return product;
}
const inStock = (product: Product) => product.variants.filter((variant) => variant.stock > 0);

const getCart = (shopper: Shopper, userId = shopper.id) =>
  shop.app.inject({ method: 'GET', url: `/api/v1/cart/${userId}`, headers: shopper.headers });

const add = (shopper: Shopper, body: Record<string, unknown>) =>
  shop.app.inject({
    method: 'POST',
    url: '/api/v1/cart/add',
    headers: shopper.headers,
    payload: { user_id: shopper.id, ...body },
  });

const setCount = (shopper: Shopper, itemId: number | string, count: number | string) =>
  shop.app.inject({
    method: 'PUT',
    url: '/api/v1/cart/count',
    headers: shopper.headers,
    query: { item_id: String(itemId), count: String(count) },
  });

const remove = (shopper: Shopper, itemId: number | string) =>
  shop.app.inject({ method: 'DELETE', url: `/api/v1/cart/${itemId}`, headers: shopper.headers });

async function cartOf(shopper: Shopper): Promise<Cart> {
  const response = await getCart(shopper);
  expect(response.statusCode).toBe(200);
  return json<Cart>(response);
}

async function addOk(shopper: Shopper, product: Product, variantId: number, count: number): Promise<number> {
  const response = await add(shopper, { product_id: product.id, variant_id: variantId, count });
  expect(response.statusCode).toBe(201);
  return json<{ id: number }>(response).id;
}

async function emptyCart(shopper: Shopper): Promise<void> {
  for (const item of (await cartOf(shopper)).items) expect((await remove(shopper, item.id)).statusCode).toBe(200);
}

describe('cart', () => {
  let fresh: Shopper;
  beforeAll(async () => {
    fresh = (await quickShoppers(shop.app, 1))[0]!;
  });

  it('a new user has an empty cart: {items: [], total_price: 0} (and version 0)', async () => {
    const response = await getCart(fresh!);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ items: [], total_price: 0, min_order_sum: 0, missing_sum: 0, version: 0 });
  });

  it('add → 201; the line has the SPEC §3 fields (and the price when added) with the product and price from the catalogue', async () => {
    await emptyCart(owner);
    const product = takeProduct();
    const variant = inStock(product)[0]!;
    const response = await add(owner, { product_id: product.id, variant_id: variant.id, count: 2 });
    expect(response.statusCode).toBe(201);
    const itemId = json<{ id: number }>(response).id;
    expect(Number.isInteger(itemId)).toBe(true);

    const cart = await cartOf(owner);
    expect(Object.keys(cart).sort()).toEqual(['items', 'min_order_sum', 'missing_sum', 'total_price', 'version']);
    expect(cart.items).toHaveLength(1);
    const [line] = cart.items;
    // SPEC §3's fields, the price when added, whether it is still on sale, and the wholesale price applied.
    expect(Object.keys(line!).sort()).toEqual([
      'available',
      'count',
      'fit_count',
      'id',
      'item_total',
      'next_tier',
      'packaging_problem',
      'price_when_added',
      'product',
      'tier',
      'tiers_scope',
      'unit_price',
      'variant',
      'variant_id',
    ]);
    expect(line).toEqual({
      id: itemId,
      count: 2,
      item_total: Math.round(variant.price! * 100 * 2) / 100,
      product: {
        id: product.id,
        art: product.art,
        name: product.name,
        description: product.description,
        image: product.image,
        multiple: 1,
        min_quantity: 1,
      },
      variant: {
        price: variant.price,
        color: variant.color,
        size: variant.size,
        stock: variant.stock,
        unproven_held: variant.unproven_held,
      },
      variant_id: variant.id,
      price_when_added: variant.price,
      unit_price: variant.price,
      tier: null,
      next_tier: null,
      tiers_scope: 'product',
      packaging_problem: null,
      fit_count: null,
      available: true,
    });
    expect(cart.total_price).toBe(line!.item_total);
  });

  it('adding the same variant again merges into one line with the counts summed', async () => {
    await emptyCart(owner);
    const product = takeProduct();
    const variant = inStock(product)[0]!;
    const first = await addOk(owner, product, variant.id, 2);
    const second = await addOk(owner, product, variant.id, 3);
    expect(second).toBe(first);
    const cart = await cartOf(owner);
    expect(cart.items).toHaveLength(1);
    expect(cart.items[0]).toMatchObject({ id: first, count: 5, variant_id: variant.id });
  });

  it('lines come in insertion order (not by id of product or variant), and totals are exact to the kopeck', async () => {
    await emptyCart(owner);
    const a = takeProduct();
    const b = takeProduct();
    // Prices chosen so that adding them as binary floats would not give a round number.
    const [a1, a2] = inStock(a);
    const [b1] = inStock(b);
    await setVariant(shop.app, a2!.id, { price: '0.10' });
    await setVariant(shop.app, b1!.id, { price: '0.20' });
    await setVariant(shop.app, a1!.id, { price: '1234.35' });

    // Newest product first, so insertion order differs from id order.
    await addOk(owner, b, b1!.id, 1);
    await addOk(owner, a, a2!.id, 1);
    await addOk(owner, a, a1!.id, 3);

    const cart = await cartOf(owner);
    expect(cart.items.map((item) => item.variant_id)).toEqual([b1!.id, a2!.id, a1!.id]);
    expect(cart.items.map((item) => item.variant.price)).toEqual([0.2, 0.1, 1234.35]);
    expect(cart.items.map((item) => item.item_total)).toEqual([0.2, 0.1, 3703.05]);
    expect(cart.total_price).toBe(3703.35);
    // The raw JSON shows the same exact numbers.
    const raw = (await getCart(owner)).body;
    expect(raw).toContain('"total_price":3703.35');
    expect(raw).toContain('"item_total":3703.05');
  });

  it('PUT /cart/count sets the count from 1 to 10000', async () => {
    await emptyCart(owner);
    const product = takeProduct();
    const variant = inStock(product)[0]!;
    const itemId = await addOk(owner, product, variant.id, 1);
    for (const count of [7, 1, 10_000]) {
      const response = await setCount(owner, itemId, count);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ detail: expect.any(String) });
      const [line] = (await cartOf(owner)).items;
      expect(line!.count).toBe(count);
      expect(line!.item_total).toBe(Math.round(variant.price! * 100 * count) / 100);
    }
  });

  it.each([0, -1, 1.5, 10_001, 'abc', ''])(
    'PUT /cart/count with count %j → 422 and the count is unchanged',
    async (count) => {
      await emptyCart(owner);
      const product = catalogue.find((candidate) => inStock(candidate).length > 0)!;
      const itemId = await addOk(owner, product, inStock(product)[0]!.id, 4);
      const response = await setCount(owner, itemId, count);
      expect(response.statusCode).toBe(422);
      expect(response.json()).toEqual({ detail: expect.stringMatching(CYRILLIC) });
      expect((await cartOf(owner)).items[0]!.count).toBe(4);
    },
  );

  it('PUT /cart/count without item_id → 422; for a line that does not exist → 404', async () => {
    const missing = await shop.app.inject({
      method: 'PUT',
      url: '/api/v1/cart/count',
      headers: owner.headers,
      query: { count: '2' },
    });
    expect(missing.statusCode).toBe(422);
    expect(missing.json()).toEqual({ detail: expect.stringMatching(CYRILLIC) });
    const unknown = await setCount(owner, 2_000_000_000, 2);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ detail: expect.stringMatching(CYRILLIC) });
  });

  it('DELETE removes one line and leaves the others; deleting it again → 404', async () => {
    await emptyCart(owner);
    const product = takeProduct();
    const [v1, v2] = inStock(product);
    const first = await addOk(owner, product, v1!.id, 1);
    const second = await addOk(owner, product, v2!.id, 2);
    const response = await remove(owner, first);
    expect(response.statusCode).toBe(200);
    const cart = await cartOf(owner);
    expect(cart.items.map((item) => item.id)).toEqual([second]);
    expect(cart.total_price).toBe(cart.items[0]!.item_total);
    expect((await remove(owner, first)).statusCode).toBe(404);
    expect((await remove(owner, 'abc')).statusCode).toBe(422);
  });

  it('a variant of another product → 422 naming the variant, nothing added', async () => {
    await emptyCart(owner);
    const [a, b] = catalogue.filter((product) => inStock(product).length > 0);
    const response = await add(owner, { product_id: a!.id, variant_id: inStock(b!)[0]!.id, count: 1 });
    expect(response.statusCode).toBe(422);
    expect(json<{ detail: string }>(response).detail).toBe(
      `Не удалось найти вариант с id=${inStock(b!)[0]!.id} для продукта ${a!.id}`,
    );
    const unknownVariant = await add(owner, { product_id: a!.id, variant_id: 2_000_000_000, count: 1 });
    expect(unknownVariant.statusCode).toBe(422);
    expect((await cartOf(owner)).items).toEqual([]);
  });

  it('an out-of-stock variant → 409 with a Russian detail, nothing added', async () => {
    await emptyCart(owner);
    const entry = catalogue
      .flatMap((product) => product.variants.map((variant) => ({ product, variant })))
      .find(({ variant }) => variant.stock === 0);
    expect(entry).toBeDefined();
    const response = await add(owner, { product_id: entry!.product.id, variant_id: entry!.variant.id, count: 1 });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ detail: expect.stringContaining(entry!.product.name) });
    expect((await cartOf(owner)).items).toEqual([]);
  });

  it('merging beyond 10000 → 422 and the line keeps its count', async () => {
    await emptyCart(owner);
    const product = takeProduct();
    const variant = inStock(product)[0]!;
    await addOk(owner, product, variant.id, 6000);
    const response = await add(owner, { product_id: product.id, variant_id: variant.id, count: 5000 });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({ detail: expect.stringMatching(CYRILLIC) });
    expect((await cartOf(owner)).items[0]!.count).toBe(6000);
    // Exactly up to the limit is fine.
    await addOk(owner, product, variant.id, 4000);
    expect((await cartOf(owner)).items[0]!.count).toBe(10_000);
  });

  it.each([
    ['count as a string', { count: '5' }],
    ['count 0', { count: 0 }],
    ['count 1.5', { count: 1.5 }],
    ['count 10001', { count: 10_001 }],
    ['count missing', { count: undefined }],
    ['product_id as a string', { product_id: 'x' }],
    ['user_id as a string', { user_id: 'me' }],
  ])('add with %s → 422 with a Russian detail', async (_name, override) => {
    await emptyCart(owner);
    const product = catalogue.find((candidate) => inStock(candidate).length > 0)!;
    const body = { product_id: product.id, variant_id: inStock(product)[0]!.id, count: 1, ...override };
    const response = await add(owner, body);
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({ detail: expect.stringMatching(CYRILLIC) });
    expect((await cartOf(owner)).items).toEqual([]);
  });

  it('unknown extra fields in the body are ignored', async () => {
    await emptyCart(owner);
    const product = takeProduct();
    const variant = inStock(product)[0]!;
    const response = await add(owner, {
      product_id: product.id,
      variant_id: variant.id,
      count: 2,
      price: 0.01,
      item_total: 0,
      colour: 'золотой',
    });
    expect(response.statusCode).toBe(201);
    const [line] = (await cartOf(owner)).items;
    expect(line!.variant.price).toBe(variant.price);
    expect(line!.count).toBe(2);
  });
});

describe('what the buyer saw and what is true now', () => {
  it('a line keeps the price it was added at; adding it again takes the new price', async () => {
    await emptyCart(owner);
    const product = takeProduct();
    const variant = inStock(product)[0]!;
    await setVariant(shop.app, variant.id, { price: '100.00' });
    const itemId = await addOk(owner, product, variant.id, 2);
    await setVariant(shop.app, variant.id, { price: '120.50' });

    let [line] = (await cartOf(owner)).items;
    expect(line).toMatchObject({ id: itemId, price_when_added: 100, variant: { price: 120.5 }, item_total: 241 });

    await addOk(owner, product, variant.id, 1);
    [line] = (await cartOf(owner)).items;
    expect(line).toMatchObject({ count: 3, price_when_added: 120.5, variant: { price: 120.5 } });
  });

  it("a line shows its variant's current stock, also when the cart holds more than that", async () => {
    await emptyCart(owner);
    const product = takeProduct();
    const variant = inStock(product)[0]!;
    await setVariant(shop.app, variant.id, { stock: 50 });
    await addOk(owner, product, variant.id, 20);
    await setVariant(shop.app, variant.id, { stock: 9 });
    const [line] = (await cartOf(owner)).items;
    expect(line).toMatchObject({ count: 20, variant: { stock: 9 } });
  });
});

describe('conditional count change (expected)', () => {
  const setCountIf = (shopper: Shopper, itemId: number, count: number, expected: number) =>
    shop.app.inject({
      method: 'PUT',
      url: '/api/v1/cart/count',
      headers: shopper.headers,
      query: { item_id: String(itemId), count: String(count), expected: String(expected) },
    });

  it('with the count the line holds → 200 and the count is set', async () => {
    await emptyCart(owner);
    const product = takeProduct();
    const itemId = await addOk(owner, product, inStock(product)[0]!.id, 26);
    expect((await setCountIf(owner, itemId, 27, 26)).statusCode).toBe(200);
    expect((await cartOf(owner)).items[0]!.count).toBe(27);
  });

  it('two tabs changing from the same count: one wins, the other gets 409 with the line as it is now', async () => {
    await emptyCart(owner);
    const product = takeProduct();
    const itemId = await addOk(owner, product, inStock(product)[0]!.id, 26);
    const answers = await Promise.all([setCountIf(owner, itemId, 27, 26), setCountIf(owner, itemId, 27, 26)]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    const refused = answers.find((answer) => answer.statusCode === 409)!;
    const body = json<{ detail: string; item: Cart['items'][number] }>(refused);
    expect(body.detail).toMatch(CYRILLIC);
    expect(body.item).toMatchObject({ id: itemId, count: 27 });

    // The losing tab rebases its + on the count it was told: 28, nothing lost.
    expect((await setCountIf(owner, itemId, body.item.count + 1, body.item.count)).statusCode).toBe(200);
    expect((await cartOf(owner)).items[0]!.count).toBe(28);
  });

  it('a stale expected count changes nothing', async () => {
    await emptyCart(owner);
    const product = takeProduct();
    const itemId = await addOk(owner, product, inStock(product)[0]!.id, 5);
    expect((await setCountIf(owner, itemId, 100, 4)).statusCode).toBe(409);
    expect((await cartOf(owner)).items[0]!.count).toBe(5);
  });

  it("another user's line or a missing one → 404, not 409: nothing about it is told", async () => {
    await emptyCart(owner);
    const product = takeProduct();
    const itemId = await addOk(owner, product, inStock(product)[0]!.id, 5);
    const foreign = await setCountIf(intruder, itemId, 6, 4);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).not.toHaveProperty('item');
    expect((await setCountIf(owner, 2_000_000_000, 6, 5)).statusCode).toBe(404);
  });
});

describe('cart ownership', () => {
  let victimItem: number;
  let victimCart: Cart;
  beforeAll(async () => {
    await emptyCart(owner);
    const product = takeProduct();
    victimItem = await addOk(owner, product, inStock(product)[0]!.id, 3);
    victimCart = await cartOf(owner);
  });

  it("reading another user's cart → 403", async () => {
    const response = await getCart(intruder!, owner.id);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ detail: expect.stringMatching(CYRILLIC) });
  });

  it("adding with another user's user_id → 403 and nothing lands in either cart", async () => {
    const product = catalogue.find((candidate) => inStock(candidate).length > 0)!;
    const response = await shop.app.inject({
      method: 'POST',
      url: '/api/v1/cart/add',
      headers: intruder!.headers,
      payload: { user_id: owner.id, product_id: product.id, variant_id: inStock(product)[0]!.id, count: 1 },
    });
    expect(response.statusCode).toBe(403);
    expect(await cartOf(owner)).toEqual(victimCart);
    expect((await cartOf(intruder!)).items).toEqual([]);
  });

  it("changing or deleting another user's line → 404, and the victim's cart is unchanged", async () => {
    const put = await setCount(intruder!, victimItem, 9999);
    expect(put.statusCode).toBe(404);
    const del = await remove(intruder!, victimItem);
    expect(del.statusCode).toBe(404);
    expect(await cartOf(owner)).toEqual(victimCart);
  });

  it('no token → 401 on every cart call', async () => {
    const calls = [
      shop.app.inject({ method: 'GET', url: `/api/v1/cart/${owner.id}` }),
      shop.app.inject({ method: 'PUT', url: '/api/v1/cart/count', query: { item_id: String(victimItem), count: '1' } }),
      shop.app.inject({
        method: 'POST',
        url: '/api/v1/cart/add',
        payload: { user_id: owner.id, product_id: 1, variant_id: 1, count: 1 },
      }),
      shop.app.inject({ method: 'DELETE', url: `/api/v1/cart/${victimItem}` }),
    ];
    for (const response of await Promise.all(calls)) {
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ detail: expect.stringMatching(CYRILLIC) });
    }
    expect(await cartOf(owner)).toEqual(victimCart);
  });

  it('a garbage token → 401', async () => {
    const response = await shop.app.inject({
      method: 'GET',
      url: `/api/v1/cart/${owner.id}`,
      headers: { authorization: 'Bearer nonsense' },
    });
    expect(response.statusCode).toBe(401);
  });
});
