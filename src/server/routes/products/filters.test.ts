import { and, eq, sql } from 'drizzle-orm';
import type { Product } from '../../../shared/api';
import { CATALOGUE_LIMITS } from '../../../shared/catalogue';
import { categories, products, variants } from '../../db/schema';
import {
  createTestApp,
  json,
  quickShoppers,
  STARTUP_TIMEOUT,
  type TestApp,
} from '../../../../test/server/helpers/test-app';

// A category of its own, made so that every filter and order has an answer one can work out by hand.
const CATEGORY = 'Проверка фильтров';
const URL = `/api/v1/products/categories/${encodeURIComponent(CATEGORY)}`;
const CYRILLIC = /[а-яё]/i;

interface Made {
  name: string;
  createdAt: string;
  hidden?: boolean;
  variants: { color: string; size: number; price: string; stock: number }[];
}

// Letters name the products in the order they are made, which is their ids' order.
const MADE: Record<'a' | 'b' | 'c' | 'd' | 'e' | 'f', Made> = {
  a: {
    name: 'Белка',
    createdAt: '2024-01-01T00:00:00Z',
    variants: [
      { color: 'красный', size: 20, price: '100.00', stock: 5 },
      { color: 'синий', size: 40, price: '300.00', stock: 0 },
    ],
  },
  b: {
    name: 'ёжик',
    createdAt: '2024-03-01T00:00:00Z',
    variants: [
      { color: 'красный', size: 60, price: '250.00', stock: 0 },
      { color: 'зелёный', size: 30, price: '90.50', stock: 2 },
    ],
  },
  c: {
    name: 'Аист',
    createdAt: '2024-02-01T00:00:00Z',
    variants: [{ color: 'синий', size: 25, price: '500.00', stock: 3 }],
  },
  d: { name: 'Жираф', createdAt: '2024-03-01T00:00:00Z', variants: [] },
  e: {
    name: 'Енот',
    createdAt: '2025-01-01T00:00:00Z',
    hidden: true,
    variants: [{ color: 'чёрный', size: 20, price: '10.00', stock: 5 }],
  },
  f: {
    name: 'бобр',
    createdAt: '2023-01-01T00:00:00Z',
    variants: [{ color: 'красный', size: 45, price: '100.00', stock: 1 }],
  },
};
type Letter = keyof typeof MADE;

let shop: TestApp;
const ids = {} as Record<Letter, number>;
const variantIds = {} as Record<Letter, number[]>;

beforeAll(async () => {
  shop = await createTestApp();
  const { db } = shop.app.database;
  const [category] = await db
    .insert(categories)
    .values({ name: CATEGORY, position: 100 })
    .returning({ id: categories.id });
  for (const [letter, made] of Object.entries(MADE) as [Letter, Made][]) {
    const [row] = await db
      .insert(products)
      .values({
        art: `FLT-${letter}`,
        name: made.name,
        image: 'MO-1001.svg',
        categoryId: category!.id,
        curatedRank: 1,
        createdAt: new Date(made.createdAt),
        hiddenAt: made.hidden ? new Date() : null,
      })
      .returning({ id: products.id });
    ids[letter] = row!.id;
    const added = made.variants.length
      ? await db
          .insert(variants)
          .values(made.variants.map((variant) => ({ ...variant, productId: row!.id })))
          .returning({ id: variants.id })
      : [];
    variantIds[letter] = added.map((variant) => variant.id);
  }
  shop.app.catalogueCache.invalidate();
}, STARTUP_TIMEOUT);
afterAll(() => shop.close());

const get = (query: Record<string, string> = {}) => shop.app.inject({ method: 'GET', url: URL, query });

/** The letters of the products a query lists, in its order. */
async function listed(query: Record<string, string>): Promise<Letter[]> {
  const response = await get(query);
  expect(response.statusCode).toBe(200);
  const byId = new Map(Object.entries(ids).map(([letter, id]) => [id, letter as Letter]));
  return json<Product[]>(response).map((product) => byId.get(product.id)!);
}

describe('without filters the category page is as SPEC has it', () => {
  it('lists the visible products by id, each with every variant', async () => {
    expect(await listed({})).toEqual(['a', 'b', 'c', 'd', 'f']);
    const [first] = json<Product[]>(await get({ limit: '1' }));
    expect(first!.variants.map((variant) => variant.id)).toEqual(variantIds.a);
  });

  it('in_stock=false filters nothing: the very same bytes as no parameter', async () => {
    const plain = await get();
    expect((await get({ in_stock: 'false' })).body).toBe(plain.body);
    expect((await get({ skip: '0', limit: '10' })).body).toBe(plain.body);
  });
});

