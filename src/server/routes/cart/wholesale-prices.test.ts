import type { AdminProduct, BuyerOrder, Cart, CartImportResult, PriceType, Product } from '../../../shared/api';
import { newManager } from '../../../../test/server/helpers/back-office';
import { TEST_PASSWORD } from '../../../../test/server/helpers/shop-data';
import {
  allProducts,
  bearer,
  createTestApp,
  json,
  logIn,
  markCompanyPaid,
  memberOf,
  quickShoppers,
  setCookie,
  setVariant,
  STARTUP_TIMEOUT,
  type Shopper,
  type TestApp,
} from '../../../../test/server/helpers/test-app';

// Two companies of different price types seeing and buying at their own prices: the catalogue, the
// cart with its tiers and packaging, the order that keeps what it was priced at.

type Variant = Product['variants'][number];

let shop: TestApp;
let manager: Shopper;
/** A company of the default type («Опт») and one of «Крупный опт». */
let regular: Shopper;
let large: Shopper;
let largeType: PriceType;
let catalogue: Product[];
let product: Product;
let first: Variant;
let second: Variant;

const admin = (method: 'GET' | 'POST' | 'PATCH' | 'PUT', url: string, payload?: unknown) =>
  shop.app.inject({ method, url: `/api/v1/admin${url}`, headers: manager.headers, payload: payload as object });

const read = (url: string, shopper?: Shopper) =>
  shop.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: shopper?.headers ?? {} });

async function productAs(art: string, shopper?: Shopper): Promise<Product> {
  return json<Product>(await read(`/products/${encodeURIComponent(art)}`, shopper));
}

async function cartOf(shopper: Shopper): Promise<Cart> {
  return json<Cart>(await read(`/cart/${shopper.id}`, shopper));
}

const add = (shopper: Shopper, item: Product, variant: Variant, count: number) =>
  shop.app.inject({
    method: 'POST',
    url: '/api/v1/cart/add',
    headers: shopper.headers,
    payload: { user_id: shopper.id, product_id: item.id, variant_id: variant.id, count },
  });

const emptyCart = async (shopper: Shopper) => {
  for (const item of (await cartOf(shopper)).items) {
    await shop.app.inject({ method: 'DELETE', url: `/api/v1/cart/${item.id}`, headers: shopper.headers });
  }
};

const order = (shopper: Shopper, lines: [Product, Variant, number][]) =>
  shop.app.inject({
    method: 'POST',
    url: '/api/v1/order/',
    headers: shopper.headers,
    payload: {
      user_id: shopper.id,
      address: 'г. Тверь, ул. Советская, д. 3',
      items: lines.map(([item, variant, quantity]) => ({ product_id: item.id, variant_id: variant.id, quantity })),
    },
  });

beforeAll(async () => {
  shop = await createTestApp();
  manager = await newManager(shop.app);
  [regular, large] = (await quickShoppers(shop.app, 2)) as [Shopper, Shopper];
  for (const buyer of [regular, large]) await markCompanyPaid(shop.app, buyer.id);
  catalogue = await allProducts(shop.app);
  product = catalogue.find((candidate) => candidate.variants.length >= 2)!;
  [first, second] = product.variants as [Variant, Variant];
  for (const variant of product.variants) await setVariant(shop.app, variant.id, { stock: 1000 });

  const types = json<PriceType[]>(await admin('GET', '/price-types'));
  const opt = types.find((type) => type.is_default)!;
  largeType = json<PriceType>(await admin('POST', '/price-types', { name: 'Крупный опт' }));
  const rrp = json<PriceType>(await admin('POST', '/price-types', { name: 'РРЦ', is_rrp: true }));
  const { companyId } = await memberOf(shop.app, large.id);
  expect((await admin('PATCH', `/companies/${companyId}`, { price_type_id: largeType.id })).statusCode).toBe(200);
  // «Опт»: 600 and 700. «Крупный опт»: 500 for the first variant, none for the second (it sells at
  // «Опт»'s 700), and from 12 pieces of the model 450. The RRP of the first: 990.
  const prices = async (variant: Variant, entries: unknown[]) =>
    expect((await admin('PUT', `/variants/${variant.id}/prices`, entries)).statusCode).toBe(200);
  await prices(first, [
    { price_type_id: opt.id, price: 600 },
    { price_type_id: largeType.id, price: 500 },
    { price_type_id: rrp.id, price: 990 },
  ]);
  await prices(second, [{ price_type_id: opt.id, price: 700 }]);
  const tiers = await admin('PUT', `/products/${product.id}/prices`, [
    { price_type_id: largeType.id, tiers: [{ from: 12, price: 450 }] },
  ]);
  expect(tiers.statusCode).toBe(200);
}, STARTUP_TIMEOUT);
afterAll(() => shop.close());

