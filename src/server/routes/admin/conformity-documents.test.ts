import PDFDocument from 'pdfkit';
import type { ConformityDocument, ConformityProduct } from '../../../shared/api';
import { PRODUCT_CARD_LIMITS } from '../../../shared/product-card';
import {
  allProducts,
  json,
  STARTUP_TIMEOUT,
  type Shopper,
  type TestApp,
} from '../../../../test/server/helpers/test-app';
import { expectManagersOnly, latestAudit, openBackOffice } from '../../../../test/server/helpers/back-office';

let shop: TestApp;
let buyer: Shopper;
let manager: Shopper;
let productIds: number[];

beforeAll(async () => {
  ({ shop, buyer, manager } = await openBackOffice());
  productIds = (await allProducts(shop.app)).map((product) => product.id);
}, STARTUP_TIMEOUT);
afterAll(() => shop.close());

const URL = '/api/v1/admin/conformity-documents';

/** A real one-page PDF, as a scanner's software writes one. */
function pdfOf(text: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: 'A4' });
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    doc.text(text);
    doc.end();
  });
}

function form(fields: Record<string, string>, file?: Buffer) {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  if (file) body.append('file', new Blob([new Uint8Array(file)], { type: 'application/pdf' }), 'scan.pdf');
  return body;
}

let numbers = 0;
const fieldsOf = (overrides: Record<string, string> = {}) => ({
  kind: 'declaration',
  regulation: 'ТР ТС 008/2011',
  number: `ЕАЭС N RU Д-CN.РА01.В.${(numbers += 1).toString().padStart(5, '0')}/26`,
  valid_from: '2026-01-15',
  valid_to: '2031-01-14',
  ...overrides,
});

const post = (fields: Record<string, string>, file?: Buffer) =>
  shop.app.inject({ method: 'POST', url: URL, headers: manager.headers, payload: form(fields, file) });

