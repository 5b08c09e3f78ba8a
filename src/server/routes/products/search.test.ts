import { eq } from 'drizzle-orm';
import type { Product } from '../../../shared/api';
import { LIMITS, PAGE_SIZE } from '../../../shared/limits';
import { SEARCH_READ_AS_HEADER } from '../../../shared/search';
import { categories, nameVocabulary, products } from '../../db/schema';
import { SEARCH_CANDIDATES } from '../../repositories/products';
import { createTestApp, STARTUP_TIMEOUT, json, type TestApp } from '../../../../test/server/helpers/test-app';

let shop: TestApp;

/** Products of this test only: made-up words and articles no seed product has. */
const OWN = [
  { art: 'ZEFIR-1', name: 'Лиса Рыжуля', description: null },
  { art: 'ZQ-2', name: 'Зайка zefir', description: 'Мягкий и белый' },
  { art: 'ZQ-3', name: 'Кот Пушок', description: 'Пушистый, как zefir' },
  { art: 'ZQX-10', name: 'Медведь Шмуглик большой', description: 'Плюшевый медведь' },
  { art: 'ZQX-1', name: 'Медведь Шмуглик', description: null },
  { art: 'ZQX-5', name: 'Мишка Шмуглика', description: 'Бурый' },
] as const;
const HIDDEN = { art: 'ZQX-9', name: 'Медведь Шмуглик снятый', description: null };

beforeAll(async () => {
  shop = await createTestApp();
  const { db } = shop.app.database;
  const [category] = await db.select({ id: categories.id }).from(categories).limit(1);
  const base = { image: 'none.svg', categoryId: category!.id, curatedRank: 1_000 };
  await db.insert(products).values(OWN.map((product) => ({ ...product, ...base })));
  await db.insert(products).values({ ...HIDDEN, ...base, hiddenAt: new Date() });
}, STARTUP_TIMEOUT);
afterAll(() => shop.close());

const search = (q: string, page: { skip?: number | string; limit?: number | string } = {}) =>
  shop.app.inject({
    method: 'GET',
    url: '/api/v1/products/search',
    query: { q, skip: String(page.skip ?? 0), limit: String(page.limit ?? 100) },
  });

async function arts(q: string, page?: { skip?: number; limit?: number }): Promise<string[]> {
  const response = await search(q, page);
  expect(response.statusCode).toBe(200);
  return json<Product[]>(response).map((product) => product.art);
}

