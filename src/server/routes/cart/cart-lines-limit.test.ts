/**
 * A cart holds at most MAX_CART_LINES lines (different variants), however they come: «В корзину»,
 * a bulk addition, a quick order. Here the cap is 4, so that it is reached in a few lines.
 */
import type { Product } from '../../../shared/api';
import { CART_IMPORT_MAX_LINES } from '../../../shared/cart-import';
import { loadConfig } from '../../config';
import {
  createTestApp,
  quickShoppers,
  STARTUP_TIMEOUT,
  type Shopper,
  type TestApp,
} from '../../../../test/server/helpers/test-app';
import { cartOf, cartProducts, inStock } from '../../../../test/server/helpers/cart';

const MAX_LINES = 4;

let shop: TestApp;
let catalogue: Awaited<ReturnType<typeof cartProducts>>;

beforeAll(async () => {
  shop = await createTestApp({ buyerLimits: { ...loadConfig({}).buyerLimits, maxCartLines: MAX_LINES } });
  catalogue = await cartProducts(shop.app);
}, STARTUP_TIMEOUT);
afterAll(() => shop.close());

it('by default a cart holds as many lines as one quick order may bring (5 000)', () => {
  expect(loadConfig({}).buyerLimits.maxCartLines).toBe(CART_IMPORT_MAX_LINES);
  expect(CART_IMPORT_MAX_LINES).toBe(5000);
});

/** Two lines of a product that no other test touches. */
function twoLines(count = 1) {
  const product: Product = catalogue.takeProduct();
  return inStock(product)
    .slice(0, 2)
    .map((variant) => ({ product_id: product.id, variant_id: variant.id, count, product, variant }));
}
type Line = ReturnType<typeof twoLines>[number];
const payload = ({ product_id, variant_id, count }: Line) => ({ product_id, variant_id, count });

const addOne = (shopper: Shopper, line: Line) =>
  shop.app.inject({
    method: 'POST',
    url: '/api/v1/cart/add',
    headers: shopper.headers,
    payload: { user_id: shopper.id, ...payload(line) },
  });
const bulk = (shopper: Shopper, lines: Line[]) =>
  shop.app.inject({
    method: 'POST',
    url: '/api/v1/cart/bulk',
    headers: shopper.headers,
    payload: { user_id: shopper.id, items: lines.map(payload) },
  });
const quickOrder = (shopper: Shopper, lines: Line[]) =>
  shop.app.inject({
    method: 'POST',
    url: '/api/v1/cart/import',
    query: { dry_run: 'false' },
    headers: { ...shopper.headers, 'content-type': 'text/plain; charset=utf-8' },
    payload: lines
      .map((line) => [line.product.art, line.variant.color, line.variant.size, line.count].join(' '))
      .join('\n'),
  });

const detail = (response: { json(): unknown }) => (response.json() as { detail: string }).detail;
const WHAT_TO_DO = 'Оформите заказ или удалите ненужные строки, чтобы добавить новые';

async function fullCart(): Promise<{ shopper: Shopper; held: Line[] }> {
  const [shopper] = (await quickShoppers(shop.app, 1)) as [Shopper];
  const held = [...twoLines(), ...twoLines()];
  expect((await bulk(shopper, held)).statusCode).toBe(200);
  return { shopper, held };
}

it('«В корзину» of a new variant into a full cart → 409 saying what to do; more of a variant in it still goes in', async () => {
  const { shopper, held } = await fullCart();
  const refused = await addOne(shopper, twoLines()[0]!);
  expect(refused.statusCode).toBe(409);
  expect(detail(refused)).toBe(`В корзине может быть не больше 4 строк, а в ней уже 4 строки. ${WHAT_TO_DO}`);

  expect((await addOne(shopper, held[0]!)).statusCode).toBe(201);
  const cart = await cartOf(shop.app, shopper);
  expect(cart.items.map((item) => [item.variant_id, item.count])).toEqual(
    held.map((line, index) => [line.variant_id, index === 0 ? 2 : 1]),
  );
});

it('a bulk addition with more new lines than there is room for → 409, nothing added; one that fits goes in', async () => {
  const [shopper] = (await quickShoppers(shop.app, 1)) as [Shopper];
  const [first, second] = twoLines();
  expect((await addOne(shopper, first!)).statusCode).toBe(201);
  // One line already in the cart (first) is not a new one: 1 + 2 new = 3 fits, 1 + 4 new does not.
  const refused = await bulk(shopper, [...twoLines(), ...twoLines()]);
  expect(refused.statusCode).toBe(409);
  expect(detail(refused)).toBe(
    `В корзине может быть не больше 4 строк, а в ней уже 1 строка и добавляются ещё 4 новых. ${WHAT_TO_DO}`,
  );
  expect((await cartOf(shop.app, shopper)).items).toHaveLength(1);

  expect((await bulk(shopper, [first!, second!, ...twoLines()])).statusCode).toBe(200);
  expect((await cartOf(shop.app, shopper)).items).toHaveLength(4);
});

it('a quick order that would overfill the cart → 409, nothing added', async () => {
  const { shopper, held } = await fullCart();
  const refused = await quickOrder(shopper, [held[0]!, twoLines()[0]!]);
  expect(refused.statusCode).toBe(409);
  expect(detail(refused)).toMatch(/^В корзине может быть не больше 4 строк, а в ней уже 4 строки\./);
  expect((await cartOf(shop.app, shopper)).items.map((item) => item.count)).toEqual([1, 1, 1, 1]);
});

it('additions sent at once cannot pass the cap together: of 8 new variants exactly 4 go in', async () => {
  const [shopper] = (await quickShoppers(shop.app, 1)) as [Shopper];
  const lines = [...twoLines(), ...twoLines(), ...twoLines(), ...twoLines()];
  const answers = await Promise.all(lines.map((line) => addOne(shopper, line)));
  expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 201, 201, 201, 409, 409, 409, 409]);
  expect((await cartOf(shop.app, shopper)).items).toHaveLength(MAX_LINES);
});
