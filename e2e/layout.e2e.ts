import type { Locator, Page } from '@playwright/test';
import {
  expect,
  findProduct,
  logInThroughDialog,
  openLoginDialog,
  openPhoneMenu,
  registerBuyer,
  test,
  userButton,
  waitUntilAppeared,
} from './fixtures';

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
    for (const item of ['Каталог', 'Быстрый заказ', 'О компании', 'Корзина', 'Войти']) {
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

// At 375 px the cart was only in the menu, and the menu's badge made every page 1 px too wide.
test('at 375 px the cart is in the header and no page is wider than the screen, for a visitor and a buyer with a cart', async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 375, height: 740 });
  const product = await findProduct(request, (candidate) => (candidate.variants[0]?.stock ?? 0) > 0);
  const pages = ['/', '/catalog', `/product/${product.art}`, '/about'];
  const noOverflow = async (where: string) => {
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect.soft(width, `${where}: page width`).toBeLessThanOrEqual(375);
  };

  for (const path of pages) {
    await page.goto(path);
    await noOverflow(`${path}, visitor`);
  }
  // A visitor's cart asks them to log in.
  await page.getByRole('banner').getByRole('button', { name: 'Корзина, товаров: 0' }).click();
  await expect(page.getByRole('tab', { name: 'Вход' })).toBeVisible();
  await page.keyboard.press('Escape');

  // Logged in where the header shows the user's button (logInThroughDialog waits for it).
  await page.setViewportSize({ width: 1440, height: 900 });
  const email = await registerBuyer(request);
  await page.goto(`/product/${product.art}`);
  await logInThroughDialog(page, email);
  await page.getByRole('button', { name: 'В корзину', exact: true }).click();
  await page.setViewportSize({ width: 375, height: 740 });
  // The header has folded (the wide one's cart button has the same name).
  await expect(page.getByRole('banner').getByRole('button', { name: 'Меню' })).toBeVisible();
  const cart = page.getByRole('banner').getByRole('button', { name: 'Корзина, товаров: 1' });
  await expectInView(cart, 'cart button');
  await expect(cart.locator('.ant-badge-count')).toHaveText('1');
  for (const path of [...pages, '/cart']) {
    await page.goto(path);
    await noOverflow(`${path}, buyer`);
  }
  await page.goto('/');
  await cart.click();
  await expect(page).toHaveURL(/\/cart$/);
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

// The shell at every width a shopper may have, for a buyer whose e-mail prefix is 40
// characters long and whose cart is not empty.
const WIDTHS = [320, 375, 599, 600, 641, 700, 800, 930, 1024, 1440, 1920];
const LONG_PREFIX_LENGTH = 40;

/** Where an element's box is, and whether the point inside its top edge shows the element itself. */
function placement(locator: Locator) {
  return locator.evaluate((element) => {
    const box = element.getBoundingClientRect();
    const top = document.elementFromPoint(box.left + Math.min(8, box.width / 2), box.top + 2);
    const middle = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    const shows = (hit: Element | null) => !!hit && (element.contains(hit) || hit.contains(element));
    return {
      left: box.left,
      right: box.right,
      width: box.width,
      innerWidth: window.innerWidth,
      topShown: shows(top),
      middleShown: shows(middle),
    };
  });
}

async function expectInView(locator: Locator, what: string): Promise<void> {
  await expect.soft(locator, what).toBeVisible();
  const box = await placement(locator);
  expect.soft(box.left, `${what}: left edge`).toBeGreaterThanOrEqual(0);
  expect.soft(box.right, `${what}: right edge`).toBeLessThanOrEqual(box.innerWidth);
  expect.soft(box.middleShown, `${what}: not covered`).toBe(true);
}

const horizontalOverflow = (page: Page) =>
  page.evaluate(() => document.scrollingElement!.scrollWidth - window.innerWidth);

/** The smallest size, in CSS pixels, at which a banner picture of this width draws its visible words. */
async function smallestBannerText(page: Page, src: string, width: number): Promise<number> {
  const picture = await page.context().newPage();
  await picture.setViewportSize({ width, height: Math.round(width / 3) });
  await picture.goto(src);
  const size = await picture.evaluate(() => {
    // Drawn at the window's size, as an <img> of that size draws it (its media query sees that width).
    const svg = document.documentElement;
    svg.setAttribute('width', '100%');
    svg.setAttribute('height', '100%');
    const sizes = [...document.querySelectorAll('text')]
      .filter((text) => text.getBoundingClientRect().width > 0)
      .map((text) => parseFloat(getComputedStyle(text).fontSize) * text.getScreenCTM()!.a);
    return sizes.length ? Math.min(...sizes) : 0;
  });
  await picture.close();
  return size;
}

