import { expect, findProduct, screenshots, test } from './fixtures';

const productCards = (page: import('@playwright/test').Page) => page.locator('.product-grid a[href^="/product/"]');

test('a visitor browses the home page: carousel, 8 popular toys, paging', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('region', { name: 'Акции и новинки' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Популярные игрушки' })).toBeVisible();
  await expect(productCards(page)).toHaveCount(8);
  const firstPage = await productCards(page).allInnerTexts();

  await page.getByRole('button', { name: 'Вперёд' }).click();
  await expect(productCards(page)).toHaveCount(8);
  await expect.poll(() => productCards(page).allInnerTexts()).not.toEqual(firstPage);
  await page.getByRole('button', { name: 'Назад' }).click();
  await expect.poll(() => productCards(page).allInnerTexts()).toEqual(firstPage);
  await expect(page.getByRole('button', { name: 'Назад' })).toBeDisabled();
  await screenshots(page, 'home');
});

test('the catalogue keeps the chosen category across a reload', async ({ page }) => {
  await page.goto('/catalog');
  const select = page.getByRole('combobox', { name: 'Категория' });
  // antd's Select: the chosen category is the text shown in the control.
  const chosen = page.locator('.ant-select', { has: select });
  await expect(chosen).toHaveText('Мишки');
  await expect(page.getByText('Страница 1')).toBeVisible();
  await select.click();
  await page.locator('.ant-select-item-option', { hasText: 'Зайцы и кролики' }).click();
  await expect(chosen).toHaveText('Зайцы и кролики');
  await expect(productCards(page).first()).toBeVisible();

  await page.reload();
  await expect(chosen).toHaveText('Зайцы и кролики');
  await expect(productCards(page)).toHaveCount(9);
  // Exactly 9: the next page is empty, so there is no Forward (paging: navigation.e2e.ts).
  await expect(page.getByText('Страница 1')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Вперёд' })).toBeDisabled();
  await screenshots(page, 'catalog');
});

test('the price filter takes rubles as typed; the cards say their prices with kopecks and «₽»', async ({ page }) => {
  await page.goto('/catalog');
  await expect(productCards(page).first()).toBeVisible();
  const from = page.getByRole('spinbutton', { name: 'Цена от' });
  await from.fill('1999,5');
  await from.press('Enter');
  await expect(page).toHaveURL(/[?&]price_min=1999\.5(&|$)/);
  await expect(from).toHaveValue('1999,5');
  await expect(productCards(page).first()).toBeVisible();
  const prices = await productCards(page).locator('strong').allInnerTexts();
  for (const price of prices) {
    // «2 089,00 ₽»: no-break spaces between the groups and before the sign, two kopeck digits.
    expect(price).toMatch(/^\d{1,3}(\u00a0\d{3})*,\d{2}\u00a0₽$/);
    expect(Number(price.replace(/[^\d,]/g, '').replace(',', '.'))).toBeGreaterThanOrEqual(1999.5);
  }

  await page.reload();
  await expect(from).toHaveValue('1999,5');
});

test('a visitor sees a product but cannot buy it', async ({ page, request }) => {
  const product = await findProduct(request, (candidate) => candidate.variants.some((variant) => variant.stock > 0));
  await page.goto(`/product/${product.art}`);
  await expect(page.getByRole('heading', { name: product.name })).toBeVisible();
  await expect(page.getByText(/^В наличии: \d+ шт\.$/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Купить' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'В корзину', exact: true })).toBeDisabled();
  await expect(page.getByRole('heading', { name: 'Подробнее о товаре' })).toBeVisible();
  // What a reseller's marketplace card needs, of the product and of the chosen variant.
  const characteristics = page.locator('.product-characteristics');
  await expect(characteristics.getByText('Характеристики')).toBeVisible();
  await expect(characteristics.getByRole('row', { name: /ТН ВЭД \d{10}/ })).toBeVisible();
  await expect(characteristics.getByRole('row', { name: /Штрихкод 460\d{10}/ })).toBeVisible();
  await screenshots(page, 'product');
});

test('a product with no variants shows «Нет данных»', async ({ page, request }) => {
  const product = await findProduct(request, (candidate) => candidate.variants.length === 0);
  await page.goto(`/product/${product.art}`);
  await expect(page.getByLabel('Цена')).toHaveText('Нет данных');
  await expect(page.getByText('Нет в наличии')).toBeVisible();
});

for (const path of ['/cart', '/profile', '/checkout?items=MO-1001:1:1']) {
  test(`a visitor opening ${path} is sent to the home page`, async ({ page }) => {
    await page.goto(path);
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('heading', { name: 'Популярные игрушки' })).toBeVisible();
  });
}

test('an unknown article and an unknown route show the 404 page', async ({ page, console }) => {
  console.allowHttpStatus(404);
  await page.goto('/product/NO-SUCH-ART');
  await expect(page.getByRole('heading', { name: 'Упс... Страница не найдена' })).toBeVisible();
  await page.goto('/no/such/page');
  await expect(page.getByRole('heading', { name: 'Упс... Страница не найдена' })).toBeVisible();
  await screenshots(page, 'not-found');
  await page.getByRole('link', { name: 'На главную', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Популярные игрушки' })).toBeVisible();
});

test('the about page shows the company, its image and a way to the catalogue', async ({ page }) => {
  await page.goto('/about');
  await expect(page.getByRole('heading', { name: 'О компании' })).toBeVisible();
  const image = page.getByRole('img', { name: /Склад игрушек/ });
  await expect(image).toHaveJSProperty('complete', true);
  expect(await image.evaluate((element: HTMLImageElement) => element.naturalWidth)).toBeGreaterThan(0);
  await screenshots(page, 'about');
  await page.getByRole('link', { name: 'Перейти в каталог' }).click();
  await expect(page).toHaveURL(/\/catalog$/);
});
