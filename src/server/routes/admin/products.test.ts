import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AdminProduct, AdminProductList, AdminVariant, Cart, Product, ProductCreate } from '../../../shared/api';
import { createImagesRepository } from '../../repositories/images';
import { CATALOGUE_CHANNEL } from '../../db/notifications';
import { imageExists } from '../../services/catalogue-images';
import { buildApp } from '../../app';
import {
  json,
  STARTUP_TIMEOUT,
  usesPostgres,
  type Shopper,
  type TestApp,
} from '../../../../test/server/helpers/test-app';
import { expectManagersOnly, latestAudit, openBackOffice } from '../../../../test/server/helpers/back-office';

const CYRILLIC = /[а-яё]/i;

let shop: TestApp;
let buyer: Shopper;
let manager: Shopper;
let category: string;
let otherCategory: string;

beforeAll(async () => {
  ({ shop, buyer, manager } = await openBackOffice());
  const names = (await shop.app.inject({ method: 'GET', url: '/api/v1/products/categories/all' })).json() as string[];
  [category, otherCategory] = names as [string, string];
}, STARTUP_TIMEOUT);
afterAll(() => shop.close());

const admin = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object, who = manager) =>
  shop.app.inject({ method, url: `/api/v1/admin${url}`, payload, headers: who.headers });
const storefront = (url: string) => shop.app.inject({ method: 'GET', url: `/api/v1/products${url}` });

const newArt = () => `T-${randomBytes(4).toString('hex').toUpperCase()}`;

function newProduct(overrides: Partial<ProductCreate> = {}): ProductCreate {
  return {
    art: newArt(),
    name: 'Мишка тестовый',
    description: 'Мягкий',
    category,
    image: 'MO-1001.svg',
    variants: [
      { color: 'Бурый', size: 50, price: 1499.9, stock: 10 },
      { color: 'Бурый', size: 30, price: 999, stock: 5 },
    ],
    ...overrides,
  };
}

async function create(overrides: Partial<ProductCreate> = {}): Promise<AdminProduct> {
  const response = await admin('POST', '/products', newProduct(overrides));
  expect(response.statusCode).toBe(201);
  return json<AdminProduct>(response);
}

/** A product's marketplace card, not filled in (product-card.test.ts fills it). */
const emptyCard = {
  brand: null,
  material: null,
  filler: null,
  age_from: null,
  country_of_origin: null,
  tnved: null,
  conformity_document_id: null,
  photos: [],
};
const emptyVariantCard = { barcode: null, barcode_kind: null, marked: false, package: null, weight_g: null };

/** A variant's price in the default type («Опт», the first), without tiers. */
const inDefaultType = (price: number) => ({ price_type_id: 1, price, tiers: [] });

/** Whether any product, hidden or not, has this article. */
async function exists(art: string): Promise<boolean> {
  const page = json<AdminProductList>(await admin('GET', `/products?q=${encodeURIComponent(art)}`));
  return page.items.some((item) => item.art === art);
}

/** Every product of a storefront list, read page by page. */
async function storefrontList(url: string): Promise<Product[]> {
  const found: Product[] = [];
  for (let skip = 0; ; skip += 100) {
    const page = (await storefront(`${url}?skip=${skip}&limit=100`)).json() as Product[];
    found.push(...page);
    if (page.length < 100) return found;
  }
}

describe('access', () => {
  it('every products and variants route: 401 without a token, 403 for a buyer', async () => {
    await expectManagersOnly(shop.app, buyer, [
      ['GET', '/api/v1/admin/products'],
      ['GET', '/api/v1/admin/products/1'],
      ['POST', '/api/v1/admin/products', newProduct()],
      ['PATCH', '/api/v1/admin/products/1', { name: 'x' }],
      ['DELETE', '/api/v1/admin/products/1'],
      ['POST', '/api/v1/admin/products/1/variants', { color: 'a', size: 1, price: 1, stock: 1 }],
      ['PATCH', '/api/v1/admin/variants/1', { stock: 0 }],
      ['DELETE', '/api/v1/admin/variants/1'],
      ['GET', '/api/v1/admin/audit'],
    ]);
  });
});

