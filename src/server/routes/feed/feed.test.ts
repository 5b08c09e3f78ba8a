// The product feeds in YML: /api/v1/feed.yml and a company's secret address. Each feed is parsed
// whole (saxes: a file that is not well-formed XML 1.0 fails) and these YML rules are checked:
//  - the XML declaration (UTF-8); the root yml_catalog with `date` in RFC 3339 with its offset;
//  - shop: name, company, url (the public origin); currencies: RUR at rate 1;
//  - categories: each with an id and a name, and every offer's categoryId among them;
//  - offers: one per variant of every visible product (hidden products absent), id = the variant's,
//    available by its stock, group_id = the product's id, shared by its variants;
//  - name «name, colour, size см», url the product page, pictures absolute (the colour's photos,
//    then the product's set), vendor (brand), vendorCode (article);
//  - prices: the visitors' feed has the default type's, none at all while prices are shown only
//    after sign-in; a company's feed has its type's (the default's where its type has none) and
//    the recommended retail price as a param;
//  - barcode: GTINs only (a 1С internal code is left out);
//  - weight in kilograms; dimensions «Д/Ш/В» in centimetres;
//  - params: Цвет, Размер (unit см), Материал, Наполнитель, Возраст;
//  - count: in a company's feed only;
//  - escaping: a name with & < > " comes back as written; a character XML cannot hold is dropped.
// And the address: a wrong, replaced or revoked token is 404, a blocked company's 403; only the
// owner manages it (an employee 403). A catalogue change refreshes the feed (FEED_REFRESH_SECONDS 0).
import { mkdtemp, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import { SaxesParser } from 'saxes';
import type { CompanyFeed, CompanyFeedIssued, PriceType, Product } from '../../../shared/api';
import { announceCatalogueChange } from '../../db/notifications';
import { companies, productPhotos, products, users, variants } from '../../db/schema';
import { createFeedsRepository } from '../../repositories/feeds';
import { newManager } from '../../../../test/server/helpers/back-office';
import {
  allProducts,
  createTestApp,
  json,
  memberOf,
  quickShoppers,
  STARTUP_TIMEOUT,
  type Shopper,
  type TestApp,
} from '../../../../test/server/helpers/test-app';

interface XmlNode {
  name: string;
  attributes: Record<string, string>;
  children: XmlNode[];
  text: string;
}

/** The document's root element; throws on anything that is not well-formed XML. */
function parseXml(xml: string): XmlNode {
  const parser = new SaxesParser();
  const document: XmlNode = { name: '#document', attributes: {}, children: [], text: '' };
  const open = [document];
  parser.on('opentag', (tag) => {
    const node: XmlNode = {
      name: tag.name,
      attributes: tag.attributes as Record<string, string>,
      children: [],
      text: '',
    };
    open.at(-1)!.children.push(node);
    open.push(node);
  });
  parser.on('text', (text) => {
    open.at(-1)!.text += text;
  });
  parser.on('closetag', () => {
    open.pop();
  });
  parser.on('error', (error) => {
    throw error;
  });
  parser.write(xml).close();
  expect(document.children).toHaveLength(1);
  return document.children[0]!;
}

const child = (node: XmlNode, name: string) => node.children.find((candidate) => candidate.name === name);
const children = (node: XmlNode, name: string) => node.children.filter((candidate) => candidate.name === name);
const textOf = (node: XmlNode, name: string) => child(node, name)?.text;
const paramOf = (offer: XmlNode, name: string) =>
  children(offer, 'param').find((param) => param.attributes.name === name);

const ORIGIN = 'https://shop.example';
const GTIN = '4600000000008';
const INTERNAL_CODE = '000123';
const ODD_NAME = 'Мишка & <Тедди> "Люкс"\u0001';

let shop: TestApp;
let feedDir: string;
let manager: Shopper;
let owner: Shopper;
let employee: Shopper;
let largeType: PriceType;
let catalogue: Product[];
let product: Product;
let hidden: Product;

const admin = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
  shop.app.inject({ method, url: `/api/v1/admin${url}`, headers: manager.headers, payload: payload as object });

const companyFeed = (method: 'GET' | 'POST' | 'DELETE', shopper: Shopper) =>
  shop.app.inject({ method, url: '/api/v1/company/feed', headers: shopper.headers });

const read = (url: string) => shop.app.inject({ method: 'GET', url });

async function feedOf(url: string) {
  const response = await read(url);
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toBe('application/xml; charset=utf-8');
  expect(response.body.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
  const root = parseXml(response.body);
  const shopNode = child(root, 'shop')!;
  const offers = children(child(shopNode, 'offers')!, 'offer');
  return { response, root, shop: shopNode, offers };
}

const pathOf = (url: string) => new URL(url).pathname;

beforeAll(async () => {
  feedDir = await mkdtemp(path.join(tmpdir(), 'myagkiy-opt-feed-test-'));
  shop = await createTestApp({ publicUrl: ORIGIN, feeds: { dir: feedDir, refreshSeconds: 0 } });
  manager = await newManager(shop.app);
  [owner, employee] = (await quickShoppers(shop.app, 2)) as [Shopper, Shopper];
  const { companyId } = await memberOf(shop.app, owner.id);
  await shop.app.database.db
    .update(users)
    .set({ companyId, companyRole: 'purchaser' })
    .where(eq(users.id, employee.id));

  catalogue = await allProducts(shop.app);
  product = catalogue.find((candidate) => candidate.variants.length >= 2)!;
  hidden = catalogue.find((candidate) => candidate.id !== product.id)!;
  const db = shop.app.database.db;
  await db
    .update(products)
    .set({
      name: ODD_NAME,
      brand: 'Мягкий & Ко',
      material: 'плюш',
      filler: 'синтепон',
      ageFrom: 3,
      countryOfOrigin: 'Россия',
    })
    .where(eq(products.id, product.id));
  await db.update(products).set({ hiddenAt: new Date() }).where(eq(products.id, hidden.id));
  const [first, second] = product.variants as [Product['variants'][number], Product['variants'][number]];
  await db
    .update(variants)
    .set({ barcode: GTIN, packageLengthMm: 305, packageWidthMm: 200, packageHeightMm: 155, weightG: 1250, stock: 7 })
    .where(eq(variants.id, first.id));
  // The demo catalogue's package and weight off: a variant without them has no <dimensions> or <weight>.
  await db
    .update(variants)
    .set({
      barcode: INTERNAL_CODE,
      stock: 0,
      packageLengthMm: null,
      packageWidthMm: null,
      packageHeightMm: null,
      weightG: null,
    })
    .where(eq(variants.id, second.id));
  await db.insert(productPhotos).values([
    { productId: product.id, color: first.color, position: 1, image: 'colour-1.jpg' },
    { productId: product.id, color: null, position: 1, image: 'own-1.jpg' },
  ]);

  const types = json<PriceType[]>(await admin('GET', '/price-types'));
  const opt = types.find((type) => type.is_default)!;
  largeType = json<PriceType>(await admin('POST', '/price-types', { name: 'Крупный опт' }));
  const rrp = json<PriceType>(await admin('POST', '/price-types', { name: 'РРЦ', is_rrp: true }));
  await db.update(companies).set({ priceTypeId: largeType.id }).where(eq(companies.id, companyId));
  const prices = await admin('PUT', `/variants/${first.id}/prices`, [
    { price_type_id: opt.id, price: 600 },
    { price_type_id: largeType.id, price: 500.5 },
    { price_type_id: rrp.id, price: 990 },
  ]);
  expect(prices.statusCode).toBe(200);
  expect(
    (await admin('PUT', `/variants/${second.id}/prices`, [{ price_type_id: opt.id, price: 700 }])).statusCode,
  ).toBe(200);
}, STARTUP_TIMEOUT);
afterAll(async () => {
  await shop.close();
  await rm(feedDir, { recursive: true, force: true });
});

describe('the visitors’ feed', () => {
  it('is a YML catalogue of every visible variant, grouped by product, with the default type’s prices', async () => {
    const { root, shop: shopNode, offers } = await feedOf('/api/v1/feed.yml');
    expect(root.name).toBe('yml_catalog');
    expect(root.attributes.date).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/);
    expect(Number.isNaN(Date.parse(root.attributes.date!))).toBe(false);
    expect(textOf(shopNode, 'name')).toBe('Мягкий Опт');
    expect(textOf(shopNode, 'company')).toBeTruthy();
    expect(textOf(shopNode, 'url')).toBe(`${ORIGIN}/`);
    expect(children(child(shopNode, 'currencies')!, 'currency').map((currency) => currency.attributes)).toEqual([
      { id: 'RUR', rate: '1' },
    ]);

    const categoryIds = new Set(children(child(shopNode, 'categories')!, 'category').map((c) => c.attributes.id));
    for (const offer of offers) expect(categoryIds.has(textOf(offer, 'categoryId'))).toBe(true);

    const visible = (await allProducts(shop.app)).filter((candidate) => candidate.id !== hidden.id);
    const expected = visible.flatMap((item) => item.variants.map((variant) => [String(variant.id), String(item.id)]));
    expect(offers.map((offer) => [offer.attributes.id, textOf(offer, 'group_id')])).toEqual(
      expect.arrayContaining(expected),
    );
    expect(offers).toHaveLength(expected.length);
    const hiddenIds = new Set(hidden.variants.map((variant) => String(variant.id)));
    expect(offers.some((offer) => hiddenIds.has(offer.attributes.id!))).toBe(false);

    const [first, second] = product.variants;
    const firstOffer = offers.find((offer) => offer.attributes.id === String(first!.id))!;
    const secondOffer = offers.find((offer) => offer.attributes.id === String(second!.id))!;
    expect(textOf(firstOffer, 'price')).toBe('600');
    expect(textOf(secondOffer, 'price')).toBe('700');
    expect(paramOf(firstOffer, 'Рекомендованная розничная цена')?.text).toBe('990');
    expect(offers.every((offer) => child(offer, 'count') === undefined)).toBe(true);
    expect(offers.every((offer) => textOf(offer, 'currencyId') === 'RUR')).toBe(true);
  });

  it('writes the card: name, url, pictures, vendor, GTIN barcodes only, weight, dimensions and params', async () => {
    const { offers } = await feedOf('/api/v1/feed.yml');
    const [first, second] = product.variants;
    const firstOffer = offers.find((offer) => offer.attributes.id === String(first!.id))!;
    const secondOffer = offers.find((offer) => offer.attributes.id === String(second!.id))!;
    // Escaped in the file, as written once parsed; the control character XML cannot hold is dropped.
    expect(textOf(firstOffer, 'name')).toBe(`Мишка & <Тедди> "Люкс", ${first!.color}, ${first!.size} см`);
    expect(textOf(firstOffer, 'url')).toBe(`${ORIGIN}/product/${encodeURIComponent(product.art)}`);
    expect(firstOffer.attributes.available).toBe('true');
    expect(secondOffer.attributes.available).toBe('false');
    const pictures = children(firstOffer, 'picture').map((picture) => picture.text);
    expect(pictures.slice(0, 2)).toEqual([`${ORIGIN}/api/v1/image/colour-1.jpg`, `${ORIGIN}/api/v1/image/own-1.jpg`]);
    for (const offer of offers) {
      const all = children(offer, 'picture');
      expect(all.length).toBeGreaterThan(0);
      expect(all.length).toBeLessThanOrEqual(10);
      for (const picture of all) expect(picture.text).toMatch(/^https:\/\/shop\.example\/api\/v1\/image\/\S+$/);
    }
    expect(textOf(firstOffer, 'vendor')).toBe('Мягкий & Ко');
    expect(textOf(firstOffer, 'vendorCode')).toBe(product.art);
    expect(textOf(firstOffer, 'barcode')).toBe(GTIN);
    expect(child(secondOffer, 'barcode')).toBeUndefined();
    expect(textOf(firstOffer, 'weight')).toBe('1.25');
    expect(textOf(firstOffer, 'dimensions')).toBe('30.5/20/15.5');
    expect(child(secondOffer, 'dimensions')).toBeUndefined();
    expect(textOf(firstOffer, 'country_of_origin')).toBe('Россия');
    expect(paramOf(firstOffer, 'Цвет')?.text).toBe(first!.color);
    expect(paramOf(firstOffer, 'Размер')).toMatchObject({ text: String(first!.size), attributes: { unit: 'см' } });
    expect(paramOf(firstOffer, 'Материал')?.text).toBe('плюш');
    expect(paramOf(firstOffer, 'Наполнитель')?.text).toBe('синтепон');
    expect(paramOf(firstOffer, 'Возраст')?.text).toBe('от 3 лет');
  });

  it('is cacheable by its ETag, and compressed', async () => {
    const first = await read('/api/v1/feed.yml');
    const etag = String(first.headers.etag);
    expect(first.headers['last-modified']).toBeTruthy();
    const again = await shop.app.inject({
      method: 'GET',
      url: '/api/v1/feed.yml',
      headers: { 'if-none-match': etag },
    });
    expect(again.statusCode).toBe(304);
    const gzipped = await shop.app.inject({
      method: 'GET',
      url: '/api/v1/feed.yml',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzipped.rawPayload).toString()).toBe(first.body);
  });
});

describe('a company’s secret feed', () => {
  it('is managed by the owner only: made, shown once, replaced and revoked', async () => {
    expect((await companyFeed('POST', employee)).statusCode).toBe(403);
    expect((await companyFeed('GET', employee)).statusCode).toBe(403);
    expect(json<CompanyFeed>(await companyFeed('GET', owner))).toEqual({ active: false, created_at: null });

    const issued = await companyFeed('POST', owner);
    expect(issued.statusCode).toBe(201);
    const { url } = json<CompanyFeedIssued>(issued);
    expect(url).toMatch(/^https:\/\/shop\.example\/api\/v1\/feed\/[\w-]{43}\.yml$/);
    expect(json<CompanyFeed>(await companyFeed('GET', owner)).active).toBe(true);
    expect(JSON.stringify(json(await companyFeed('GET', owner)))).not.toContain(pathOf(url).slice(13, 56));

    expect((await read(pathOf(url))).statusCode).toBe(200);
    const replaced = json<CompanyFeedIssued>(await companyFeed('POST', owner));
    expect((await read(pathOf(url))).statusCode).toBe(404);
    expect((await read(pathOf(replaced.url))).statusCode).toBe(200);

    expect((await companyFeed('DELETE', employee)).statusCode).toBe(403);
    expect((await companyFeed('DELETE', owner)).statusCode).toBe(204);
    expect((await read(pathOf(replaced.url))).statusCode).toBe(404);
    expect(json<CompanyFeed>(await companyFeed('GET', owner)).active).toBe(false);
    expect((await read('/api/v1/feed/not-a-token.yml')).statusCode).toBe(404);
  });

  it('has the company’s type’s prices, the RRP and the stock; a blocked company’s is refused', async () => {
    const { url } = json<CompanyFeedIssued>(await companyFeed('POST', owner));
    const { offers, response } = await feedOf(pathOf(url));
    expect(response.headers['cache-control']).toBe('private, no-cache');
    const [first, second] = product.variants;
    const firstOffer = offers.find((offer) => offer.attributes.id === String(first!.id))!;
    const secondOffer = offers.find((offer) => offer.attributes.id === String(second!.id))!;
    // «Крупный опт» has its own price for the first; the second sells at the default type's.
    expect(textOf(firstOffer, 'price')).toBe('500.5');
    expect(textOf(secondOffer, 'price')).toBe('700');
    expect(paramOf(firstOffer, 'Рекомендованная розничная цена')?.text).toBe('990');
    expect(textOf(firstOffer, 'count')).toBe('7');
    expect(textOf(secondOffer, 'count')).toBe('0');
    expect(offers.every((offer) => child(offer, 'count') !== undefined)).toBe(true);

    const { companyId } = await memberOf(shop.app, owner.id);
    const db = shop.app.database.db;
    await db.update(companies).set({ blockedAt: new Date() }).where(eq(companies.id, companyId));
    expect((await read(pathOf(url))).statusCode).toBe(403);
    await db.update(companies).set({ blockedAt: null }).where(eq(companies.id, companyId));
    expect((await read(pathOf(url))).statusCode).toBe(200);
  });
});

describe('refreshing', () => {
  it('rebuilds the feeds after a catalogue change', async () => {
    const before = await read('/api/v1/feed.yml');
    expect(before.body).not.toContain('Переименованный мишка');
    await shop.app.database.db.transaction(async (tx) => {
      await tx.update(products).set({ name: 'Переименованный мишка' }).where(eq(products.id, product.id));
      await announceCatalogueChange(tx);
    });
    const deadline = Date.now() + 20_000;
    let body = before.body;
    while (!body.includes('Переименованный мишка') && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      body = (await read('/api/v1/feed.yml')).body;
    }
    expect(body).toContain('Переименованный мишка');
  });

  it('lists offers without prices while prices are shown only after sign-in', async () => {
    const hide = await admin('PUT', '/settings/storefront', { prices_for_visitors: false });
    expect(hide.statusCode).toBe(200);
    const { offers } = await feedOf('/api/v1/feed.yml');
    expect(offers.length).toBeGreaterThan(0);
    expect(offers.some((offer) => child(offer, 'price') !== undefined)).toBe(false);
    expect(offers.some((offer) => paramOf(offer, 'Рекомендованная розничная цена') !== undefined)).toBe(false);
    await admin('PUT', '/settings/storefront', { prices_for_visitors: true });
  });

  it('keeps each feed’s newest file in the feed directory, named in the database', async () => {
    const current = [...(await createFeedsRepository(shop.app.database.db).currentFiles())];
    expect(current.some((name) => name.startsWith(`company-t${largeType.id}-`))).toBe(true);
    const files = await readdir(feedDir);
    for (const name of current) expect(files).toContain(name);
  });
});

describe('a feed that cannot be built', () => {
  it('is 503 with a Retry-After and a detail in Russian, not 500', async () => {
    const newType = json<PriceType>(await admin('POST', '/price-types', { name: 'Новый опт' }));
    const { companyId } = await memberOf(shop.app, owner.id);
    await shop.app.database.db.update(companies).set({ priceTypeId: newType.id }).where(eq(companies.id, companyId));
    const { url } = json<CompanyFeedIssued>(await companyFeed('POST', owner));
    // The feed directory replaced by a file: no feed file can be written.
    await rename(feedDir, `${feedDir}-away`);
    await writeFile(feedDir, '');
    try {
      const response = await read(pathOf(url));
      expect(response.statusCode).toBe(503);
      expect(response.headers['retry-after']).toBe('60');
      expect(json<{ detail: string }>(response).detail).toMatch(/^Фид товаров не удалось подготовить/);
    } finally {
      await rm(feedDir);
      await rename(`${feedDir}-away`, feedDir);
    }
  });
});
