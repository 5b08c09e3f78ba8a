import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import type { Product } from '../../../shared/api';
import { imageMasters, images, marketplacePhotos, productPhotos, products } from '../../db/schema';
import { PHOTO_WORK_AT_ONCE, takePhotoWork } from '../../services/photo-work';
import { reencodeUploadedImage, uploadedImageMaster } from '../../services/uploaded-images';
import {
  allProducts,
  createTestApp,
  json,
  STARTUP_TIMEOUT,
  type TestApp,
} from '../../../../test/server/helpers/test-app';

let shop: TestApp;
let image: string;
/** A demo product the marketplace photos' pictures are given to. */
let showing: Product;
beforeAll(async () => {
  shop = await createTestApp();
  const [product] = json<Product[]>(
    await shop.app.inject({ method: 'GET', url: '/api/v1/products/', query: { limit: '1' } }),
  );
  image = product!.image;
  showing = (await allProducts(shop.app)).find((candidate) => candidate.id !== product!.id)!;
}, STARTUP_TIMEOUT);
afterAll(() => shop.close());

const get = (url: string, headers: Record<string, string> = {}) => shop.app.inject({ method: 'GET', url, headers });

describe('GET /api/v1/image/{name}', () => {
  it('serves a product image as SVG with caching headers', async () => {
    const response = await get(`/api/v1/image/${encodeURIComponent(image)}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(response.headers['cache-control']).toMatch(/max-age=\d+/);
    expect(Number(/max-age=(\d+)/.exec(String(response.headers['cache-control']))![1])).toBeGreaterThan(0);
    expect(response.headers.etag).toEqual(expect.any(String));
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    // An SVG opened directly must not be able to run script.
    expect(response.headers['content-security-policy']).toMatch(/sandbox/);
    expect(response.body).toMatch(/<svg[\s>]/);
  });

  it('answers 304 with no body when If-None-Match carries the current ETag', async () => {
    const first = await get(`/api/v1/image/${encodeURIComponent(image)}`);
    const etag = String(first.headers.etag);
    const again = await get(`/api/v1/image/${encodeURIComponent(image)}`, { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    const stale = await get(`/api/v1/image/${encodeURIComponent(image)}`, { 'if-none-match': '"not-the-etag"' });
    expect(stale.statusCode).toBe(200);
  });

  it('an unknown image is 404 {detail}', async () => {
    const response = await get('/api/v1/image/no-such-image.svg');
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.json()).toEqual({ detail: expect.any(String) });
  });

  it.each([
    '..%2F..%2Fetc%2Fpasswd',
    '%2e%2e%2fpackage.json',
    '..%2fpackage.json',
    '%2e%2e%5c%2e%2e%5cpackage.json',
    '..',
    '.env',
    '.%2e',
    'a/b.svg',
    '..%2F..%2F..%2Fsrc%2Fserver%2Fapp.ts',
    'x.exe',
    'x.svg%00.exe',
    'x.svg%2F',
    '%2Fetc%2Fpasswd',
    'MO-1001.svg%2F..%2F..%2Fpackage.json',
  ])('traversal or odd name %j is never served (no 200) and never breaks the server (no 500)', async (name) => {
    const response = await get(`/api/v1/image/${name}`);
    expect(response.statusCode).not.toBe(200);
    expect(response.statusCode).toBeLessThan(500);
    expect([400, 404, 422]).toContain(response.statusCode);
    expect(response.body).not.toMatch(/root:|"dependencies"|buildApp/);
    expect(response.json()).toEqual({ detail: expect.any(String) });
  });

  it('does not list the image folder', async () => {
    for (const url of ['/api/v1/image/', '/api/v1/image']) {
      const response = await get(url);
      expect(response.statusCode).toBe(404);
    }
  });
});

/** Uploads a picture of one colour as the back office does: its display copy and its master. */
async function uploaded(width: number, height: number, colour: string): Promise<string> {
  const upload = await sharp({ create: { width, height, channels: 3, background: colour } })
    .png()
    .toBuffer();
  const picture = await reencodeUploadedImage(upload);
  await shop.app.repositories.images.save(picture, null);
  await shop.app.repositories.images.saveMaster(picture.name, await uploadedImageMaster(upload));
  return picture.name;
}

let photoPosition = 100;
/** Makes the picture one of `showing`'s own photos. */
async function showOnProduct(picture: string): Promise<void> {
  photoPosition += 1;
  await shop.app.database.db
    .insert(productPhotos)
    .values({ productId: showing.id, color: null, position: photoPosition, image: picture });
}

/** A product's uploaded picture with a master, not yet asked for at its marketplace address. */
async function productPicture(width: number, height: number, colour: string): Promise<string> {
  const picture = await uploaded(width, height, colour);
  await showOnProduct(picture);
  return picture;
}

const marketplaceUrl = (picture: string) => `/api/v1/image/marketplace/${picture.replace(/\.webp$/, '.jpg')}`;

const keptPhoto = async (picture: string) =>
  (
    await shop.app.database.db
      .select({ data: marketplacePhotos.data })
      .from(marketplacePhotos)
      .where(eq(marketplacePhotos.name, picture))
  )[0] ?? null;

describe('GET /api/v1/image/marketplace/{file}', () => {
  it('answers a product’s photo as the kit makes it: a 3:4 JPEG of at least 900×1200, cached for good', async () => {
    const picture = await productPicture(1000, 500, '#d04040');
    const response = await get(marketplaceUrl(picture));
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('image/jpeg');
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.headers.etag).toBe(`"${picture.replace('.webp', '.jpg')}"`);
    const { format, width = 0, height = 0 } = await sharp(response.rawPayload).metadata();
    expect(format).toBe('jpeg');
    expect(width / height).toBe(3 / 4);
    expect(width).toBeGreaterThanOrEqual(900);
    expect(height).toBeGreaterThanOrEqual(1200);
    // Not enlarged: the 1000×500 picture keeps its size on the white canvas.
    const content = await sharp(response.rawPayload)
      .trim({ background: '#ffffff', threshold: 30 })
      .toBuffer({ resolveWithObject: true });
    expect(Math.abs(content.info.width - 1000)).toBeLessThanOrEqual(2);
    expect(Math.abs(content.info.height - 500)).toBeLessThanOrEqual(2);
  });

  it('makes the photo once: it is kept, and served byte for byte after its master is gone', async () => {
    const picture = await productPicture(800, 900, '#40a040');
    const first = await get(marketplaceUrl(picture));
    expect(first.statusCode).toBe(200);
    expect((await keptPhoto(picture))?.data.equals(first.rawPayload)).toBe(true);
    // With no master nothing could be made again: what is answered is the kept photo.
    await shop.app.database.db.delete(imageMasters).where(eq(imageMasters.name, picture));
    const second = await get(marketplaceUrl(picture));
    expect(second.statusCode).toBe(200);
    expect(second.rawPayload.equals(first.rawPayload)).toBe(true);
  });

  it('answers 304 with no body to its ETag', async () => {
    const picture = await productPicture(700, 700, '#4040d0');
    const first = await get(marketplaceUrl(picture));
    const again = await get(marketplaceUrl(picture), { 'if-none-match': String(first.headers.etag) });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(first.headers.etag);
    const other = await get(marketplaceUrl(picture), { 'if-none-match': '"u-other.jpg"' });
    expect(other.statusCode).toBe(200);
  });

  it('serves a product’s cover too', async () => {
    const picture = await uploaded(640, 480, '#a0a040');
    await shop.app.database.db.update(products).set({ image: picture }).where(eq(products.id, showing.id));
    expect((await get(marketplaceUrl(picture))).statusCode).toBe(200);
  });

  it('is 404 for a picture no product shows, one without a master, or an unknown name, and makes nothing', async () => {
    const banner = await uploaded(900, 300, '#202020');
    const withoutMaster = await productPicture(500, 500, '#808080');
    await shop.app.database.db.delete(imageMasters).where(eq(imageMasters.name, withoutMaster));
    const unknown = `u-${'0'.repeat(32)}.webp`;
    for (const picture of [banner, withoutMaster, unknown]) {
      const response = await get(marketplaceUrl(picture));
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ detail: 'Фото для маркетплейсов не найдено: нет такого фото товара' });
      expect(response.headers['cache-control'] ?? '').not.toContain('immutable');
      expect(await keptPhoto(picture)).toBeNull();
    }
    // The banner is still served as it is at its own address: only its marketplace photo is refused.
    expect((await get(`/api/v1/image/${banner}`)).statusCode).toBe(200);
    expect(await shop.app.database.db.select().from(images).where(eq(images.name, unknown))).toEqual([]);
  });

  it.each([
    `u-${'a'.repeat(32)}.webp`,
    `u-${'a'.repeat(31)}.jpg`,
    `u-${'A'.repeat(32)}.jpg`,
    `u-${'g'.repeat(32)}.jpg`,
    'no-photo.jpg',
    '..%2F..%2Fpackage.json',
    `u-${'a'.repeat(32)}.jpg%00`,
  ])('a name of no uploaded picture’s photo, %j, is 422 {detail}', async (file) => {
    const response = await get(`/api/v1/image/marketplace/${file}`);
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({ detail: expect.any(String) });
  });

  it('requests for one photo at once share its making: with one place of the photo work free, all are answered', async () => {
    const picture = await productPicture(1200, 1600, '#c08040');
    const held = Array.from({ length: PHOTO_WORK_AT_ONCE - 1 }, () => takePhotoWork()!);
    try {
      // Each making would take the only free place: had two been made, one would have been 503.
      const answers = await Promise.all(Array.from({ length: 4 }, () => get(marketplaceUrl(picture))));
      expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 200]);
      expect(new Set(answers.map((answer) => answer.rawPayload.toString('base64'))).size).toBe(1);
    } finally {
      for (const giveBack of held) giveBack();
    }
  });

  it('with every place of the photo work taken, a photo not yet made is 503 with Retry-After; a kept one is served', async () => {
    const kept = await productPicture(900, 1200, '#40c0c0');
    expect((await get(marketplaceUrl(kept))).statusCode).toBe(200);
    const cold = await productPicture(900, 1200, '#c040c0');
    const held = Array.from({ length: PHOTO_WORK_AT_ONCE }, () => takePhotoWork()!);
    try {
      const busy = await get(marketplaceUrl(cold));
      expect(busy.statusCode).toBe(503);
      expect(busy.headers['retry-after']).toBeDefined();
      expect(busy.json()).toEqual({
        detail: 'Сейчас готовится много фото для маркетплейсов: повторите через несколько секунд',
      });
      expect(busy.headers['cache-control'] ?? '').not.toContain('immutable');
      expect((await get(marketplaceUrl(kept))).statusCode).toBe(200);
    } finally {
      for (const giveBack of held) giveBack();
    }
    expect((await get(marketplaceUrl(cold))).statusCode).toBe(200);
  });

  it('is in the OpenAPI document', async () => {
    const document = json<{ paths: Record<string, Record<string, { responses: Record<string, unknown> }>> }>(
      await get('/api/docs/json'),
    );
    const operation = document.paths['/api/v1/image/marketplace/{file}']?.get;
    expect(Object.keys(operation?.responses ?? {})).toEqual(
      expect.arrayContaining(['200', '304', '404', '422', '503']),
    );
  });
});