describe('each filter', () => {
  it.each([
    ['color', { color: 'красный' }, ['a', 'b', 'f']],
    ['color with no visible product (the hidden one’s)', { color: 'чёрный' }, []],
    ['in_stock', { in_stock: 'true' }, ['a', 'b', 'c', 'f']],
    ['size_min', { size_min: '45' }, ['b', 'f']],
    ['size_max', { size_max: '20' }, ['a']],
    ['size range, ends included', { size_min: '30', size_max: '45' }, ['a', 'b', 'f']],
    ['price_min', { price_min: '300' }, ['a', 'c']],
    ['price_max with kopecks', { price_max: '90.5' }, ['b']],
    ['price range', { price_min: '100.01', price_max: '250' }, ['b']],
  ] as const)('%s', async (_name, query, expected) => {
    expect(await listed(query)).toEqual(expected);
  });

  it('the product’s answer still carries all its variants, not only the matching ones', async () => {
    const [product] = json<Product[]>(await get({ color: 'зелёный' }));
    expect(product!.id).toBe(ids.b);
    expect(product!.variants.map((variant) => variant.id).sort()).toEqual([...variantIds.b].sort());
  });
});

describe('filters together: one variant must pass them all', () => {
  it.each([
    // a has a blue variant and an in-stock one, but its blue one is sold out.
    ['colour and stock', { color: 'синий', in_stock: 'true' }, ['c']],
    // b is red (size 60) and has a size 30 (green), but no red of size 30–50.
    ['colour and size', { color: 'красный', size_min: '30', size_max: '50' }, ['f']],
    ['colour, price and stock', { color: 'красный', price_max: '100', in_stock: 'true' }, ['a', 'f']],
    ['size and price', { size_min: '25', price_max: '300' }, ['a', 'b', 'f']],
    [
      'all of them',
      { color: 'красный', size_min: '10', size_max: '50', price_min: '50', price_max: '150', in_stock: 'true' },
      ['a', 'f'],
    ],
  ] as const)('%s', async (_name, query, expected) => {
    expect(await listed(query)).toEqual(expected);
  });
});

describe('sorting', () => {
  it.each([
    // Lowest prices: b 90.50, a 100, f 100 (tie: by id), c 500; d has none and goes last.
    ['price_asc', { sort: 'price_asc' }, ['b', 'a', 'f', 'c', 'd']],
    ['price_desc', { sort: 'price_desc' }, ['c', 'a', 'f', 'b', 'd']],
    // By the lowest price among the matching variants: b counts at 250 (its red), not 90.50.
    ['price_asc among the filtered variants', { sort: 'price_asc', color: 'красный' }, ['a', 'f', 'b']],
    ['price_desc among the filtered variants', { sort: 'price_desc', in_stock: 'true' }, ['c', 'a', 'f', 'b']],
    // Case-insensitive, ё as е: аист, белка, бобр, ёжик, жираф.
    ['name', { sort: 'name' }, ['c', 'a', 'f', 'b', 'd']],
    // Newest first; b and d were added at the same moment: the later id first.
    ['new', { sort: 'new' }, ['d', 'b', 'c', 'a', 'f']],
    ['new, filtered', { sort: 'new', in_stock: 'true' }, ['b', 'c', 'a', 'f']],
  ] as const)('%s', async (_name, query, expected) => {
    expect(await listed(query)).toEqual(expected);
  });

  it('pages of a sorted, filtered list are its slices', async () => {
    const whole = await listed({ sort: 'price_asc', in_stock: 'true' });
    expect(await listed({ sort: 'price_asc', in_stock: 'true', skip: '1', limit: '2' })).toEqual(whole.slice(1, 3));
    expect(await listed({ sort: 'price_asc', in_stock: 'true', skip: '3', limit: '2' })).toEqual(whole.slice(3));
    expect(await listed({ sort: 'price_asc', in_stock: 'true', skip: '4', limit: '2' })).toEqual([]);
  });
});

describe('bad values → 422 {detail} in Russian', () => {
  it.each([
    ['unknown sort', { sort: 'cheap' }, 'Сортировка'],
    ['empty colour', { color: '' }, 'Цвет'],
    ['colour over its maximum length', { color: 'к'.repeat(CATALOGUE_LIMITS.colorMax + 1) }, 'Цвет'],
    ['negative price_min', { price_min: '-1' }, 'Цена от'],
    ['negative price_max', { price_max: '-0.01' }, 'Цена до'],
    ['non-numeric price', { price_max: 'дёшево' }, 'Цена до'],
    ['price_min above the maximum', { price_min: String(Math.ceil(CATALOGUE_LIMITS.priceMax)) }, 'Цена от'],
    ['price_max above the maximum', { price_max: String(Math.ceil(CATALOGUE_LIMITS.priceMax)) }, 'Цена до'],
    ['fractional size', { size_min: '2.5' }, 'Размер от'],
    ['negative size', { size_max: '-3' }, 'Размер до'],
    ['negative size_min', { size_min: '-1' }, 'Размер от'],
    ['size_min above the maximum', { size_min: String(CATALOGUE_LIMITS.sizeMax + 1) }, 'Размер от'],
    ['size_max above the maximum', { size_max: String(CATALOGUE_LIMITS.sizeMax + 1) }, 'Размер до'],
    ['in_stock not a boolean', { in_stock: 'yes' }, 'В наличии'],
    ['size_min above size_max', { size_min: '50', size_max: '20' }, '«Размер от» больше, чем «Размер до»'],
    ['price_min above price_max', { price_min: '500', price_max: '100' }, '«Цена от» больше, чем «Цена до»'],
  ])('%s', async (_name, query, named) => {
    const response = await get(query);
    expect(response.statusCode).toBe(422);
    const body = response.json() as { detail: string };
    expect(Object.keys(body)).toEqual(['detail']);
    expect(body.detail).toMatch(CYRILLIC);
    expect(body.detail).toContain(named);
  });

  it('an unknown category is still 404 with filters', async () => {
    const response = await shop.app.inject({
      method: 'GET',
      url: `/api/v1/products/categories/${encodeURIComponent('Нет такой')}`,
      query: { sort: 'name', color: 'красный' },
    });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ detail: expect.stringMatching(CYRILLIC) });
  });
});

