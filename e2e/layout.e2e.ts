import { expect, openLoginDialog, openPhoneMenu, test, waitUntilAppeared } from './fixtures';

test.describe('at phone width (375px)', () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test('the header folds into a hamburger menu, the contact strip hides, the auth dialog fills the screen', async ({
    page,
  }) => {
    await page.goto('/');
    await expect(page.getByRole('button', { name: 'Меню' })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Основное меню' })).toBeHidden();
    await expect(page.getByLabel('Контакты')).toBeHidden();

    await openPhoneMenu(page);
    for (const item of ['Каталог', 'О компании', 'Корзина', 'Войти']) {
      await expect(page.getByRole('menuitem', { name: item })).toBeVisible();
    }
    // A visitor's cart item asks them to log in.
    await page.getByRole('menuitem', { name: 'Корзина' }).click();
    await waitUntilAppeared(page.getByRole('dialog'));
    const size = (await page.locator('.ant-modal-container').boundingBox()) ?? { width: 0, height: 0 };
    expect(size.width).toBeGreaterThanOrEqual(370);
    expect(size.height).toBeGreaterThanOrEqual(700);
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toBeHidden();

    await openLoginDialog(page);
    await expect(page.getByRole('tab', { name: 'Вход' })).toBeVisible();
  });
});

test('at tablet width (1024px) the full header shows, with the contact strip', async ({ page }) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  await page.goto('/');
  await expect(page.getByRole('navigation', { name: 'Основное меню' })).toBeVisible();
  await expect(page.getByLabel('Контакты')).toContainText('Москва');
  await expect(page.getByRole('link', { name: /@/ })).toHaveAttribute('href', /^mailto:/);
  await expect(page.getByRole('contentinfo')).toContainText(`© ${new Date().getFullYear()} Мягкий Опт`);
});

test('at 641px the contact strip is shown, at 640px it is hidden', async ({ page }) => {
  await page.setViewportSize({ width: 641, height: 800 });
  await page.goto('/');
  await expect(page.getByLabel('Контакты')).toBeVisible();
  await page.setViewportSize({ width: 640, height: 800 });
  await expect(page.getByLabel('Контакты')).toBeHidden();
});

test('dark mode chosen in the header is kept across a reload; "system" follows the OS', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto('/');
  const theme = () => page.evaluate(() => document.documentElement.dataset.theme);
  await expect.poll(theme).toBe('light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect.poll(theme).toBe('dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await expect.poll(theme).toBe('light');

  await page.getByTitle('Тёмная тема').click();
  await expect.poll(theme).toBe('dark');
  await page.reload();
  await expect.poll(theme).toBe('dark');
  expect(await page.evaluate(() => localStorage.getItem('colourMode'))).toBe('dark');

  await page.getByTitle('Как в системе').click();
  await expect.poll(theme).toBe('light');
  expect(await page.evaluate(() => localStorage.getItem('colourMode'))).toBeNull();
});