describe('GET /api/v1/products/search', () => {
  it('answers products in the list shape, with their variants', async () => {
    const response = await search('мишка');
    expect(response.statusCode).toBe(200);
    const found = json<Product[]>(response);
    expect(found.length).toBeGreaterThan(0);
    expect(Object.keys(found[0]!).sort()).toEqual([
      'art',
      'big_description',
      'description',
      'id',
      'image',
      'min_quantity',
      'multiple',
      'name',
      'variants',
    ]);
    expect(found.some((product) => product.variants.length > 0)).toBe(true);
  });

  it('finds words of a name in another form (Russian stemming)', async () => {
    expect(await arts('мишки')).toContain('ZQX-5');
    expect(await arts('медведя')).toEqual(expect.arrayContaining(['ZQX-1', 'ZQX-10']));
    expect(await arts('шмуглики')).toEqual(expect.arrayContaining(['ZQX-1', 'ZQX-5', 'ZQX-10']));
  });

  it('finds every word of a query, not any', async () => {
    const found = await arts('медведь большой');
    expect(found).toContain('ZQX-10');
    expect(found).not.toContain('ZQX-1');
  });

  it('finds words of a description', async () => {
    expect(await arts('пушистые')).toContain('ZQ-3');
  });

  it('finds an article exactly or by its beginning, in any case, the exact one first', async () => {
    expect((await arts('ZQX-1'))[0]).toBe('ZQX-1');
    const byPrefix = await arts('zqx-');
    expect(byPrefix.slice(0, 3)).toEqual(['ZQX-1', 'ZQX-10', 'ZQX-5']);
    expect(await arts('zQx-1')).toEqual(expect.arrayContaining(['ZQX-1', 'ZQX-10']));
  });

  it('tolerates a typo in a name', async () => {
    expect(await arts('шмуглек')).toEqual(expect.arrayContaining(['ZQX-1', 'ZQX-10']));
    expect(await arts('медвдь шмуглик')).toContain('ZQX-1');
    expect(await arts('медвдь')).toEqual(expect.arrayContaining(['ZQX-1', 'ZQX-10']));
  });

  it('ranks article matches first, then names, then descriptions', async () => {
    expect(await arts('zefir')).toEqual(['ZEFIR-1', 'ZQ-2', 'ZQ-3']);
  });

  it('pages the ranked results', async () => {
    expect(await arts('zefir', { skip: 1, limit: 1 })).toEqual(['ZQ-2']);
    expect(await arts('zefir', { skip: 2, limit: 5 })).toEqual(['ZQ-3']);
    expect(await arts('zefir', { skip: 3, limit: 5 })).toEqual([]);
  });

  it('never shows a hidden product', async () => {
    expect(await arts('ZQX-9')).not.toContain('ZQX-9');
    expect(await arts('снятый')).not.toContain('ZQX-9');
  });

  it('reads LIKE wildcards as punctuation, which articles are compared without', async () => {
    expect(await arts('%')).toEqual([]);
    expect(await arts('zq_x%')).toEqual(await arts('zqx'));
    expect(await arts('z%x')).toEqual([]);
  });

  it.each(['', '   '])('refuses the empty query %j with 422 and a Russian detail', async (q) => {
    const response = await search(q);
    expect(response.statusCode).toBe(422);
    expect(json<{ detail: string }>(response).detail).toMatch(/Введите, что искать/);
  });

  it('refuses a missing query and a bad page with 422', async () => {
    const missing = await shop.app.inject({ method: 'GET', url: '/api/v1/products/search' });
    expect(missing.statusCode).toBe(422);
    expect(json<{ detail: string }>(missing).detail).toMatch(/q/);
    expect((await search('мишка', { limit: 0 })).statusCode).toBe(422);
  });

  it.each<[string, string, { skip?: number | string; limit?: number | string }, string]>([
    [`a query of ${LIMITS.searchQueryMax + 1} characters`, 'м'.repeat(LIMITS.searchQueryMax + 1), {}, '«q»'],
    ['skip=-1', 'мишка', { skip: -1 }, '«skip»'],
    ['skip not a number', 'мишка', { skip: 'abc' }, '«skip»'],
    [`limit=${PAGE_SIZE.serviceMax + 1}`, 'мишка', { limit: PAGE_SIZE.serviceMax + 1 }, '«limit»'],
  ])('refuses %s with 422 {detail} naming the field', async (_name, q, page, field) => {
    const response = await search(q, page);
    expect(response.statusCode).toBe(422);
    const body = json<{ detail: string }>(response);
    expect(Object.keys(body)).toEqual(['detail']);
    expect(body.detail).toMatch(/^Некорректные данные: поле /);
    expect(body.detail).toContain(field);
  });

  it(`takes a query of exactly ${LIMITS.searchQueryMax} characters`, async () => {
    expect(await arts('м'.repeat(LIMITS.searchQueryMax))).toEqual([]);
  });
});

describe('a word in more names than a search ranks', () => {
  const MANY = SEARCH_CANDIDATES + 50;

  beforeAll(async () => {
    const { db } = shop.app.database;
    const [category] = await db.select({ id: categories.id }).from(categories).limit(1);
    const base = { image: 'none.svg', categoryId: category!.id, curatedRank: 1_000 };
    await db
      .insert(products)
      .values(
        Array.from({ length: MANY }, (_, i) => ({ ...base, art: `VRH-${i}`, name: `Ворох ${i}`, description: null })),
      );
    // Made last, so that the names' index finds it after all the others: the article still leads.
    await db.insert(products).values({ ...base, art: 'ВОРОХ', name: 'Сундук', description: null });
  });

  it('still lists the article first, then names, in pages that never overlap', async () => {
    const pages: string[][] = [];
    for (let skip = 0; ; skip += 100) {
      const page = await arts('ворох', { skip, limit: 100 });
      if (page.length === 0) break;
      pages.push(page);
    }
    const found = pages.flat();
    expect(found[0]).toBe('ВОРОХ');
    expect(new Set(found).size).toBe(found.length);
    expect(found.slice(1).every((art) => art.startsWith('VRH-'))).toBe(true);
    // Ranked: at most SEARCH_CANDIDATES of the names, not all MANY.
    expect(found.length).toBe(1 + SEARCH_CANDIDATES);
  });
});

