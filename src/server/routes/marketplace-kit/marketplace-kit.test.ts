import { once } from 'node:events';
import type { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import PDFDocument from 'pdfkit';
import sharp from 'sharp';
import yauzl from 'yauzl';
import type { DownloadLink, OrderSummary, Product } from '../../../shared/api';
import { MARKETPLACE_KIT_MAX_PRODUCTS, marketplaceKitPaths } from '../../../shared/marketplace-kit';
import { gtinCheckDigit } from '../../../shared/product-card';
import { conformityDocuments, imageMasters, images, productPhotos, products, variants } from '../../db/schema';
import { colourSlug } from '../../domain/marketplace-card';
import { createDownloadLinks } from '../../services/download-links';
import { marketplaceKit } from '../../services/marketplace-kit';
import { PHOTO_WORK_AT_ONCE } from '../../services/photo-work';
import {
  allProducts,
  createTestApp,
  json,
  quickShoppers,
  sessionIdOf,
  setVariant,
  STARTUP_TIMEOUT,
  type Shopper,
  type TestApp,
} from '../../../../test/server/helpers/test-app';

let shop: TestApp;
let buyer: Shopper;
let stranger: Shopper;
let withPhotos: Product;
let withSvg: Product;
let order: OrderSummary;

const WHITE_TRIM = { background: '#ffffff', threshold: 30 };
const PUBLIC_URL = 'https://myagkiy-opt.example';
/** The uploaded pictures: the product's own photo, and one colour's. */
const OWN_PICTURE = `u-${'a'.repeat(32)}.webp`;
const COLOUR_PICTURE = `u-${'b'.repeat(32)}.webp`;
const DOCUMENT_NUMBER = 'ЕАЭС N RU Д-CN.РА01.В.12345/26';

/** An EAN-13 with its check digit. */
const ean13 = (first12: string) => `${first12}${gtinCheckDigit(first12)}`;

async function realPdf(): Promise<Buffer> {
  const document = new PDFDocument();
  const chunks: Buffer[] = [];
  document.on('data', (chunk: Buffer) => chunks.push(chunk));
  document.text('Declaration of conformity');
  document.end();
  await once(document, 'end');
  return Buffer.concat(chunks);
}

/** An uploaded picture of one colour with its JPEG master, as the back office keeps them. */
async function uploadedPicture(name: string, width: number, height: number, colour: string): Promise<void> {
  const picture = () => sharp({ create: { width, height, channels: 3, background: colour } });
  const db = shop.app.database.db;
  await db.insert(images).values({
    name,
    contentType: 'image/webp',
    data: await picture().webp().toBuffer(),
    width,
    height,
  });
  await db.insert(imageMasters).values({ name, data: await picture().jpeg().toBuffer(), width, height });
}

async function entriesOf(zip: Buffer): Promise<Map<string, Buffer>> {
  const archive = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(zip, { lazyEntries: true }, (error, opened) => (error ? reject(error) : resolve(opened))),
  );
  const entries = new Map<string, Buffer>();
  await new Promise<void>((resolve, reject) => {
    archive.on('error', reject);
    archive.on('end', resolve);
    archive.on('entry', (entry: yauzl.Entry) => {
      archive.openReadStream(entry, (error, stream: Readable) => {
        if (error) return reject(error);
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          entries.set(entry.fileName, Buffer.concat(chunks));
          archive.readEntry();
        });
      });
    });
    archive.readEntry();
  });
  return entries;
}

const linkFor = async (shopper: Shopper, path: string) =>
  shop.app.inject({ method: 'POST', url: '/api/v1/download-links', headers: shopper.headers, payload: { path } });

const orderKitPath = marketplaceKitPaths.order;

