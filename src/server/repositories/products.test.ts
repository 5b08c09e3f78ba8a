import { asc, inArray } from 'drizzle-orm';
import type { Product } from '../../shared/api';
import { categories, products, variants } from '../db/schema';
import { createTestApp, STARTUP_TIMEOUT, type TestApp } from '../../../test/server/helpers/test-app';
import type { Page, ProductsRepository } from './products';
import type { PriceView } from '../domain/wholesale-price';

// Pages are read in two steps (the page's ids, then its rows): every page must still be exactly
// its slice of the whole ordering, also deep in it and across ties.

const ADDED = 150;
const CATEGORY = 'Мишки';

let shop: TestApp;
let repository: ProductsRepository;
/** The visitor's prices: the default type's (the shop shows prices to visitors unless told otherwise). */
let VISITOR: PriceView;

interface Row {
  id: number;
  categoryId: number;
  unitsOrdered: number;
  curatedRank: number;
}
let rows: Row[];
let categoryId: number;

beforeAll(async () => {
  shop = await createTestApp();
  repository = shop.app.repositories.products;
  VISITOR = await shop.app.priceViews.forVisitor();
  const { db } = shop.app.database;
  const [bears, other] = await db
    .select({ id: categories.id })
    .from(categories)
    .orderBy(asc(categories.position))
    .limit(2);
  categoryId = bears!.id;
  // Interleaved categories, and few distinct units and ranks, so that the ordering has many ties.
  const added = await db
    .insert(products)
    .values(
      Array.from({ length: ADDED }, (_, i) => ({
        art: `PAGE-${i}`,
        name: `Товар ${i}`,
        image: 'MO-1001.svg',
        categoryId: i % 3 === 0 ? other!.id : categoryId,
        unitsOrdered: (i * 7) % 5,
        curatedRank: (i * 11) % 13,
      })),
    )
    .returning({ id: products.id });
  await db
    .insert(variants)
    .values(added.map(({ id }) => ({ productId: id, color: 'серый', size: 30, price: '100.00', stock: 1 })));
  rows = await db
    .select({
      id: products.id,
      categoryId: products.categoryId,
      unitsOrdered: products.unitsOrdered,
      curatedRank: products.curatedRank,
    })
    .from(products);
}, STARTUP_TIMEOUT);
afterAll(() => shop.close());

const byId = (a: Row, b: Row) => a.id - b.id;
const byPopularity = (a: Row, b: Row) =>
  b.unitsOrdered - a.unitsOrdered || a.curatedRank - b.curatedRank || a.id - b.id;

async function expectEveryPage(read: (page: Page) => Promise<Product[] | null>, expected: Row[]): Promise<void> {
  const ids = expected.map((row) => row.id);
  for (const limit of [1, 8, 9, 100]) {
    for (let skip = 0; skip <= ids.length; skip += limit) {
      const page = await read({ skip, limit });
      expect(page?.map((product) => product.id)).toEqual(ids.slice(skip, skip + limit));
    }
  }
}

it('list pages follow the ids', async () => {
  await expectEveryPage((page) => repository.list(page, VISITOR), [...rows].sort(byId));
});

it('popular pages follow units ordered, then curated rank, then id', async () => {
  await expectEveryPage((page) => repository.listPopular(page, VISITOR), [...rows].sort(byPopularity));
});

it("a category's pages hold its products alone, by id", async () => {
  await expectEveryPage(
    (page) => repository.listByCategory(CATEGORY, page, VISITOR),
    rows.filter((row) => row.categoryId === categoryId).sort(byId),
  );
});

it("a deep page comes with its products' variants", async () => {
  const page = (await repository.listByCategory(CATEGORY, { skip: 90, limit: 9 }, VISITOR))!;
  const stored = await shop.app.database.db
    .select({ id: variants.id })
    .from(variants)
    .where(
      inArray(
        variants.productId,
        page.map((product) => product.id),
      ),
    );
  expect(page.flatMap((product) => product.variants.map((variant) => variant.id)).sort((a, b) => a - b)).toEqual(
    stored.map((variant) => variant.id).sort((a, b) => a - b),
  );
  expect(page.every((product) => product.variants.length > 0)).toBe(true);
});

it('an unknown category is null, a page past the end is empty', async () => {
  expect(await repository.listByCategory('Нет такой', { skip: 0, limit: 9 }, VISITOR)).toBeNull();
  const inCategory = rows.filter((row) => row.categoryId === categoryId).length;
  expect(await repository.listByCategory(CATEGORY, { skip: inCategory, limit: 9 }, VISITOR)).toEqual([]);
  expect(await repository.listPopular({ skip: rows.length, limit: 9 }, VISITOR)).toEqual([]);
});
