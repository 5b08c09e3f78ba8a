import type { Locator, Page } from '@playwright/test';
import {
  axeViolations,
  expect,
  findProduct,
  newEmail,
  openLoginDialog,
  openPhoneMenu,
  PASSWORD,
  test,
  waitUntilAppeared,
} from './fixtures';

/**
 * Every screen, as a visitor and as a buyer, light and dark, at desktop and phone width, checked
 * with axe-core against WCAG 2.1 A and AA (contrast, names, roles) and its best practices (landmarks,
 * heading order). Lighthouse's accessibility score covers three public pages; this covers the rest.
 */
/** A logged-in buyer (the refresh cookie is in the page's context) with two lines in the cart. */
async function buyerWithCart(page: Page): Promise<void> {
  const email = newEmail('a11y');
  const registered = await page.request.post('/api/v1/auth/register', {
    data: { email, password: PASSWORD, consent: true },
  });
  expect(registered.status()).toBe(201);
  const { id: userId } = (await registered.json()) as { id: number };
  const login = await page.request.post('/api/v1/auth/token', { form: { username: email, password: PASSWORD } });
  expect(login.ok()).toBe(true);
  const { access_token } = (await login.json()) as { access_token: string };
  const product = await findProduct(
    page.request,
    (candidate) => candidate.variants.filter((variant) => variant.stock >= 2).length >= 2,
  );
  for (const variant of product.variants.filter((candidate) => candidate.stock >= 2).slice(0, 2)) {
    const added = await page.request.post('/api/v1/cart/add', {
      headers: { authorization: `Bearer ${access_token}` },
      data: { user_id: userId, product_id: product.id, variant_id: variant.id, count: 1 },
    });
    expect(added.status()).toBe(201);
  }
}

