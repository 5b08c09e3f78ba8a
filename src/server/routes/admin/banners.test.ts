import type { AdminBanner, Banner } from '../../../shared/api';
import { json, STARTUP_TIMEOUT, type Shopper, type TestApp } from '../../../../test/server/helpers/test-app';
import { expectManagersOnly, latestAudit, openBackOffice } from '../../../../test/server/helpers/back-office';

let shop: TestApp;
let buyer: Shopper;
let manager: Shopper;

beforeAll(async () => {
  ({ shop, buyer, manager } = await openBackOffice());
}, STARTUP_TIMEOUT);
afterAll(() => shop.close());

const admin = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
  shop.app.inject({ method, url: `/api/v1/admin${url}`, payload, headers: manager.headers });
const homePage = async () => (await shop.app.inject({ method: 'GET', url: '/api/v1/banners/all' })).json() as Banner[];

async function createBanner(body: Record<string, unknown>): Promise<AdminBanner> {
  const response = await admin('POST', '/banners', body);
  expect(response.statusCode).toBe(201);
  return json<AdminBanner>(response);
}

it('every banners route: 401 without a token, 403 for a buyer', async () => {
  await expectManagersOnly(shop.app, buyer, [
    ['GET', '/api/v1/admin/banners'],
    ['POST', '/api/v1/admin/banners', { image: 'banner-1.svg' }],
    ['PATCH', '/api/v1/admin/banners/1', { active: false }],
    ['DELETE', '/api/v1/admin/banners/1'],
  ]);
});

it('POST adds an active banner at the end (201), on the home page, audited; GET lists inactive ones too', async () => {
  const created = await createBanner({ image: 'banner-2.svg', url: ' https://example.com/sale?x=1 ' });
  expect(created).toEqual({
    id: expect.any(Number),
    image: 'banner-2.svg',
    url: 'https://example.com/sale?x=1',
    position: expect.any(Number),
    active: true,
  });
  const all = json<AdminBanner[]>(await admin('GET', '/banners'));
  expect(all.at(-1)).toEqual(created);
  expect((await homePage()).at(-1)).toEqual({ id: created.id, image: created.image, url: created.url });
  expect((await latestAudit(shop.app, manager))[0]).toMatchObject({
    action: 'banner.create',
    entity: 'banner',
    entity_id: String(created.id),
    after: created,
  });

  const hidden = await createBanner({ image: 'banner-3.svg', url: '', position: 0, active: false });
  expect(hidden).toMatchObject({ url: null, position: 0, active: false });
  expect(json<AdminBanner[]>(await admin('GET', '/banners')).map((banner) => banner.id)).toContain(hidden.id);
  expect((await homePage()).map((banner) => banner.id)).not.toContain(hidden.id);
});

it.each([
  ['javascript:alert(1)'],
  [' JavaScript:alert(1)'],
  ['data:text/html,<script>alert(1)</script>'],
  ['//evil.example/phish'],
  ['/\\evil.example'],
  ['ftp://example.com/file'],
  ['catalog'],
  ['https://'],
  ['/catalog\n<script>'],
])('a link %j → 422 {detail}, nothing saved', async (url) => {
  const before = json<AdminBanner[]>(await admin('GET', '/banners')).length;
  const response = await admin('POST', '/banners', { image: 'banner-1.svg', url });
  expect(response.statusCode).toBe(422);
  expect(response.json()).toEqual({ detail: expect.stringMatching(/^Ссылка баннера/) });
  expect(json<AdminBanner[]>(await admin('GET', '/banners'))).toHaveLength(before);
});

it('a site path and http(s) addresses are links', async () => {
  for (const url of ['/catalog', '/product/MO-1001?x=1#top', 'http://example.com', 'https://пример.рф/акция']) {
    expect((await createBanner({ image: 'banner-1.svg', url })).url).toBe(url);
  }
});

it('a picture that does not exist → 422', async () => {
  const response = await admin('POST', '/banners', { image: 'missing.png', url: '/catalog' });
  expect(response.statusCode).toBe(422);
  expect(response.json()).toEqual({ detail: 'Картинки «missing.png» нет: сначала загрузите её' });
});

it('PATCH switches it off (gone from the home page at once), changes the link, audits; bad link → 422; unknown → 404', async () => {
  const banner = await createBanner({ image: 'banner-4.svg', url: '/catalog' });
  const response = await admin('PATCH', `/banners/${banner.id}`, { active: false, url: '/product/MO-2001' });
  expect(response.statusCode).toBe(200);
  expect(json<AdminBanner>(response)).toEqual({ ...banner, active: false, url: '/product/MO-2001' });
  expect((await homePage()).map((item) => item.id)).not.toContain(banner.id);
  expect((await latestAudit(shop.app, manager))[0]).toMatchObject({
    action: 'banner.update',
    before: banner,
    after: { active: false, url: '/product/MO-2001' },
  });
  const bad = await admin('PATCH', `/banners/${banner.id}`, { url: 'javascript:void(0)' });
  expect(bad.statusCode).toBe(422);
  expect((await admin('PATCH', `/banners/${banner.id}`, { image: 'missing.svg' })).statusCode).toBe(422);
  expect((await admin('PATCH', `/banners/${banner.id}`, {})).statusCode).toBe(422);
  expect(json<AdminBanner[]>(await admin('GET', '/banners')).find((item) => item.id === banner.id)).toEqual({
    ...banner,
    active: false,
    url: '/product/MO-2001',
  });
  expect((await admin('PATCH', '/banners/2147483647', { active: true })).statusCode).toBe(404);
});

it('DELETE removes it (204), audited; again → 404', async () => {
  const banner = await createBanner({ image: 'banner-1.svg', url: null });
  expect((await admin('DELETE', `/banners/${banner.id}`)).statusCode).toBe(204);
  expect((await homePage()).map((item) => item.id)).not.toContain(banner.id);
  expect((await latestAudit(shop.app, manager))[0]).toMatchObject({
    action: 'banner.delete',
    entity_id: String(banner.id),
    before: banner,
    after: null,
  });
  const again = await admin('DELETE', `/banners/${banner.id}`);
  expect(again.statusCode).toBe(404);
  expect(again.json()).toEqual({ detail: 'Баннер не найден' });
});
