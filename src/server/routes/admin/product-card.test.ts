import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import type { AdminProduct, AdminVariant, ProductCreate, UploadedImage } from '../../../shared/api';
import { PRODUCT_CARD_LIMITS } from '../../../shared/product-card';
import { conformityDocuments, variants } from '../../db/schema';
import { json, STARTUP_TIMEOUT, type Shopper, type TestApp } from '../../../../test/server/helpers/test-app';
import { expectManagersOnly, latestAudit, openBackOffice } from '../../../../test/server/helpers/back-office';

// The marketplace card's data in the back office (issue 41): the product's fields, each variant's
// barcode, marking, package and weight, and the photos per colour.

const CYRILLIC = /[а-яё]/i;
// EAN-13s with their check digits right (the first is the standard's own example).
const GTIN = '4006381333931';
const OTHER_GTIN = '5901234123457';

let shop: TestApp;
let buyer: Shopper;
let manager: Shopper;
let category: string;

beforeAll(async () => {
  ({ shop, buyer, manager } = await openBackOffice());
  [category] = (await shop.app.inject({ method: 'GET', url: '/api/v1/products/categories/all' })).json() as [string];
}, STARTUP_TIMEOUT);
afterAll(() => shop.close());

const admin = (method: 'GET' | 'POST' | 'PATCH' | 'PUT', url: string, payload?: object) =>
  shop.app.inject({ method, url: `/api/v1/admin${url}`, payload, headers: manager.headers });

const refusal = (response: { statusCode: number; json(): unknown }) => ({
  status: response.statusCode,
  detail: (response.json() as { detail?: string }).detail,
});

function newProduct(overrides: Partial<ProductCreate> = {}): ProductCreate {
  return {
    art: `C-${randomBytes(4).toString('hex').toUpperCase()}`,
    name: 'Заяц для карточки',
    category,
    image: 'MO-1001.svg',
    variants: [
      { color: 'Серый', size: 30, price: 500, stock: 5 },
      { color: 'Белый', size: 30, price: 500, stock: 5 },
    ],
    ...overrides,
  };
}

async function create(overrides: Partial<ProductCreate> = {}): Promise<AdminProduct> {
  const response = await admin('POST', '/products', newProduct(overrides));
  expect(response.statusCode).toBe(201);
  return json<AdminProduct>(response);
}

async function uploadPicture(width: number, height: number): Promise<UploadedImage> {
  const png = await sharp({
    create: { width, height, channels: 3, background: `#${randomBytes(3).toString('hex')}` },
  })
    .png()
    .toBuffer();
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'photo.png');
  const response = await shop.app.inject({
    method: 'POST',
    url: '/api/v1/admin/images',
    headers: manager.headers,
    payload: form,
  });
  expect(response.statusCode).toBe(201);
  return json<UploadedImage>(response);
}

async function newDocument(): Promise<number> {
  const [document] = await shop.app.database.db
    .insert(conformityDocuments)
    .values({
      kind: 'declaration',
      regulation: 'ТР ТС 008/2011',
      number: `ЕАЭС N RU Д-CN.${randomBytes(4).toString('hex')}`,
      validFrom: '2026-01-01',
      validTo: '2029-01-01',
      pdf: Buffer.from('%PDF-1.4'),
      pdfBytes: 8,
    })
    .returning({ id: conformityDocuments.id });
  return document!.id;
}

describe('access', () => {
  it('the photos route: 401 without a token, 403 for a buyer', async () => {
    await expectManagersOnly(shop.app, buyer, [['PUT', '/api/v1/admin/products/1/photos', []]]);
  });
});

