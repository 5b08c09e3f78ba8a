import type { Banner } from '../../../shared/api';
import { createTestApp, json, STARTUP_TIMEOUT, type TestApp } from '../../../../test/server/helpers/test-app';

let shop: TestApp;
beforeAll(async () => {
  shop = await createTestApp();
}, STARTUP_TIMEOUT);
afterAll(() => shop.close());

describe('GET /api/v1/banners/all', () => {
  let banners: Banner[];
  beforeAll(async () => {
    const response = await shop.app.inject({ method: 'GET', url: '/api/v1/banners/all' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    banners = json<Banner[]>(response);
  });

  it('answers at least 3 banners of exactly id, image, url', () => {
    expect(banners.length).toBeGreaterThanOrEqual(3);
    for (const banner of banners) {
      expect(Object.keys(banner).sort()).toEqual(['id', 'image', 'url']);
      expect(Number.isInteger(banner.id)).toBe(true);
      expect(typeof banner.image).toBe('string');
      expect(banner.image.length).toBeGreaterThan(0);
      expect(banner.url === null || typeof banner.url === 'string').toBe(true);
    }
    expect(new Set(banners.map((banner) => banner.id)).size).toBe(banners.length);
  });

  it('every banner image is served by the image call', async () => {
    for (const banner of banners) {
      const response = await shop.app.inject({
        method: 'GET',
        url: `/api/v1/image/${encodeURIComponent(banner.image)}`,
      });
      expect(response.statusCode).toBe(200);
    }
  });

  it('banner links to a product point at a product that exists', async () => {
    const productLinks = banners.map((banner) => /^\/product\/(.+)$/.exec(banner.url ?? '')?.[1]).filter(Boolean);
    for (const art of productLinks) {
      const response = await shop.app.inject({ method: 'GET', url: `/api/v1/products/${art}` });
      expect(response.statusCode).toBe(200);
    }
  });
});