describe('the catalogue', () => {
  it('shows each company its type’s prices and tiers, a visitor the default type’s, all with the RRP', async () => {
    const seen = async (shopper?: Shopper) =>
      (await productAs(product.art, shopper)).variants
        .slice(0, 2)
        .map((variant) => ({ price: variant.price, tiers: variant.tiers, rrp: variant.rrp }));
    expect(await seen()).toEqual([
      { price: 600, tiers: [], rrp: 990 },
      { price: 700, tiers: [], rrp: null },
    ]);
    expect(await seen(regular)).toEqual(await seen());
    expect(await seen(large)).toEqual([
      { price: 500, tiers: [{ from: 12, price: 450 }], rrp: 990 },
      { price: 700, tiers: [], rrp: null },
    ]);
    expect((await productAs(product.art, large)).variants[0]!.tiers_scope).toBe('product');
  });

  it('a signed-in buyer’s answers are private; a visitor’s may be kept by shared caches', async () => {
    const url = `/products/${encodeURIComponent(product.art)}`;
    const [visitor, buyer] = await Promise.all([read(url), read(url, large)]);
    expect(visitor.headers['cache-control']).toBe('no-cache');
    expect(buyer.headers['cache-control']).toBe('private, no-cache');
    for (const answer of [visitor, buyer]) expect(answer.headers.vary).toBe('accept-encoding, authorization');
  });

  it('lists, searches and filters by price in the company’s type', async () => {
    const inList = async (url: string, shopper: Shopper) =>
      json<Product[]>(await read(url, shopper)).find((item) => item.id === product.id)?.variants[0]?.price;
    expect(await inList('/products/?limit=100', large)).toBe(500);
    expect(await inList(`/products/search?q=${encodeURIComponent(product.art)}`, large)).toBe(500);
    const { category } = json<AdminProduct>(await admin('GET', `/products/${product.id}`));
    const filtered = `/products/categories/${encodeURIComponent(category)}?price_min=450&price_max=550&limit=100`;
    expect(await inList(filtered, large)).toBe(500);
    expect(await inList(filtered, regular)).toBeUndefined();
  });

  it('a token no longer valid is refused (401), never answered with a visitor’s prices', async () => {
    const answer = await shop.app.inject({
      method: 'GET',
      url: `/api/v1/products/${encodeURIComponent(product.art)}`,
      headers: { authorization: 'Bearer not-a-token' },
    });
    expect(answer.statusCode).toBe(401);
  });

  it('a session ended after its reads were answered is refused at once; the account’s other sessions go on', async () => {
    const signedIn = await logIn(shop.app, large.email, TEST_PASSWORD);
    expect(signedIn.statusCode).toBe(200);
    const session = { ...large, headers: bearer(json<{ access_token: string }>(signedIn).access_token) };
    // Twice: the second is answered from what the first left known (the token, the buyer's prices).
    for (let read = 0; read < 2; read += 1)
      expect((await productAs(product.art, session)).variants[0]!.price).toBe(500);
    const out = await shop.app.inject({
      method: 'POST',
      url: '/api/v1/auth/logout',
      cookies: { refresh_token: setCookie(signedIn, 'refresh_token')!.value },
    });
    expect(out.statusCode).toBe(204);
    expect((await read(`/products/${encodeURIComponent(product.art)}`, session)).statusCode).toBe(401);
    expect((await productAs(product.art, large)).variants[0]!.price).toBe(500);
  });

  it('a company given another type sees it at once', async () => {
    const { companyId } = await memberOf(shop.app, regular.id);
    await admin('PATCH', `/companies/${companyId}`, { price_type_id: largeType.id });
    try {
      expect((await productAs(product.art, regular)).variants[0]!.price).toBe(500);
    } finally {
      await admin('PATCH', `/companies/${companyId}`, { price_type_id: null });
    }
    expect((await productAs(product.art, regular)).variants[0]!.price).toBe(600);
  });
});

