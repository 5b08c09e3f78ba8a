import type { BuyerOrder, Product } from '../../../shared/api';
import {
  allProducts,
  createTestApp,
  json,
  quickShoppers,
  STARTUP_TIMEOUT,
  type Shopper,
  type TestApp,
} from '../../../../test/server/helpers/test-app';
import { advanceOrder, placeOrderOf } from '../../../../test/server/helpers/order-workflow';

const CYRILLIC = /[а-яё]/i;

let shop: TestApp;
let spare: Product[];
let buyer: Shopper;
let stranger: Shopper;

beforeAll(async () => {
  shop = await createTestApp();
  spare = (await allProducts(shop.app)).filter((product) => product.variants.some((variant) => variant.stock > 0));
  [buyer, stranger] = (await quickShoppers(shop.app, 2)) as [Shopper, Shopper];
}, STARTUP_TIMEOUT);
afterAll(() => shop.close());

const details = (userId: number | string, orderId: number | string, who: Shopper | null = buyer) =>
  shop.app.inject({ method: 'GET', url: `/api/v1/order/${userId}/${orderId}`, headers: who?.headers ?? {} });

const COMPANY = {
  company_name: 'ООО «Ромашка»',
  company_inn: '7736050003',
  company_kpp: '773601001',
  contact_name: 'Анна Смирнова',
  contact_phone: '+7 900 000-00-00',
};

describe('GET /api/v1/order/{user_id}/{id}', () => {
  it('the owner gets the whole order: lines with ids and totals, requisites, history from «Создан»', async () => {
    const product = spare.shift()!;
    const { order, variant } = await placeOrderOf(shop.app, buyer, product, {
      quantity: 3,
      stock: 40,
      price: '1499.90',
      fields: COMPANY,
    });
    const response = await details(buyer.id, order.id);
    expect(response.statusCode).toBe(200);
    const answer = json<BuyerOrder>(response);
    expect(answer).toEqual({
      id: order.id,
      created_at: order.created_at,
      status: 'Создан',
      total_price: 4499.7,
      items_count: 3,
      address: 'г. Тверь, ул. Советская, д. 3',
      ...COMPANY,
      lines: [
        {
          product_id: product.id,
          variant_id: variant.id,
          art: product.art,
          name: product.name,
          color: variant.color,
          size: variant.size,
          price: 1499.9,
          quantity: 3,
          item_total: 4499.7,
        },
      ],
      history: [{ at: order.created_at, status: 'Создан' }],
      invoice: null,
      can_cancel: true,
    });
  });

  it('the history follows every change; a sent order can no longer be cancelled by its buyer', async () => {
    const { order } = await placeOrderOf(shop.app, buyer, spare.shift()!, { quantity: 1, stock: 10 });
    await advanceOrder(shop.app, order.id, 'Отправлен');
    const answer = json<BuyerOrder>(await details(buyer.id, order.id));
    expect(answer.history.map((entry) => entry.status)).toEqual(['Создан', 'Ожидает оплаты', 'Оплачен', 'Отправлен']);
    expect(answer.history.every((entry, index, all) => index === 0 || entry.at >= all[index - 1]!.at)).toBe(true);
    expect(answer.status).toBe('Отправлен');
    expect(answer.can_cancel).toBe(false);
  });

  it("404 {detail} for someone else's order, under someone else's id, and for an unknown one", async () => {
    const { order } = await placeOrderOf(shop.app, buyer, spare.shift()!, { quantity: 1, stock: 10 });
    for (const response of [
      await details(stranger.id, order.id, stranger),
      await details(buyer.id, order.id, stranger),
      await details(stranger.id, order.id, buyer),
      await details(buyer.id, 2_000_000_000),
    ]) {
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ detail: expect.stringMatching(CYRILLIC) });
    }
  });

  it('401 without a token; 422 for ids that are not ids', async () => {
    expect((await details(buyer.id, 1, null)).statusCode).toBe(401);
    for (const [userId, orderId] of [
      ['x', 1],
      [buyer.id, 0],
      [buyer.id, -1],
      [buyer.id, 2_147_483_648],
    ] as const) {
      const response = await details(userId, orderId);
      expect(response.statusCode).toBe(422);
      expect(response.json()).toEqual({ detail: expect.any(String) });
    }
  });
});