describe('product card fields', () => {
  it('POST takes them: texts trimmed, blank ones none, ТН ВЭД with spaces kept as 10 digits; GET shows them', async () => {
    const document = await newDocument();
    const created = await create({
      brand: '  Мягкий Опт ',
      material: 'Плюш',
      filler: '   ',
      age_from: 3,
      country_of_origin: 'Россия',
      tnved: '9503 00 410 0',
      conformity_document_id: document,
    });
    expect(created).toMatchObject({
      brand: 'Мягкий Опт',
      material: 'Плюш',
      filler: null,
      age_from: 3,
      country_of_origin: 'Россия',
      tnved: '9503004100',
      conformity_document_id: document,
    });
    expect(json<AdminProduct>(await admin('GET', `/products/${created.id}`))).toEqual(created);
  });

  it('PATCH changes and clears them, audited', async () => {
    const product = await create({ brand: 'Было', tnved: '9503004100' });
    const response = await admin('PATCH', `/products/${product.id}`, { brand: '', tnved: null, age_from: 0 });
    expect(response.statusCode).toBe(200);
    expect(json<AdminProduct>(response)).toMatchObject({ brand: null, tnved: null, age_from: 0 });
    const [entry] = await latestAudit(shop.app, manager);
    expect(entry).toMatchObject({ action: 'product.update', before: { brand: 'Было' }, after: { brand: null } });
  });

  it.each([
    ['a ТН ВЭД of 9 digits', { tnved: '9503 00 410' }, /ТН ВЭД.*10 цифр/],
    ['a ТН ВЭД with letters', { tnved: '9503OO4100' }, /ТН ВЭД.*10 цифр/],
    ['an age over 18', { age_from: 19 }, CYRILLIC],
    ['a negative age', { age_from: -1 }, CYRILLIC],
    ['a brand over the limit', { brand: 'б'.repeat(PRODUCT_CARD_LIMITS.textMax + 1) }, CYRILLIC],
    ['a document that does not exist', { conformity_document_id: 2_000_000_000 }, /^Документ соответствия не найден$/],
  ])('PATCH with %s → 422 in Russian, nothing changed', async (_name, patch, detail) => {
    const product = await create({ tnved: '9503004100', age_from: 3 });
    expect(refusal(await admin('PATCH', `/products/${product.id}`, patch))).toEqual({
      status: 422,
      detail: expect.stringMatching(detail),
    });
    expect(json<AdminProduct>(await admin('GET', `/products/${product.id}`))).toEqual(product);
  });

  it('POST with a document that does not exist → 422, no product', async () => {
    const body = newProduct({ conformity_document_id: 2_000_000_000 });
    expect(refusal(await admin('POST', '/products', body))).toEqual({
      status: 422,
      detail: 'Документ соответствия не найден',
    });
    const page = (await admin('GET', `/products?q=${body.art}`)).json() as { total: number };
    expect(page.total).toBe(0);
  });
});