describe('the colour filter’s choices', () => {
  it('are the colours of the category’s visible products, each once, in order', async () => {
    const response = await shop.app.inject({ method: 'GET', url: `${URL}/colors` });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(['зелёный', 'красный', 'синий']);
  });

  it('an unknown category → 404 {detail}', async () => {
    const response = await shop.app.inject({ method: 'GET', url: '/api/v1/products/categories/nope/colors' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ detail: expect.stringMatching(CYRILLIC) });
  });
});

describe('cached filtered answers', () => {
  it('are kept apart by their filters and follow an order that takes the last unit', async () => {
    const inStockRed = { color: 'красный', in_stock: 'true' };
    expect(await listed(inStockRed)).toEqual(['a', 'f']);
    // A filtered page is kept once asked for again: this one is in the cache when the order comes.
    expect(await listed(inStockRed)).toEqual(['a', 'f']);
    // Each filter answers its own list, however many were asked before it.
    expect(await listed({ color: 'красный' })).toEqual(['a', 'b', 'f']);
    expect(await listed({ in_stock: 'true' })).toEqual(['a', 'b', 'c', 'f']);
    expect(await listed({ in_stock: 'true', color: 'красный' })).toEqual(['a', 'f']);

    const [buyer] = await quickShoppers(shop.app, 1);
    const placed = await shop.app.inject({
      method: 'POST',
      url: '/api/v1/order/',
      headers: buyer!.headers,
      payload: {
        user_id: buyer!.id,
        address: 'Казань',
        items: [{ product_id: ids.f, variant_id: variantIds.f[0], quantity: 1 }],
      },
    });
    expect(placed.statusCode).toBe(201);
    expect(await listed(inStockRed)).toEqual(['a']);
    expect(await listed({ color: 'красный' })).toEqual(['a', 'b', 'f']);
  });
});

describe('a product moved to another category takes its colours along', () => {
  const OTHER = 'Проверка переезда';
  const otherUrl = `/api/v1/products/categories/${encodeURIComponent(OTHER)}`;
  const listedIn = async (url: string, color: string) => {
    const response = await shop.app.inject({ method: 'GET', url, query: { color } });
    expect(response.statusCode).toBe(200);
    return json<Product[]>(response).map((product) => product.id);
  };
  /** Variants whose category is not their product's: the colour filter would list them wrongly. */
  const strayVariants = async () => {
    const { rows } = (await shop.app.database.db.execute(
      sql`select count(*)::int as stray from ${variants} join ${products} on ${products.id} = ${variants.productId}
          where ${variants.categoryId} is distinct from ${products.categoryId}`,
    )) as unknown as { rows: [{ stray: number }] };
    return rows[0].stray;
  };

  it('the colour filter finds it in its new category, with a variant added after the move too', async () => {
    const { db } = shop.app.database;
    const [home] = await db.select({ id: products.categoryId }).from(products).where(eq(products.id, ids.f));
    const [other] = await db.insert(categories).values({ name: OTHER, position: 101 }).returning({ id: categories.id });
    await db.update(products).set({ categoryId: other!.id }).where(eq(products.id, ids.f));
    await db.insert(variants).values({ productId: ids.f, color: 'оранжевый', size: 50, price: '120.00', stock: 1 });
    shop.app.catalogueCache.invalidate();
    try {
      expect(await strayVariants()).toBe(0);
      expect(await listedIn(URL, 'красный')).toEqual([ids.a, ids.b]);
      expect(await listedIn(otherUrl, 'красный')).toEqual([ids.f]);
      expect(await listedIn(otherUrl, 'оранжевый')).toEqual([ids.f]);
    } finally {
      await db.delete(variants).where(and(eq(variants.productId, ids.f), eq(variants.color, 'оранжевый')));
      await db.update(products).set({ categoryId: home!.id }).where(eq(products.id, ids.f));
      shop.app.catalogueCache.invalidate();
    }
    expect(await strayVariants()).toBe(0);
    expect(await listedIn(URL, 'красный')).toEqual([ids.a, ids.b, ids.f]);
  });
});