describe('POST /api/v1/admin/products', () => {
  it('201 with ids, variants by size; on the storefront at once; audited with the product after', async () => {
    const body = newProduct({ popular: true, art: `  ${newArt()}  `, big_description: '   ' });
    const response = await admin('POST', '/products', body);
    expect(response.statusCode).toBe(201);
    const created = json<AdminProduct>(response);
    expect(created).toEqual({
      id: expect.any(Number),
      art: body.art.trim(),
      name: 'Мишка тестовый',
      description: 'Мягкий',
      big_description: null,
      category,
      popular: true,
      image: 'MO-1001.svg',
      hidden: false,
      // Sold by the piece, without tiers, each variant at its price in the default type alone.
      multiple: 1,
      min_quantity: 1,
      tiers: [],
      ...emptyCard,
      variants: [
        {
          id: expect.any(Number),
          color: 'Бурый',
          size: 30,
          price: 999,
          stock: 5,
          prices: [inDefaultType(999)],
          ...emptyVariantCard,
        },
        {
          id: expect.any(Number),
          color: 'Бурый',
          size: 50,
          price: 1499.9,
          stock: 10,
          prices: [inDefaultType(1499.9)],
          ...emptyVariantCard,
        },
      ],
    });
    expect(json<AdminProduct>(await admin('GET', `/products/${created.id}`))).toEqual(created);

    const page = await storefront(`/${encodeURIComponent(created.art)}`);
    expect(page.statusCode).toBe(200);
    expect(json<Product>(page).variants.map((variant) => variant.price)).toEqual([999, 1499.9]);
    // A manager's pick leads the popular list.
    const popular = json<Product[]>(await storefront('/popular?limit=100')).map((product) => product.art);
    expect(popular).toContain(created.art);

    const [entry] = await latestAudit(shop.app, manager);
    expect(entry).toEqual({
      id: expect.any(Number),
      at: expect.any(String),
      by: { id: manager.id, email: manager.email },
      action: 'product.create',
      entity: 'product',
      entity_id: String(created.id),
      before: null,
      after: created,
    });
  });

  it('takes a picture uploaded in the back office', async () => {
    const name = `${randomBytes(8).toString('hex')}.webp`;
    await createImagesRepository(shop.app.database.db).save(
      { name, contentType: 'image/webp', data: Buffer.from('webp'), width: 1, height: 1 },
      manager.id,
    );
    expect((await create({ image: name })).image).toBe(name);
  });

  it.each<[string, number, (art: string) => Partial<ProductCreate> | Record<string, unknown>, RegExp]>([
    ['a taken article (any spacing)', 409, () => ({ art: ' MO-1001 ' }), /Артикул «MO-1001» уже есть/],
    [
      'a price with a third decimal in one variant',
      422,
      () => ({ variants: [newProduct().variants[0]!, { color: 'Серый', size: 20, price: 10.005, stock: 1 }] }),
      /не больше двух знаков после запятой/,
    ],
    ['a zero price', 422, () => ({ variants: [{ color: 'Серый', size: 20, price: 0, stock: 1 }] }), CYRILLIC],
    ['a negative stock', 422, () => ({ variants: [{ color: 'Серый', size: 20, price: 1, stock: -1 }] }), CYRILLIC],
    ['a fractional stock', 422, () => ({ variants: [{ color: 'Серый', size: 20, price: 1, stock: 1.5 }] }), CYRILLIC],
    ['a fractional size', 422, () => ({ variants: [{ color: 'Серый', size: 20.5, price: 1, stock: 1 }] }), CYRILLIC],
    ['a size as text', 422, () => ({ variants: [{ color: 'Серый', size: '20', price: 1, stock: 1 }] }), CYRILLIC],
    ['a price as text', 422, () => ({ variants: [{ color: 'Серый', size: 20, price: '1', stock: 1 }] }), CYRILLIC],
    ['no variants', 422, () => ({ variants: [] }), CYRILLIC],
    [
      'one colour and size twice',
      422,
      () => ({
        variants: [
          { color: 'Серый', size: 20, price: 1, stock: 1 },
          { color: ' Серый ', size: 20, price: 2, stock: 1 },
        ],
      }),
      /Вариант «Серый, 20 см» указан дважды/,
    ],
    ['an unknown category', 422, () => ({ category: 'Нет такой' }), /Категории «Нет такой» нет/],
    ['a picture that does not exist', 422, () => ({ image: 'nothing.png' }), /Картинки «nothing.png» нет/],
    ['a picture outside the image folder', 422, () => ({ image: '../../../package.json' }), /Картинки/],
    ['a name of spaces', 422, () => ({ name: '   ' }), /не заполнено поле «Название»/],
    ['a colour of spaces', 422, () => ({ variants: [{ color: ' ', size: 20, price: 1, stock: 1 }] }), /«Цвет»/],
  ])('%s → %i {detail} in Russian, and nothing is saved', async (_case, status, overrides, detail) => {
    const art = newArt();
    const response = await admin('POST', '/products', { ...newProduct({ art }), ...overrides(art) });
    expect(response.statusCode).toBe(status);
    expect(response.json()).toEqual({ detail: expect.stringMatching(detail) });
    expect(await exists(art)).toBe(false);
  });

  it('a picture must be one the storefront can serve: a file in the image folder under a name GET /image refuses is none', async () => {
    const folder = await mkdtemp(path.join(tmpdir(), 'images-'));
    try {
      for (const name of ['мишка.svg', 'photo 1.svg', 'notes.txt', 'ok-1.svg']) {
        await writeFile(path.join(folder, name), '<svg xmlns="http://www.w3.org/2000/svg"/>');
      }
      const found = async (name: string) => imageExists(shop.app.database.db, folder, name);
      expect(await found('ok-1.svg')).toBe(true);
      for (const name of ['мишка.svg', 'photo 1.svg', 'notes.txt', '../images/ok-1.svg']) {
        expect([name, await found(name)]).toEqual([name, false]);
      }
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('a taken article refused inside the transaction leaves no product, variant or audit entry', async () => {
    const taken = await create();
    const [before] = await latestAudit(shop.app, manager);
    const response = await admin('POST', '/products', newProduct({ art: taken.art, name: 'Дубликат' }));
    expect(response.statusCode).toBe(409);
    const page = json<AdminProductList>(await admin('GET', `/products?q=${taken.art}`));
    expect(page.items.map((item) => item.name)).toEqual(['Мишка тестовый']);
    expect((await latestAudit(shop.app, manager))[0]!.id).toBe(before!.id);
  });
});

describe('GET /api/v1/admin/products', () => {
  it('q: the start of an article in any case, or part of a name; category; paging; hidden ones flagged', async () => {
    const art = newArt();
    const first = await create({ art, name: 'Жираф Пятнистый' });
    const second = await create({ art: `${art}-B`, name: 'Жираф Ушастый', category: otherCategory });
    await admin('DELETE', `/products/${second.id}`);

    const byArt = json<AdminProductList>(await admin('GET', `/products?q=${art.toLowerCase()}`));
    expect(byArt.items.map((item) => [item.id, item.hidden])).toEqual([
      [second.id, true],
      [first.id, false],
    ]);
    expect(byArt.total).toBe(2);
    // Not the middle of an article.
    expect(json<AdminProductList>(await admin('GET', `/products?q=${art.slice(3)}`)).total).toBe(0);
    const byName = json<AdminProductList>(await admin('GET', `/products?q=${encodeURIComponent('жираф пятн')}`));
    expect(byName.items.map((item) => item.id)).toContain(first.id);
    expect(byName.items.map((item) => item.id)).not.toContain(second.id);
    const inCategory = json<AdminProductList>(
      await admin('GET', `/products?q=${art}&category=${encodeURIComponent(otherCategory)}`),
    );
    expect(inCategory.items.map((item) => item.id)).toEqual([second.id]);
    const paged = json<AdminProductList>(await admin('GET', `/products?q=${art}&skip=1&limit=1`));
    expect(paged).toEqual({ items: [expect.objectContaining({ id: first.id })], total: 2 });
    // LIKE's wildcards are searched for as they are.
    expect(json<AdminProductList>(await admin('GET', '/products?q=%25')).total).toBe(0);
  });

  it('an unknown product → 404; a bad id or limit → 422', async () => {
    expect((await admin('GET', '/products/2147483647')).statusCode).toBe(404);
    expect((await admin('GET', '/products/0')).statusCode).toBe(422);
    expect((await admin('GET', '/products?limit=1000')).statusCode).toBe(422);
  });
});

describe('PATCH /api/v1/admin/products/{id}', () => {
  it('changes fields and category, answers the product, audits before and after, shows on the storefront', async () => {
    const product = await create();
    await storefront(`/${product.art}`); // cached now
    const response = await admin('PATCH', `/products/${product.id}`, {
      name: 'Мишка новый',
      category: otherCategory,
      description: '',
    });
    expect(response.statusCode).toBe(200);
    const after = json<AdminProduct>(response);
    expect(after).toEqual({ ...product, name: 'Мишка новый', category: otherCategory, description: null });
    expect(json<Product>(await storefront(`/${product.art}`)).name).toBe('Мишка новый');
    const inOther = await storefrontList(`/categories/${encodeURIComponent(otherCategory)}`);
    expect(inOther.map((item) => item.id)).toContain(product.id);

    const [entry] = await latestAudit(shop.app, manager);
    expect(entry).toMatchObject({ action: 'product.update', entity_id: String(product.id), before: product, after });
  });

  it('a taken article → 409, an unknown category or picture → 422, an unknown product → 404; nothing changes', async () => {
    const product = await create();
    for (const [patch, status] of [
      [{ art: 'MO-1001', name: 'Другое' }, 409],
      [{ category: 'Нет такой', name: 'Другое' }, 422],
      [{ image: 'nothing.svg' }, 422],
      [{}, 422],
      [{ popular: 'yes' }, 422],
    ] as const) {
      const response = await admin('PATCH', `/products/${product.id}`, patch);
      expect([patch, response.statusCode]).toEqual([patch, status]);
      expect(response.json()).toEqual({ detail: expect.stringMatching(CYRILLIC) });
    }
    expect(json<AdminProduct>(await admin('GET', `/products/${product.id}`))).toEqual(product);
    expect((await admin('PATCH', '/products/2147483647', { name: 'x' })).statusCode).toBe(404);
  });
});

describe('DELETE /api/v1/admin/products/{id} hides the product', () => {
  it('gone from the storefront at once, kept for orders and carts; PATCH hidden: false brings it back', async () => {
    const product = await create({ popular: true });
    const [variant, ordered] = product.variants as [AdminVariant, AdminVariant];
    const kept = await create();
    const addToCart = (productId: number, variantId: number) =>
      shop.app.inject({
        method: 'POST',
        url: '/api/v1/cart/add',
        headers: buyer.headers,
        payload: { user_id: buyer.id, product_id: productId, variant_id: variantId, count: 2 },
      });
    const order = (variantId = variant.id) =>
      shop.app.inject({
        method: 'POST',
        url: '/api/v1/order/',
        headers: buyer.headers,
        payload: {
          user_id: buyer.id,
          address: 'Тверь',
          items: [{ product_id: product.id, variant_id: variantId, quantity: 1 }],
        },
      });
    // The buyer has ordered it before, and has it in the cart beside another product.
    expect((await order(ordered.id)).statusCode).toBe(201);
    expect((await addToCart(product.id, variant.id)).statusCode).toBe(201);
    expect((await addToCart(kept.id, kept.variants[0]!.id)).statusCode).toBe(201);
    // Cached before hiding.
    expect((await storefront(`/${product.art}`)).statusCode).toBe(200);
    expect((await storefrontList(`/categories/${encodeURIComponent(category)}`)).map((p) => p.id)).toContain(
      product.id,
    );

    const response = await admin('DELETE', `/products/${product.id}`);
    expect(response.statusCode).toBe(200);
    expect(json<AdminProduct>(response)).toMatchObject({ id: product.id, art: product.art, hidden: true });

    expect((await storefront(`/${product.art}`)).statusCode).toBe(404);
    for (const list of ['/popular', `/categories/${encodeURIComponent(category)}`, '/']) {
      expect((await storefrontList(list)).map((p) => p.id)).not.toContain(product.id);
    }
    const cart = json<Cart>(
      await shop.app.inject({ method: 'GET', url: `/api/v1/cart/${buyer.id}`, headers: buyer.headers }),
    );
    const lineOf = (variantId: number) => cart.items.find((item) => item.variant_id === variantId)!;
    expect(lineOf(variant.id)).toMatchObject({ available: false, count: 2 });
    expect(lineOf(kept.variants[0]!.id).available).toBe(true);
    // Only what can be ordered counts towards the total.
    expect(cart.total_price).toBe(
      cart.items.filter((item) => item.available).reduce((sum, item) => sum + item.item_total, 0),
    );
    expect(cart.total_price).toBeLessThan(cart.items.reduce((sum, item) => sum + item.item_total, 0));
    const refused = await order();
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ detail: 'Товар снят с продажи: уберите его из корзины' });
    // To a buyer adding it, a product off sale is an unknown variant.
    const again = await addToCart(product.id, variant.id);
    expect(again.statusCode).toBe(422);
    expect(again.json()).toEqual({ detail: `Не удалось найти вариант с id=${variant.id} для продукта ${product.id}` });

    const [entry] = await latestAudit(shop.app, manager);
    expect(entry).toMatchObject({
      action: 'product.hide',
      entity_id: String(product.id),
      before: { hidden: false },
      after: { hidden: true },
    });
    // Hiding twice changes and logs nothing.
    expect((await admin('DELETE', `/products/${product.id}`)).statusCode).toBe(200);
    expect((await latestAudit(shop.app, manager))[0]!.id).toBe(entry!.id);

    const shown = await admin('PATCH', `/products/${product.id}`, { hidden: false });
    expect(json<AdminProduct>(shown).hidden).toBe(false);
    expect((await storefront(`/${product.art}`)).statusCode).toBe(200);
    expect((await order()).statusCode).toBe(201);
  });

  it('an unknown product → 404', async () => {
    const response = await admin('DELETE', '/products/2147483647');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ detail: 'Товар не найден' });
  });
});

