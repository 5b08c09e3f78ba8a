import { eq } from 'drizzle-orm';
import type { Cart, Product } from '../../../shared/api';
import { CART_BULK_MAX_LINES, LIMITS } from '../../../shared/limits';
import { products, variants } from '../../db/schema';
import {
  createTestApp,
  json,
  quickShoppers,
  setVariant,
  STARTUP_TIMEOUT,
  type Shopper,
  type TestApp,
} from '../../../../test/server/helpers/test-app';
import { cartOf, cartProducts, inStock } from '../../../../test/server/helpers/cart';

interface Line {
  product_id: number;
  variant_id: number;
  count: number;
}

let shop: TestApp;
let catalogue: Awaited<ReturnType<typeof cartProducts>>;

beforeAll(async () => {
  shop = await createTestApp();
  catalogue = await cartProducts(shop.app);
}, STARTUP_TIMEOUT);
afterAll(() => shop.close());

const takeProduct = () => catalogue.takeProduct();

/** The first `count` variants in stock of a product that no other test touches, as lines of `count` pieces each. */
function linesOf(product: Product, pieces = 1, variantCount = 2): Line[] {
  return inStock(product)
    .slice(0, variantCount)
    .map((variant) => ({ product_id: product.id, variant_id: variant.id, count: pieces }));
}

async function newShopper(): Promise<Shopper> {
  return (await quickShoppers(shop.app, 1))[0]!;
}

const bulk = (shopper: Shopper, items: unknown, userId: number = shopper.id) =>
  shop.app.inject({
    method: 'POST',
    url: '/api/v1/cart/bulk',
    headers: shopper.headers,
    payload: { user_id: userId, items },
  });

const addOne = (shopper: Shopper, line: Line) =>
  shop.app.inject({
    method: 'POST',
    url: '/api/v1/cart/add',
    headers: shopper.headers,
    payload: { user_id: shopper.id, ...line },
  });

/** A shopper whose cart already holds one line, so that "unchanged" has something to keep. */
async function shopperWithALine(): Promise<{ shopper: Shopper; before: Cart }> {
  const shopper = await newShopper();
  const [line] = linesOf(takeProduct(), 2, 1);
  expect((await addOne(shopper, line!)).statusCode).toBe(201);
  return { shopper, before: await cartOf(shop.app, shopper) };
}

