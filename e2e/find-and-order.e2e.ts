import { readFileSync } from 'node:fs';
import type { APIRequestContext, Page } from '@playwright/test';
import { formatRubles } from '../src/shared/money';
import {
  PASSWORD,
  axeViolations,
  expect,
  findProduct,
  logInThroughDialog,
  ORDER_DETAILS,
  registerBuyer,
  test,
  type DemoProduct,
} from './fixtures';

// Finding a toy from the header, ordering every colour and size at once, and an order
// opened from the profile, repeated, downloaded and cancelled.

const searchBox = (page: Page) => page.getByRole('banner').getByRole('searchbox', { name: 'Поиск товаров' });
const suggestField = (page: Page) => page.getByRole('banner').getByRole('combobox', { name: 'Поиск товаров' });
const suggestions = (page: Page) =>
  page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .search-option');
const productCards = (page: Page) => page.locator('.product-grid a[href^="/product/"]');
const cardArticles = async (page: Page) =>
  (await productCards(page).allInnerTexts()).map((text) => /Артикул: (\S+)/.exec(text)?.[1]);

// Intl separates thousands with a no-break space; compare texts with plain spaces.
const plain = (text: string) => text.replace(/\s/g, ' ');

/** What the search API finds for a query, in its order: what the header and the results page show. */
async function found(request: APIRequestContext, query: string): Promise<string[]> {
  const response = await request.get(`/api/v1/products/search?${new URLSearchParams({ q: query, limit: '100' })}`);
  expect(response.status()).toBe(200);
  return ((await response.json()) as DemoProduct[]).map((product) => product.art);
}

/** The header's field with suggestions: its code arrives when the plain field is first focused. */
async function focusSearch(page: Page) {
  await searchBox(page).click();
  await expect(suggestField(page)).toBeFocused();
  return suggestField(page);
}

interface Session {
  userId: number;
  headers: { authorization: string };
}

/** The page's own session (the token's `sub` is the user's id), to check through the API what the server holds. */
async function sessionOf(page: Page): Promise<Session> {
  const token = (await page.evaluate(() => sessionStorage.getItem('access_token')))!;
  const { sub } = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { sub: string };
  return { userId: Number(sub), headers: { authorization: `Bearer ${token}` } };
}

/** The cart on the server: pieces by variant id. */
async function cartOf(page: Page): Promise<Record<number, number>> {
  const { userId, headers } = await sessionOf(page);
  const response = await page.request.get(`/api/v1/cart/${userId}`, { headers });
  expect(response.status()).toBe(200);
  const { items } = (await response.json()) as { items: { variant_id: number; count: number }[] };
  return Object.fromEntries(items.map((item) => [item.variant_id, item.count]));
}

async function logInAs(page: Page, email: string): Promise<void> {
  await page.goto('/');
  await logInThroughDialog(page, email);
}

