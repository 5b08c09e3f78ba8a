/**
 * The second security review's smaller holes (issue 35, items 7 to 12): each found hole is tried
 * here against the running app, the way a buyer, a manager or an operator would meet it.
 */
import type { AdminBanner, AdminCategory, AdminProduct, AdminProductList } from '../../../src/shared/api';
import { NEW_PRODUCT_IMAGE } from '../../../src/server/services/catalogue-images';
import { openBackOffice } from '../helpers/back-office';
import { STARTUP_TIMEOUT, json, type Shopper, type TestApp } from '../helpers/test-app';

let shop: TestApp;
let manager: Shopper;

beforeAll(async () => {
  ({ shop, manager } = await openBackOffice());
}, STARTUP_TIMEOUT);
afterAll(() => shop.close());

const admin = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
  shop.app.inject({ method, url: `/api/v1/admin${url}`, payload, headers: manager.headers });

describe('item 9: a change naming no field the route knows', () => {
  it('is refused with 422 and a Russian detail on products, variants, categories and banners', async () => {
    const [product] = json<AdminProductList>(await admin('GET', '/products?limit=1')).items as [AdminProduct];
    const [category] = json<AdminCategory[]>(await admin('GET', '/categories')) as [AdminCategory];
    const [banner] = json<AdminBanner[]>(await admin('GET', '/banners')) as [AdminBanner];
    for (const url of [
      `/products/${product.id}`,
      `/variants/${product.variants[0]!.id}`,
      `/categories/${category.id}`,
      `/banners/${banner.id}`,
    ]) {
      const response = await admin('PATCH', url, { colour: 'red', unknown: 1 });
      expect([url, response.statusCode]).toEqual([url, 422]);
      expect(response.json()).toEqual({
        detail: 'Некорректные данные: не передано ни одного известного поля для изменения',
      });
    }
    // A known field next to unknown ones is still a change.
    const renamed = await admin('PATCH', `/categories/${category.id}`, { name: category.name, colour: 'red' });
    expect(renamed.statusCode).toBe(200);
  });
});

describe('item 11: a product created without a picture', () => {
  it('gets the placeholder the price list gives a new product', async () => {
    const [category] = json<AdminCategory[]>(await admin('GET', '/categories')) as [AdminCategory];
    const response = await admin('POST', '/products', {
      art: 'REVIEW-2-NO-PHOTO',
      name: 'Зайка без фото',
      description: 'Мягкий',
      category: category.name,
      variants: [{ color: 'Белый', size: 25, price: 350, stock: 4 }],
    });
    expect(response.statusCode).toBe(201);
    expect(json<AdminProduct>(response).image).toBe(NEW_PRODUCT_IMAGE);
    const picture = await shop.app.inject({ method: 'GET', url: `/api/v1/image/${NEW_PRODUCT_IMAGE}` });
    expect(picture.statusCode).toBe(200);
  });
});