describe('the cart and the order', () => {
  afterEach(() => Promise.all([emptyCart(regular), emptyCart(large)]));

  it('a product’s tier counts its colours and sizes together; the cart says what the next tier needs', async () => {
    expect((await add(large, product, first, 8)).statusCode).toBe(201);
    let [line] = (await cartOf(large)).items;
    expect(line).toMatchObject({
      unit_price: 500,
      tier: null,
      next_tier: { from: 12, price: 450, missing: 4 },
      tiers_scope: 'product',
      item_total: 4000,
    });
    expect((await add(large, product, second, 4)).statusCode).toBe(201);
    const cart = await cartOf(large);
    [line] = cart.items;
    expect(line).toMatchObject({ unit_price: 450, tier: { from: 12, price: 450 }, next_tier: null, item_total: 3600 });
    // The second variant has no «Крупный опт» price: it sells at «Опт»'s, which has no tiers.
    expect(cart.items[1]).toMatchObject({ unit_price: 700, tier: null, item_total: 2800 });
    expect(cart.total_price).toBe(6400);
    // The same lines at «Опт»: no tier at all.
    await add(regular, product, first, 8);
    await add(regular, product, second, 4);
    expect((await cartOf(regular)).total_price).toBe(600 * 8 + 700 * 4);
  });

  it('the order keeps the type, the tier and the price applied; later price changes leave it as it was', async () => {
    const placed = await order(large, [
      [product, first, 8],
      [product, second, 4],
    ]);
    expect(placed.statusCode).toBe(201);
    const { id } = json<{ id: number }>(placed);
    const details = async () => json<BuyerOrder>(await read(`/order/${large.id}/${id}`, large));
    const before = await details();
    expect(before.total_price).toBe(6400);
    expect(before.lines.map((line) => [line.price, line.list_price, line.price_type, line.tier_from])).toEqual([
      [450, 500, 'Крупный опт', 12],
      [700, 700, 'Опт', null],
    ]);
    await admin('PUT', `/variants/${first.id}/prices`, [{ price_type_id: largeType.id, price: 480 }]);
    await admin('PUT', `/products/${product.id}/prices`, [{ price_type_id: largeType.id, tiers: [] }]);
    try {
      expect(await details()).toEqual(before);
    } finally {
      await admin('PUT', `/variants/${first.id}/prices`, [{ price_type_id: largeType.id, price: 500 }]);
      await admin('PUT', `/products/${product.id}/prices`, [
        { price_type_id: largeType.id, tiers: [{ from: 12, price: 450 }] },
      ]);
    }
  });

  it('an order below the type’s minimum sum is refused (422) and the cart says how much is missing', async () => {
    await admin('PATCH', `/price-types/${largeType.id}`, { min_order_sum: 15000 });
    try {
      await add(large, product, first, 2);
      const cart = await cartOf(large);
      expect([cart.min_order_sum, cart.missing_sum]).toEqual([15000, 14000]);
      const refused = await order(large, [[product, first, 2]]);
      expect([refused.statusCode, json<{ detail: string }>(refused).detail]).toEqual([
        422,
        'Минимальная сумма заказа — 15\u00a0000,00\u00a0₽: добавьте товаров ещё на 14\u00a0000,00\u00a0₽',
      ]);
      // «Опт» has no minimum.
      expect((await order(regular, [[product, first, 2]])).statusCode).toBe(201);
    } finally {
      await admin('PATCH', `/price-types/${largeType.id}`, { min_order_sum: 0 });
    }
  });
});