const request = (method: 'GET' | 'PATCH' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  shop.app.inject({ method, url: `${URL}${url}`, headers: manager.headers, payload });

async function created(overrides: Record<string, string> = {}): Promise<ConformityDocument> {
  const response = await post(fieldsOf(overrides), await pdfOf('Декларация'));
  expect(response.statusCode).toBe(201);
  return json<ConformityDocument>(response);
}

const listed = async () => json<ConformityDocument[]>(await request('GET', ''));

it('every route: 401 without a token, 403 for a buyer', async () => {
  await expectManagersOnly(shop.app, buyer, [
    ['GET', URL],
    ['POST', URL],
    ['PATCH', `${URL}/1`, { number: 'X' }],
    ['PUT', `${URL}/1/pdf`],
    ['GET', `${URL}/1/pdf`],
    ['GET', `${URL}/1/products`],
    ['PUT', `${URL}/1/products`, { products: [] }],
    ['DELETE', `${URL}/1`],
  ]);
});

it('POST keeps the document and its PDF (201), audited; GET lists it; its PDF downloads by number', async () => {
  const pdf = await pdfOf('Сертификат соответствия');
  const response = await post(fieldsOf({ kind: 'certificate', number: ' ЕАЭС RU С-CN.АБ12.В.00077/26 ' }), pdf);
  expect(response.statusCode).toBe(201);
  const document = json<ConformityDocument>(response);
  expect(document).toEqual({
    id: expect.any(Number),
    kind: 'certificate',
    regulation: 'ТР ТС 008/2011',
    number: 'ЕАЭС RU С-CN.АБ12.В.00077/26',
    valid_from: '2026-01-15',
    valid_to: '2031-01-14',
    pdf_bytes: pdf.length,
    products: 0,
    expired: false,
  });
  expect(await listed()).toContainEqual(document);
  expect((await latestAudit(shop.app, manager))[0]).toMatchObject({
    action: 'conformity_document.create',
    entity: 'conformity_document',
    entity_id: String(document.id),
  });

  const download = await request('GET', `/${document.id}/pdf`);
  expect(download.statusCode).toBe(200);
  expect(download.headers['content-type']).toBe('application/pdf');
  expect(download.headers['content-disposition']).toContain(
    `filename*=UTF-8''${encodeURIComponent('ЕАЭС_RU_С-CN.АБ12.В.00077_26.pdf')}`,
  );
  expect(download.rawPayload.equals(pdf)).toBe(true);
});

it('a file that is not a PDF → 415, nothing kept', async () => {
  const before = (await listed()).length;
  const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
  const response = await post(fieldsOf(), png);
  expect(response.statusCode).toBe(415);
  expect(response.json()).toEqual({ detail: 'Файл документа должен быть в формате PDF' });
  expect(await listed()).toHaveLength(before);
});

it('a PDF over the limit → 413', async () => {
  const big = Buffer.concat([await pdfOf('Большой'), Buffer.alloc(PRODUCT_CARD_LIMITS.documentPdfMax)]);
  const response = await post(fieldsOf(), big);
  expect(response.statusCode).toBe(413);
  expect(response.json()).toEqual({ detail: 'Файл больше 20 МБ' });
});

it('a number another document has → 409, on POST and on PATCH', async () => {
  const first = await created();
  const again = await post(fieldsOf({ number: first.number }), await pdfOf('Копия'));
  expect(again.statusCode).toBe(409);
  expect(again.json()).toEqual({ detail: `Документ с номером «${first.number}» уже есть` });

  const second = await created();
  const renamed = await request('PATCH', `/${second.id}`, { number: first.number });
  expect(renamed.statusCode).toBe(409);
  expect((await listed()).find((document) => document.id === second.id)!.number).toBe(second.number);
});

it.each([
  [
    { valid_from: '2026-05-01', valid_to: '2026-04-30' },
    'Срок действия документа не может закончиться раньше, чем начался',
  ],
  [{ valid_to: '2026-02-30' }, 'Даты 2026-02-30 нет в календаре'],
  [{ valid_to: '30.04.2026' }, expect.stringMatching(/^Некорректные данные: поле «valid_to»/)],
  [{ kind: 'passport' }, expect.stringMatching(/^Некорректные данные: поле «kind»/)],
  [{ number: '   ' }, 'Не заполнено поле «Номер»'],
])('fields %j → 422 {detail}, nothing kept', async (overrides, detail) => {
  const before = (await listed()).length;
  const response = await post(fieldsOf(overrides), await pdfOf('Декларация'));
  expect(response.statusCode).toBe(422);
  expect(response.json()).toEqual({ detail });
  expect(await listed()).toHaveLength(before);
});

it('PATCH checks the dates as they will stand; a validity past is flagged expired', async () => {
  const document = await created({ valid_from: '2020-01-01', valid_to: '2030-01-01' });
  const backwards = await request('PATCH', `/${document.id}`, { valid_to: '2019-12-31' });
  expect(backwards.statusCode).toBe(422);

  const response = await request('PATCH', `/${document.id}`, { valid_to: '2021-01-01', regulation: 'ТР ТС 017/2011' });
  expect(response.statusCode).toBe(200);
  expect(json<ConformityDocument>(response)).toMatchObject({
    valid_to: '2021-01-01',
    regulation: 'ТР ТС 017/2011',
    expired: true,
  });
  expect((await latestAudit(shop.app, manager))[0]).toMatchObject({
    action: 'conformity_document.update',
    before: { valid_to: '2030-01-01' },
    after: { valid_to: '2021-01-01' },
  });
});

it('PUT /pdf replaces the PDF; not a PDF → 415 and the old one stays', async () => {
  const document = await created();
  const replacement = await pdfOf('Новая редакция декларации с приложением');
  const upload = (file: Buffer) =>
    shop.app.inject({
      method: 'PUT',
      url: `${URL}/${document.id}/pdf`,
      headers: manager.headers,
      payload: form({}, file),
    });

  const replaced = await upload(replacement);
  expect(replaced.statusCode).toBe(200);
  expect(json<ConformityDocument>(replaced).pdf_bytes).toBe(replacement.length);

  const refused = await upload(Buffer.from('<html>not a pdf</html>'));
  expect(refused.statusCode).toBe(415);
  expect((await request('GET', `/${document.id}/pdf`)).rawPayload.equals(replacement)).toBe(true);
});

it('PUT /products sets the products covered; a product with another document moves to this one', async () => {
  const [a, b, c] = productIds as [number, number, number];
  const first = await created();
  const second = await created();

  const linked = await request('PUT', `/${first.id}/products`, { products: [a, b, a] });
  expect(linked.statusCode).toBe(200);
  expect(
    json<ConformityProduct[]>(linked)
      .map((product) => product.id)
      .sort(),
  ).toEqual([a, b].sort());

  const moved = await request('PUT', `/${second.id}/products`, { products: [b, c] });
  expect(moved.statusCode).toBe(200);
  const counts = Object.fromEntries((await listed()).map((document) => [document.id, document.products]));
  expect([counts[first.id], counts[second.id]]).toEqual([1, 2]);
  expect(json<ConformityProduct[]>(await request('GET', `/${first.id}/products`)).map((p) => p.id)).toEqual([a]);
  expect((await latestAudit(shop.app, manager))[0]).toMatchObject({
    action: 'conformity_document.products',
    before: { products: [] },
  });

  // The list is the whole set: a product left out no longer names the document.
  await request('PUT', `/${second.id}/products`, { products: [c] });
  expect(json<ConformityProduct[]>(await request('GET', `/${second.id}/products`)).map((p) => p.id)).toEqual([c]);
});

it('PUT /products with a product that is not there → 422, nothing changes', async () => {
  const document = await created();
  await request('PUT', `/${document.id}/products`, { products: [productIds[0]] });
  const response = await request('PUT', `/${document.id}/products`, { products: [productIds[1], 2_000_000_000] });
  expect(response.statusCode).toBe(422);
  expect(response.json()).toEqual({ detail: 'Товара с id 2000000000 нет' });
  expect(json<ConformityProduct[]>(await request('GET', `/${document.id}/products`)).map((p) => p.id)).toEqual([
    productIds[0],
  ]);
});

it('DELETE: 409 while products name the document, 204 once none does; then 404', async () => {
  const document = await created();
  await request('PUT', `/${document.id}/products`, { products: productIds.slice(3, 5) });

  const refused = await request('DELETE', `/${document.id}`);
  expect(refused.statusCode).toBe(409);
  expect(refused.json()).toEqual({
    detail: 'Документ указан у 2 товаров: уберите его из товаров, прежде чем удалять',
  });

  await request('PUT', `/${document.id}/products`, { products: [] });
  expect((await request('DELETE', `/${document.id}`)).statusCode).toBe(204);
  expect((await latestAudit(shop.app, manager))[0]).toMatchObject({ action: 'conformity_document.delete' });
  expect((await listed()).map((listedDocument) => listedDocument.id)).not.toContain(document.id);
  const gone = await request('GET', `/${document.id}/pdf`);
  expect(gone.statusCode).toBe(404);
  expect(gone.json()).toEqual({ detail: 'Документ соответствия не найден' });
});
