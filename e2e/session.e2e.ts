import { expect, findProduct, logInThroughDialog, registerBuyer, test, userButton, watchConsole } from './fixtures';
import { startShop, type RunningShop } from './shop-server';

// A shop of its own whose access tokens live 12 s; the storefront renews a token 10 s before it
// expires, so within this test the buyer works through several expiries.
let shop: RunningShop;
test.beforeAll(async () => {
  shop = await startShop({ ACCESS_TOKEN_TTL_SECONDS: '12' });
});
test.afterAll(async () => shop?.stop());

test('a long session: the buyer keeps working past the token’s expiry, and a new tab is logged in', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const context = await browser.newContext({ baseURL: shop.url });
  const page = await context.newPage();
  const console = watchConsole(page);
  const email = await registerBuyer(context.request);
  const product = await findProduct(context.request, (candidate) => (candidate.variants[0]?.stock ?? 0) > 0);
  await page.goto('/');
  await logInThroughDialog(page, email);

  await page.waitForTimeout(15_000);
  await page.goto(`/product/${product.art}`);
  await expect(userButton(page, email)).toBeVisible();
  await page.getByRole('button', { name: 'В корзину', exact: true }).click();
  await expect(page.getByRole('button', { name: 'В корзине' })).toBeDisabled();

  await page.waitForTimeout(15_000);
  await page.reload();
  await expect(userButton(page, email)).toBeVisible();

  // A new tab has no access token of its own: the refresh cookie logs it in.
  const secondTab = await context.newPage();
  const secondConsole = watchConsole(secondTab);
  await secondTab.goto('/cart');
  await expect(userButton(secondTab, email)).toBeVisible();
  await expect(secondTab.getByText(product.name)).toBeVisible();

  console.expectClean();
  secondConsole.expectClean();
  await context.close();
});