beforeAll(async () => {
  shop = await createTestApp({ publicUrl: PUBLIC_URL });
  [buyer, stranger] = (await quickShoppers(shop.app, 2)) as [Shopper, Shopper];
  const stocked = (await allProducts(shop.app)).filter(
    (product) => new Set(product.variants.map((variant) => variant.color)).size >= 2 && product.variants.length >= 2,
  );
  [withPhotos, withSvg] = stocked as [Product, Product];
  const db = shop.app.database.db;

  const [document] = await db
    .insert(conformityDocuments)
    .values({
      kind: 'declaration',
      regulation: 'ТР ТС 008/2011',
      number: DOCUMENT_NUMBER,
      validFrom: '2026-01-01',
      validTo: '2030-12-31',
      pdf: await realPdf(),
      pdfBytes: 1,
    })
    .returning({ id: conformityDocuments.id });
  await db
    .update(products)
    .set({
      brand: 'Мягкий Опт',
      material: 'Плюш',
      filler: 'Синтепух',
      ageFrom: 3,
      countryOfOrigin: 'КНР',
      tnved: '9503004100',
      conformityDocumentId: document!.id,
    })
    .where(eq(products.id, withPhotos.id));
  const [gtinVariant, internalVariant] = withPhotos.variants as [Product['variants'][number], ...Product['variants']];
  await db
    .update(variants)
    // The demo catalogue's own barcodes off: one GTIN and one internal code are what is checked.
    .set({ packageLengthMm: 300, packageWidthMm: 200, packageHeightMm: 150, weightG: 450, barcode: null })
    .where(eq(variants.productId, withPhotos.id));
  await db
    .update(variants)
    .set({ barcode: ean13('460700465064') })
    .where(eq(variants.id, gtinVariant.id));
  await db.update(variants).set({ barcode: '00012345' }).where(eq(variants.id, internalVariant!.id));

  // The product's own photo: a small one (300×400), and a wide one (2400×1000) for one colour.
  await uploadedPicture(OWN_PICTURE, 300, 400, '#cc2222');
  await uploadedPicture(COLOUR_PICTURE, 2400, 1000, '#2222cc');
  await db.insert(productPhotos).values([
    { productId: withPhotos.id, color: null, position: 1, image: OWN_PICTURE },
    { productId: withPhotos.id, color: gtinVariant.color, position: 1, image: COLOUR_PICTURE },
  ]);

  const items = [withPhotos, withSvg].map((product) => {
    const variant = product.variants[0]!;
    return { product_id: product.id, variant_id: variant.id, quantity: 1 };
  });
  for (const item of items) await setVariant(shop.app, item.variant_id, { stock: 50 });
  const placed = await shop.app.inject({
    method: 'POST',
    url: '/api/v1/order/',
    headers: buyer.headers,
    payload: { user_id: buyer.id, address: 'г. Тверь, ул. Советская, д. 3', items },
  });
  expect(placed.statusCode).toBe(201);
  order = json<OrderSummary>(placed);
}, STARTUP_TIMEOUT);
afterAll(() => shop.close());

/** The sheet's column of this header (its 1-based number). */
function columnOf(sheet: ExcelJS.Worksheet, header: string): number {
  const headers = (sheet.getRow(1).values as unknown[]).slice(1);
  const index = headers.indexOf(header);
  expect(index).toBeGreaterThanOrEqual(0);
  return index + 1;
}

/** The sheet's rows below its header. */
const rowsOf = (sheet: ExcelJS.Worksheet) =>
  sheet.getRows(2, sheet.rowCount - 1)!.filter((row) => row.getCell(1).value !== null);

