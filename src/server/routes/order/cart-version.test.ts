/**
 * An order made from the server cart carries the cart's version, and a cart
 * changed meanwhile (another tab, another device) refuses it with 409 instead of placing another
 * order; a whole cart of 5 000 lines is one order.
 */
import { sql } from 'drizzle-orm';
import type { Cart, Product } from '../../../shared/api';
import { ORDER_MAX_LINES } from '../../../shared/limits';
import { categories } from '../../db/schema';
import { cartOf, cartProducts, inStock } from '../../../../test/server/helpers/cart';
import {
  createTestApp,
  quickShoppers,
  STARTUP_TIMEOUT,
  stockOf,
  type Shopper,
  type TestApp,
} from '../../../../test/server/helpers/test-app';

const CART_CHANGED =
  'Корзина изменилась в другой вкладке или на другом устройстве. Проверьте заказ и оформите его ещё раз.';

let shop: TestApp;
let catalogue: Awaited<ReturnType<typeof cartProducts>>;

beforeAll(async () => {
  shop = await createTestApp();
  catalogue = await cartProducts(shop.app);
}, STARTUP_TIMEOUT);
afterAll(() => shop.close());

const orderLines = (cart: Cart) =>
  cart.items.map((item) => ({ product_id: item.product.id, variant_id: item.variant_id, quantity: item.count }));

function placeFromCart(shopper: Shopper, cart: Cart, key: string, version = cart.version) {
  return shop.app.inject({
    method: 'POST',
    url: '/api/v1/order/',
    headers: { ...shopper.headers, 'idempotency-key': key },
    payload: { user_id: shopper.id, address: 'Москва, Складская 1', items: orderLines(cart), cart_version: version },
  });
}

const add = (shopper: Shopper, product: Product, variantIndex = 0, count = 1) =>
  shop.app.inject({
    method: 'POST',
    url: '/api/v1/cart/add',
    headers: shopper.headers,
    payload: { user_id: shopper.id, product_id: product.id, variant_id: inStock(product)[variantIndex]!.id, count },
  });

describe('the cart version', () => {
  it('is 0 for a cart never written, and grows with every write of the cart, whichever route makes it', async () => {
    const [buyer] = await quickShoppers(shop.app, 1);
    const product = catalogue.takeProduct();
    expect((await cartOf(shop.app, buyer!)).version).toBe(0);
    expect((await add(buyer!, product)).statusCode).toBe(201);
    const added = await cartOf(shop.app, buyer!);
    expect(added.version).toBeGreaterThan(0);
    const itemId = added.items[0]!.id;
    const count = (value: number, expected?: number) =>
      shop.app.inject({
        method: 'PUT',
        url: '/api/v1/cart/count',
        headers: buyer!.headers,
        query: { item_id: String(itemId), count: String(value), ...(expected ? { expected: String(expected) } : {}) },
      });
    expect((await count(2)).statusCode).toBe(200);
    const counted = await cartOf(shop.app, buyer!);
    expect(counted.version).toBeGreaterThan(added.version);
    // A conditional change refused (the line holds another count) writes nothing and keeps the version.
    expect((await count(3, 7)).statusCode).toBe(409);
    expect((await cartOf(shop.app, buyer!)).version).toBe(counted.version);
    const removed = await shop.app.inject({ method: 'DELETE', url: `/api/v1/cart/${itemId}`, headers: buyer!.headers });
    expect(removed.statusCode).toBe(200);
    expect((await cartOf(shop.app, buyer!)).version).toBeGreaterThan(counted.version);
  });
});

describe('POST /api/v1/order/ with cart_version', () => {
  it('from the cart as it is: placed, and its lines leave the cart', async () => {
    const [buyer] = await quickShoppers(shop.app, 1);
    const product = catalogue.takeProduct();
    await add(buyer!, product, 0, 1);
    await add(buyer!, product, 1, 1);
    const cart = await cartOf(shop.app, buyer!);
    const placed = await placeFromCart(buyer!, cart, 'cart-as-it-is');
    expect(placed.statusCode).toBe(201);
    expect((await cartOf(shop.app, buyer!)).items).toEqual([]);
    // Its retry (the answer lost) is the same order, though taking the lines changed the cart's version.
    const retried = await placeFromCart(buyer!, cart, 'cart-as-it-is');
    expect(retried.statusCode).toBe(201);
    expect(retried.headers['idempotent-replayed']).toBe('true');
    expect(retried.json()).toEqual(placed.json());
  });

  it('after the cart changed elsewhere: 409 «Корзина изменилась», no order, the stock and the cart untouched', async () => {
    const [buyer] = await quickShoppers(shop.app, 1);
    const product = catalogue.takeProduct();
    await add(buyer!, product, 0, 1);
    const seen = await cartOf(shop.app, buyer!);
    // Another tab adds a line after the checkout read the cart.
    await add(buyer!, product, 1, 1);
    const variant = inStock(product)[0]!;
    const stockBefore = await stockOf(shop.app, product.art, variant.id);
    const refused = await placeFromCart(buyer!, seen, 'cart-changed');
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ detail: CART_CHANGED });
    expect(await stockOf(shop.app, product.art, variant.id)).toBe(stockBefore);
    const orders = await shop.app.inject({ method: 'GET', url: `/api/v1/order/${buyer!.id}`, headers: buyer!.headers });
    expect(orders.json()).toEqual([]);
    const now = await cartOf(shop.app, buyer!);
    expect(now.items).toHaveLength(2);
    // The checkout shows the cart again and sends its new version: placed.
    expect((await placeFromCart(buyer!, now, 'cart-changed-2')).statusCode).toBe(201);
  });

  it(
    'a cart of 5 000 lines is one order, in one request',
    async () => {
      const { db } = shop.app.database;
      const [category] = await db.select({ id: categories.id }).from(categories).limit(1);
      await db.execute(sql`
        insert into products (art, name, image, category_id, curated_rank)
        values ('BIG-CART', 'Игрушка для большой корзины', 'bear-1.svg', ${category!.id}, 900000)`);
      await db.execute(sql`
        insert into variants (product_id, color, size, price, stock)
        select (select id from products where art = 'BIG-CART'), 'оттенок ' || n, 25, 100, 10
        from generate_series(1, ${ORDER_MAX_LINES}) n`);
      const [buyer] = await quickShoppers(shop.app, 1);
      // The seeded cart: every variant, one piece each.
      await db.execute(sql`
        insert into cart_items (user_id, product_id, variant_id, count, price_when_added)
        select ${buyer!.id}, v.product_id, v.id, 1, v.price
        from variants v join products p on p.id = v.product_id where p.art = 'BIG-CART'`);
      shop.app.catalogueCache.invalidate();
      const cart = await cartOf(shop.app, buyer!);
      expect(cart.items).toHaveLength(5000);
      const placed = await placeFromCart(buyer!, cart, 'big-cart');
      expect(placed.statusCode).toBe(201);
      expect(placed.json()).toMatchObject({ total_price: 500_000, items_count: 5000 });
      expect((await cartOf(shop.app, buyer!)).items).toEqual([]);
      const tooMany = await shop.app.inject({
        method: 'POST',
        url: '/api/v1/order/',
        headers: buyer!.headers,
        payload: {
          user_id: buyer!.id,
          address: 'Москва',
          items: Array.from({ length: ORDER_MAX_LINES + 1 }, (_, index) => ({
            product_id: 1,
            variant_id: index + 1,
            quantity: 1,
          })),
        },
      });
      expect(tooMany.statusCode).toBe(422);
    },
    STARTUP_TIMEOUT,
  );
});
