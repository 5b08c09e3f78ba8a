import { crc32, deflateSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import sharp, { type Sharp } from 'sharp';
import { auditLog, imageMasters, images } from '../../db/schema';
import { createImagesRepository } from '../../repositories/images';
import { json, STARTUP_TIMEOUT, type Shopper, type TestApp } from '../../../../test/server/helpers/test-app';
import { openBackOffice } from '../../../../test/server/helpers/back-office';

import type { UploadedImage as Uploaded } from '../../../shared/api';

let shop: TestApp;
let buyer: Shopper;
let manager: Shopper;

beforeAll(async () => {
  ({ shop, buyer, manager } = await openBackOffice());
}, STARTUP_TIMEOUT);
afterAll(() => shop.close());

interface FilePart {
  data: Buffer;
  filename: string;
  type?: string;
}

function upload(files: FilePart[], headers: Record<string, string> | undefined = manager.headers) {
  const form = new FormData();
  for (const { data, filename, type = 'application/octet-stream' } of files) {
    form.append('file', new Blob([new Uint8Array(data)], { type }), filename);
  }
  return shop.app.inject({ method: 'POST', url: '/api/v1/admin/images', headers, payload: form });
}

/** A real picture with some detail (a gradient and a disc), so that encoders have work to do. */
function picture(width: number, height: number): Sharp {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs><linearGradient id="g"><stop offset="0" stop-color="#f5b3c7"/><stop offset="1" stop-color="#6f9edf"/></linearGradient></defs>
    <rect width="100%" height="100%" fill="url(#g)"/><circle cx="${width / 2}" cy="${height / 2}" r="${height / 3}" fill="#f7d96a"/></svg>`;
  return sharp(Buffer.from(svg));
}

const made = {
  jpeg: async () =>
    picture(640, 480)
      .jpeg()
      .withMetadata({ exif: { IFD0: { Copyright: 'secret-exif' } } })
      .toBuffer(),
  png: async () => picture(320, 200).png().toBuffer(),
  webp: async () => picture(300, 300).webp().toBuffer(),
  avif: async () => picture(256, 128).avif().toBuffer(),
};

const refusal = (response: { statusCode: number; json(): unknown }) => ({
  status: response.statusCode,
  body: response.json(),
});

describe('POST /api/v1/admin/images', () => {
  it.each(Object.keys(made) as (keyof typeof made)[])(
    '%s → 201, re-encoded as WebP, served from the database with long caching',
    async (format) => {
      const original = await made[format]();
      // The name and the Content-Type say nothing true: the content decides.
      const response = await upload([{ data: original, filename: 'photo.bin', type: 'text/plain' }]);
      expect(response.statusCode).toBe(201);
      const uploaded = json<Uploaded>(response);
      const source = await sharp(original).metadata();
      expect(uploaded).toEqual({
        name: expect.stringMatching(/^u-[0-9a-f]{32}\.webp$/),
        width: source.width,
        height: source.height,
        // Small pictures keep their size in the master too: never enlarged.
        master: { width: source.width, height: source.height },
        small_for_marketplace: true,
      });

      const served = await shop.app.inject({ method: 'GET', url: `/api/v1/image/${uploaded.name}` });
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toBe('image/webp');
      expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(served.headers['x-content-type-options']).toBe('nosniff');
      expect(served.headers['content-security-policy']).toMatch(/default-src 'none'/);
      expect(served.headers.etag).toBe(`"${uploaded.name}"`);
      expect(served.rawPayload.equals(original)).toBe(false);
      expect(served.rawPayload.includes(Buffer.from('secret-exif'))).toBe(false);
      const decoded = await sharp(served.rawPayload).metadata();
      expect(decoded).toMatchObject({ format: 'webp', width: uploaded.width, height: uploaded.height });
      expect(decoded.exif).toBeUndefined();

      const again = await shop.app.inject({
        method: 'GET',
        url: `/api/v1/image/${uploaded.name}`,
        headers: { 'if-none-match': served.headers.etag as string },
      });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');
    },
  );

  it('shrinks a large picture to fit 1600×1600, turns it upright by EXIF, and records the upload', async () => {
    // 2400×1200 stored sideways with orientation 6 (rotate 90° clockwise to view): upright it is 1200×2400.
    const sideways = await picture(2400, 1200).jpeg().withMetadata({ orientation: 6 }).toBuffer();
    const response = await upload([{ data: sideways, filename: 'big.jpg', type: 'image/jpeg' }]);
    expect(response.statusCode).toBe(201);
    const uploaded = json<Uploaded>(response);
    expect(uploaded).toMatchObject({ width: 800, height: 1600 });

    const [stored] = await shop.app.database.db.select().from(images).where(eq(images.name, uploaded.name));
    expect(stored).toMatchObject({ contentType: 'image/webp', width: 800, height: 1600, byUserId: manager.id });
    const audit = await shop.app.database.db.select().from(auditLog).where(eq(auditLog.entityId, uploaded.name));
    expect(audit).toEqual([expect.objectContaining({ action: 'image.upload', entity: 'image', byUserId: manager.id })]);
  });

  it('keeps a master: JPEG 92, upright, sRGB, no metadata, inside 3000×3000, in the same upload', async () => {
    // 4000×3000 stored sideways (orientation 6), with EXIF: upright it is 3000×4000, fitted 2250×3000.
    const sideways = await picture(4000, 3000)
      .jpeg({ quality: 80 })
      .withMetadata({ orientation: 6, exif: { IFD0: { Copyright: 'secret-exif' } } })
      .toBuffer();
    const response = await upload([{ data: sideways, filename: 'big.jpg', type: 'image/jpeg' }]);
    expect(response.statusCode).toBe(201);
    const uploaded = json<Uploaded>(response);
    expect(uploaded).toMatchObject({ width: 1200, height: 1600, master: { width: 2250, height: 3000 } });
    expect(uploaded.small_for_marketplace).toBe(false);

    const master = (await createImagesRepository(shop.app.database.db).findMaster(uploaded.name))!;
    expect(master).toMatchObject({ width: 2250, height: 3000 });
    expect(master.data.equals(sideways)).toBe(false);
    expect(master.data.includes(Buffer.from('secret-exif'))).toBe(false);
    const decoded = await sharp(master.data).metadata();
    expect(decoded).toMatchObject({ format: 'jpeg', width: 2250, height: 3000, space: 'srgb' });
    expect([decoded.exif, decoded.icc, decoded.orientation]).toEqual([undefined, undefined, undefined]);
  });

  it.each([
    ['900×1000 (wide enough for a 3:4 with fields)', 900, 1000, false],
    ['700×1200 (tall enough)', 700, 1200, false],
    ['899×1199', 899, 1199, true],
  ])('a master of %s: small_for_marketplace %s', async (_name, width, height, small) => {
    const response = await upload([{ data: await picture(width, height).png().toBuffer(), filename: 'a.png' }]);
    expect(json<Uploaded>(response)).toMatchObject({ master: { width, height }, small_for_marketplace: small });
  });

  it('the same picture twice gets the same name and one row', async () => {
    const png = await made.png();
    const first = json<Uploaded>(await upload([{ data: png, filename: 'a.png' }]));
    const second = json<Uploaded>(await upload([{ data: png, filename: 'b.png' }]));
    expect(second.name).toBe(first.name);
    const rows = await shop.app.database.db.select().from(images).where(eq(images.name, first.name));
    expect(rows).toHaveLength(1);
    expect(await shop.app.database.db.$count(imageMasters, eq(imageMasters.name, first.name))).toBe(1);
  });

  const pdf = Buffer.from(
    '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
  );
  const svgWithScript = Buffer.from(
    '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(document.cookie)</script><rect width="10" height="10"/></svg>',
  );
  const plainSvg = Buffer.from(
    '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>',
  );

  it.each([
    ['a PDF renamed .jpg', () => pdf, 'invoice.jpg', 'image/jpeg'],
    ['an SVG with <script>', () => svgWithScript, 'logo.png', 'image/png'],
    ['an SVG without script', () => plainSvg, 'logo.svg', 'image/svg+xml'],
    [
      'a GIF',
      () =>
        sharp({ create: { width: 8, height: 8, channels: 3, background: '#f00' } })
          .gif()
          .toBuffer(),
      'a.gif',
      'image/gif',
    ],
    [
      'a TIFF',
      () =>
        sharp({ create: { width: 8, height: 8, channels: 3, background: '#f00' } })
          .tiff()
          .toBuffer(),
      'a.jpg',
      'image/jpeg',
    ],
    ['text', () => Buffer.from('просто текст, не картинка'), 'note.webp', 'image/webp'],
  ])('%s → 415 {detail}, nothing stored', async (_name, make, filename, type) => {
    const before = await shop.app.database.db.$count(images);
    const mastersBefore = await shop.app.database.db.$count(imageMasters);
    const response = await upload([{ data: await make(), filename, type }]);
    expect(refusal(response)).toEqual({
      status: 415,
      body: { detail: expect.stringMatching(/JPEG, PNG, WebP или AVIF/) },
    });
    expect(await shop.app.database.db.$count(images)).toBe(before);
    expect(await shop.app.database.db.$count(imageMasters)).toBe(mastersBefore);
  });

  /** A PNG whose header declares width × height over one row of real pixel data: a tiny file, a huge promise. */
  function pngDeclaring(width: number, height: number): Buffer {
    const chunk = (type: string, data: Buffer) => {
      const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
      const length = Buffer.alloc(4);
      length.writeUInt32BE(data.length);
      const crc = Buffer.alloc(4);
      crc.writeUInt32BE(crc32(body));
      return Buffer.concat([length, body, crc]);
    };
    const header = Buffer.alloc(13);
    header.writeUInt32BE(width, 0);
    header.writeUInt32BE(height, 4);
    header.set([8, 0, 0, 0, 0], 8); // 8-bit greyscale
    return Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      chunk('IHDR', header),
      chunk('IDAT', deflateSync(Buffer.alloc(width + 1))),
      chunk('IEND', Buffer.alloc(0)),
    ]);
  }

  it.each([
    ['a 0-byte file', async () => Buffer.alloc(0), /пустой/],
    ['a truncated JPEG', async () => (await made.jpeg()).subarray(0, 4000), /повреждено или обрезано/],
    ['a truncated PNG', async () => (await made.png()).subarray(0, 200), /повреждено или обрезано/],
    ['a truncated AVIF', async () => (await made.avif()).subarray(0, 300), /повреждено или обрезано/],
    [
      'a JPEG with garbage after its header',
      async () => Buffer.concat([(await made.jpeg()).subarray(0, 700), Buffer.alloc(3000, 0x5a)]),
      /повреждено или обрезано/,
    ],
    [
      'a decompression bomb: a solid 10000×5000 PNG of a few KB',
      () =>
        sharp({ create: { width: 10_000, height: 5000, channels: 3, background: '#fff' }, limitInputPixels: false })
          .png({ palette: true, colours: 2, compressionLevel: 9 })
          .toBuffer(),
      /10000×5000 пикселей/,
    ],
    ['a PNG header declaring 100000×100000', async () => pngDeclaring(100_000, 100_000), /100000×100000 пикселей/],
  ])(
    '%s → 422 {detail}, nothing stored',
    async (_name, make, detail) => {
      const data = await make();
      const before = await shop.app.database.db.$count(images);
      const response = await upload([{ data, filename: 'x.png', type: 'image/png' }]);
      expect(refusal(response)).toEqual({ status: 422, body: { detail: expect.stringMatching(detail) } });
      expect(await shop.app.database.db.$count(images)).toBe(before);
    },
    20_000,
  );

  it('two files → 422, no file → 422, a JSON body → 415, more than 10 MB → 413', async () => {
    const png = await made.png();
    const two = await upload([
      { data: png, filename: 'a.png' },
      { data: png, filename: 'b.png' },
    ]);
    expect(refusal(two)).toEqual({ status: 422, body: { detail: expect.stringMatching(/ровно один файл/) } });

    const form = new FormData();
    form.append('comment', 'без файла');
    const none = await shop.app.inject({
      method: 'POST',
      url: '/api/v1/admin/images',
      headers: manager.headers,
      payload: form,
    });
    expect(refusal(none)).toEqual({ status: 422, body: { detail: expect.stringMatching(/нет файла/) } });

    const asJson = await shop.app.inject({
      method: 'POST',
      url: '/api/v1/admin/images',
      headers: manager.headers,
      payload: { file: png.toString('base64') },
    });
    expect(asJson.statusCode).toBe(415);

    const huge = Buffer.concat([png, Buffer.alloc(10 * 1024 * 1024)]);
    const tooBig = await upload([{ data: huge, filename: 'huge.png' }]);
    expect(refusal(tooBig)).toEqual({ status: 413, body: { detail: expect.stringMatching(/больше 10 МБ/) } });
  });

  it('a form cut off in the middle of the file → 422 {detail}; other fields beside the file are ignored', async () => {
    const png = await made.png();
    const boundary = 'cut-off-form';
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`;
    const cut = await shop.app.inject({
      method: 'POST',
      url: '/api/v1/admin/images',
      headers: { ...manager.headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: Buffer.concat([Buffer.from(head), png.subarray(0, 100)]),
    });
    expect(refusal(cut)).toEqual({ status: 422, body: { detail: expect.stringMatching(/передан не полностью/) } });

    const form = new FormData();
    form.append('alt', 'Мишка');
    form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'a.png');
    const withField = await shop.app.inject({
      method: 'POST',
      url: '/api/v1/admin/images',
      headers: manager.headers,
      payload: form,
    });
    expect(withField.statusCode).toBe(201);
  });

  it('a buyer → 403, no token → 401, and nothing is stored', async () => {
    const png = await made.webp();
    const before = await shop.app.database.db.$count(images);
    expect((await upload([{ data: png, filename: 'a.webp' }], buyer.headers)).statusCode).toBe(403);
    expect((await upload([{ data: png, filename: 'a.webp' }], {})).statusCode).toBe(401);
    expect(await shop.app.database.db.$count(images)).toBe(before);
  });
});

describe('GET /api/v1/image/{name} for uploaded names', () => {
  it('an unknown uploaded name → 404 {detail}, not cached', async () => {
    const response = await shop.app.inject({ method: 'GET', url: `/api/v1/image/u-${'0'.repeat(32)}.webp` });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ detail: expect.any(String) });
    expect(response.headers['cache-control']).toBeUndefined();
  });
});