describe('packaging', () => {
  let boxed: Product;
  let boxedVariant: Variant;
  let remainder: Variant;

  beforeAll(async () => {
    boxed = catalogue.find((candidate) => candidate !== product && candidate.variants.length >= 2)!;
    [boxedVariant, remainder] = boxed.variants as [Variant, Variant];
    await setVariant(shop.app, boxedVariant.id, { stock: 600 });
    await setVariant(shop.app, remainder.id, { stock: 4 });
    const set = await admin('PATCH', `/products/${boxed.id}`, { multiple: 6, min_quantity: 12 });
    expect(set.statusCode).toBe(200);
  });
  afterEach(() => emptyCart(regular));

  it('the catalogue names the кратность and the minimum', async () => {
    expect(await productAs(boxed.art)).toMatchObject({ multiple: 6, min_quantity: 12 });
  });

  it('cart add, set and bulk refuse a count that is not a multiple or under the minimum, naming the rule', async () => {
    const notMultiple = await add(regular, boxed, boxedVariant, 14);
    expect([notMultiple.statusCode, json<{ detail: string }>(notMultiple).detail]).toEqual([
      422,
      `«${boxed.name}»: товар продаётся упаковками по 6 шт.: количество должно быть кратно 6`,
    ]);
    const underMinimum = await add(regular, boxed, boxedVariant, 6);
    expect(json<{ detail: string }>(underMinimum).detail).toBe(
      `«${boxed.name}»: минимальный заказ этого товара — 12 шт. в строке`,
    );
    expect((await add(regular, boxed, boxedVariant, 12)).statusCode).toBe(201);
    // A second «В корзину» of one carton: 18 together.
    expect((await add(regular, boxed, boxedVariant, 6)).statusCode).toBe(201);
    const [line] = (await cartOf(regular)).items;
    expect(line).toMatchObject({ count: 18, packaging_problem: null, fit_count: null });

    const setCount = (count: number) =>
      shop.app.inject({
        method: 'PUT',
        url: '/api/v1/cart/count',
        query: { item_id: String(line!.id), count: String(count) },
        headers: regular.headers,
      });
    expect((await setCount(20)).statusCode).toBe(422);
    expect((await setCount(24)).statusCode).toBe(200);

    const bulk = await shop.app.inject({
      method: 'POST',
      url: '/api/v1/cart/bulk',
      headers: regular.headers,
      payload: {
        user_id: regular.id,
        items: [
          { product_id: product.id, variant_id: second.id, count: 1 },
          { product_id: boxed.id, variant_id: boxedVariant.id, count: 7 },
        ],
      },
    });
    expect([bulk.statusCode, json<{ detail: string }>(bulk).detail]).toEqual([
      422,
      `Строка 2: «${boxed.name}»: товар продаётся упаковками по 6 шт.: количество должно быть кратно 6`,
    ]);
    expect((await cartOf(regular)).items.map((item) => item.count)).toEqual([24]);
  });

  it('the whole remainder of stock below the кратность may be bought', async () => {
    expect((await add(regular, boxed, remainder, 4)).statusCode).toBe(201);
  });

  it('the quick order’s check names the rule on its line', async () => {
    const response = await shop.app.inject({
      method: 'POST',
      url: '/api/v1/cart/import',
      query: { dry_run: 'true' },
      headers: { ...regular.headers, 'content-type': 'text/plain; charset=utf-8' },
      payload: `${boxed.art} ${boxedVariant.color} ${boxedVariant.size} 10\n${boxed.art} ${boxedVariant.color} ${boxedVariant.size} 12`,
    });
    expect(response.statusCode).toBe(200);
    const { lines } = json<CartImportResult>(response);
    expect(lines.map((line) => [line.multiple, line.error])).toEqual([
      [6, 'Товар продаётся упаковками по 6 шт.: количество должно быть кратно 6'],
      [6, 'Этот вариант уже есть в строке 1'],
    ]);
  });

  it('a line a new кратность makes invalid is flagged with the count to round to, and the order refuses it', async () => {
    expect((await add(regular, boxed, boxedVariant, 18)).statusCode).toBe(201);
    await admin('PATCH', `/products/${boxed.id}`, { multiple: 10, min_quantity: 10 });
    try {
      const [line] = (await cartOf(regular)).items;
      expect(line).toMatchObject({
        count: 18,
        packaging_problem: 'Товар продаётся упаковками по 10 шт.: количество должно быть кратно 10',
        fit_count: 20,
      });
      const refused = await order(regular, [[boxed, boxedVariant, 18]]);
      expect(refused.statusCode).toBe(422);
      expect((await order(regular, [[boxed, boxedVariant, 20]])).statusCode).toBe(201);
    } finally {
      await admin('PATCH', `/products/${boxed.id}`, { multiple: 6, min_quantity: 12 });
    }
  });
});
