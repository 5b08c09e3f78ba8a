/**
 * A cart of 5 000 lines (MAX_CART_LINES, the most a quick order brings) checks out, on a
 * server process directly and behind nginx as `npm run cluster` runs it (deploy/cluster.ts), whose
 * 8 KB request line refused (414) the `items=` address of such a cart. The cart is seeded in
 * PostgreSQL (TEST_DATABASE_URL, default the local test cluster); the cluster serves this build's
 * dist/ and build/.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startCluster, type Cluster } from '../deploy/cluster';
import { createFreshDatabase, type FreshDatabase } from '../test/server/helpers/fresh-database';
import { expect, logInThroughDialog, newEmail, PASSWORD, test } from './fixtures';

const LINES = 5000;
/** 5 000 × 100 ₽, as formatRubles writes it (no-break spaces between the thousands and before ₽). */
const TOTAL = /Итого: 500\s000,00\s₽/;
const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

let database: FreshDatabase;
let cluster: Cluster;
const dataDir = mkdtempSync(path.join(tmpdir(), 'myagkiy-opt-big-cart-'));

test.beforeAll(async () => {
  test.setTimeout(120_000);
  database = await createFreshDatabase(ADMIN_URL, 'shop_e2e_big_cart');
  cluster = await startCluster({
    processes: 2,
    databaseUrl: database.url,
    port: 0,
    firstServerPort: 0,
    env: {
      DATA_DIR: dataDir,
      LOGIN_LIMIT_PER_CLIENT: '10000',
      REQUIRE_EMAIL_CONFIRMATION: 'false',
      UNPROVEN_STOCK_SHARE_PERCENT: '100',
    },
  });
  // One product of LINES variants, ten of each in stock, 100 ₽ apiece.
  await database.query(`
    insert into products (art, name, image, category_id, curated_rank)
    values ('BIG-CART', 'Мишка оптом', 'MO-1001.svg', (select min(id) from categories), 900000)`);
  await database.query(
    `insert into variants (product_id, color, size, price, stock)
     select (select id from products where art = 'BIG-CART'), 'оттенок ' || n, 25, 100, 10 from generate_series(1, $1::int) n`,
    [LINES],
  );
});

test.afterAll(async () => {
  await cluster?.stop();
  await database?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** A new buyer whose cart holds one piece of every variant of BIG-CART. */
async function buyerWithBigCart(request: import('@playwright/test').APIRequestContext, base: string) {
  const email = newEmail('big-cart');
  const answer = await request.post(`${base}/api/v1/auth/register`, {
    data: { email, password: PASSWORD, consent: true },
  });
  expect(answer.status()).toBe(201);
  await database.query(
    `insert into cart_items (user_id, product_id, variant_id, count, price_when_added)
     select u.id, v.product_id, v.id, 1, v.price
     from users u, variants v join products p on p.id = v.product_id
     where u.email = $1 and p.art = 'BIG-CART'`,
    [email],
  );
  return email;
}

// No trace: its DOM snapshot of 5 000 lines at every step took minutes (Playwright's snapshotter, not the shop).
test.use({ trace: 'off' });

for (const where of ['behind nginx', 'on a server process directly'] as const) {
  test(`a 5 000-line cart checks out ${where}`, async ({ page }) => {
    test.setTimeout(180_000);
    const base = where === 'behind nginx' ? cluster.url : `http://127.0.0.1:${cluster.serverPorts[0]}`;
    const email = await buyerWithBigCart(page.request, base);
    await page.goto(`${base}/`);
    await logInThroughDialog(page, email);
    const orderPlaced = page.waitForResponse(
      (response) => response.url().endsWith('/api/v1/order/') && response.request().method() === 'POST',
      { timeout: 120_000 },
    );
    // From the cart page, as a buyer goes: its first products and the whole total at once, and
    // «Оформить заказ» to the server cart's own checkout, the address without items (cartCheckoutPath).
    await page.goto(`${base}/cart`);
    await expect(page.getByRole('heading', { name: TOTAL })).toBeVisible({ timeout: 30_000 });
    await expect(page.getByRole('list', { name: 'Товары в корзине' })).toHaveAttribute('aria-busy', 'false', {
      timeout: 60_000,
    });
    await page.getByRole('button', { name: 'Оформить заказ' }).click();
    await expect(page).toHaveURL(`${base}/checkout`);
    await expect(page.getByRole('heading', { name: TOTAL })).toBeVisible({ timeout: 60_000 });
    await page.getByLabel('Имя').fill('Иван');
    await page.getByLabel('Телефон').fill('+7 900 000-00-00');
    await page.getByLabel('Адрес доставки').fill('Казань, ул. Баумана, д. 1');
    await page.getByRole('button', { name: 'Оформить заказ' }).click();
    const placed = await orderPlaced;
    expect(placed.status()).toBe(201);
    expect(await placed.json()).toMatchObject({ total_price: 500_000, items_count: LINES });
    await expect(page.getByRole('heading', { name: 'Заказ принят!' })).toBeVisible({ timeout: 30_000 });
    const [left] = await database.query<{ lines: number }>(
      `select count(*)::int as lines from cart_items c join users u on u.id = c.user_id where u.email = $1`,
      [email],
    );
    expect(left!.lines).toBe(0);
  });
}