describe('variant card fields', () => {
  it('a typed EAN-13, marking, the package in cm (stored in mm) and the weight; null clears them', async () => {
    const product = await create();
    const variantId = product.variants[0]!.id;
    const response = await admin('PATCH', `/variants/${variantId}`, {
      barcode: ` ${GTIN} `,
      marked: true,
      package: { length_cm: 30, width_cm: 20.5, height_cm: 0.1 },
      weight_g: 350,
    });
    expect(response.statusCode).toBe(200);
    expect(json<AdminVariant>(response)).toMatchObject({
      barcode: GTIN,
      barcode_kind: 'gtin',
      marked: true,
      package: { length_cm: 30, width_cm: 20.5, height_cm: 0.1 },
      weight_g: 350,
    });
    const [stored] = await shop.app.database.db.select().from(variants).where(eq(variants.id, variantId));
    expect(stored).toMatchObject({ packageLengthMm: 300, packageWidthMm: 205, packageHeightMm: 1, weightG: 350 });

    const cleared = await admin('PATCH', `/variants/${variantId}`, { barcode: null, package: null, weight_g: null });
    expect(json<AdminVariant>(cleared)).toMatchObject({
      barcode: null,
      barcode_kind: null,
      marked: true,
      package: null,
      weight_g: null,
    });
  });

  it.each([
    ['a wrong check digit', { barcode: '4006381333932' }, /^Штрихкод 4006381333932: неверная контрольная цифра/],
    ['a code that is not 13 digits', { barcode: '12345' }, /Штрихкод «12345».*13 цифр/],
    ['a side of 0', { package: { length_cm: 0, width_cm: 10, height_cm: 10 } }, CYRILLIC],
    ['a negative side', { package: { length_cm: 10, width_cm: -1, height_cm: 10 } }, CYRILLIC],
    ['a side with two decimals', { package: { length_cm: 10.25, width_cm: 10, height_cm: 10 } }, /миллиметра/],
    ['a side over the limit', { package: { length_cm: 501, width_cm: 10, height_cm: 10 } }, CYRILLIC],
    ['a weight of 0', { weight_g: 0 }, CYRILLIC],
    ['a fractional weight', { weight_g: 10.5 }, CYRILLIC],
  ])('PATCH with %s → 422 in Russian, nothing changed', async (_name, patch, detail) => {
    const product = await create();
    const variantId = product.variants[0]!.id;
    expect(refusal(await admin('PATCH', `/variants/${variantId}`, patch))).toEqual({
      status: 422,
      detail: expect.stringMatching(detail),
    });
    expect(json<AdminProduct>(await admin('GET', `/products/${product.id}`))).toEqual(product);
  });

  it('a barcode another variant has → 409 naming its article; the variant itself may keep it', async () => {
    const holder = await create();
    await admin('PATCH', `/variants/${holder.variants[0]!.id}`, { barcode: OTHER_GTIN });
    const other = await create();
    expect(refusal(await admin('PATCH', `/variants/${other.variants[0]!.id}`, { barcode: OTHER_GTIN }))).toEqual({
      status: 409,
      detail: `Штрихкод ${OTHER_GTIN} уже есть у варианта товара с артикулом «${holder.art}»`,
    });
    expect(
      refusal(
        await admin('POST', `/products/${other.id}/variants`, {
          color: 'Рыжий',
          size: 40,
          price: 1,
          stock: 1,
          barcode: OTHER_GTIN,
        }),
      ).status,
    ).toBe(409);
    expect(
      refusal(
        await admin(
          'POST',
          '/products',
          newProduct({ variants: [{ ...newProduct().variants[0]!, barcode: OTHER_GTIN }] }),
        ),
      ).status,
    ).toBe(409);
    // Saving the variant that has it again is no conflict.
    expect((await admin('PATCH', `/variants/${holder.variants[0]!.id}`, { barcode: OTHER_GTIN })).statusCode).toBe(200);
  });

  it('two managers typing one free barcode at once: one takes it, the other gets 409', async () => {
    const [first, second] = [await create(), await create()];
    const code = '4600000000008';
    const answers = await Promise.all(
      [first, second].map((product) => admin('PATCH', `/variants/${product.variants[0]!.id}`, { barcode: code })),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    const holders = await shop.app.database.db.select().from(variants).where(eq(variants.barcode, code));
    expect(holders).toHaveLength(1);
  });

  it('POST with one barcode on two of its variants → 422', async () => {
    const [one, two] = newProduct().variants as [ProductCreate['variants'][number], ProductCreate['variants'][number]];
    const body = newProduct({
      variants: [
        { ...one, barcode: '4670000000001' },
        { ...two, barcode: '4670000000001' },
      ],
    });
    expect(refusal(await admin('POST', '/products', body))).toEqual({
      status: 422,
      detail: 'Штрихкод 4670000000001 указан у двух вариантов',
    });
  });

  it("1С's internal code is shown flagged «internal», and 1С's duplicates are kept", async () => {
    const [first, second] = [await create(), await create()];
    for (const product of [first, second]) {
      await shop.app.database.db
        .update(variants)
        .set({ barcode: '2000012345' })
        .where(eq(variants.id, product.variants[0]!.id));
    }
    const read = json<AdminProduct>(await admin('GET', `/products/${first.id}`));
    expect(read.variants[0]).toMatchObject({ barcode: '2000012345', barcode_kind: 'internal' });
    // Editing something else of the variant never trips over 1С's code.
    expect((await admin('PATCH', `/variants/${first.variants[0]!.id}`, { stock: 7 })).statusCode).toBe(200);
  });
});

describe('PUT /api/v1/admin/products/{id}/photos', () => {
  it("replaces every set in order; the own set's first becomes the picture; sizes and the small flag; audited", async () => {
    const product = await create();
    const [big, small, third] = [
      await uploadPicture(1000, 1400),
      await uploadPicture(300, 300),
      await uploadPicture(900, 900),
    ];
    const response = await admin('PUT', `/products/${product.id}/photos`, [
      { color: 'Серый', images: [small.name] },
      { color: null, images: [big.name, small.name] },
    ]);
    expect(response.statusCode).toBe(200);
    const updated = json<AdminProduct>(response);
    expect(updated.image).toBe(big.name);
    expect(updated.photos).toEqual([
      {
        color: null,
        images: [
          {
            name: big.name,
            width: 1000,
            height: 1400,
            master_width: 1000,
            master_height: 1400,
            small_for_marketplace: false,
          },
          {
            name: small.name,
            width: 300,
            height: 300,
            master_width: 300,
            master_height: 300,
            small_for_marketplace: true,
          },
        ],
      },
      { color: 'Серый', images: [expect.objectContaining({ name: small.name, small_for_marketplace: true })] },
    ]);
    expect(json<AdminProduct>(await admin('GET', `/products/${product.id}`))).toEqual(updated);
    const [entry] = await latestAudit(shop.app, manager);
    expect(entry).toMatchObject({
      action: 'product.photos',
      entity: 'product',
      entity_id: String(product.id),
      before: { image: 'MO-1001.svg', photos: [] },
      after: { image: big.name },
    });

    // A second PUT replaces all: the colour set left out goes; without an own set the picture stays.
    const again = json<AdminProduct>(
      await admin('PUT', `/products/${product.id}/photos`, [{ color: 'Белый', images: [third.name, big.name] }]),
    );
    expect(again.photos.map((set) => [set.color, set.images.map((image) => image.name)])).toEqual([
      ['Белый', [third.name, big.name]],
    ]);
    expect(again.image).toBe(big.name);
  });

  it("a shop's own file has no master: shown as small for a marketplace", async () => {
    const product = await create();
    const updated = json<AdminProduct>(
      await admin('PUT', `/products/${product.id}/photos`, [{ color: null, images: ['MO-1002.svg'] }]),
    );
    expect(updated.photos[0]!.images[0]).toEqual({
      name: 'MO-1002.svg',
      width: null,
      height: null,
      master_width: null,
      master_height: null,
      small_for_marketplace: true,
    });
  });

  it.each([
    ['a colour none of its variants has', () => [{ color: 'Зелёный', images: [] }], /«Зелёный»/],
    ['a picture that does not exist', () => [{ color: null, images: ['u-nope.webp'] }], /«u-nope\.webp»/],
    ['a picture twice in a set', () => [{ color: null, images: ['MO-1001.svg', 'MO-1001.svg'] }], /дважды/],
    [
      'the same colour twice',
      () => [
        { color: 'Серый', images: [] },
        { color: 'Серый', images: [] },
      ],
      /«Серый».*дважды/,
    ],
    [
      'more photos than a set takes',
      () => [{ color: null, images: Array.from({ length: PRODUCT_CARD_LIMITS.photosMax + 1 }, () => 'MO-1001.svg') }],
      CYRILLIC,
    ],
  ])('%s → 422 in Russian, nothing changed', async (_name, body, detail) => {
    const product = await create();
    await admin('PUT', `/products/${product.id}/photos`, [{ color: null, images: ['MO-1002.svg'] }]);
    const before = json<AdminProduct>(await admin('GET', `/products/${product.id}`));
    expect(refusal(await admin('PUT', `/products/${product.id}/photos`, body()))).toEqual({
      status: 422,
      detail: expect.stringMatching(detail),
    });
    expect(json<AdminProduct>(await admin('GET', `/products/${product.id}`))).toEqual(before);
  });

  it('a product that does not exist → 404', async () => {
    expect(refusal(await admin('PUT', '/products/2000000000/photos', []))).toEqual({
      status: 404,
      detail: 'Товар не найден',
    });
  });
});