test('the header suggests as one types, the arrows and Enter open a product, Enter alone the results', async ({
  page,
  request,
}) => {
  const word = 'мишка';
  const expected = await found(request, word);
  expect(expected.length).toBeGreaterThan(1);
  await page.goto('/catalog');

  const field = await focusSearch(page);
  await field.pressSequentially(word, { delay: 30 });
  await expect(suggestions(page)).toHaveCount(Math.min(expected.length, 8));
  await expect
    .poll(async () => (await suggestions(page).allInnerTexts()).map((text) => text.split('\n').at(-1)))
    .toEqual(expected.slice(0, 8));
  // Names with the word first, then the rest of its category («Мишки»: «Большой медведь Михалыч»).
  const named = (await suggestions(page).allInnerTexts()).map((text) => text.toLowerCase().includes(word.slice(0, 4)));
  expect(named[0]).toBe(true);
  expect(named).toEqual([...named].sort((a, b) => Number(b) - Number(a)));

  await field.press('ArrowDown');
  await field.press('ArrowDown');
  await field.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/product/${expected[1]}$`));
  const second = (await (await request.get(`/api/v1/products/${expected[1]}`)).json()) as DemoProduct;
  await expect(page.getByRole('heading', { level: 1, name: second.name })).toBeVisible();
  // The field is emptied for the next search.
  await expect(suggestField(page)).toHaveValue('');

  // Enter with nothing chosen: the results page for the text.
  await suggestField(page).fill(word);
  await suggestField(page).press('Enter');
  await expect(page).toHaveURL(`/search?q=${encodeURIComponent(word)}`);
  await expect(page.getByRole('heading', { level: 1, name: `Поиск: «${word}»` })).toBeVisible();
  await expect.poll(() => cardArticles(page)).toEqual(expected.slice(0, 9));
  // The suggestions do not cover the results.
  await expect(suggestions(page)).toHaveCount(0);
  await expect(suggestField(page)).toHaveAttribute('aria-expanded', 'false');
});

test('the results page pages through what was found, finds a product by its article, and passes axe', async ({
  page,
  request,
}) => {
  // A word of the descriptions: more toys than one page holds.
  const word = 'мягк';
  const expected = await found(request, word);
  expect(expected.length).toBeGreaterThan(9);
  expect(expected.length).toBeLessThanOrEqual(18);
  await page.goto('/');
  const field = await focusSearch(page);
  await field.fill(word);
  await page.getByRole('banner').getByRole('button', { name: 'Найти' }).click();
  await expect(page).toHaveURL(`/search?q=${encodeURIComponent(word)}`);
  await expect(page).toHaveTitle(`Поиск: «${word}» — Мягкий Опт`);
  await expect.poll(() => cardArticles(page)).toEqual(expected.slice(0, 9));
  // The suggestions asked for while typing arrive after the click: they must not open over the results.
  await page.waitForTimeout(500);
  await expect(suggestField(page)).toHaveAttribute('aria-expanded', 'false');
  expect(await axeViolations(page, 'search')).toEqual([]);

  await page.getByRole('button', { name: 'Вперёд' }).click();
  await expect(page.getByText('Страница 2')).toBeVisible();
  await expect.poll(() => cardArticles(page)).toEqual(expected.slice(9));
  await expect(page.getByRole('button', { name: 'Вперёд' })).toBeDisabled();
  // The page is in the address: a reload stays on it.
  await page.reload();
  await expect(page.getByText('Страница 2')).toBeVisible();
  await expect.poll(() => cardArticles(page)).toEqual(expected.slice(9));
  await page.getByRole('button', { name: 'Назад' }).click();
  await expect.poll(() => cardArticles(page)).toEqual(expected.slice(0, 9));

  // An article's beginning, typed in any case, finds the toys of that series.
  await page.goto('/search?q=mo-10');
  await expect(page.getByRole('heading', { level: 1, name: 'Поиск: «mo-10»' })).toBeVisible();
  await expect.poll(() => cardArticles(page)).toEqual((await found(request, 'mo-10')).slice(0, 9));
  expect(await cardArticles(page)).toContain('MO-1001');
  await productCards(page).filter({ hasText: 'Артикул: MO-1001' }).click();
  await expect(page).toHaveURL(/\/product\/MO-1001$/);

  // Nothing found, and no query at all.
  await page.goto('/search?q=жирафозавр');
  await expect(page.getByText('Товары не найдены')).toBeVisible();
  await page.goto('/search');
  await expect(page.getByText(/Введите в поле поиска слово из названия или артикул/)).toBeVisible();
  expect(await axeViolations(page, 'search, no query')).toEqual([]);
});

/** Several colours and sizes, one cell out of stock, and at least three in stock, one with little of it. */
const isGoodForMatrix = (product: DemoProduct) => {
  const colours = new Set(product.variants.map((variant) => variant.color));
  const sizes = new Set(product.variants.map((variant) => variant.size));
  const inStock = product.variants.filter((variant) => variant.stock > 0);
  return (
    colours.size >= 2 &&
    sizes.size >= 2 &&
    product.variants.some((variant) => variant.stock === 0) &&
    inStock.length >= 3 &&
    inStock.some((variant) => variant.stock < 100)
  );
};

test('the colour × size matrix: typed quantities, one beyond its stock said and corrected, the total, and one click into the cart', async ({
  page,
  request,
}) => {
  const email = await registerBuyer(request);
  const product = await findProduct(request, isGoodForMatrix);
  const cell = (variant: DemoProduct['variants'][number]) =>
    page.getByRole('spinbutton', { name: `Количество, ${variant.color}, ${variant.size} см`, exact: true });
  const soldOut = product.variants.find((variant) => variant.stock === 0)!;
  const inStock = product.variants.filter((variant) => variant.stock > 0);
  const capped = inStock.reduce((least, variant) => (variant.stock < least.stock ? variant : least));
  const [first, second] = inStock.filter((variant) => variant !== capped);
  const wanted = new Map([
    [first!, Math.min(3, first!.stock)],
    [second!, Math.min(5, second!.stock)],
    [capped, capped.stock],
  ]);

  await logInAs(page, email);
  await page.goto(`/product/${product.art}`);
  const matrix = page.getByRole('region', { name: 'Все цвета и размеры' });
  await expect(matrix).toBeVisible();
  await expect(cell(soldOut)).toBeDisabled();
  const total = matrix.getByRole('status');
  await expect(total).toHaveText(`Итого: 0 шт. на ${plain(formatRubles(0))}`, { useInnerText: true });
  const add = matrix.getByRole('button', { name: 'Добавить в корзину' });
  await expect(add).toBeDisabled();

  await cell(first!).fill(String(wanted.get(first!)));
  await cell(second!).fill(String(wanted.get(second!)));
  // More than the stock: the cell keeps what was typed and says why the cart cannot take it (never
  // lowered silently); the button waits until it is changed.
  await cell(capped).fill(String(capped.stock + 50));
  await cell(capped).press('Tab');
  await expect(cell(capped)).toHaveValue(String(capped.stock + 50));
  await expect(cell(capped)).toHaveAccessibleDescription(`В наличии только ${capped.stock} шт.`);
  await expect(add).toBeDisabled();
  await cell(capped).fill(String(capped.stock));
  await cell(capped).press('Tab');
  await expect(add).toBeEnabled();

  const pieces = [...wanted.values()].reduce((sum, count) => sum + count, 0);
  const kopecks = [...wanted].reduce((sum, [variant, count]) => sum + Math.round(variant.price * 100) * count, 0);
  const totalText = `Итого: ${pieces} шт. на ${formatRubles(kopecks / 100)}`;
  await expect.poll(async () => plain(await total.innerText())).toBe(plain(totalText));

  await add.click();
  await expect(page.getByText(/^Добавлено в корзину: /)).toHaveText(
    new RegExp(`^Добавлено в корзину: ${pieces} шт\\. на .* \\(3 варианта\\)$`),
  );
  // The cells are emptied for the next order.
  await expect(cell(first!)).toHaveValue('');
  await expect.poll(async () => plain(await total.innerText())).toBe(plain(`Итого: 0 шт. на ${formatRubles(0)}`));
  expect(await cartOf(page)).toEqual(Object.fromEntries([...wanted].map(([variant, count]) => [variant.id, count])));
  await expect(page.getByRole('banner').getByRole('button', { name: /Корзина, товаров/ })).toHaveAccessibleName(
    `Корзина, товаров: ${pieces}`,
  );

  await page.goto('/cart');
  for (const [variant, count] of wanted) {
    await expect(
      page.getByRole('spinbutton', { name: `Количество: ${product.name}, ${variant.color}, ${variant.size} см` }),
    ).toHaveValue(String(count));
  }
});

/** Stock by variant id, as the product page reads it. */
async function stockOf(request: APIRequestContext, art: string): Promise<Record<number, number>> {
  const product = (await (await request.get(`/api/v1/products/${art}`)).json()) as DemoProduct;
  return Object.fromEntries(product.variants.map((variant) => [variant.id, variant.stock]));
}

/** An order of two lines with company details, placed through the API the checkout calls. */
async function placeOrder(request: APIRequestContext, email: string) {
  const login = await request.post('/api/v1/auth/token', { form: { username: email, password: PASSWORD } });
  const { access_token } = (await login.json()) as { access_token: string };
  const { sub } = JSON.parse(Buffer.from(access_token.split('.')[1]!, 'base64url').toString()) as { sub: string };
  const product = await findProduct(
    request,
    (candidate) => candidate.variants.filter((variant) => variant.stock >= 10).length >= 2,
  );
  const [first, second] = product.variants.filter((variant) => variant.stock >= 10);
  const lines = [
    { variant: first!, quantity: 2 },
    { variant: second!, quantity: 3 },
  ];
  const response = await request.post('/api/v1/order/', {
    headers: { authorization: `Bearer ${access_token}` },
    data: {
      user_id: Number(sub),
      items: lines.map(({ variant, quantity }) => ({ product_id: product.id, variant_id: variant.id, quantity })),
      ...ORDER_DETAILS,
    },
  });
  expect(response.status()).toBe(201);
  return { id: ((await response.json()) as { id: number }).id, product, lines };
}

test('an order opened from the profile: its lines, requisites and history; repeated, downloaded and cancelled', async ({
  page,
  request,
}) => {
  const email = await registerBuyer(request);
  const order = await placeOrder(request, email);
  await logInAs(page, email);
  await page.goto('/profile');
  await page.getByRole('link', { name: `Заказ #${order.id}` }).click();
  await expect(page).toHaveURL(new RegExp(`/profile/orders/${order.id}$`));
  await expect(page.getByRole('heading', { level: 1, name: new RegExp(`^Заказ №${order.id} от `) })).toBeVisible();
  await expect(page).toHaveTitle(`Заказ №${order.id} — Мягкий Опт`);

  for (const [label, value] of [
    ['Контактное лицо', ORDER_DETAILS.contact_name],
    ['Телефон', ORDER_DETAILS.contact_phone],
    ['Адрес доставки', ORDER_DETAILS.address],
    ['Организация', ORDER_DETAILS.company_name],
    ['ИНН', ORDER_DETAILS.company_inn],
    ['КПП', ORDER_DETAILS.company_kpp],
  ]) {
    await expect(page.locator('.ant-descriptions-item-label', { hasText: label })).toBeVisible();
    await expect(page.locator('.ant-descriptions-item-content', { hasText: value })).toBeVisible();
  }
  const rows = page.locator('.ant-table-tbody tr.ant-table-row');
  await expect(rows).toHaveCount(2);
  await expect(rows.first().getByRole('link', { name: order.product.art })).toBeVisible();
  // Article, name, colour, size and pieces of each line (the price and sum columns between and after).
  const shownLines = await rows.evaluateAll((found) =>
    found.map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent.trim())),
  );
  expect(shownLines.map(([art, name, colour, size, , pieces]) => [art, name, colour, size, pieces])).toEqual(
    order.lines.map(({ variant, quantity }) => [
      order.product.art,
      order.product.name,
      variant.color,
      String(variant.size),
      String(quantity),
    ]),
  );
  await expect(page.locator('.ant-table-summary')).toContainText('5 штук');
  const history = page.locator('.ant-timeline-item');
  await expect(history).toHaveCount(1);
  await expect(history.first()).toContainText('Создан');

  await page.getByRole('button', { name: 'Повторить заказ' }).click();
  await expect(page.getByText('Товары заказа добавлены в корзину.')).toBeVisible();
  expect(await cartOf(page)).toEqual(
    Object.fromEntries(order.lines.map(({ variant, quantity }) => [variant.id, quantity])),
  );

  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Скачать в Excel' }).click();
  const download = await downloading;
  // The Russian name the server gives (filename*), which the page hands to the browser.
  expect(download.suggestedFilename()).toBe(`Заказ ${order.id}.xlsx`);
  const file = readFileSync((await download.path())!);
  // A spreadsheet is a zip archive: «PK» first, and more than an empty one.
  expect(file.subarray(0, 2).toString()).toBe('PK');
  expect(file.length).toBeGreaterThan(3000);

  const stockBefore = await stockOf(request, order.product.art);
  await page.getByRole('button', { name: 'Отменить заказ' }).click();
  const confirm = page.getByRole('tooltip').filter({ hasText: `Отменить заказ №${order.id}?` });
  await expect(confirm).toBeVisible();
  await confirm.getByRole('button', { name: 'Да, отменить' }).click();
  await expect(page.getByText(`Заказ №${order.id} отменён`)).toBeVisible();
  await expect(history).toHaveCount(2);
  await expect(history.last()).toContainText('Отменён');
  await expect(page.locator('.order-head')).toContainText('Отменён');
  await expect(page.getByRole('button', { name: 'Отменить заказ' })).toBeHidden();
  // The cancelled pieces are back in stock, and the cart is left as the repeat made it.
  const stockAfter = await stockOf(request, order.product.art);
  expect(order.lines.map(({ variant }) => stockAfter[variant.id])).toEqual(
    order.lines.map(({ variant, quantity }) => stockBefore[variant.id]! + quantity),
  );
  expect(await cartOf(page)).toEqual(
    Object.fromEntries(order.lines.map(({ variant, quantity }) => [variant.id, quantity])),
  );
});