describe('variants', () => {
  it('POST adds one (201), audited; the same colour and size again → 409', async () => {
    const product = await create();
    const response = await admin('POST', `/products/${product.id}/variants`, {
      color: 'Белый',
      size: 40,
      price: 1200.5,
      stock: 3,
    });
    expect(response.statusCode).toBe(201);
    const variant = json<AdminVariant>(response);
    expect(variant).toEqual({
      id: expect.any(Number),
      color: 'Белый',
      size: 40,
      price: 1200.5,
      stock: 3,
      prices: [inDefaultType(1200.5)],
      ...emptyVariantCard,
    });
    expect(json<Product>(await storefront(`/${product.art}`)).variants.map((v) => v.id)).toContain(variant.id);
    const [entry] = await latestAudit(shop.app, manager);
    expect(entry).toMatchObject({
      action: 'variant.create',
      entity: 'variant',
      entity_id: String(variant.id),
      before: null,
      after: { ...variant, product_id: product.id },
    });

    const twice = await admin('POST', `/products/${product.id}/variants`, {
      color: 'Белый',
      size: 40,
      price: 1,
      stock: 1,
    });
    expect(twice.statusCode).toBe(409);
    expect(twice.json()).toEqual({ detail: 'У товара уже есть вариант «Белый, 40 см»' });
    const unknown = await admin('POST', '/products/2147483647/variants', { color: 'a', size: 1, price: 1, stock: 1 });
    expect(unknown.statusCode).toBe(404);
  });

  it('PATCH changes the price, and the cached product page shows it at once', async () => {
    const product = await create();
    const variant = product.variants[0]!;
    expect(json<Product>(await storefront(`/${product.art}`)).variants[0]!.price).toBe(999);
    const response = await admin('PATCH', `/variants/${variant.id}`, { price: 1099.99, stock: 0 });
    expect(response.statusCode).toBe(200);
    expect(json<AdminVariant>(response)).toEqual({
      ...variant,
      price: 1099.99,
      stock: 0,
      prices: [inDefaultType(1099.99)],
    });
    const shown = json<Product>(await storefront(`/${product.art}`)).variants[0]!;
    expect([shown.price, shown.stock]).toEqual([1099.99, 0]);
    const [entry] = await latestAudit(shop.app, manager);
    expect(entry).toMatchObject({
      action: 'variant.update',
      before: { ...variant, product_id: product.id },
      after: { ...variant, price: 1099.99, stock: 0, prices: [inDefaultType(1099.99)], product_id: product.id },
    });
  });

  it('PATCH: a colour and size the product has → 409; kopecks, stock and size checked → 422; unknown → 404', async () => {
    const product = await create();
    const [small, large] = product.variants as [AdminVariant, AdminVariant];
    const taken = await admin('PATCH', `/variants/${large.id}`, { size: small.size });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toEqual({ detail: `У товара уже есть вариант «Бурый, ${small.size} см»` });
    for (const patch of [
      { price: 1.001 },
      { price: -1 },
      { stock: -1 },
      { stock: 0.5 },
      { size: 0 },
      {},
      { color: '' },
    ]) {
      const response = await admin('PATCH', `/variants/${large.id}`, patch);
      expect([patch, response.statusCode]).toEqual([patch, 422]);
      expect(response.json()).toEqual({ detail: expect.stringMatching(CYRILLIC) });
    }
    expect(json<AdminProduct>(await admin('GET', `/products/${product.id}`)).variants).toEqual(product.variants);
    expect((await admin('PATCH', '/variants/2147483647', { stock: 1 })).statusCode).toBe(404);
  });

  it('DELETE removes a variant nobody ordered (204); an ordered one → 409 suggesting stock 0; the last one → 409', async () => {
    const product = await create();
    const [ordered, spare] = product.variants as [AdminVariant, AdminVariant];
    const placed = await shop.app.inject({
      method: 'POST',
      url: '/api/v1/order/',
      headers: buyer.headers,
      payload: {
        user_id: buyer.id,
        address: 'Тверь',
        items: [{ product_id: product.id, variant_id: ordered.id, quantity: 1 }],
      },
    });
    expect(placed.statusCode).toBe(201);

    const refused = await admin('DELETE', `/variants/${ordered.id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      detail:
        'Вариант «Бурый, 30 см» есть в заказах (1), поэтому удалить его нельзя. Поставьте остаток 0: заказать его больше не смогут.',
    });

    const removed = await admin('DELETE', `/variants/${spare.id}`);
    expect(removed.statusCode).toBe(204);
    expect(json<Product>(await storefront(`/${product.art}`)).variants.map((v) => v.id)).toEqual([ordered.id]);
    const [entry] = await latestAudit(shop.app, manager);
    expect(entry).toMatchObject({
      action: 'variant.delete',
      entity_id: String(spare.id),
      before: { ...spare, product_id: product.id },
      after: null,
    });

    const lone = await create({ variants: [{ color: 'Рыжий', size: 25, price: 10, stock: 1 }] });
    const last = await admin('DELETE', `/variants/${lone.variants[0]!.id}`);
    expect(last.statusCode).toBe(409);
    expect(last.json()).toEqual({ detail: 'У товара должен остаться хотя бы один вариант' });
    expect((await admin('DELETE', '/variants/2147483647')).statusCode).toBe(404);
  });
});

describe('concurrent changes (run on PostgreSQL too)', () => {
  it('two creates of one article at once: one 201, the other 409, never a 500', async () => {
    const art = newArt();
    const statuses = await Promise.all(
      [1, 2, 3].map(() => admin('POST', '/products', newProduct({ art })).then((response) => response.statusCode)),
    );
    expect(statuses.sort()).toEqual([201, 409, 409]);
  });

  it("deleting both of a product's two variants at once leaves one", async () => {
    const product = await create();
    const statuses = await Promise.all(
      product.variants.map((variant) => admin('DELETE', `/variants/${variant.id}`).then((r) => r.statusCode)),
    );
    expect(statuses.sort()).toEqual([204, 409]);
    expect(json<AdminProduct>(await admin('GET', `/products/${product.id}`)).variants).toHaveLength(1);
  });
});

describe('every process hears of a change', () => {
  it('each change notifies the catalogue channel at commit; a refused one does not', async () => {
    let notices = 0;
    const stop = await shop.app.database.listen(CATALOGUE_CHANNEL, {
      onNotify: () => (notices += 1),
      onLost: () => {},
      onRestored: () => {},
    });
    try {
      const heard = async (expected: number) => {
        // Notifications are delivered asynchronously, after the commit.
        for (let waited = 0; notices < expected && waited < 5000; waited += 50) {
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        return notices;
      };
      const product = await create();
      expect(await heard(1)).toBe(1);
      await admin('PATCH', `/variants/${product.variants[0]!.id}`, { stock: 7 });
      expect(await heard(2)).toBe(2);
      expect((await admin('POST', '/products', newProduct({ art: product.art }))).statusCode).toBe(409);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(notices).toBe(2);
    } finally {
      await stop();
    }
  });
});

// Two server processes on one PostgreSQL database: a manager's change through one reaches the
// other's cache too.
if (usesPostgres) {
  it(
    "a price changed through another server process shows on this one's cached product page",
    async () => {
      const product = await create();
      const variant = product.variants[0]!;
      expect(json<Product>(await storefront(`/${product.art}`)).variants[0]!.price).toBe(variant.price);
      const other = await buildApp({ ...shop.config });
      await other.ready();
      try {
        const changed = await other.inject({
          method: 'PATCH',
          url: `/api/v1/admin/variants/${variant.id}`,
          headers: manager.headers,
          payload: { price: 777.77 },
        });
        expect(changed.statusCode).toBe(200);
        let seen = variant.price;
        for (const deadline = Date.now() + 3000; Date.now() < deadline && seen !== 777.77;) {
          await new Promise((resolve) => setTimeout(resolve, 50));
          seen = json<Product>(await storefront(`/${product.art}`)).variants[0]!.price!;
        }
        expect(seen).toBe(777.77);
      } finally {
        await other.close();
      }
    },
    STARTUP_TIMEOUT,
  );
}

describe('GET /api/v1/admin/audit', () => {
  it('newest first with the manager, paged with a total', async () => {
    const product = await create();
    await admin('PATCH', `/products/${product.id}`, { name: 'Мишка журнальный' });
    const [newest, older] = await latestAudit(shop.app, manager, 2);
    expect([newest!.action, older!.action]).toEqual(['product.update', 'product.create']);
    expect(newest!.id).toBeGreaterThan(older!.id);
    expect(new Date(newest!.at).getTime()).not.toBeNaN();
    const second = await admin('GET', '/audit?skip=1&limit=1');
    expect(second.json()).toEqual({ items: [older], total: expect.any(Number) });
    expect((await admin('GET', '/audit?limit=0')).statusCode).toBe(422);
  });
});
