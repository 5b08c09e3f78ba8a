import type { Page } from '@playwright/test';
import { formatRubles } from '../src/shared/money';
import {
  expect,
  findProduct,
  logInThroughDialog,
  registerBuyer,
  screenshots,
  test,
  type DemoProduct,
} from './fixtures';

// Intl separates thousands with a no-break space; compare texts with plain spaces.
const plain = (text: string) => text.replace(/\s/g, ' ');

async function stockOf(page: Page, art: string, variantId: number): Promise<number> {
  const response = await page.request.get(`/api/v1/products/${art}`);
  const product = (await response.json()) as DemoProduct;
  return product.variants.find((variant) => variant.id === variantId)!.stock;
}

const cartBadge = (page: Page) => page.getByRole('banner').getByRole('button', { name: /Корзина, товаров/ });

/** Two colours sharing a size, every variant in stock, with different prices across sizes. */
const isGoodForVariants = (product: DemoProduct) => {
  const colours = [...new Set(product.variants.map((variant) => variant.color))];
  if (colours.length < 2 || product.variants.some((variant) => variant.stock < 20)) return false;
  const sizes = (colour: string) =>
    product.variants.filter((variant) => variant.color === colour).map((variant) => variant.size);
  return sizes(colours[0]!).length >= 2 && sizes(colours[1]!).some((size) => sizes(colours[0]!).includes(size));
};