/** Two variants in stock of one product, and the buyer's line for each: «артикул цвет размер количество». */
async function twoLinesToOrder(request: APIRequestContext) {
  const product = await findProduct(
    request,
    (candidate) => candidate.variants.filter((variant) => variant.stock >= 5).length >= 2,
  );
  const [first, second] = product.variants.filter((variant) => variant.stock >= 5);
  return {
    product,
    wanted: new Map([
      [first!, 2],
      [second!, 4],
    ]),
  };
}

const quickOrderRows = (page: Page) => page.locator('.ant-table-tbody tr.ant-table-row');

test('quick order by pasted lines: the header link, each problem on its line, the valid lines into the cart', async ({
  page,
  request,
}) => {
  const email = await registerBuyer(request);
  const { product, wanted } = await twoLinesToOrder(request);
  const [first, second] = [...wanted.keys()];
  await logInAs(page, email);
  await page.getByRole('banner').getByRole('link', { name: 'Быстрый заказ' }).click();
  await expect(page).toHaveURL(/\/quick-order$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Быстрый заказ' })).toBeVisible();

  // The separators a buyer pastes: spaces, a tab, semicolons; an unknown article on line 3.
  const pasted = [
    `${product.art} ${first!.color} ${first!.size} ${wanted.get(first!)}`,
    `${product.art.toLowerCase()}\t${second!.color.toUpperCase()}\t${second!.size}\t${wanted.get(second!)}`,
    'MO-9999;бежевый;30;1',
  ].join('\n');
  await page.getByRole('textbox', { name: 'Строки заказа' }).fill(pasted);
  await page.getByRole('button', { name: 'Проверить' }).click();

  await expect(quickOrderRows(page)).toHaveCount(3);
  await expect(quickOrderRows(page).nth(2)).toContainText('Артикул MO-9999 не найден');
  await expect(quickOrderRows(page).nth(0)).toContainText(product.name);
  await expect(page.getByText('Можно добавить: 2 строки')).toBeVisible();
  await expect(page.getByText('С ошибками: 1 строка')).toBeVisible();
  const pieces = wanted.get(first!)! + wanted.get(second!)!;
  // Checked hovered: the add button appears where the pointer rests after «Проверить», and antd's
  // own lighter hover raspberry put its white text at 4.08:1.
  await page.getByRole('button', { name: `Добавить в корзину: 2 строки, ${pieces} штук` }).hover();
  expect(await axeViolations(page, 'quick order preview, the add button hovered')).toEqual([]);

  await page.getByRole('button', { name: `Добавить в корзину: 2 строки, ${pieces} штук` }).click();
  await expect(page.getByText(`Добавлено в корзину: 2 строки, ${pieces} штук`)).toBeVisible();
  expect(await cartOf(page)).toEqual(Object.fromEntries([...wanted].map(([variant, count]) => [variant.id, count])));
  await expect(page.getByRole('banner').getByRole('button', { name: /Корзина, товаров/ })).toHaveAccessibleName(
    `Корзина, товаров: ${pieces}`,
  );
});

test('quick order by an uploaded .xlsx: the cart downloaded from the cart page fills an emptied cart the same', async ({
  page,
  request,
}) => {
  const email = await registerBuyer(request);
  const { product, wanted } = await twoLinesToOrder(request);
  await logInAs(page, email);
  const { userId, headers } = await sessionOf(page);
  const filled = await page.request.post('/api/v1/cart/bulk', {
    headers,
    data: {
      user_id: userId,
      items: [...wanted].map(([variant, count]) => ({ product_id: product.id, variant_id: variant.id, count })),
    },
  });
  expect(filled.status()).toBe(200);
  const before = await cartOf(page);

  await page.goto('/cart');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Скачать в Excel' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^Корзина \d\d\.\d\d\.\d{4}\.xlsx$/);
  const file = await download.path();
  expect(readFileSync(file).subarray(0, 2).toString()).toBe('PK');

  const { items } = (await (await page.request.get(`/api/v1/cart/${userId}`, { headers })).json()) as {
    items: { id: number }[];
  };
  for (const item of items) {
    expect((await page.request.delete(`/api/v1/cart/${item.id}`, { headers })).status()).toBe(200);
  }
  expect(await cartOf(page)).toEqual({});

  await page.getByRole('link', { name: 'Быстрый заказ' }).first().click();
  await page.getByRole('tab', { name: 'Загрузить файл' }).click();
  await page.locator('input[type="file"]').setInputFiles({
    name: download.suggestedFilename(),
    mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    buffer: readFileSync(file),
  });
  await expect(quickOrderRows(page)).toHaveCount(2);
  await expect(page.getByText('Можно добавить: 2 строки')).toBeVisible();
  await page.getByRole('button', { name: /^Добавить в корзину: 2 строки/ }).click();
  await expect(page.getByText(/^Добавлено в корзину: 2 строки/)).toBeVisible();
  expect(await cartOf(page)).toEqual(before);
});
