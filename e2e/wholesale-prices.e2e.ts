import { rmSync } from 'node:fs';
import { request as apiRequest, type APIRequestContext, type Page } from '@playwright/test';
import type { BuyerOrder } from '../src/shared/api';
import { formatRubles } from '../src/shared/money';
import {
  axeViolations,
  bearerOf,
  pageAs,
  userIdOf,
  expect,
  findProduct,
  newEmail,
  ORDER_DETAILS,
  registerBuyer,
  test,
  watchConsole,
} from './fixtures';
import { startShopWithManager, type RunningShop } from './shop-server';

/**
 * Two companies of different price types: a regular buyer at «Опт» (the default) and a large one at
 * «Крупный опт» with a price break from 12 pieces of the model, each seeing and ordering at its own
 * prices; a visitor sees «Опт»'s, or none once the shop shows prices only after sign-in.
 */
let shop: RunningShop;
let dataDir: string;
let api: APIRequestContext;
let product: Awaited<ReturnType<typeof findProduct>>;
const managerEmail = newEmail('manager');
const regularEmail = newEmail('regular');
const largeEmail = newEmail('large');
const LARGE_PRICE = 555;
const TIER_PRICE = 499.5;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  ({ shop, dataDir } = await startShopWithManager(managerEmail));
  api = await apiRequest.newContext({ baseURL: shop.url });
  const manager = await bearerOf(api, managerEmail);
  await registerBuyer(api, regularEmail);
  await registerBuyer(api, largeEmail);
  product = await findProduct(api, (candidate) => candidate.variants[0]!.stock >= 20);

  // The manager's side, through the back office's API: «Крупный опт» with its own price of the
  // product's first variant and a break from 12 pieces of the model, given to the large buyer's company.
  const created = await api.post('/api/v1/admin/price-types', { headers: manager, data: { name: 'Крупный опт' } });
  expect(created.status()).toBe(201);
  const largeType = (await created.json()) as { id: number };
  const variant = product.variants[0]!;
  const priced = await api.put(`/api/v1/admin/variants/${variant.id}/prices`, {
    headers: manager,
    data: [{ price_type_id: largeType.id, price: LARGE_PRICE }],
  });
  expect(priced.status()).toBe(200);
  const tiers = await api.put(`/api/v1/admin/products/${product.id}/prices`, {
    headers: manager,
    data: [{ price_type_id: largeType.id, tiers: [{ from: 12, price: TIER_PRICE }] }],
  });
  expect(tiers.status()).toBe(200);
  const company = (await (await api.get('/api/v1/company', { headers: await bearerOf(api, largeEmail) })).json()) as {
    id: number;
  };
  const assigned = await api.patch(`/api/v1/admin/companies/${company.id}`, {
    headers: manager,
    data: { price_type_id: largeType.id },
  });
  expect(assigned.status()).toBe(200);
});

test.afterAll(async () => {
  await api?.dispose();
  await shop?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Orders `quantity` of the product's first variant from the cart, through the checkout's form. */
async function orderFromCart(page: Page, email: string, quantity: number): Promise<BuyerOrder> {
  const headers = await bearerOf(api, email);
  const added = await api.post('/api/v1/cart/add', {
    headers,
    data: { user_id: userIdOf(headers), product_id: product.id, variant_id: product.variants[0]!.id, count: quantity },
  });
  expect(added.status()).toBe(201);
  await page.goto('/cart');
  await page.getByRole('button', { name: 'Оформить заказ' }).click();
  await page.getByLabel('Имя').fill('Мария');
  await page.getByLabel('Телефон').fill('+7 900 111-22-33');
  await page.getByLabel('Адрес доставки').fill(ORDER_DETAILS.address);
  await page.getByRole('button', { name: 'Оформить заказ' }).click();
  await expect(page.getByRole('heading', { name: 'Заказ принят!' })).toBeVisible();
  const orders = (await (await api.get(`/api/v1/order/${userIdOf(headers)}`, { headers })).json()) as { id: number }[];
  return (await (
    await api.get(`/api/v1/order/${userIdOf(headers)}/${orders[0]!.id}`, { headers })
  ).json()) as BuyerOrder;
}

test('each company sees and orders at its own price type; the large one’s break from 12 pieces applies', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const defaultPrice = product.variants[0]!.price!;
  const productPath = `/product/${encodeURIComponent(product.art)}`;

  // A visitor and the regular buyer: «Опт».
  const visitor = await pageAs(browser, shop.url);
  await visitor.goto(productPath);
  await expect(visitor.getByLabel('Цена')).toHaveText(formatRubles(defaultPrice));
  const regular = await pageAs(browser, shop.url, regularEmail);
  const regularConsole = watchConsole(regular);
  await regular.goto(productPath);
  await expect(regular.getByLabel('Цена')).toHaveText(formatRubles(defaultPrice));
  await expect(regular.getByText('Цены по количеству')).toHaveCount(0);

  // The large buyer: «Крупный опт», with the break named on the product page.
  const large = await pageAs(browser, shop.url, largeEmail);
  const largeConsole = watchConsole(large);
  await large.goto(productPath);
  await expect(large.getByLabel('Цена')).toHaveText(formatRubles(LARGE_PRICE));
  await expect(large.getByText(`от 12 шт. — ${formatRubles(TIER_PRICE)}`)).toBeVisible();
  expect(await axeViolations(large, 'a product page with prices by quantity')).toEqual([]);

  // Each orders at its own price: 12 pieces reach the large buyer's break.
  const regularOrder = await orderFromCart(regular, regularEmail, 2);
  expect(regularOrder.lines.map((line) => [line.price, line.price_type, line.tier_from])).toEqual([
    [defaultPrice, 'Опт', null],
  ]);
  const largeOrder = await orderFromCart(large, largeEmail, 12);
  expect(largeOrder.lines.map((line) => [line.price, line.price_type, line.tier_from])).toEqual([
    [TIER_PRICE, 'Крупный опт', 12],
  ]);
  expect(largeOrder.total_price).toBe(TIER_PRICE * 12);
  // The order's page names the break it was placed at.
  await large.goto(`/profile/orders/${largeOrder.id}`);
  await expect(large.getByText(/цена от 12 шт\./i).first()).toBeVisible();
  regularConsole.expectClean();
  largeConsole.expectClean();
});

test('with «цены только после входа», a visitor sees no price and a buyer sees theirs', async ({ browser }) => {
  test.setTimeout(120_000);
  const manager = await bearerOf(api, managerEmail);
  const hidden = await api.put('/api/v1/admin/settings/storefront', {
    headers: manager,
    data: { prices_for_visitors: false },
  });
  expect(hidden.status()).toBe(200);
  try {
    const productPath = `/product/${encodeURIComponent(product.art)}`;
    const visitor = await pageAs(browser, shop.url);
    const served = await visitor.goto(productPath);
    expect(await served!.text()).not.toMatch(/"price":\d/);
    await expect(visitor.getByText('Цена после входа').first()).toBeVisible();
    await expect(visitor.getByLabel('Цена')).toHaveCount(0);
    expect(await axeViolations(visitor, 'a product page without prices')).toEqual([]);

    const large = await pageAs(browser, shop.url, largeEmail);
    await large.goto(productPath);
    await expect(large.getByLabel('Цена')).toHaveText(formatRubles(LARGE_PRICE));
  } finally {
    await api.put('/api/v1/admin/settings/storefront', { headers: manager, data: { prices_for_visitors: true } });
  }
});
