import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { request as apiRequest, type APIRequestContext, type Page } from '@playwright/test';
import ExcelJS from 'exceljs';
import {
  PASSWORD,
  axeViolations,
  expect,
  findProduct,
  newEmail,
  ORDER_DETAILS,
  pageAs,
  screenshots,
  SUPPLIER,
  test,
  watchConsole,
} from './fixtures';
import { latestLetter } from './mailbox';
import { startShopWithManager, type RunningShop } from './shop-server';

/**
 * The back office in the real shop: a manager made with `npm run users -- grant-manager`, as the
 * README tells a shop's owner, runs an order from «Создан» to «Доставлен» with an invoice the buyer
 * downloads, and changes a price the storefront shows at once.
 */
let shop: RunningShop;
let dataDir: string;
let api: APIRequestContext;
const managerEmail = newEmail('manager');
const buyerEmail = newEmail('buyer');

test.beforeAll(async () => {
  test.setTimeout(240_000);
  ({ shop, dataDir } = await startShopWithManager(managerEmail, [buyerEmail]));
  api = await apiRequest.newContext({ baseURL: shop.url });
});

test.afterAll(async () => {
  await api?.dispose();
  await shop?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

async function tokenOf(email: string): Promise<string> {
  const response = await api.post('/api/v1/auth/token', { form: { username: email, password: PASSWORD } });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { access_token: string }).access_token;
}

/**
 * The buyer orders two pieces of a toy through the API the checkout calls: of a stock of at least
 * four, since one order may take only half of a variant's stock (MAX_STOCK_SHARE_PERCENT).
 */
async function placeOrder(): Promise<number> {
  const token = await tokenOf(buyerEmail);
  const { sub } = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { sub: string };
  const product = await findProduct(api, (candidate) => candidate.variants.some((variant) => variant.stock >= 4));
  const variant = product.variants.find((candidate) => candidate.stock >= 4)!;
  const response = await api.post('/api/v1/order/', {
    headers: { authorization: `Bearer ${token}` },
    data: {
      user_id: Number(sub),
      items: [{ product_id: product.id, variant_id: variant.id, quantity: 2 }],
      ...ORDER_DETAILS,
    },
  });
  expect(response.status()).toBe(201);
  return ((await response.json()) as { id: number }).id;
}

test('a manager invoices a new order, the buyer downloads the invoice, the order is paid, sent and delivered', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const orderId = await placeOrder();
  const manager = await pageAs(browser, shop.url, managerEmail, { width: 1440, height: 900 });
  const managerConsole = watchConsole(manager);

  // The supplier's details first: without them no invoice can be issued.
  await manager.getByRole('link', { name: 'Панель менеджера' }).click();
  await manager.getByRole('menuitem', { name: 'Реквизиты' }).click();
  for (const [label, value] of [
    ['Наименование', SUPPLIER.name],
    ['ИНН', SUPPLIER.inn],
    ['КПП', SUPPLIER.kpp],
    ['ОГРН или ОГРНИП', SUPPLIER.ogrn],
    ['Адрес', SUPPLIER.address],
    ['Банк', SUPPLIER.bank_name],
    ['БИК', SUPPLIER.bik],
    ['Расчётный счёт', SUPPLIER.account],
    ['Корреспондентский счёт', SUPPLIER.corr_account],
  ] as const) {
    await manager.getByLabel(label, { exact: true }).fill(value);
  }
  await manager.getByRole('button', { name: 'Сохранить' }).click();
  await expect(manager.getByText('Реквизиты сохранены')).toBeVisible();

  // The queue opens on «Создан»; the order is found by its number.
  await manager.getByRole('menuitem', { name: 'Заказы' }).click();
  await manager.getByLabel('Номер, e-mail, компания или ИНН').fill(String(orderId));
  await manager.getByRole('button', { name: 'Найти' }).click();
  await manager.getByRole('link', { name: `№${orderId}` }).click();
  await expect(manager.getByRole('heading', { name: new RegExp(`Заказ №${orderId}`) })).toBeVisible();
  await expect(manager.getByText(ORDER_DETAILS.company_name)).toBeVisible();

  await manager.getByRole('button', { name: 'Выставить счёт' }).click();
  await expect(manager.getByRole('button', { name: 'Скачать счёт' })).toBeVisible();
  await expect(manager.getByText('Ожидает оплаты').first()).toBeVisible();

  // The buyer sees the invoice in the profile and downloads the PDF, which says what it should.
  const buyer = await pageAs(browser, shop.url, buyerEmail, { width: 1440, height: 900 });
  const buyerConsole = watchConsole(buyer);
  await buyer.goto('/profile');
  const [download] = await Promise.all([
    buyer.waitForEvent('download'),
    buyer.getByRole('button', { name: 'Скачать счёт' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^Счёт №1 от \d\d\.\d\d\.\d{4}\.pdf$/);
  const pdfPath = path.join(dataDir, 'invoice.pdf');
  await download.saveAs(pdfPath);
  const text = execFileSync('pdftotext', ['-layout', pdfPath, '-'], { encoding: 'utf8' });
  expect(text).toMatch(/Счёт на оплату № 1 от \d+ [а-я]+ \d{4} г\./);
  expect(text).toContain(SUPPLIER.name);
  expect(text).toContain(ORDER_DETAILS.company_name);
  expect(text).toContain(ORDER_DETAILS.company_inn);

  // Paid, sent, delivered: each step's button appears only when it is allowed. Sending names the
  // carrier and the tracking number, with a comment for the buyer.
  for (const [button, status] of [
    ['Отметить оплату', 'Оплачен'],
    ['Отметить отправку', 'Отправлен'],
    ['Отметить доставку', 'Доставлен'],
  ] as const) {
    if (status === 'Отправлен') {
      await manager.getByRole('combobox', { name: 'Перевозчик' }).click();
      await manager.getByTitle('СДЭК').click();
      await manager.getByLabel('Трек-номер').fill('1234567890');
      await manager.getByLabel(/^Комментарий к смене статуса/).fill('Отгрузили двумя местами');
    }
    await manager.getByRole('button', { name: button }).click();
    await expect(manager.getByRole('button', { name: button })).toBeHidden();
    await expect(manager.getByText(status).first()).toBeVisible();
  }
  await expect(manager.getByRole('button', { name: /Отметить|Отменить заказ/ })).toHaveCount(0);
  await screenshots(manager, 'admin-order');

  // The buyer's chip turns green (SPEC §2) once the order is delivered.
  await buyer.reload();
  const chip = buyer.getByText('Статус: Доставлен');
  await expect(chip).toBeVisible();
  await expect(chip).toHaveClass(/success/);
  const [red, green, blue] = (await chip.evaluate((element) => getComputedStyle(element).color))
    .match(/\d+/g)!
    .map(Number);
  expect(green).toBeGreaterThan(Math.max(red!, blue!));

  // The order's history tells the buyer what the manager said, and where to follow the parcel.
  await buyer.goto(`/profile/orders/${orderId}`);
  await expect(buyer.getByText('Комментарий менеджера: Отгрузили двумя местами')).toBeVisible();
  await expect(buyer.getByRole('link', { name: '1234567890' })).toHaveAttribute(
    'href',
    'https://www.cdek.ru/ru/tracking?order_id=1234567890',
  );
  managerConsole.expectClean();
  buyerConsole.expectClean();

  // So does the letter, which fits a phone's 375 px and turns dark with the system.
  const letter = await latestLetter(buyerEmail, `Заказ № ${orderId}: Отправлен`, dataDir);
  expect(letter.attachments.map((attachment) => attachment.filename)).toEqual([`Заказ ${orderId}.xlsx`]);
  const phone = await browser.newContext({ viewport: { width: 375, height: 800 }, colorScheme: 'light' });
  const reader = await phone.newPage();
  await reader.setContent(letter.html as string);
  await expect(reader.getByRole('link', { name: '1234567890' })).toBeVisible();
  await expect(reader.getByText('Отгрузили двумя местами')).toBeVisible();
  const button = await reader.getByRole('link', { name: `Открыть заказ № ${orderId}` }).boundingBox();
  expect(button!.x + button!.width).toBeLessThanOrEqual(375);
  expect(await reader.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  const card = reader.locator('.card');
  expect(await card.evaluate((element) => getComputedStyle(element).backgroundColor)).toBe('rgb(255, 255, 255)');
  await reader.emulateMedia({ colorScheme: 'dark' });
  expect(await card.evaluate((element) => getComputedStyle(element).backgroundColor)).toBe('rgb(31, 31, 31)');
  await screenshots(reader, 'letter-shipped');
  await phone.close();
});

/** «Товары», the product found by its article, its form open. */
async function openProductForm(manager: Page, art: string, name: string): Promise<void> {
  await manager.getByRole('menuitem', { name: 'Товары' }).click();
  await manager.getByLabel('Артикул или название').fill(art);
  await manager.getByLabel('Артикул или название').press('Enter');
  await manager.getByRole('link', { name }).click();
  await expect(manager.getByLabel('Цена, вариант 1')).toBeVisible();
}

test('a price changed in the back office shows on the product page at once', async ({ browser }) => {
  test.setTimeout(180_000);
  const product = await findProduct(api, (candidate) => candidate.variants.length >= 2);
  const manager = await pageAs(browser, shop.url, managerEmail, { width: 1440, height: 900 });
  const managerConsole = watchConsole(manager);
  // The storefront's cached answer for the product, read before the change.
  const storefront = await manager.context().newPage();
  await storefront.goto(`/product/${product.art}`);
  await expect(storefront.getByRole('heading', { name: product.name })).toBeVisible();

  await manager.getByRole('link', { name: 'Панель менеджера' }).click();
  await openProductForm(manager, product.art, product.name);
  // Every variant's price, so whichever the product page selects shows the new one.
  for (let index = 1; index <= product.variants.length; index++) {
    await manager.getByLabel(`Цена, вариант ${index}`).fill('4321,50');
  }
  // Exact: the photos editor beside it has «Сохранить фото».
  await manager.getByRole('button', { name: 'Сохранить', exact: true }).click();
  await expect(manager.getByText('Изменения сохранены')).toBeVisible();
  await screenshots(manager, 'admin-product-form');

  await storefront.reload();
  await expect(storefront.getByText(/4\s321,50\s₽/).first()).toBeVisible();
  const answer = (await (await api.get(`/api/v1/products/${product.art}`)).json()) as { variants: { price: number }[] };
  expect(answer.variants.map((variant) => variant.price)).toEqual(product.variants.map(() => 4321.5));

  await manager.getByRole('menuitem', { name: 'Обмен с 1С' }).click();
  await expect(manager.getByRole('heading', { level: 1, name: 'Обмен с 1С' })).toBeVisible();
  await expect(manager.getByText(/\/1c_exchange$/)).toBeVisible();
  await screenshots(manager, 'admin-exchange');

  // Every page of the back office passes axe, light and dark.
  const found: string[] = [];
  for (const scheme of ['light', 'dark'] as const) {
    await manager.emulateMedia({ colorScheme: scheme });
    for (const section of [
      'Заказы',
      'Товары',
      'Категории',
      'Баннеры',
      'Импорт и экспорт',
      'Обмен с 1С',
      'Реквизиты',
      'Журнал',
    ]) {
      await manager.getByRole('menuitem', { name: section }).click();
      await expect(manager.getByRole('heading', { level: 1 })).toBeVisible();
      found.push(...(await axeViolations(manager, `${section}, ${scheme}`)));
    }
    await openProductForm(manager, product.art, product.name);
    found.push(...(await axeViolations(manager, `product form, ${scheme}`)));
  }
  expect(found).toEqual([]);
  managerConsole.expectClean();
});

test('the price list’s check shows which rows change, old → new, downloads them as XLSX, and «Применить» applies them', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const token = await tokenOf(managerEmail);
  const exported = await api.get('/api/v1/admin/catalogue/export?format=csv', {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(exported.status()).toBe(200);
  // The export's CSV: a BOM, «;» between fields, text quoted, the decimal comma; the other price
  // types' columns after «Цена», the packaging, the marketplace card's columns, «Остаток» last.
  const [header, first] = (await exported.text()).replace(/^\uFEFF/, '').split('\r\n');
  expect(header).toMatch(
    new RegExp(
      '^"Артикул";"Название";"Категория";"Цвет";Размер;Цена;(.+;)?Кратность;Минимум;' +
        '"Бренд";"Материал";"Наполнитель";Возраст от;"Страна производства";"ТН ВЭД";"Штрихкод";"Маркировка";' +
        'Длина упаковки, см;Ширина упаковки, см;Высота упаковки, см;Вес, г;Остаток$',
    ),
  );
  const cells = first!.split(';').map((cell) => cell.replace(/^"|"$/g, ''));
  const [art, name, category, color, size, oldPrice] = cells;
  const oldStock = cells.at(-1);
  // A file of the columns from before price types: the import still takes it.
  const oldHeader = '"Артикул";"Название";"Категория";"Цвет";Размер;Цена;Остаток';
  const changed = [`"${art}"`, `"${name}"`, `"${category}"`, `"${color}"`, size, '1234,50', '77'].join(';');
  const added = ['"E2E-PREVIEW-1"', '"Енот из прайс-листа"', `"${category}"`, '"серый"', '25', '990', '4'].join(';');
  const grown = [`"${art}"`, `"${name}"`, `"${category}"`, '"изумрудный"', '99', '500', '3'].join(';');
  const file = Buffer.from(`\uFEFF${[oldHeader, changed, grown, added].join('\r\n')}\r\n`);

  const manager = await pageAs(browser, shop.url, managerEmail, { width: 1440, height: 900 });
  const managerConsole = watchConsole(manager);
  await manager.getByRole('link', { name: 'Панель менеджера' }).click();
  await manager.getByRole('menuitem', { name: 'Импорт и экспорт' }).click();
  await manager.getByLabel('Файл прайс-листа').setInputFiles({ name: 'прайс.csv', mimeType: 'text/csv', buffer: file });

  await expect(manager.getByText('Будет добавлено: 2, изменено: 1, без изменений: 0. Новых товаров: 1.')).toBeVisible();
  await expect(manager.getByRole('heading', { name: 'Что изменится' })).toBeVisible();
  const changedRow = manager.getByRole('row').filter({ hasText: art! }).filter({ hasText: 'изменение' });
  await expect(changedRow).toContainText(name!);
  await expect(changedRow).toContainText(color!);
  await expect(changedRow).toContainText(`${oldStock} → 77`);
  // The old price struck out, whatever the spaces between digit groups.
  const struck = (await changedRow.locator('del').first().textContent())!.replace(/\s/g, '');
  expect(struck).toBe(`${oldPrice}₽`);
  await expect(changedRow).toContainText(/→ 1\s234,50\s₽/);
  await expect(manager.getByRole('row').filter({ hasText: 'изумрудный' })).toContainText('новый вариант');
  const addedRow = manager.getByRole('row').filter({ hasText: 'E2E-PREVIEW-1' });
  await expect(addedRow).toContainText('новый товар');
  await expect(addedRow).toContainText(/990,00\s₽/);
  await screenshots(manager, 'admin-price-list-preview');
  const found: string[] = [];
  // The page as it rests: no menu item under the pointer (its hover colours), and the colours'
  // transitions after a change of scheme finished (axe read the menu half-way through one).
  await manager.mouse.move(0, 0);
  for (const scheme of ['light', 'dark'] as const) {
    await manager.emulateMedia({ colorScheme: scheme });
    await manager.waitForFunction(() =>
      document.getAnimations().every((animation) => animation.playState !== 'running'),
    );
    found.push(...(await axeViolations(manager, `price list preview, ${scheme}`)));
  }
  expect(found).toEqual([]);

  const [download] = await Promise.all([
    manager.waitForEvent('download'),
    manager.getByRole('button', { name: 'Скачать изменения (XLSX)' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^myagkiy-opt-price-list-changes-\d{4}-\d{2}-\d{2}\.xlsx$/);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(await download.path());
  const rows: unknown[][] = [];
  workbook.worksheets[0]!.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  expect(rows).toHaveLength(4);
  expect(rows[1]!.slice(0, 9)).toEqual([
    2,
    'изменение',
    art,
    color,
    Number(size),
    Number(oldPrice!.replace(',', '.')),
    1234.5,
    Number(oldStock),
    77,
  ]);
  expect(rows[2]!.slice(0, 4)).toEqual([3, 'новый вариант', art, 'изумрудный']);
  expect(rows[3]!.slice(0, 3)).toEqual([4, 'новый товар', 'E2E-PREVIEW-1']);

  await manager.getByRole('button', { name: 'Применить' }).click();
  await expect(manager.getByText('Прайс-лист применён')).toBeVisible();
  await expect(manager.getByText('Добавлено: 2, изменено: 1, без изменений: 0. Новых товаров: 1.')).toBeVisible();
  const answer = (await (await api.get(`/api/v1/products/${encodeURIComponent(art!)}`)).json()) as {
    variants: { color: string; size: number; price: number; stock: number }[];
  };
  expect(answer.variants.find((variant) => variant.color === color && variant.size === Number(size))).toMatchObject({
    price: 1234.5,
    stock: 77,
  });
  expect((await api.get('/api/v1/products/E2E-PREVIEW-1')).status()).toBe(200);
  managerConsole.expectClean();
});
