import type { Page } from '@playwright/test';
import {
  expect,
  findProduct,
  logInThroughDialog,
  registerBuyer,
  screenshots,
  test,
  type DemoProduct,
} from './fixtures';

interface Order {
  id: number;
}

/** A logged-in buyer on the checkout of two pieces of a variant with stock to spare. */
async function checkoutOfTwo(page: Page, request: Page['request']) {
  const email = await registerBuyer(request);
  const product = await findProduct(request, (candidate) => candidate.variants.some((variant) => variant.stock > 10));
  const variant = product.variants.find((candidate) => candidate.stock > 10)!;
  await page.goto('/');
  await logInThroughDialog(page, email);
  await page.goto(`/checkout?items=${product.art}:${variant.id}:2`);
  await expect(page.getByText(`${product.name} x 2`)).toBeVisible();
  return { product, variant };
}

async function fillContacts(page: Page): Promise<void> {
  await page.getByLabel('Имя').fill('Иван');
  await page.getByLabel('Телефон').fill('+7 900 000-00-00');
  await page.getByLabel('Адрес доставки').fill('Казань, ул. Баумана, д. 1');
}

async function stockOf(page: Page, product: DemoProduct, variantId: number): Promise<number> {
  const answer = (await (await page.request.get(`/api/v1/products/${product.art}`)).json()) as DemoProduct;
  return answer.variants.find((variant) => variant.id === variantId)!.stock;
}

/** The buyer's orders, read through the API with the page's own session (the token's `sub` is the user's id). */
async function ordersOf(page: Page): Promise<Order[]> {
  const token = (await page.evaluate(() => sessionStorage.getItem('access_token')))!;
  const { sub } = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { sub: string };
  const response = await page.request.get(`/api/v1/order/${sub}`, { headers: { authorization: `Bearer ${token}` } });
  expect(response.status()).toBe(200);
  return (await response.json()) as Order[];
}

const submit = (page: Page) => page.getByRole('button', { name: 'Оформить заказ' });

test('the answer to «Оформить заказ» is lost: pressing again gives exactly one order', async ({
  page,
  request,
  console,
}) => {
  console.allowNetworkFailures();
  const { product, variant } = await checkoutOfTwo(page, request);
  const stockBefore = await stockOf(page, product, variant.id);
  await fillContacts(page);

  // The first POST reaches the server and places the order; its answer never comes back.
  let answersLost = 0;
  await page.route('**/api/v1/order/', async (route) => {
    if (route.request().method() !== 'POST' || answersLost > 0) return route.fallback();
    answersLost += 1;
    await route.fetch();
    await route.abort('connectionreset');
  });
  await submit(page).click();
  await expect(page.getByText('Что-то пошло не так...')).toBeVisible();
  expect(answersLost).toBe(1);
  expect(await stockOf(page, product, variant.id)).toBe(stockBefore - 2);
  await expect(page.getByText(`${product.name} x 2`)).toBeVisible();

  await submit(page).click();
  await expect(page.getByRole('heading', { name: 'Заказ принят!' })).toBeVisible();
  const orders = await ordersOf(page);
  expect(orders).toHaveLength(1);
  await expect(page.getByText(`Номер заказа: ${orders[0]!.id}`)).toBeVisible();
  expect(await stockOf(page, product, variant.id)).toBe(stockBefore - 2);

  await page.getByRole('link', { name: 'Мои заказы' }).click();
  await expect(page.getByRole('heading', { name: /^Заказ #\d+$/ })).toHaveCount(1);
});

test('offline at «Оформить заказ»: the form and lines stay, and the order goes once the connection is back', async ({
  page,
  request,
  console,
}) => {
  console.allowNetworkFailures();
  const { product } = await checkoutOfTwo(page, request);
  await fillContacts(page);
  await page.getByLabel('ИНН').fill('7707083893');

  await page.context().setOffline(true);
  await submit(page).click();
  await expect(page.getByText('Что-то пошло не так...')).toBeVisible();
  await expect(page.getByText(/Нет связи с сервером/)).toBeVisible();
  await expect(page.getByText(`${product.name} x 2`)).toBeVisible();
  await expect(page.getByLabel('Имя')).toHaveValue('Иван');
  await expect(page.getByLabel('ИНН')).toHaveValue('7707083893');

  // Back online, a reload keeps the draft, and the order goes through.
  await page.context().setOffline(false);
  await page.reload();
  await expect(page.getByLabel('Адрес доставки')).toHaveValue('Казань, ул. Баумана, д. 1');
  await expect(page.getByLabel('ИНН')).toHaveValue('7707083893');
  await submit(page).click();
  await expect(page.getByRole('heading', { name: 'Заказ принят!' })).toBeVisible();
  expect(await ordersOf(page)).toHaveLength(1);
});

test('requisites and an address saved in the profile fill the checkout; /order-success names the order', async ({
  page,
  request,
}) => {
  const { product, variant } = await checkoutOfTwo(page, request);

  await page.goto('/profile');
  await expect(page.getByRole('heading', { name: 'Реквизиты и адреса' })).toBeVisible();
  await page.getByLabel('Имя').fill('Анна Петрова');
  await page.getByLabel('Телефон').fill('+7 495 123-45-67');
  await page.getByLabel('Название компании').fill('ООО «Игрушки»');
  await page.getByLabel('ИНН').fill('7707083893');
  await page.getByLabel('КПП').fill('770101001');
  await page.getByRole('button', { name: 'Сохранить реквизиты' }).click();
  await expect(page.getByText('Реквизиты сохранены')).toBeVisible();

  await page.getByRole('button', { name: 'Добавить адрес' }).click();
  const dialog = page.getByRole('dialog', { name: 'Новый адрес' });
  await dialog.getByLabel('Город').fill('Тула');
  await dialog.getByLabel('Улица').fill('ул. Советская');
  await dialog.getByLabel('Дом').fill('3');
  await dialog.getByLabel('Квартира').fill('12');
  await dialog.getByRole('button', { name: 'Сохранить' }).click();
  const saved = 'Россия, Тула, ул. Советская, д. 3, кв. 12';
  await expect(page.getByText(saved)).toBeVisible();
  await screenshots(page, 'profile-requisites');

  await page.goto(`/checkout?items=${product.art}:${variant.id}:2`);
  await expect(page.getByLabel('Имя')).toHaveValue('Анна Петрова');
  await expect(page.getByLabel('Название компании')).toHaveValue('ООО «Игрушки»');
  await expect(page.getByLabel('КПП')).toHaveValue('770101001');
  await page.getByRole('combobox', { name: /Сохранённый адрес/ }).click();
  await page.locator('.ant-select-item-option', { hasText: saved }).click();
  await expect(page.getByLabel('Адрес доставки')).toHaveValue(saved);
  await submit(page).click();

  await expect(page.getByRole('heading', { name: 'Заказ принят!' })).toBeVisible();
  const [placed] = await ordersOf(page);
  await expect(page.getByText(`Номер заказа: ${placed!.id}`)).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/order-success\\?order=${placed!.id}$`));

  // Someone else's order number, or one that does not exist, is not shown.
  const ordersRead = page.waitForResponse((response) => /\/api\/v1\/order\/\d+$/.test(response.url()));
  await page.goto(`/order-success?order=${placed!.id + 100_000}`);
  await ordersRead;
  await expect(page.getByRole('heading', { name: 'Заказ принят!' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Мои заказы' })).toBeVisible();
  await expect(page.getByText(/Номер заказа/)).toHaveCount(0);
});