describe('POST /api/v1/cart/bulk', () => {
  it('adds every line in one call and answers with the cart, lines in the order sent', async () => {
    const shopper = await newShopper();
    const first = takeProduct();
    const second = takeProduct();
    const lines = [...linesOf(second, 3), ...linesOf(first, 1)];
    lines[1]!.count = 7;

    const response = await bulk(shopper, lines);
    expect(response.statusCode).toBe(200);
    const answered = json<Cart>(response);
    expect(answered).toEqual(await cartOf(shop.app, shopper));
    expect(answered.items.map((item) => [item.product.id, item.variant_id, item.count])).toEqual(
      lines.map((line) => [line.product_id, line.variant_id, line.count]),
    );
    const prices = new Map([...first.variants, ...second.variants].map((variant) => [variant.id, variant.price]));
    for (const item of answered.items) {
      expect(item.price_when_added).toBe(prices.get(item.variant_id));
      expect(item.variant.price).toBe(prices.get(item.variant_id));
    }
    const totalKopecks = lines.reduce(
      (sum, line) => sum + Math.round(prices.get(line.variant_id)! * 100) * line.count,
      0,
    );
    expect(answered.total_price).toBe(totalKopecks / 100);
  });

  it('adds to a variant already in the cart, with the price of now as the price when added', async () => {
    const shopper = await newShopper();
    const product = takeProduct();
    const [held, fresh] = linesOf(product, 2);
    await setVariant(shop.app, held!.variant_id, { price: '100.00' });
    expect((await addOne(shopper, held!)).statusCode).toBe(201);
    const [heldItem] = (await cartOf(shop.app, shopper)).items;
    await setVariant(shop.app, held!.variant_id, { price: '120.50' });

    const response = await bulk(shopper, [{ ...held!, count: 3 }, fresh]);
    expect(response.statusCode).toBe(200);
    const cart = json<Cart>(response);
    expect(cart.items).toHaveLength(2);
    expect(cart.items[0]).toMatchObject({
      id: heldItem!.id,
      variant_id: held!.variant_id,
      count: 5,
      price_when_added: 120.5,
      variant: { price: 120.5 },
    });
    expect(cart.items[1]).toMatchObject({ variant_id: fresh!.variant_id, count: 2 });
  });

  describe('all or nothing: a bad line is named and the cart is unchanged', () => {
    it.each<[string, (lines: Line[]) => unknown[], number, RegExp]>([
      [
        'an unknown variant',
        (lines) => [lines[0], { ...lines[1], variant_id: 2_000_000_000 }],
        422,
        /^Строка 2: не удалось найти вариант с id=2000000000 для продукта \d+$/,
      ],
      [
        'a variant of a product that does not exist',
        (lines) => [lines[0], { ...lines[1], product_id: 2_000_000_000 }],
        422,
        /^Строка 2: не удалось найти вариант с id=\d+ для продукта 2000000000$/,
      ],
      [
        "another product's variant",
        (lines) => [lines[0], lines[1], { ...lines[2], product_id: lines[0]!.product_id }],
        422,
        /^Строка 3: не удалось найти вариант с id=\d+ для продукта \d+$/,
      ],
      [
        'a count of 0',
        (lines) => [lines[0], lines[1], { ...lines[2], count: 0 }],
        422,
        /^Строка 3: поле «Количество» /,
      ],
      ['a count of -1', (lines) => [{ ...lines[0], count: -1 }, lines[1]], 422, /^Строка 1: поле «Количество» /],
      ['a count of 1.5', (lines) => [lines[0], { ...lines[1], count: 1.5 }], 422, /^Строка 2: поле «Количество» /],
      [
        'a count over the limit of a line',
        (lines) => [lines[0], { ...lines[1], count: LIMITS.maxCartCount + 1 }],
        422,
        /^Строка 2: поле «Количество» /,
      ],
      ['a count as text', (lines) => [lines[0], { ...lines[1], count: '5' }], 422, /^Строка 2: поле «Количество» /],
      [
        'no count',
        (lines) => [lines[0], { product_id: lines[1]!.product_id, variant_id: lines[1]!.variant_id }],
        422,
        /^Строка 2: не заполнено поле «Количество»$/,
      ],
      [
        'no product_id',
        (lines) => [lines[0], { variant_id: lines[1]!.variant_id, count: 1 }],
        422,
        /^Строка 2: не заполнено поле «product_id»$/,
      ],
      [
        'no variant_id',
        (lines) => [lines[0], lines[1], { product_id: lines[2]!.product_id, count: 1 }],
        422,
        /^Строка 3: не заполнено поле «variant_id»$/,
      ],
      [
        'a variant listed twice',
        (lines) => [lines[0], lines[1], { ...lines[0], count: 4 }],
        422,
        /^Строка 3: вариант с id=\d+ уже указан в строке 1$/,
      ],
      [
        'a variant out of stock',
        (lines) => [
          lines[0],
          { product_id: catalogue.soldOut.product.id, variant_id: catalogue.soldOut.variant.id, count: 1 },
        ],
        409,
        /^Строка 2: товара «.+» нет в наличии$/,
      ],
    ])('%s', async (_name, breakLines, status, detail) => {
      const { shopper, before } = await shopperWithALine();
      // Valid lines around the bad one: one that adds to the line held, and new ones.
      const held = before.items[0]!;
      const lines = [
        { product_id: held.product.id, variant_id: held.variant_id, count: 1 },
        ...linesOf(takeProduct(), 1),
      ];
      const response = await bulk(shopper, breakLines(lines));
      expect(response.statusCode).toBe(status);
      expect(json<{ detail: string }>(response).detail).toMatch(detail);
      expect(await cartOf(shop.app, shopper)).toEqual(before);
    });

    it('a line that would take its cart line over the limit → 422 naming it; the line keeps its count', async () => {
      const { shopper, before } = await shopperWithALine();
      const held = before.items[0]!;
      expect(
        (await bulk(shopper, [{ product_id: held.product.id, variant_id: held.variant_id, count: 5000 }])).statusCode,
      ).toBe(200);
      const filled = await cartOf(shop.app, shopper);
      const response = await bulk(shopper, [
        ...linesOf(takeProduct(), 1),
        { product_id: held.product.id, variant_id: held.variant_id, count: LIMITS.maxCartCount - 5000 },
      ]);
      expect(response.statusCode).toBe(422);
      expect(json<{ detail: string }>(response).detail).toBe(
        `Строка 3: в корзине может быть не больше ${LIMITS.maxCartCount} шт. одного варианта`,
      );
      expect(await cartOf(shop.app, shopper)).toEqual(filled);
      // Exactly up to the limit is fine.
      const upToTheLimit = await bulk(shopper, [
        { product_id: held.product.id, variant_id: held.variant_id, count: LIMITS.maxCartCount - 5002 },
      ]);
      expect(upToTheLimit.statusCode).toBe(200);
      expect(json<Cart>(upToTheLimit).items[0]!.count).toBe(LIMITS.maxCartCount);
    });

    it('a product taken off sale → 422 naming the line, as an unknown variant, without its name', async () => {
      const { shopper, before } = await shopperWithALine();
      const hidden = takeProduct();
      await shop.app.database.db.update(products).set({ hiddenAt: new Date() }).where(eq(products.id, hidden.id));
      const response = await bulk(shopper, [...linesOf(takeProduct(), 1), ...linesOf(hidden, 1, 1)]);
      expect(response.statusCode).toBe(422);
      const variantId = inStock(hidden)[0]!.id;
      expect(response.json()).toEqual({
        detail: `Строка 3: не удалось найти вариант с id=${variantId} для продукта ${hidden.id}`,
      });
      expect(await cartOf(shop.app, shopper)).toEqual(before);
    });

    it("another user's id → 403, and neither cart changes", async () => {
      const { shopper: victim, before } = await shopperWithALine();
      const intruder = await newShopper();
      const response = await bulk(intruder, linesOf(takeProduct(), 1), victim.id);
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ detail: expect.stringMatching(/[а-яё]/i) });
      expect(await cartOf(shop.app, victim)).toEqual(before);
      expect((await cartOf(shop.app, intruder)).items).toEqual([]);
    });

    it('no token → 401', async () => {
      const response = await shop.app.inject({
        method: 'POST',
        url: '/api/v1/cart/bulk',
        payload: { user_id: 1, items: [{ product_id: 1, variant_id: 1, count: 1 }] },
      });
      expect(response.statusCode).toBe(401);
    });

    it('no user_id → 422, and the cart is unchanged', async () => {
      const { shopper, before } = await shopperWithALine();
      const response = await shop.app.inject({
        method: 'POST',
        url: '/api/v1/cart/bulk',
        headers: shopper.headers,
        payload: { items: linesOf(takeProduct(), 1) },
      });
      expect(response.statusCode).toBe(422);
      expect(response.json()).toEqual({ detail: 'Некорректные данные: не заполнено поле «user_id»' });
      expect(await cartOf(shop.app, shopper)).toEqual(before);
    });

    it.each([
      ['no lines', [], /^Некорректные данные: поле «items» /],
      ['items not a list', { product_id: 1, variant_id: 1, count: 1 }, /^Некорректные данные: поле «items» /],
      [
        'a line that is not an object',
        [{ product_id: 1, variant_id: 1, count: 1 }, 5],
        /^Строка 2: некорректные данные$/,
      ],
    ])('%s → 422', async (_name, items, detail) => {
      const { shopper, before } = await shopperWithALine();
      const response = await bulk(shopper, items);
      expect(response.statusCode).toBe(422);
      expect(json<{ detail: string }>(response).detail).toMatch(detail);
      expect(await cartOf(shop.app, shopper)).toEqual(before);
    });
  });

  describe(`up to ${CART_BULK_MAX_LINES} lines`, () => {
    /** A product of the catalogue given `count` more variants in stock, straight in the database. */
    async function manyVariants(count: number): Promise<Line[]> {
      const product = takeProduct();
      const rows = await shop.app.database.db
        .insert(variants)
        .values(
          Array.from({ length: count }, (_unused, index) => ({
            productId: product.id,
            color: `оттенок ${index}`,
            size: 10 + index,
            price: '10.00',
            stock: 100,
          })),
        )
        .returning({ id: variants.id });
      return rows.map((row) => ({ product_id: product.id, variant_id: row.id, count: 2 }));
    }

    it(`${CART_BULK_MAX_LINES} lines → 200 with all of them; ${CART_BULK_MAX_LINES + 1} → 422 and nothing added`, async () => {
      const lines = await manyVariants(CART_BULK_MAX_LINES + 1);
      const shopper = await newShopper();

      const tooMany = await bulk(shopper, lines);
      expect(tooMany.statusCode).toBe(422);
      expect(tooMany.json()).toEqual({ detail: expect.stringContaining(String(CART_BULK_MAX_LINES)) });
      expect((await cartOf(shop.app, shopper)).items).toEqual([]);

      const most = lines.slice(0, CART_BULK_MAX_LINES);
      const response = await bulk(shopper, most);
      expect(response.statusCode).toBe(200);
      const cart = json<Cart>(response);
      expect(cart.items.map((item) => item.variant_id)).toEqual(most.map((line) => line.variant_id));
      expect(cart.total_price).toBe(CART_BULK_MAX_LINES * 2 * 10);
    });

    it('bulk additions of one buyer at once, in opposite orders, all land in full', async () => {
      // Without the repository's lock they deadlock on PostgreSQL, which aborts one (a 500) after a second.
      const lines = await manyVariants(CART_BULK_MAX_LINES);
      const shopper = await newShopper();
      const orders = [lines, [...lines].reverse()];
      const answers = await Promise.all(
        Array.from({ length: 6 }, (_unused, index) => bulk(shopper, orders[index % 2])),
      );
      expect(answers.map((answer) => answer.statusCode)).toEqual(Array(6).fill(200));
      const cart = await cartOf(shop.app, shopper);
      expect(cart.items).toHaveLength(lines.length);
      expect(cart.items.every((item) => item.count === 6 * 2)).toBe(true);
    }, 30_000);
  });
});
