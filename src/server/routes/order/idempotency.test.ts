import type { Product } from '../../../shared/api';
import {
  allProducts,
  createTestApp,
  quickShoppers,
  setVariant,
  STARTUP_TIMEOUT,
  stockOf,
  type Shopper,
  type TestApp,
} from '../../../../test/server/helpers/test-app';

let shop: TestApp;
let buyer: Shopper;
let other: Shopper;
let product: Product;

beforeAll(async () => {
  shop = await createTestApp();
  const shoppers = await quickShoppers(shop.app, 2);
  buyer = shoppers[0]!;
  other = shoppers[1]!;
  product = (await allProducts(shop.app)).find((candidate) => candidate.variants.length > 0)!;
  await setVariant(shop.app, product.variants[0]!.id, { stock: 100 });
}, STARTUP_TIMEOUT);
afterAll(() => shop.close());

function order(shopper: Shopper, key: string | undefined, quantity = 1, address = 'Москва, Складская 1') {
  return shop.app.inject({
    method: 'POST',
    url: '/api/v1/order/',
    headers: { ...shopper.headers, ...(key === undefined ? {} : { 'idempotency-key': key }) },
    payload: {
      user_id: shopper.id,
      address,
      items: [{ product_id: product.id, variant_id: product.variants[0]!.id, quantity }],
      company_name: null,
      company_inn: null,
      company_kpp: null,
    },
  });
}

const stock = () => stockOf(shop.app, product.art, product.variants[0]!.id);

describe('POST /api/v1/order/ with an Idempotency-Key', () => {
  it('sent many times at once, places one order, and every answer names it', async () => {
    const before = await stock();
    const answers = await Promise.all(Array.from({ length: 12 }, () => order(buyer, 'checkout-7f3a', 2)));
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(12).fill(201));
    const ids = new Set(answers.map((answer) => (answer.json() as { id: number }).id));
    expect(ids.size).toBe(1);
    expect(answers.filter((answer) => answer.headers['idempotent-replayed'] === 'true')).toHaveLength(11);
    expect(await stock()).toBe(before - 2);
    const list = await shop.app.inject({ method: 'GET', url: `/api/v1/order/${buyer.id}`, headers: buyer.headers });
    expect((list.json() as { id: number }[]).filter((entry) => ids.has(entry.id))).toHaveLength(1);
  });

  it('with a different body under the same key is refused and changes nothing', async () => {
    expect((await order(buyer, 'checkout-b1')).statusCode).toBe(201);
    const before = await stock();
    const different = await order(buyer, 'checkout-b1', 5);
    expect(different.statusCode).toBe(422);
    expect(different.json()).toEqual({
      detail:
        'Этот заказ уже оформлен: он в разделе «Мои заказы» личного кабинета. Чтобы изменить его, свяжитесь с менеджером.',
    });
    expect(await stock()).toBe(before);
  });

  it('is per buyer: another buyer using the same key places an order of their own', async () => {
    const mine = await order(buyer, 'shared-key');
    const theirs = await order(other, 'shared-key');
    expect([mine.statusCode, theirs.statusCode]).toEqual([201, 201]);
    expect((mine.json() as { id: number }).id).not.toBe((theirs.json() as { id: number }).id);
  });

  it('without a key, two identical requests are two orders', async () => {
    const first = await order(buyer, undefined);
    const second = await order(buyer, undefined);
    expect((first.json() as { id: number }).id).not.toBe((second.json() as { id: number }).id);
  });

  it.each([['has space'], ['x'.repeat(201)], ['ключ']])(
    'a malformed key (%s) → 422 before anything is ordered',
    async (key) => {
      const before = await stock();
      const answer = await order(buyer, key);
      expect(answer.statusCode).toBe(422);
      expect(await stock()).toBe(before);
    },
  );

  it('a failed order (short of stock) keeps the key free for a corrected retry', async () => {
    const short = await order(buyer, 'retry-after-409', 100_000);
    expect(short.statusCode).toBe(409);
    const retried = await order(buyer, 'retry-after-409', 1);
    expect(retried.statusCode).toBe(201);
  });
});
