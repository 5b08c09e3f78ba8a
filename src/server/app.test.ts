import { createTestApp, type TestApp } from './test/test-app';

let shop: TestApp;
beforeAll(async () => {
  shop = await createTestApp();
});
afterAll(() => shop.close());

it('boots and serves the demo catalogue', async () => {
  const response = await shop.app.inject({ method: 'GET', url: '/api/v1/products/categories/all' });
  expect(response.statusCode).toBe(200);
  console.log(response.body);
});