test('from 320 to 1920 px the header fits a 40-character e-mail, nothing covers the page, the phone header counts the cart, banner words are readable', async ({
  page,
  request,
}) => {
  // Eleven widths, three pages each.
  test.setTimeout(180_000);
  const prefix = `layout-${Date.now()}-`.padEnd(LONG_PREFIX_LENGTH, 'x');
  const email = await registerBuyer(request, `${prefix}@example.com`);
  const product = await findProduct(request, (candidate) => (candidate.variants[0]?.stock ?? 0) > 0);
  await page.goto(`/product/${product.art}`);
  await logInThroughDialog(page, email);
  await page.getByRole('button', { name: 'В корзину', exact: true }).click();
  await expect(page.getByRole('banner').getByRole('button', { name: 'Корзина, товаров: 1' })).toBeVisible();

  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 800 });
    for (const path of ['/', '/catalog', '/cart']) {
      await page.goto(path);
      const heading = page.getByRole('heading', { level: 1 });
      await expect(heading).toBeVisible();
      const where = `${path} at ${width}px`;
      expect.soft(await horizontalOverflow(page), `${where}: horizontal overflow`).toBeLessThanOrEqual(0);
      const headingBox = await placement(heading);
      expect.soft(headingBox.topShown, `${where}: the top of the first heading is not covered`).toBe(true);
    }

    const header = page.getByRole('banner');
    await expectInView(header.getByRole('link', { name: 'Мягкий Опт — на главную' }), `logo at ${width}px`);
    if (width < 600) {
      await expectInView(header.getByRole('button', { name: 'Меню' }), `menu button at ${width}px`);
      const cartButton = header.getByRole('button', { name: 'Корзина, товаров: 1' });
      await expectInView(cartButton, `cart button at ${width}px`);
      await expect.soft(cartButton.locator('.ant-badge-count'), `cart badge at ${width}px`).toHaveText('1');
      await openPhoneMenu(page);
      await expectInView(page.getByRole('menuitem', { name: prefix }), `the menu's e-mail item at ${width}px`);
      expect
        .soft(await horizontalOverflow(page), `open menu at ${width}px: horizontal overflow`)
        .toBeLessThanOrEqual(0);
      await page.keyboard.press('Escape');
    } else {
      const nav = header.getByRole('navigation', { name: 'Основное меню' });
      for (const [name, control] of [
        ['Каталог', nav.getByRole('link', { name: 'Каталог' })],
        ['О компании', nav.getByRole('link', { name: 'О компании' })],
        ['colour modes', nav.getByRole('radiogroup', { name: 'Цветовая тема' })],
        ['cart', nav.getByRole('button', { name: 'Корзина, товаров: 1' })],
        ['user button', userButton(page, email)],
        ['Выйти', nav.getByRole('button', { name: 'Выйти' })],
      ] as const) {
        await expectInView(control, `${name} at ${width}px`);
      }
      // Cut short where the header is narrow, whole on hover.
      await expect.soft(userButton(page, email)).toHaveAttribute('title', prefix);
    }

    await page.goto('/');
    const banner = page.getByRole('region', { name: 'Акции и новинки' }).getByRole('img').first();
    await expect(banner).toBeVisible();
    const [src, bannerWidth] = await banner.evaluate((image: HTMLImageElement) => [
      image.currentSrc,
      Math.round(image.getBoundingClientRect().width),
    ]);
    expect
      .soft(await smallestBannerText(page, src as string, bannerWidth as number), `banner words at ${width}px`)
      .toBeGreaterThanOrEqual(14);
  }
});

test('at 1440 px the home page’s 8 toys and the catalogue’s 9 fill their rows', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  for (const [path, count] of [
    ['/', 8],
    ['/catalog', 9],
  ] as const) {
    await page.goto(path);
    const cards = page.locator('.product-grid > a');
    await expect(cards).toHaveCount(count);
    const tops = await cards.evaluateAll((links) => links.map((link) => Math.round(link.getBoundingClientRect().top)));
    const perRow = [
      ...tops.reduce((rows, top) => rows.set(top, (rows.get(top) ?? 0) + 1), new Map<number, number>()).values(),
    ];
    expect(perRow.length, `${path}: more than one row`).toBeGreaterThan(1);
    expect(new Set(perRow).size, `${path}: cards per row ${perRow.join(', ')}`).toBe(1);
  }
});
