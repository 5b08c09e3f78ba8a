import type { Page } from '@playwright/test';
import { axeViolations, expect, test } from './fixtures';

// What the search says when it finds nothing, and what Enter opens.

const searchBox = (page: Page) => page.getByRole('banner').getByRole('searchbox', { name: 'Поиск товаров' });
const suggestField = (page: Page) => page.getByRole('banner').getByRole('combobox', { name: 'Поиск товаров' });

/** Types `text` into the header's field (the one with suggestions, once its code is there) and presses Enter. */
async function searchFromHeader(page: Page, text: string) {
  // The plain field until the first focus, the one with suggestions after.
  await searchBox(page).or(suggestField(page)).click();
  await expect(suggestField(page)).toBeFocused();
  await suggestField(page).fill(text);
  await suggestField(page).press('Enter');
}

test('nothing found says what was searched and offers the catalogue, with no paging', async ({ page }) => {
  await page.goto('/');
  await searchFromHeader(page, 'жирафозавр');
  await expect(page).toHaveURL(`/search?q=${encodeURIComponent('жирафозавр')}`);
  await expect(page.getByText('По запросу «жирафозавр» товары не найдены.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Вперёд' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Назад' })).toHaveCount(0);
  expect(await axeViolations(page, 'search, nothing found')).toEqual([]);
  await page.getByRole('main').getByRole('link', { name: 'Открыть каталог' }).click();
  await expect(page).toHaveURL(/\/catalog/);
});

test('Enter on an article’s beginning lists the series; on a whole article, however typed, opens it', async ({
  page,
}) => {
  await page.goto('/');
  await searchFromHeader(page, 'MO-10');
  await expect(page.getByRole('heading', { level: 1, name: 'Поиск: «MO-10»' })).toBeVisible();
  await expect(page.locator('.product-grid a[href="/product/MO-1001"]')).toBeVisible();
  // «МО» in the Russian layout, looking exactly like MO.
  await searchFromHeader(page, 'МО-1001');
  await expect(page).toHaveURL(/\/product\/MO-1001$/);
  await page.goto('/search?q=mo1001');
  await expect(page).toHaveURL(/\/product\/MO-1001$/);
  // The wrong layout: «vbirf» is «мишка» typed on Latin keys.
  await page.goto('/search?q=vbirf');
  await expect(page.locator('.product-grid a[href="/product/MO-1001"]')).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'другой раскладке' })).toHaveText(
    'По запросу «vbirf» ничего не нашлось. Показаны результаты по запросу «мишка»: похоже, он набран в другой раскладке клавиатуры.',
  );
  // A whole article in the other layout opens its product too.
  await page.goto('/search?q=ЬЩ-1001');
  await expect(page).toHaveURL(/\/product\/MO-1001$/);
});

test.describe('at phone width (375px)', () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test('the placeholder fits and articles stay on one line', async ({ page }) => {
    await page.goto('/');
    const field = searchBox(page);
    await expect(field).toHaveAttribute('placeholder', 'Поиск');
    // The placeholder is drawn whole: its text is no wider than the field's inside.
    const fits = await field.evaluate((input: HTMLInputElement) => {
      const style = getComputedStyle(input);
      const context = document.createElement('canvas').getContext('2d')!;
      context.font = `${style.fontSize} ${style.fontFamily}`;
      const inside = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      return context.measureText(input.placeholder).width <= inside;
    });
    expect(fits).toBe(true);
    const article = page.locator('.product-grid .article').first();
    await expect(article).toBeVisible();
    expect(await article.evaluate((span) => span.getClientRects().length)).toBe(1);
  });
});
