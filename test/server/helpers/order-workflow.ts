import type { FastifyInstance } from 'fastify';
import type { OrderSummary, Product, Variant } from '../../../src/shared/api';
import type { OrderStatus } from '../../../src/shared/order-statuses';
import { json, setVariant, type Shopper } from './test-app';

/** The way an order goes when nothing goes wrong, each step taken as it is in the shop. */
const HAPPY_PATH: readonly OrderStatus[] = ['Создан', 'Ожидает оплаты', 'Оплачен', 'Отправлен', 'Доставлен'];

/**
 * Test set-up: moves a new order along the state machine up to `status` through the orders
 * repository (the invoice step as issuing an invoice takes it), so every step is checked and
 * written to the history like any other.
 */
export async function advanceOrder(
  app: FastifyInstance,
  orderId: number,
  status: OrderStatus,
  byUserId: number | null = null,
): Promise<void> {
  for (const to of HAPPY_PATH.slice(1, HAPPY_PATH.indexOf(status) + 1)) {
    await app.services.orders.changeStatus(orderId, {
      to,
      source: to === 'Ожидает оплаты' ? 'invoice' : 'manager',
      byUserId,
    });
  }
}

/**
 * Test set-up: an order of `quantity` units of the product's first variant in stock, placed through
 * the API as the storefront places one, after that variant's stock (and price) are set to known
 * values. `fields` add to or replace the order's address.
 */
export async function placeOrderOf(
  app: FastifyInstance,
  shopper: Shopper,
  product: Product,
  { quantity, stock, price, fields = {} }: { quantity: number; stock: number; price?: string; fields?: object },
): Promise<{ order: OrderSummary; variant: Product['variants'][number] }> {
  const variant = product.variants.find((candidate) => candidate.stock > 0)!;
  await setVariant(app, variant.id, { stock, price });
  const response = await app.inject({
    method: 'POST',
    url: '/api/v1/order/',
    headers: shopper.headers,
    payload: {
      user_id: shopper.id,
      address: 'г. Тверь, ул. Советская, д. 3',
      items: [{ product_id: product.id, variant_id: variant.id, quantity }],
      ...fields,
    },
  });
  expect(response.statusCode).toBe(201);
  return { order: json<OrderSummary>(response), variant };
}

/** An order line as the storefront sends it. */
export const orderLine = (product: Product, variant: Variant, quantity: number) => ({
  product_id: product.id,
  variant_id: variant.id,
  quantity,
});
export type OrderLine = ReturnType<typeof orderLine>;

/**
 * Orders of many lines placed in a test of the buyers' limits: products taken one at a time from
 * the suite's `spare` ones (each with two variants in stock, both set to the stock asked for), and
 * the order's call as the storefront makes it, to `address`. `suite` is read at each call: the
 * suite's app and products are made in its beforeAll.
 */
export function orderingOf(suite: () => { app: FastifyInstance; spare: Product[] }, address: string) {
  async function takeProduct(stock: number): Promise<{ product: Product; v1: Variant; v2: Variant }> {
    const { app, spare } = suite();
    const product = spare.shift()!;
    const [v1, v2] = product.variants.filter((variant) => variant.stock > 0);
    await setVariant(app, v1!.id, { stock });
    await setVariant(app, v2!.id, { stock });
    return { product, v1: v1!, v2: v2! };
  }
  const place = (shopper: Shopper, items: OrderLine[], headers: Record<string, string> = {}) =>
    suite().app.inject({
      method: 'POST',
      url: '/api/v1/order/',
      headers: { ...shopper.headers, ...headers },
      payload: { user_id: shopper.id, address, items },
    });
  async function placeOk(shopper: Shopper, items: OrderLine[]): Promise<OrderSummary> {
    const response = await place(shopper, items);
    expect([response.statusCode, response.body]).toEqual([201, expect.any(String)]);
    return json<OrderSummary>(response);
  }
  return { takeProduct, place, placeOk };
}
