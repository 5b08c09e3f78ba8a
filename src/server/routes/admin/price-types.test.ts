import type { AdminProduct, AdminVariant, PriceType, Product } from '../../../shared/api';
import { expectManagersOnly, latestAudit, openBackOffice } from '../../../../test/server/helpers/back-office';
import {
  allProducts,
  json,
  memberOf,
  STARTUP_TIMEOUT,
  type Shopper,
  type TestApp,
} from '../../../../test/server/helpers/test-app';

let shop: TestApp;
let buyer: Shopper;
let manager: Shopper;
let catalogue: Product[];

beforeAll(async () => {
  ({ shop, buyer, manager } = await openBackOffice());
  catalogue = await allProducts(shop.app);
}, STARTUP_TIMEOUT);
afterAll(() => shop.close());

const admin = (method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
  shop.app.inject({ method, url: `/api/v1/admin${url}`, headers: manager.headers, payload: payload as object });

async function createType(fields: Record<string, unknown>): Promise<PriceType> {
  const response = await admin('POST', '/price-types', fields);
  expect(response.statusCode).toBe(201);
  return json<PriceType>(response);
}

const typesNow = async () => json<PriceType[]>(await admin('GET', '/price-types'));
const productNow = async (id: number) => json<AdminProduct>(await admin('GET', `/products/${id}`));
let taken = 0;
/** A product of the seed no other test here touches. */
const spareProduct = () => catalogue[10 + taken++]!;

it('is for managers only', async () => {
  await expectManagersOnly(shop.app, buyer, [
    ['GET', '/api/v1/admin/price-types'],
    ['POST', '/api/v1/admin/price-types', { name: 'Тест' }],
    ['PATCH', '/api/v1/admin/price-types/1', { name: 'Тест' }],
    ['DELETE', '/api/v1/admin/price-types/1'],
    ['PUT', '/api/v1/admin/variants/1/prices'],
    ['PUT', '/api/v1/admin/products/1/prices'],
    ['GET', '/api/v1/admin/settings/storefront'],
    ['PUT', '/api/v1/admin/settings/storefront', { prices_for_visitors: false }],
  ]);
});

describe('price types', () => {
  it('the shop starts with «Опт», the default; a new type gets a code from its name that a rename keeps', async () => {
    const [opt] = await typesNow();
    expect(opt).toMatchObject({ code: 'opt', name: 'Опт', is_default: true, is_rrp: false, min_order_sum: 0 });
    const large = await createType({ name: 'Крупный опт', min_order_sum: 15000 });
    expect(large).toMatchObject({ code: 'krupnyy-opt', is_default: false, min_order_sum: 15000, companies_count: 0 });
    const renamed = json<PriceType>(await admin('PATCH', `/price-types/${large.id}`, { name: 'Крупный опт 2027' }));
    expect(renamed).toMatchObject({ id: large.id, code: 'krupnyy-opt', name: 'Крупный опт 2027' });
    const twin = await createType({ name: 'Крупный опт' });
    expect(twin.code).toBe('krupnyy-opt-2');
    expect((await latestAudit(shop.app, manager))[0]).toMatchObject({ action: 'price_type.create' });
  });

  it('refuses a name taken, a second RRP, an RRP default, and a minimum with fractions of a kopeck', async () => {
    await createType({ name: 'РРЦ', is_rrp: true });
    const before = await typesNow();
    const refusals = await Promise.all([
      admin('POST', '/price-types', { name: 'Опт' }),
      admin('POST', '/price-types', { name: 'Ещё РРЦ', is_rrp: true }),
      admin('POST', '/price-types', { name: 'Розница', is_rrp: true, is_default: true }),
      admin('POST', '/price-types', { name: 'Копейки', min_order_sum: 100.005 }),
      admin('POST', '/price-types', { name: '   ' }),
    ]);
    expect(refusals.map((response) => [response.statusCode, json<{ detail: string }>(response).detail])).toEqual([
      [409, 'Тип цен с таким названием уже есть'],
      [409, 'Рекомендованная розничная цена уже есть: она бывает одна'],
      [422, 'Рекомендованная розничная цена не может быть типом по умолчанию'],
      [422, 'Цена 100.005 ₽: не больше двух знаков после запятой (копейки)'],
      [422, 'Укажите название типа цен'],
    ]);
    expect(await typesNow()).toEqual(before);
  });

  it('a type a company buys by is not deleted (409), nor the default; an unused one is, with its prices', async () => {
    const regular = await createType({ name: 'Постоянный' });
    const { companyId } = await memberOf(shop.app, buyer.id);
    expect((await admin('PATCH', `/companies/${companyId}`, { price_type_id: regular.id })).statusCode).toBe(200);
    const refused = await admin('DELETE', `/price-types/${regular.id}`);
    expect(refused.statusCode).toBe(409);
    expect(json<{ detail: string }>(refused).detail).toBe(
      'Тип цен назначен компаниям (1): назначьте им другой тип, затем удалите',
    );
    const [opt] = await typesNow();
    expect((await admin('DELETE', `/price-types/${opt!.id}`)).statusCode).toBe(409);

    const product = spareProduct();
    const variant = product.variants[0]!;
    expect(
      (await admin('PUT', `/variants/${variant.id}/prices`, [{ price_type_id: regular.id, price: 100 }])).statusCode,
    ).toBe(200);
    await admin('PATCH', `/companies/${companyId}`, { price_type_id: null });
    expect((await admin('DELETE', `/price-types/${regular.id}`)).statusCode).toBe(204);
    expect((await productNow(product.id)).variants[0]!.prices.map((price) => price.price_type_id)).toEqual([opt!.id]);
  });

  it('an RRP type is never assigned to a company', async () => {
    const rrp = (await typesNow()).find((type) => type.is_rrp)!;
    const { companyId } = await memberOf(shop.app, buyer.id);
    const refused = await admin('PATCH', `/companies/${companyId}`, { price_type_id: rrp.id });
    expect([refused.statusCode, json<{ detail: string }>(refused).detail]).toEqual([
      422,
      'Рекомендованная розничная цена не назначается компании',
    ]);
  });

  it('making another type the default changes nobody’s price: the former default keeps its prices as its own', async () => {
    const product = spareProduct();
    const [first, second] = product.variants as [Product['variants'][number], Product['variants'][number]];
    const [opt] = await typesNow();
    const partner = await createType({ name: 'Партнёр' });
    // The partner type has its own price for the first variant only.
    await admin('PUT', `/variants/${first.id}/prices`, [{ price_type_id: partner.id, price: 111.11 }]);
    try {
      const made = await admin('PATCH', `/price-types/${partner.id}`, { is_default: true });
      expect(json<PriceType>(made).is_default).toBe(true);
      const after = await productNow(product.id);
      const priceIn = (variant: AdminVariant, typeId: number) =>
        variant.prices.find((price) => price.price_type_id === typeId)?.price;
      expect(
        after.variants
          .slice(0, 2)
          .map((variant) => [variant.price, priceIn(variant, partner.id), priceIn(variant, opt!.id)]),
      ).toEqual([
        [111.11, 111.11, first.price],
        [second.price, second.price, second.price],
      ]);
      // A visitor now reads the partner type's prices.
      const seen = json<Product>(
        await shop.app.inject({ method: 'GET', url: `/api/v1/products/${encodeURIComponent(product.art)}` }),
      );
      expect(seen.variants.slice(0, 2).map((variant) => variant.price)).toEqual([111.11, second.price]);
    } finally {
      // Back as it was, for the other tests.
      await admin('PATCH', `/price-types/${opt!.id}`, { is_default: true });
    }
    expect((await productNow(product.id)).variants[0]!.price).toBe(first.price);
  });
});

describe('a variant’s and a product’s prices', () => {
  it('sets a price and tiers per type, and the journal records them', async () => {
    const product = spareProduct();
    const variant = product.variants[0]!;
    const [opt] = await typesNow();
    const large = (await typesNow()).find((type) => type.code === 'krupnyy-opt')!;
    const response = await admin('PUT', `/variants/${variant.id}/prices`, [
      {
        price_type_id: large.id,
        price: 500,
        tiers: [
          { from: 12, price: 450 },
          { from: 48, price: 420.5 },
        ],
      },
      { price_type_id: opt!.id, price: 600, tiers: [{ from: 24, price: 550 }] },
    ]);
    expect(response.statusCode).toBe(200);
    const variantNow = json<AdminVariant>(response);
    expect(variantNow.price).toBe(600);
    // (The partner type, default for a while above, keeps every variant's price of that time as its own.)
    expect(variantNow.prices.filter((price) => [opt!.id, large.id].includes(price.price_type_id))).toEqual([
      { price_type_id: opt!.id, price: 600, tiers: [{ from: 24, price: 550 }] },
      {
        price_type_id: large.id,
        price: 500,
        tiers: [
          { from: 12, price: 450 },
          { from: 48, price: 420.5 },
        ],
      },
    ]);
    expect((await latestAudit(shop.app, manager))[0]).toMatchObject({ action: 'variant.prices', entity: 'variant' });

    const tiers = await admin('PUT', `/products/${product.id}/prices`, [
      { price_type_id: large.id, tiers: [{ from: 6, price: 480 }] },
    ]);
    expect(json<AdminProduct>(tiers).tiers).toEqual([{ price_type_id: large.id, tiers: [{ from: 6, price: 480 }] }]);
  });

  it('refuses tiers that do not increase, prices that rise with quantity, 0 and fractions of a kopeck; nothing changes', async () => {
    const product = spareProduct();
    const variant = product.variants[0]!;
    const [opt] = await typesNow();
    const before = await productNow(product.id);
    const put = (tiers: unknown, price: unknown = 500) =>
      admin('PUT', `/variants/${variant.id}/prices`, [{ price_type_id: opt!.id, price, tiers }]);
    const answers = await Promise.all([
      put([
        { from: 12, price: 450 },
        { from: 12, price: 440 },
      ]),
      put([
        { from: 12, price: 450 },
        { from: 48, price: 460 },
      ]),
      put([{ from: 12, price: 510 }]),
      put([], 0),
      put([], 10.001),
      put([{ from: 12, price: 0 }]),
      admin('PUT', `/products/${product.id}/prices`, [
        {
          price_type_id: opt!.id,
          tiers: [
            { from: 10, price: 9 },
            { from: 5, price: 8 },
          ],
        },
      ]),
    ]);
    expect(answers.map((answer) => [answer.statusCode, json<{ detail: string }>(answer).detail])).toEqual([
      [422, 'Количества в ценах по количеству должны возрастать'],
      [422, 'Цена от 48 шт. (460,00\u00a0₽) должна быть ниже цены за меньшее количество'],
      [422, 'Цена от 12 шт. (510,00\u00a0₽) должна быть ниже цены за меньшее количество'],
      [422, 'Цена должна быть больше нуля'],
      [422, 'Цена 10.001 ₽: не больше двух знаков после запятой (копейки)'],
      [422, 'Цена от 12 шт.: цена должна быть больше нуля'],
      [422, 'Количества в ценах по количеству должны возрастать'],
    ]);
    expect(await productNow(product.id)).toEqual(before);
  });

  it('the кратность and minimum are set with the product; a minimum that is not a multiple is refused', async () => {
    const product = spareProduct();
    const set = await admin('PATCH', `/products/${product.id}`, { multiple: 6, min_quantity: 12 });
    expect(set.statusCode).toBe(200);
    expect(json<AdminProduct>(set)).toMatchObject({ multiple: 6, min_quantity: 12 });
    const refused = await admin('PATCH', `/products/${product.id}`, { min_quantity: 10 });
    expect([refused.statusCode, json<{ detail: string }>(refused).detail]).toEqual([
      422,
      'Минимальное количество (10 шт.) должно быть кратно кратности (6)',
    ]);
    expect((await admin('PATCH', `/products/${product.id}`, { multiple: 0 })).statusCode).toBe(422);
    expect(await productNow(product.id)).toMatchObject({ multiple: 6, min_quantity: 12 });
  });
});

describe('«цены только после входа»', () => {
  it('hides prices from visitors in the API (the page: plugins/storefront-head.test.ts), and shows them when switched back', async () => {
    const product = catalogue[0]!;
    const productUrl = `/api/v1/products/${encodeURIComponent(product.art)}`;
    expect(json<{ prices_for_visitors: boolean }>(await admin('GET', '/settings/storefront'))).toEqual({
      prices_for_visitors: true,
    });
    expect((await admin('PUT', '/settings/storefront', { prices_for_visitors: false })).statusCode).toBe(200);
    try {
      const hidden = json<Product>(await shop.app.inject({ method: 'GET', url: productUrl }));
      expect(hidden.variants.every((variant) => variant.price === null && variant.tiers.length === 0)).toBe(true);
      // A signed-in buyer still sees them, in an answer no shared cache keeps.
      const signedIn = await shop.app.inject({ method: 'GET', url: productUrl, headers: buyer.headers });
      expect(json<Product>(signedIn).variants.every((variant) => typeof variant.price === 'number')).toBe(true);
      expect(signedIn.headers['cache-control']).toBe('private, no-cache');
      expect((await latestAudit(shop.app, manager))[0]).toMatchObject({ action: 'settings.storefront' });
    } finally {
      await admin('PUT', '/settings/storefront', { prices_for_visitors: true });
    }
    const shown = json<Product>(await shop.app.inject({ method: 'GET', url: productUrl }));
    expect(shown.variants.every((variant) => typeof variant.price === 'number')).toBe(true);
  });
});
