import type { APIRequestContext, Page } from '@playwright/test';
import { expect, findProduct, logInThroughDialog, PASSWORD, registerBuyer, test } from './fixtures';

interface CartBuyer {
  email: string;
  /** The API as this buyer, to check what the server holds. */
  cartCount(): Promise<number>;
}

/**
 * Registers a buyer and puts `count` pieces of one well-stocked variant in their cart through the
 * API (SPEC §7), so a journey starts at the cart.
 */
async function buyerWithOneLine(request: APIRequestContext, count: number): Promise<CartBuyer> {
  const email = await registerBuyer(request);
  const login = await request.post('/api/v1/auth/token', { form: { username: email, password: PASSWORD } });
  const { access_token } = (await login.json()) as { access_token: string };
  const userId = Number(
    (JSON.parse(Buffer.from(access_token.split('.')[1]!, 'base64url').toString()) as { sub: string }).sub,
  );
  const headers = { Authorization: `Bearer ${access_token}` };
  const product = await findProduct(request, (candidate) => candidate.variants.some((variant) => variant.stock >= 40));
  const variant = product.variants.find((candidate) => candidate.stock >= 40)!;
  const added = await request.post('/api/v1/cart/add', {
    headers,
    data: { user_id: userId, product_id: product.id, variant_id: variant.id, count },
  });
  expect(added.status()).toBe(201);
  return {
    email,
    async cartCount() {
      const response = await request.get(`/api/v1/cart/${userId}`, { headers });
      const { items } = (await response.json()) as { items: { count: number }[] };
      return items[0]!.count;
    },
  };
}

const quantity = (page: Page) => page.getByRole('spinbutton', { name: /^Количество: / });
const plus = (page: Page) => page.getByRole('button', { name: /^Увеличить количество: / });

async function openCartAs(page: Page, email: string): Promise<void> {
  await page.goto('/');
  await logInThroughDialog(page, email);
  await page.goto('/cart');
}

test('a change reloaded away within 500 ms of being made is kept', async ({ page, request }) => {
  const buyer = await buyerWithOneLine(request, 10);
  await openCartAs(page, buyer.email);
  await expect(quantity(page)).toHaveValue('10');

  // Reloaded before the 500 ms debounce has sent the change, only the flush as the page goes can save
  // it. A busy machine may take longer between the press and the reload: then the press is repeated.
  let expected = 10;
  for (let attempt = 1; ; attempt++) {
    const pressed = Date.now();
    await plus(page).click();
    expected += 1;
    await expect(quantity(page)).toHaveValue(String(expected));
    const beforeDebounce = Date.now() - pressed < 400;
    await page.reload();
    await expect(quantity(page)).toHaveValue(String(expected));
    if (beforeDebounce) break;
    expect(attempt, 'a reload within 400 ms of the press').toBeLessThan(5);
  }
  expect(await buyer.cartCount()).toBe(expected);
});

test('an edit made offline stays on screen as not saved and is saved when the connection returns', async ({
  page,
  context,
  request,
  console,
}) => {
  // The browser logs each request that finds no connection: that is this journey's point.
  console.allowNetworkFailures();
  const buyer = await buyerWithOneLine(request, 10);
  await openCartAs(page, buyer.email);
  await expect(quantity(page)).toHaveValue('10');

  await context.setOffline(true);
  await plus(page).click();
  await plus(page).click();
  await expect(
    page.getByText('Нет связи с сервером. Изменения корзины сохранятся, когда связь вернётся.'),
  ).toBeVisible();
  await expect(page.getByText('Не сохранено')).toBeVisible();
  await expect(quantity(page)).toHaveValue('12');
  await expect(page.getByText('Не удалось загрузить корзину')).toBeHidden();
  expect(await buyer.cartCount()).toBe(10);

  await context.setOffline(false);
  await expect(page.getByText('Не сохранено')).toBeHidden();
  await expect(quantity(page)).toHaveValue('12');
  await expect.poll(() => buyer.cartCount()).toBe(12);
});

test('two tabs on one cart: a change in one shows in the other within 2 s, and + in each from 26 ends at 28', async ({
  page,
  context,
  request,
  console,
}) => {
  // One of the two conditional saves meets the other's change: a 409, rebased and sent again.
  console.allowHttpStatus(409);
  const buyer = await buyerWithOneLine(request, 26);
  await openCartAs(page, buyer.email);
  const other = await context.newPage();
  await other.goto('/cart');
  await expect(quantity(page)).toHaveValue('26');
  await expect(quantity(other)).toHaveValue('26');

  await plus(page).click();
  await plus(other).click();
  await expect(quantity(page)).toHaveValue('28', { timeout: 5000 });
  await expect(quantity(other)).toHaveValue('28', { timeout: 5000 });
  await expect.poll(() => buyer.cartCount()).toBe(28);

  // The debounce (500 ms) and the save are part of the 2 s.
  await quantity(page).fill('35');
  const typed = Date.now();
  await expect(quantity(other)).toHaveValue('35', { timeout: 2000 });
  expect(Date.now() - typed).toBeLessThan(2000);
  await other.close();
});