test('a buyer chooses a variant, fills the cart, checks out with company details and sees the order', async ({
  page,
  request,
}) => {
  const email = await registerBuyer(request);
  const product = await findProduct(request, isGoodForVariants);
  const second = await findProduct(
    request,
    (candidate) => candidate.art !== product.art && candidate.variants.some((variant) => variant.stock > 10),
  );
  await page.goto('/');
  await logInThroughDialog(page, email);

  // Variant choice: the price and the stock follow the colour and size.
  await page.goto(`/product/${product.art}`);
  const [first] = product.variants;
  await expect
    .poll(async () => plain(await page.getByLabel('Цена').innerText()))
    .toBe(plain(formatRubles(first!.price)));
  const colours = [...new Set(product.variants.map((variant) => variant.color))];
  const biggerOfFirstColour = product.variants.filter((variant) => variant.color === colours[0]).at(-1)!;
  await page.locator('.variant-picker label', { hasText: `${biggerOfFirstColour.size} см` }).click();
  await expect
    .poll(async () => plain(await page.getByLabel('Цена').innerText()))
    .toBe(plain(formatRubles(biggerOfFirstColour.price)));
  await page.locator('.variant-picker label', { hasText: colours[1]! }).click();
  const sameSizeOther = product.variants.find(
    (variant) => variant.color === colours[1] && variant.size === biggerOfFirstColour.size,
  );
  const expected =
    sameSizeOther ??
    product.variants.filter((variant) => variant.color === colours[1]).sort((a, b) => a.size - b.size)[0]!;
  await expect
    .poll(async () => plain(await page.getByLabel('Цена').innerText()))
    .toBe(plain(formatRubles(expected.price)));
  await expect(page.getByText(/^В наличии: \d+ шт\.$/)).toBeVisible();

  await page.getByRole('button', { name: 'В корзину', exact: true }).click();
  await expect(page.getByRole('button', { name: 'В корзине' })).toBeDisabled();
  await expect(cartBadge(page)).toHaveAccessibleName('Корзина, товаров: 1');

  await page.goto(`/product/${second.art}`);
  await page.getByRole('button', { name: 'В корзину', exact: true }).click();
  await expect(page.getByRole('button', { name: 'В корзине' })).toBeDisabled();
  await expect(cartBadge(page)).toHaveAccessibleName('Корзина, товаров: 2');

  // The cart: plural forms, debounced saves that survive a reload, delete.
  await cartBadge(page).click();
  await expect(page).toHaveURL(/\/cart$/);
  await expect(page.getByText('2 товара')).toBeVisible();
  const plus = page.getByRole('button', { name: `Увеличить количество: ${product.name}` });
  for (let click = 0; click < 4; click += 1) await plus.click();
  await expect(page.getByText('6 товаров')).toBeVisible();
  await page.getByRole('button', { name: `Уменьшить количество: ${product.name}` }).click();
  await expect(page.getByText('5 товаров')).toBeVisible();
  await page.waitForTimeout(1500);
  await page.reload();
  await expect(page.getByText('5 товаров')).toBeVisible();
  await screenshots(page, 'cart');

  await page.getByRole('button', { name: `Удалить: ${second.name}` }).click();
  await expect(page.getByText('4 товара')).toBeVisible();
  await page.waitForTimeout(1500);
  await page.reload();
  await expect(page.getByText('4 товара')).toBeVisible();
  await expect(page.getByText(second.name)).toBeHidden();

  // Checkout with each validation message, then an order with company details.
  const stockBefore = await stockOf(page, product.art, expected.id);
  await page.getByRole('button', { name: 'Оформить заказ' }).click();
  await expect(page).toHaveURL(new RegExp(`/checkout\\?items=${product.art}:${expected.id}:4$`));
  await expect(page.getByText(`${product.name} x 4`)).toBeVisible();
  const submit = page.getByRole('button', { name: 'Оформить заказ' });
  await submit.click();
  await expect(page.getByText('Пожалуйста, заполните имя, телефон и адрес доставки.')).toBeVisible();
  await page.getByLabel('Имя').fill('Анна Петрова');
  await page.getByLabel('Телефон').fill('+7 900 000-00-00');
  await page.getByLabel('Адрес доставки').fill('Москва, ул. Складская, д. 1\nсклад 3');
  await page.getByLabel('Название компании').fill('ООО «Игрушки»');
  await page.getByLabel('ИНН').fill('77070838931234');
  await expect(page.getByLabel('ИНН')).toHaveValue('770708389312');
  // ИНН and КПП as the law has them (docs/decisions.md): each rule refused with its message.
  await page.getByLabel('ИНН').fill('12345678901');
  await page.getByLabel('КПП').fill('12345678');
  await submit.click();
  await expect(page.getByText('ИНН должен содержать 10 цифр (организация) или 12 цифр (ИП).')).toBeVisible();
  await page.getByLabel('ИНН').fill('7707083894');
  await expect(page.getByText('Некорректный ИНН: не сходится контрольное число.')).toBeVisible();
  await expect(page.getByText('КПП должен содержать ровно 9 символов.')).toBeVisible();
  await page.getByLabel('ИНН').fill('500100732259');
  await expect(page.getByText('КПП указывается только для организаций (ИНН из 10 цифр).')).toBeVisible();
  // An organisation: a 10-digit ИНН with its КПП.
  await page.getByLabel('ИНН').fill('7707083893');
  await page.getByLabel('КПП').fill('770701001');
  await screenshots(page, 'checkout');
  await submit.click();

  await expect(page.getByRole('heading', { name: 'Заказ принят!' })).toBeVisible();
  await screenshots(page, 'order-success');
  expect(await stockOf(page, product.art, expected.id)).toBe(stockBefore - 4);
  await expect(cartBadge(page)).toHaveAccessibleName('Корзина, товаров: 0');

  await page.getByRole('link', { name: 'Мои заказы' }).click();
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByRole('heading', { name: `Здравствуйте, ${email.split('@')[0]}!` })).toBeVisible();
  await expect(page.getByText(/^Заказ #\d+$/)).toHaveCount(1);
  await expect
    .poll(async () => plain(await page.locator('.order-card-sum').innerText()))
    .toBe(plain(`Сумма: ${formatRubles(expected.price * 4)}`));
  await expect(page.getByText('Статус: Создан')).toBeVisible();
  await screenshots(page, 'profile');
});

test('«Купить» goes straight to checkout and leaves the cart alone', async ({ page, request }) => {
  const email = await registerBuyer(request);
  const product = await findProduct(request, (candidate) => candidate.variants.some((variant) => variant.stock > 5));
  const variant = product.variants.find((candidate) => candidate.stock > 5)!;
  await page.goto('/');
  await logInThroughDialog(page, email);
  await page.goto(`/product/${product.art}`);
  if (variant.id !== product.variants[0]!.id) {
    await page.locator('.variant-picker label', { hasText: variant.color }).first().click();
    await page.locator('.variant-picker label', { hasText: `${variant.size} см` }).click();
  }
  await page.getByRole('spinbutton', { name: 'Количество', exact: true }).fill('3');
  await page.getByRole('button', { name: 'Купить' }).click();
  await expect(page).toHaveURL(new RegExp(`/checkout\\?items=${product.art}:${variant.id}:3$`));
  await expect(page.getByText(`${product.name} x 3`)).toBeVisible();
  await expect(page.getByRole('banner').getByRole('button', { name: /Корзина, товаров/ })).toHaveAccessibleName(
    'Корзина, товаров: 0',
  );
  await page.getByLabel('Имя').fill('Иван');
  await page.getByLabel('Телефон').fill('89000000000');
  await page.getByLabel('Адрес доставки').fill('Казань, ул. Баумана, 1');
  await page.getByRole('button', { name: 'Оформить заказ' }).click();
  await expect(page.getByRole('heading', { name: 'Заказ принят!' })).toBeVisible();
});