for (const colorScheme of ['light', 'dark'] as const) {
  for (const [device, viewport] of [
    ['desktop', { width: 1440, height: 900 }],
    ['phone', { width: 375, height: 740 }],
  ] as const) {
    /**
     * A dialog as a buyer reads it: its opening animation over, and the pointer away from it (on a
     * phone the button that opened it lies under the dialog's own buttons, which would be checked
     * in their hover colours, mid-transition).
     */
    async function settled(dialog: Locator): Promise<void> {
      await waitUntilAppeared(dialog);
      await dialog.page().mouse.move(0, 0);
      // The buttons' colour transitions out of hover, run to their end.
      await dialog.evaluate((element) =>
        Promise.all(element.getAnimations({ subtree: true }).map((animation) => animation.finished)),
      );
    }

    test.describe(`${device}, ${colorScheme} theme`, () => {
      test.use({ colorScheme, viewport });

      test('every screen a visitor sees passes axe', async ({ page, request }) => {
        const product = await findProduct(request, (candidate) =>
          candidate.variants.some((variant) => variant.stock > 0),
        );
        const found: string[] = [];

        await page.goto('/');
        await expect(page.getByRole('heading', { name: 'Популярные игрушки' })).toBeVisible();
        await expect(page.getByRole('region', { name: 'Акции и новинки' })).toBeVisible();
        found.push(...(await axeViolations(page, 'home')));

        await page.goto('/catalog');
        await expect(page.getByText('Страница 1')).toBeVisible();
        await expect(
          page
            .getByRole('link', { name: /./ })
            .filter({ has: page.locator('img') })
            .first(),
        ).toBeVisible();
        found.push(...(await axeViolations(page, 'catalogue')));

        await page.goto(`/product/${product.art}`);
        await expect(page.getByText(/^В наличии: \d+ шт\.$/)).toBeVisible();
        found.push(...(await axeViolations(page, 'product')));

        await page.goto('/about');
        await expect(page.getByRole('heading', { name: 'О компании' })).toBeVisible();
        found.push(...(await axeViolations(page, 'about')));

        await page.goto('/privacy');
        await expect(page.getByRole('heading', { name: 'Политика обработки персональных данных' })).toBeVisible();
        found.push(...(await axeViolations(page, 'privacy policy')));

        await page.goto('/reset-password?token=not-a-real-token');
        await expect(page.getByLabel('Новый пароль')).toBeVisible();
        found.push(...(await axeViolations(page, 'reset password')));

        await page.goto('/no/such/page');
        await expect(page.getByRole('heading', { name: 'Упс... Страница не найдена' })).toBeVisible();
        found.push(...(await axeViolations(page, 'not found')));

        if (device === 'phone') {
          await openPhoneMenu(page);
          found.push(...(await axeViolations(page, 'phone menu')));
          await page.keyboard.press('Escape');
          await expect(page.getByRole('menu')).toBeHidden();
        }

        await openLoginDialog(page);
        found.push(...(await axeViolations(page, 'login dialog')));
        await page.getByRole('dialog').getByRole('tab', { name: 'Регистрация' }).click();
        found.push(...(await axeViolations(page, 'registration with the consent')));
        await page.getByRole('dialog').getByRole('tab', { name: 'Вход' }).click();
        await page.getByRole('dialog').getByRole('button', { name: 'Забыли пароль?' }).click();
        await expect(page.getByRole('dialog').getByRole('button', { name: 'Отправить ссылку' })).toBeVisible();
        found.push(...(await axeViolations(page, 'forgot password')));

        expect(found).toEqual([]);
      });

      test('every screen of a purchase passes axe', async ({ page }) => {
        await buyerWithCart(page);
        const found: string[] = [];

        await page.goto('/cart');
        await expect(page.getByText('2 товара')).toBeVisible();
        found.push(...(await axeViolations(page, 'cart')));
        // Hovered buttons have colours of their own: antd's lighter hover raspberry put white text
        // at 4.08:1 (light) and 3.35:1 (dark) on the primary button.
        for (const name of ['Оформить заказ', 'Скачать в Excel']) {
          const button = page.getByRole('button', { name });
          await button.hover();
          await button.evaluate((element) =>
            Promise.all(element.getAnimations().map((animation) => animation.finished)),
          );
          found.push(...(await axeViolations(page, `cart, «${name}» hovered`)));
        }
        await page.mouse.move(0, 0);

        await page.getByRole('button', { name: 'Оформить заказ' }).click();
        const submit = page.getByRole('button', { name: 'Оформить заказ' });
        await expect(page.getByRole('heading', { name: /Итого/ })).toBeVisible();
        await submit.click();
        await expect(page.getByText('Пожалуйста, заполните имя, телефон и адрес доставки.')).toBeVisible();
        found.push(...(await axeViolations(page, 'checkout with its message')));

        await page.getByLabel('Имя').fill('Анна Петрова');
        await page.getByLabel('Телефон').fill('+7 900 000-00-00');
        await page.getByLabel('Адрес доставки').fill('Москва, ул. Складская, д. 1');
        await submit.click();
        await expect(page.getByRole('heading', { name: 'Заказ принят!' })).toBeVisible();
        found.push(...(await axeViolations(page, 'order accepted')));

        await page.goto('/profile');
        await expect(page.getByRole('heading', { name: 'Мои заказы' })).toBeVisible();
        await expect(page.getByRole('heading', { name: /^Заказ #\d+$/ })).toBeVisible();
        found.push(...(await axeViolations(page, 'profile with an order')));
        await page.getByRole('button', { name: 'Сменить пароль' }).click();
        await settled(page.getByRole('dialog', { name: 'Смена пароля' }));
        found.push(...(await axeViolations(page, 'change of password')));
        await page.getByRole('dialog').getByRole('button', { name: 'Отмена' }).click();
        await page.getByRole('button', { name: 'Удалить аккаунт' }).click();
        await settled(page.getByRole('dialog', { name: 'Удалить аккаунт?' }));
        found.push(...(await axeViolations(page, 'account deletion')));
        await page.getByRole('dialog').getByRole('button', { name: 'Отмена' }).click();
        await expect(page.getByRole('dialog')).toBeHidden();

        await page.goto('/cart');
        await expect(page.getByText('Ваша корзина пуста')).toBeVisible();
        found.push(...(await axeViolations(page, 'empty cart')));

        expect(found).toEqual([]);
      });

      test('the product’s photo, opened large, passes axe and closes with Esc', async ({ page, request }) => {
        const product = await findProduct(request, (candidate) => candidate.variants.length > 0);
        await page.goto(`/product/${product.art}`);
        await page.getByRole('button', { name: 'Открыть фото крупно' }).click();
        const preview = page.getByRole('dialog', { name: product.name });
        await settled(preview);
        await expect(preview.getByRole('img', { name: product.name })).toBeVisible();
        const found = await axeViolations(page, 'product photo preview');
        await page.keyboard.press('Escape');
        await expect(preview).toBeHidden();
        expect(found).toEqual([]);
      });
    });
  }
}
