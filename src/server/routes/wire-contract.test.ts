import { AddressBody } from '../../shared/schemas/address';
import { CartAddBody, CartBulkBody, CartSchema } from '../../shared/schemas/cart';
import { OrderCreateBody, OrderSummarySchema } from '../../shared/schemas/order';
import { ProductPageSchema } from '../../shared/schemas/products';
import { createTestApp, STARTUP_TIMEOUT, type TestApp } from '../../../test/server/helpers/test-app';
import * as addressRoutes from './address/schema';
import * as cartRoutes from './cart/schema';
import * as orderRoutes from './order/schema';
import * as productRoutes from './products/schema';

/** A schema as JSON: what the validator compiles and the OpenAPI document shows. */
const asJson = (schema: unknown) => JSON.parse(JSON.stringify(schema)) as Record<string, unknown>;

describe('the wire contract is written once (src/shared/schemas)', () => {
  it('the routes validate and answer with the shared schema objects themselves', () => {
    expect(orderRoutes.placeOrder.body).toBe(OrderCreateBody);
    expect(orderRoutes.placeOrder.response[201]).toBe(OrderSummarySchema);
    expect(cartRoutes.addToCart.body).toBe(CartAddBody);
    expect(cartRoutes.addManyToCart.body).toBe(CartBulkBody);
    expect(cartRoutes.addManyToCart.response[200]).toBe(CartSchema);
    expect(addressRoutes.createAddress.body).toBe(AddressBody);
    expect(productRoutes.productByArt.response[200]).toBe(ProductPageSchema);
  });

  describe('the OpenAPI document the server publishes', () => {
    let shop: TestApp;
    // The OpenAPI document is plain JSON whose depth the assertions walk freely.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
    let document: { paths: Record<string, Record<string, any>> };
    beforeAll(async () => {
      shop = await createTestApp();
      document = (await shop.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    }, STARTUP_TIMEOUT);
    afterAll(() => shop.close());

    it('shows the shared order body as the body POST /order accepts', () => {
      const body = document.paths['/api/v1/order']!.post.requestBody.content['application/json'].schema;
      expect(body.required).toEqual(asJson(OrderCreateBody).required);
      expect(Object.keys(body.properties)).toEqual(Object.keys(OrderCreateBody.properties));
      expect(body.properties.address).toEqual(asJson(OrderCreateBody.properties.address));
      expect(body.properties.items.items.properties.quantity).toEqual(
        asJson(OrderCreateBody.properties.items.items.properties.quantity),
      );
    });

    it('shows the shared product page as the answer of GET /products/{art}', () => {
      const answer = document.paths['/api/v1/products/{art}']!.get.responses['200'].content['application/json'].schema;
      expect(Object.keys(answer.properties)).toEqual(Object.keys(ProductPageSchema.properties));
      expect(answer.properties.variants.items.properties.stock).toEqual(
        asJson(ProductPageSchema.properties.variants.items.properties.stock),
      );
    });
  });
});
