import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Page } from '@playwright/test';
import { expect, findProduct, test, type DemoProduct } from './fixtures';
import { startShop, type RunningShop } from './shop-server';

// Paging that does not lie and does not forget, a title per route, stock in view.

const productCards = (page: Page) => page.locator('.product-grid a[href^="/product/"]');
const forward = (page: Page) => page.getByRole('button', { name: 'Вперёд' });
const shownCategory = (page: Page) =>
  page.locator('.ant-select', { has: page.getByRole('combobox', { name: 'Категория' }) });
const addressQuery = (page: Page) => Object.fromEntries(new URL(page.url()).searchParams);

test('the home page keeps its page in the address: Back from a product and a reload return to it', async ({ page }) => {
  await page.goto('/');
  await expect(productCards(page)).toHaveCount(8);
  await forward(page).click();
  await expect(page).toHaveURL(/\/\?page=2$/);
  await expect(page).toHaveTitle('Популярные игрушки, страница 2 — Мягкий Опт');
  const secondPage = await productCards(page).allInnerTexts();

  await productCards(page).first().click();
  await expect(page).toHaveURL(/\/product\//);
  await page.goBack();
  await expect(page).toHaveURL(/\/\?page=2$/);
  await expect.poll(() => productCards(page).allInnerTexts()).toEqual(secondPage);

  await page.reload();
  await expect.poll(() => productCards(page).allInnerTexts()).toEqual(secondPage);
  await expect(page.getByRole('button', { name: 'Назад' })).toBeEnabled();
});

test('72 popular toys are 9 full pages: the ninth has no Forward, and a page past it opens the first', async ({
  page,
}) => {
  await page.goto('/?page=9');
  await expect(productCards(page)).toHaveCount(8);
  await expect(forward(page)).toBeDisabled();

  await page.goto('/?page=10');
  await expect(page).toHaveURL(/\/$/);
  await expect(productCards(page)).toHaveCount(8);
  await expect(page.getByRole('button', { name: 'Назад' })).toBeDisabled();
});

test('every demo category holds exactly 9 toys: Forward is disabled on its only page', async ({ page }) => {
  await page.goto('/catalog');
  await expect(productCards(page)).toHaveCount(9);
  await expect(page.getByText('Страница 1')).toBeVisible();
  await expect(forward(page)).toBeDisabled();

  await page.goto(`/catalog?category=${encodeURIComponent('Подушки и пледы')}`);
  await expect(shownCategory(page)).toHaveText('Подушки и пледы');
  await expect(productCards(page)).toHaveCount(9);
  await expect(forward(page)).toBeDisabled();
});

test('bad page numbers in the address open the first page', async ({ page }) => {
  for (const bad of ['0', '-1', 'abc', '1e9']) {
    await page.goto(`/catalog?page=${bad}`);
    await expect(productCards(page)).toHaveCount(9);
    await expect(page.getByText('Страница 1')).toBeVisible();
    await expect.poll(() => addressQuery(page)).toEqual({});
  }
});

test('each route names itself in the document title', async ({ page, request }) => {
  const product = await findProduct(request, () => true);
  for (const [address, title] of [
    ['/', 'Мягкий Опт — мягкие игрушки оптом'],
    ['/catalog', 'Каталог: Мишки — Мягкий Опт'],
    [`/product/${product.art}`, `${product.name} — Мягкий Опт`],
    ['/about', 'О компании — Мягкий Опт'],
    ['/order-success', 'Заказ принят — Мягкий Опт'],
    ['/no/such/page', 'Страница не найдена — Мягкий Опт'],
  ]) {
    await page.goto(address!);
    await expect(page).toHaveTitle(title!);
  }
});

test('an out-of-stock size and a sold-out colour look unavailable before they are clicked', async ({
  page,
  request,
}) => {
  // A product whose first variant (chosen at load) is in stock, with another size of its colour sold out.
  const soldOutBeside = ([first, ...rest]: DemoProduct['variants']) =>
    first && first.stock > 0 ? rest.find((variant) => variant.color === first.color && variant.stock === 0) : undefined;
  const product = await findProduct(request, ({ variants }) => soldOutBeside(variants) !== undefined);
  const soldOut = soldOutBeside(product.variants)!;
  await page.goto(`/product/${product.art}`);
  const sizes = page.getByRole('radiogroup', { name: 'Размер' });
  const size = sizes.getByRole('radio', { name: `${soldOut.size} см — нет в наличии` });
  const label = sizes.locator('label', {
    has: page.getByRole('radio', { name: `${soldOut.size} см — нет в наличии` }),
  });
  await expect(label).toBeVisible();
  await expect(label).toHaveCSS('text-decoration-line', 'line-through');
  await expect(label).toHaveAttribute('title', 'Нет в наличии');
  await expect(page.getByText('В наличии:')).toBeVisible();
  await expect(size).not.toBeChecked();
  // Still a choice (SPEC §4): chosen, it says so and cannot be bought.
  await label.click();
  await expect(size).toBeChecked();
  await expect(page.getByText('Нет в наличии', { exact: true }).first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Купить' })).toBeDisabled();

  const noneLeft = await findProduct(
    request,
    ({ variants }) => variants.length > 0 && variants.every((variant) => variant.stock === 0),
  );
  await page.goto(`/product/${noneLeft.art}`);
  const colourName = `${noneLeft.variants[0]!.color} — нет в наличии`;
  const colours = page.getByRole('radiogroup', { name: 'Цвет' });
  await expect(colours.locator('label', { has: page.getByRole('radio', { name: colourName }) })).toHaveCSS(
    'text-decoration-line',
    'line-through',
  );
});

test.describe('a category of two full pages (18 = 9·2)', () => {
  let shop: RunningShop;
  let dataDir: string;
  const HARES = 'Зайцы и кролики';

  test.beforeAll(async () => {
    test.setTimeout(240_000);
    // The demo catalogue's categories hold 9 toys each: the cats and dogs join the hares.
    dataDir = mkdtempSync(path.join(tmpdir(), 'myagkiy-opt-e2e-nav-'));
    await (await startShop({ DATA_DIR: dataDir })).stop();
    const move = `UPDATE products SET category_id = (SELECT id FROM categories WHERE name = '${HARES}')
      WHERE category_id = (SELECT id FROM categories WHERE name = 'Котики и собачки')`;
    // The shop's database has pg_trgm's indexes (search): PGlite must load the extension to write to it.
    const script = `const { PGlite } = require(${JSON.stringify(require.resolve('@electric-sql/pglite'))});
const { pg_trgm } = require(${JSON.stringify(require.resolve('@electric-sql/pglite/contrib/pg_trgm'))});
const db = new PGlite(process.argv[1], { extensions: { pg_trgm } });
db.exec(process.argv[2]).then(() => db.close()).catch((error) => { console.error(error); process.exit(1); });`;
    await promisify(execFile)(process.execPath, ['-e', script, path.join(dataDir, 'pglite'), move]);
    shop = await startShop({ DATA_DIR: dataDir });
  });

  test.afterAll(async () => {
    await shop?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('page 2 of a chosen category survives a product visit, Back and a reload; its Forward is disabled', async ({
    page,
  }) => {
    await page.goto(`${shop.url}/catalog`);
    await page.getByRole('combobox', { name: 'Категория' }).click();
    await page.locator('.ant-select-item-option', { hasText: HARES }).click();
    await expect(shownCategory(page)).toHaveText(HARES);
    await expect(productCards(page)).toHaveCount(9);
    await forward(page).click();
    await expect(page.getByText('Страница 2')).toBeVisible();
    expect(addressQuery(page)).toEqual({ category: HARES, page: '2' });
    await expect(productCards(page)).toHaveCount(9);
    await expect(forward(page)).toBeDisabled();
    await expect(page).toHaveTitle(`Каталог: ${HARES}, страница 2 — Мягкий Опт`);
    const secondPage = await productCards(page).allInnerTexts();

    await productCards(page).last().click();
    await expect(page).toHaveURL(/\/product\//);
    await expect(page.getByRole('button', { name: 'Купить' })).toBeVisible();
    await page.goBack();
    await expect(page.getByText('Страница 2')).toBeVisible();
    await expect(shownCategory(page)).toHaveText(HARES);
    await expect.poll(() => productCards(page).allInnerTexts()).toEqual(secondPage);

    await page.reload();
    await expect(page.getByText('Страница 2')).toBeVisible();
    await expect(shownCategory(page)).toHaveText(HARES);
    await expect.poll(() => productCards(page).allInnerTexts()).toEqual(secondPage);
    await expect(forward(page)).toBeDisabled();
  });
});