describe('the marketplace kit of an order', () => {
  let entries: Map<string, Buffer>;

  beforeAll(async () => {
    const link = await linkFor(buyer, orderKitPath(buyer.id, order.id));
    expect(link.statusCode).toBe(200);
    // The browser follows the link with no Authorization header.
    const response = await shop.app.inject({ method: 'GET', url: json<DownloadLink>(link).url });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/zip');
    expect(response.headers['content-disposition']).toContain(`marketplace-kit-order-${order.id}.zip`);
    entries = await entriesOf(response.rawPayload);
  }, STARTUP_TIMEOUT);

  it('holds the README, the sheet, the photos named by article and colour, and the document once', () => {
    const slug = colourSlug(withPhotos.variants[0]!.color);
    expect([...entries.keys()].sort()).toEqual(
      expect.arrayContaining([
        'README.txt',
        'карточки.xlsx',
        `фото/${withPhotos.art}_1.jpg`,
        `фото/${withPhotos.art}_${slug}_1.jpg`,
        `фото/${withSvg.art}_1.jpg`,
        'документы/ЕАЭС_N_RU_Д-CN.РА01.В.12345_26.pdf',
      ]),
    );
    expect(entries.get('README.txt')!.toString()).toContain('Версия сопоставления полей: v1');
    expect(entries.get('документы/ЕАЭС_N_RU_Д-CN.РА01.В.12345_26.pdf')!.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('has a row per variant on each sheet, in the sheet’s units, with GTINs only', async () => {
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(entries.get('карточки.xlsx')! as unknown as ArrayBuffer);
    const variantsCount = withPhotos.variants.length + withSvg.variants.length;

    const ozon = workbook.getWorksheet('Ozon')!;
    expect(rowsOf(ozon)).toHaveLength(variantsCount);
    const ozonRows = rowsOf(ozon).filter(
      (row) => row.getCell(columnOf(ozon, 'Объединить на одной карточке*')).value === withPhotos.art,
    );
    expect(ozonRows).toHaveLength(withPhotos.variants.length);
    expect(ozonRows.map((row) => row.getCell(columnOf(ozon, 'Ширина упаковки, мм*')).value)).toEqual(
      withPhotos.variants.map(() => 200),
    );
    expect(ozonRows[0]!.getCell(columnOf(ozon, 'Вес в упаковке, г*')).value).toBe(450);
    expect(ozonRows[0]!.getCell(columnOf(ozon, 'Минимальный возраст ребенка')).value).toBe('от 3 лет');
    expect(ozonRows[0]!.getCell(columnOf(ozon, 'Страна-изготовитель')).value).toBe('Китай');
    expect(ozonRows[0]!.getCell(columnOf(ozon, 'Номер декларации соответствия')).value).toBe(DOCUMENT_NUMBER);
    const barcodes = ozonRows.map((row) => row.getCell(columnOf(ozon, 'Штрихкод (Серийный номер / EAN)')).value);
    expect(barcodes.filter(Boolean)).toEqual([ean13('460700465064')]);

    const wildberries = workbook.getWorksheet('Wildberries')!;
    expect(rowsOf(wildberries)).toHaveLength(variantsCount);
    const wbRow = rowsOf(wildberries).find((row) => row.getCell(columnOf(wildberries, 'Баркод')).value !== null)!;
    expect(wbRow.getCell(columnOf(wildberries, 'Ширина упаковки, см')).value).toBe(20);
    expect(wbRow.getCell(columnOf(wildberries, 'Длина упаковки, см')).value).toBe(30);
    expect(wbRow.getCell(columnOf(wildberries, 'Вес товара с упаковкой (г)')).value).toBe(450);
  });

  it('gives the photos’ public addresses in the photo columns; each answers the ZIP’s photo to anyone', async () => {
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(entries.get('карточки.xlsx')! as unknown as ArrayBuffer);
    const address = (picture: string) => `${PUBLIC_URL}/api/v1/image/marketplace/${picture.replace('.webp', '.jpg')}`;
    const colourWithOwn = withPhotos.variants[0]!.color;
    const ozon = workbook.getWorksheet('Ozon')!;
    const wildberries = workbook.getWorksheet('Wildberries')!;
    /** The product's rows of the sheet: each one's colour and photo cells. */
    const photoCells = (sheet: ExcelJS.Worksheet, model: string, colour: string, photoHeaders: string[]) =>
      rowsOf(sheet)
        .filter((row) => row.getCell(columnOf(sheet, model)).value === withPhotos.art)
        .map((row) => ({
          colour: String(row.getCell(columnOf(sheet, colour)).value),
          photos: photoHeaders.map((header) => row.getCell(columnOf(sheet, header)).value),
        }));
    // The colour with a photo of its own shows it; the others the product's own.
    const addressFor = (colour: string) => address(colour === colourWithOwn ? COLOUR_PICTURE : OWN_PICTURE);
    const ozonCells = photoCells(ozon, 'Объединить на одной карточке*', 'Цвет товара*', [
      'Ссылка на главное фото*',
      'Ссылки на дополнительные фото',
    ]);
    const wildberriesCells = photoCells(wildberries, 'Артикул поставщика (модель)', 'Цвет', ['Фото']);
    for (const cells of [ozonCells, wildberriesCells]) {
      expect(cells).toHaveLength(withPhotos.variants.length);
      expect(new Set(cells.map(({ colour }) => colour)).size).toBeGreaterThanOrEqual(2);
    }
    // One photo per colour here: Ozon's main one and no additional; Wildberries' only one.
    for (const { colour, photos } of ozonCells) expect(photos).toEqual([addressFor(colour), null]);
    for (const { colour, photos } of wildberriesCells) expect(photos).toEqual([addressFor(colour)]);
    // The demo catalogue's drawing is the shop's own file, with no address: named by its file.
    const drawingRow = rowsOf(ozon).find(
      (row) => row.getCell(columnOf(ozon, 'Объединить на одной карточке*')).value === withSvg.art,
    )!;
    expect(drawingRow.getCell(columnOf(ozon, 'Ссылка на главное фото*')).value).toBe(`${withSvg.art}_1.jpg`);
    // The kit's own last column on both sheets: the photos' files in the ZIP, whatever their addresses.
    const slug = colourSlug(colourWithOwn);
    const filesFor = (colour: string) =>
      colour === colourWithOwn ? `${withPhotos.art}_${slug}_1.jpg` : `${withPhotos.art}_1.jpg`;
    for (const [sheet, model, colour] of [
      [ozon, 'Объединить на одной карточке*', 'Цвет товара*'],
      [wildberries, 'Артикул поставщика (модель)', 'Цвет'],
    ] as const) {
      expect(sheet.getRow(1).getCell(sheet.columnCount).value).toBe('Файлы фото в наборе');
      const rows = photoCells(sheet, model, colour, ['Файлы фото в наборе']);
      for (const { colour: rowColour, photos } of rows) expect(photos).toEqual([filesFor(rowColour)]);
      for (const file of rows.flatMap(({ photos }) => photos)) expect(entries.has(`фото/${file}`)).toBe(true);
    }
    expect(entries.get('README.txt')!.toString()).toContain('публичные и постоянные');

    for (const [picture, file] of [
      [COLOUR_PICTURE, `${withPhotos.art}_${slug}_1.jpg`],
      [OWN_PICTURE, `${withPhotos.art}_1.jpg`],
    ] as const) {
      // No Authorization: the marketplace's importer fetches it as anyone does.
      const fetched = await shop.app.inject({ method: 'GET', url: new URL(address(picture)).pathname });
      expect(fetched.statusCode).toBe(200);
      expect(fetched.headers['content-type']).toBe('image/jpeg');
      expect(fetched.rawPayload.equals(entries.get(`фото/${file}`)!)).toBe(true);
    }
  });

  it('makes 3:4 JPEGs of at least 900×1200: a small picture not enlarged, a wide one padded', async () => {
    const slug = colourSlug(withPhotos.variants[0]!.color);
    for (const name of [`${withPhotos.art}_1.jpg`, `${withPhotos.art}_${slug}_1.jpg`, `${withSvg.art}_1.jpg`]) {
      const { format, width = 0, height = 0 } = await sharp(entries.get(`фото/${name}`)!).metadata();
      expect({ name, format, ratio: width / height }).toEqual({ name, format: 'jpeg', ratio: 0.75 });
      expect(height).toBeGreaterThanOrEqual(1200);
    }
    const small = await sharp(entries.get(`фото/${withPhotos.art}_1.jpg`)!).metadata();
    expect([small.width, small.height]).toEqual([900, 1200]);
    const smallContent = await sharp(entries.get(`фото/${withPhotos.art}_1.jpg`)!)
      .trim(WHITE_TRIM)
      .toBuffer({ resolveWithObject: true });
    expect(Math.abs(smallContent.info.width - 300)).toBeLessThanOrEqual(2);
    expect(Math.abs(smallContent.info.height - 400)).toBeLessThanOrEqual(2);

    const wide = await sharp(entries.get(`фото/${withPhotos.art}_${slug}_1.jpg`)!).metadata();
    expect([wide.width, wide.height]).toEqual([2400, 3200]);
    const wideContent = await sharp(entries.get(`фото/${withPhotos.art}_${slug}_1.jpg`)!)
      .trim(WHITE_TRIM)
      .toBuffer({ resolveWithObject: true });
    expect(Math.abs(wideContent.info.width - 2400)).toBeLessThanOrEqual(2);
    expect(Math.abs(wideContent.info.height - 1000)).toBeLessThanOrEqual(2);
  });
});

describe('who may download a kit', () => {
  it('another company’s order does not exist for a buyer', async () => {
    const response = await shop.app.inject({
      method: 'GET',
      url: orderKitPath(stranger.id, order.id),
      headers: stranger.headers,
    });
    expect(response.statusCode).toBe(404);
    expect(json<{ detail: string }>(response).detail).toBe('Заказ не найден');
  });

  it('a link made for one path is refused on another', async () => {
    const link = json<DownloadLink>(await linkFor(stranger, marketplaceKitPaths.cart(stranger.id)));
    const token = link.url.split('?link=')[1]!;
    const response = await shop.app.inject({
      method: 'GET',
      url: `${orderKitPath(buyer.id, order.id)}?link=${token}`,
    });
    expect(response.statusCode).toBe(403);
    expect(json<{ detail: string }>(response).detail).toBe('Ссылка для скачивания недействительна.');
  });

  it('an expired link is refused', async () => {
    const secret = shop.config.jwtSecret ?? (await shop.app.repositories.settings.get('jwt_secret'))!;
    const path = orderKitPath(buyer.id, order.id);
    const url = createDownloadLinks(secret, 90, () => Date.now() - 100_000).urlOf(
      { userId: buyer.id, sessionId: sessionIdOf(buyer.token) },
      path,
    );
    const response = await shop.app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(403);
    expect(json<{ detail: string }>(response).detail).toContain('устарела');
  });

  it('links are made only for the kits’ paths', async () => {
    const response = await linkFor(buyer, `/api/v1/order/${buyer.id}/${order.id}/export`);
    expect(response.statusCode).toBe(422);
  });

  it('an empty cart has no kit', async () => {
    const response = await shop.app.inject({
      method: 'GET',
      url: marketplaceKitPaths.cart(stranger.id),
      headers: stranger.headers,
    });
    expect(response.statusCode).toBe(422);
  });

  it('a link outlives no session: once it is revoked, the link is refused', async () => {
    const [leaving] = await quickShoppers(shop.app, 1);
    const link = json<DownloadLink>(await linkFor(leaving!, marketplaceKitPaths.selection([withSvg.id])));
    shop.app.sessionRevocations.remember([sessionIdOf(leaving!.token)]);
    const response = await shop.app.inject({ method: 'GET', url: link.url });
    expect(response.statusCode).toBe(401);
  });

  it('a link opens only a GET: a POST to the same address with another selection in its body takes a token', async () => {
    const link = json<DownloadLink>(await linkFor(stranger, marketplaceKitPaths.selection([withSvg.id])));
    const posted = await shop.app.inject({
      method: 'POST',
      url: link.url,
      payload: { products: [withPhotos.id] },
    });
    expect(posted.statusCode).toBe(401);
  });

  it('a selection is downloaded by its link, and by POST with the bearer token', async () => {
    const link = json<DownloadLink>(await linkFor(stranger, marketplaceKitPaths.selection([withSvg.id])));
    const byLink = await shop.app.inject({ method: 'GET', url: link.url });
    expect(byLink.statusCode).toBe(200);
    expect([...(await entriesOf(byLink.rawPayload)).keys()]).toContain(`фото/${withSvg.art}_1.jpg`);
    // An altered selection is another path: its link no longer fits.
    const altered = await shop.app.inject({
      method: 'GET',
      url: link.url.replace(`=${withSvg.id}`, `=${withPhotos.id}`),
    });
    expect(altered.statusCode).toBe(403);

    const byPost = await shop.app.inject({
      method: 'POST',
      url: '/api/v1/marketplace-kit',
      headers: stranger.headers,
      payload: { products: [withSvg.id] },
    });
    expect(byPost.statusCode).toBe(200);
    expect(byPost.headers['content-disposition']).toContain('marketplace-kit.zip');
  });

  it('a selection naming unknown products is refused, naming them', async () => {
    const response = await shop.app.inject({
      method: 'POST',
      url: '/api/v1/marketplace-kit',
      headers: buyer.headers,
      payload: { products: [withSvg.id, 999_999] },
    });
    expect(response.statusCode).toBe(422);
    expect(json<{ detail: string }>(response).detail).toContain('999999');
    // The link's form takes any ten digits: one past the ids' range is named too, not a 500.
    const outOfRange = await shop.app.inject({
      method: 'GET',
      url: marketplaceKitPaths.selection([withSvg.id, 9_999_999_999]),
      headers: buyer.headers,
    });
    expect(outOfRange.statusCode).toBe(422);
    expect(json<{ detail: string }>(outOfRange).detail).toBe('Товары не найдены или сняты с продажи: 9999999999');
  });

  it('a cart or an order of more products than a kit takes is refused before any work, saying to split it', async () => {
    const tooMany = Array.from({ length: MARKETPLACE_KIT_MAX_PRODUCTS + 1 }, (_, i) => i + 1);
    const { productCards } = shop.app.repositories;
    const building = jest.spyOn(productCards, 'cardBatches');
    jest.spyOn(productCards, 'ofCart').mockResolvedValueOnce(tooMany);
    const cart = await shop.app.inject({
      method: 'GET',
      url: marketplaceKitPaths.cart(buyer.id),
      headers: buyer.headers,
    });
    expect(cart.statusCode).toBe(422);
    expect(json<{ detail: string }>(cart).detail).toBe(
      `В наборе карточек не больше ${MARKETPLACE_KIT_MAX_PRODUCTS} товаров, а в корзине — ${tooMany.length}: ` +
        'скачайте карточки частями — выберите товары в каталоге',
    );
    jest.spyOn(productCards, 'ofOrder').mockResolvedValueOnce(tooMany);
    const ordered = await shop.app.inject({
      method: 'GET',
      url: orderKitPath(buyer.id, order.id),
      headers: buyer.headers,
    });
    expect(ordered.statusCode).toBe(422);
    expect(json<{ detail: string }>(ordered).detail).toContain(`в заказе — ${tooMany.length}`);
    expect(building).not.toHaveBeenCalled();
    building.mockRestore();
  });

  it('a kit past the ones the process makes at once is 503 with Retry-After', async () => {
    const sources = {
      cards: shop.app.repositories.productCards,
      photos: shop.app.services.marketplacePhotos,
      origin: PUBLIC_URL,
      imageDir: shop.app.config.imageDir,
      rrpTypeId: null,
    };
    const building = Array.from({ length: PHOTO_WORK_AT_ONCE }, () => marketplaceKit(sources, [withSvg.id]));
    const response = await shop.app.inject({
      method: 'POST',
      url: '/api/v1/marketplace-kit',
      headers: buyer.headers,
      payload: { products: [withSvg.id] },
    });
    for (const kit of building) kit.destroy();
    await Promise.all(building.map((kit) => once(kit, 'close')));
    expect(response.statusCode).toBe(503);
    expect(response.headers['retry-after']).toBeDefined();
    expect(json<{ detail: string }>(response).detail).toContain('повторите через несколько секунд');
  });
});