describe('typos are looked for among the words of the names, which follow the products', () => {
  /** How many names hold `word`, as the names' vocabulary counts them; null when none. */
  async function namesHolding(word: string): Promise<number | null> {
    const [row] = await shop.app.database.db
      .select({ products: nameVocabulary.products })
      .from(nameVocabulary)
      .where(eq(nameVocabulary.word, word));
    return row?.products ?? null;
  }

  it('a new name’s words, a renamed, hidden, shown and removed product', async () => {
    const { db } = shop.app.database;
    const [category] = await db.select({ id: categories.id }).from(categories).limit(1);
    const [made] = await db
      .insert(products)
      .values({
        art: 'ZQV-1',
        name: 'Кенгурушкин Шустрячок',
        description: null,
        image: 'none.svg',
        categoryId: category!.id,
        curatedRank: 1_000,
      })
      .returning({ id: products.id });
    expect(await namesHolding('шустрячок')).toBe(1);
    expect(await arts('шустрчок')).toEqual(['ZQV-1']);

    await db.update(products).set({ name: 'Кенгурушкин Попрыгунчик' }).where(eq(products.id, made!.id));
    shop.app.catalogueCache.invalidate();
    expect(await namesHolding('шустрячок')).toBeNull();
    expect(await namesHolding('кенгурушкин')).toBe(1);
    expect(await arts('шустрчок')).toEqual([]);
    expect(await arts('попрыгнчик')).toEqual(['ZQV-1']);

    await db.update(products).set({ hiddenAt: new Date() }).where(eq(products.id, made!.id));
    expect(await namesHolding('попрыгунчик')).toBeNull();
    await db.update(products).set({ hiddenAt: null }).where(eq(products.id, made!.id));
    expect(await namesHolding('попрыгунчик')).toBe(1);

    await db.delete(products).where(eq(products.id, made!.id));
    expect(await namesHolding('попрыгунчик')).toBeNull();
    expect(await namesHolding('кенгурушкин')).toBeNull();
    // Words other visible names still hold stay, counted: «шмуглик» is in two of this test's names
    // (a third, «Медведь Шмуглик снятый», is hidden).
    expect(await namesHolding('шмуглик')).toBe(2);
  });
});

describe('everyday inputs', () => {
  /** The article of the seed's product named `name`. */
  async function artOf(name: string): Promise<string> {
    const [found] = await shop.app.database.db
      .select({ art: products.art })
      .from(products)
      .where(eq(products.name, name));
    return found!.art;
  }

  it.each([
    ['мишек', 'Мишка Тедди с бантом'],
    ['vbirf', 'Мишка Тедди с бантом'],
    ['зайцы', 'Заяц Прыгунок'],
    ['pfzw', 'Заяц Прыгунок'],
    ['единорогов', 'Единорог Радуга'],
    ['единарог', 'Единорог Радуга'],
    ['тэдди', 'Мишка Тедди с бантом'],
  ])('«%s» finds «%s»', async (query, name) => {
    expect(await arts(query)).toContain(await artOf(name));
  });

  it('«зайцы» finds the category «Зайцы и кролики» too, the hares first', async () => {
    const found = await arts('зайцы');
    const hare = found.indexOf(await artOf('Заяц Прыгунок'));
    const rabbit = found.indexOf(await artOf('Кролик Снежок'));
    expect(rabbit).toBeGreaterThan(hare);
  });

  it.each(['МО-1001', 'MO 1001', 'mo1001', '1001', 'ЬЩ-1001'])('«%s» finds MO-1001 first', async (query) => {
    expect((await arts(query))[0]).toBe('MO-1001');
  });

  it('a word found as typed is not read in the other layout', async () => {
    expect(await arts('zefir')).toEqual(expect.arrayContaining(['ZEFIR-1', 'ZQ-2']));
    expect(await arts('zefir', { skip: 90 })).toEqual([]);
    expect((await search('zefir')).headers[SEARCH_READ_AS_HEADER]).toBeUndefined();
  });

  it('the answer names the text read in the other layout, from the cache as well', async () => {
    // Asked three times: the cache keeps a search asked a second time, and the third is its answer.
    for (let asked = 0; asked < 3; asked += 1) {
      const answer = await search('vbirf', { limit: 9 });
      expect([asked, decodeURIComponent(String(answer.headers[SEARCH_READ_AS_HEADER]))]).toEqual([asked, 'мишка']);
      const etag = String(answer.headers.etag);
      const revalidated = await shop.app.inject({
        method: 'GET',
        url: '/api/v1/products/search',
        query: { q: 'vbirf', skip: '0', limit: '9' },
        headers: { 'if-none-match': etag },
      });
      if (asked > 0)
        expect([revalidated.statusCode, revalidated.headers[SEARCH_READ_AS_HEADER]]).toEqual([
          304,
          answer.headers[SEARCH_READ_AS_HEADER],
        ]);
    }
    expect(decodeURIComponent(String((await search('ЬЩ-1001')).headers[SEARCH_READ_AS_HEADER]))).toBe('mo-1001');
    for (let asked = 0; asked < 3; asked += 1)
      expect((await search('мишка', { limit: 9 })).headers[SEARCH_READ_AS_HEADER]).toBeUndefined();
    // Nothing found in either layout: nothing to name.
    expect((await search('qqqqzzzz')).headers[SEARCH_READ_AS_HEADER]).toBeUndefined();
  });
});
