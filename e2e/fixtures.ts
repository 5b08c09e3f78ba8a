import { mkdirSync } from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type APIRequestContext, type Browser, type Locator, type Page } from '@playwright/test';

export const SCREENSHOT_DIR = path.resolve(__dirname, '..', 'e2e-artifacts', 'screenshots');
export const PASSWORD = 'Плюшевый-мишка-2026';

let userCounter = 0;
export const newEmail = (tag: string) => `${tag}-${Date.now()}-${++userCounter}@example.com`;

/**
 * Every journey runs against the shop of global-setup.ts (relative URLs, for the page and for
 * `request`) and fails if the page logged an error or threw: a console error is a defect even when
 * the screen looks right.
 */
export const test = base.extend<{ console: ConsoleWatch }>({
  baseURL: async ({}, use) => use(process.env.SHOP_URL),
  console: [
    async ({ page }, use) => {
      const watch = watchConsole(page);
      await use(watch);
      watch.expectClean();
    },
    { auto: true },
  ],
});

export interface ConsoleWatch {
  /** A journey that provokes an error answer on purpose (a wrong password: 401) declares it. */
  allowHttpStatus(status: number): void;
  /** A journey that cuts the connection on purpose (offline, a reset) declares it. */
  allowNetworkFailures(): void;
  expectClean(): void;
}

/** Collects the page's console errors and uncaught exceptions. */
export function watchConsole(page: Page): ConsoleWatch {
  const errors: string[] = [];
  const allowed = new Set<number>();
  let networkFailuresAllowed = false;
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
  const isAllowed = (error: string) => {
    if (networkFailuresAllowed && /net::ERR_(INTERNET_DISCONNECTED|CONNECTION_RESET|FAILED)/.test(error)) return true;
    const status = /the server responded with a status of (\d+)/.exec(error)?.[1];
    return status !== undefined && allowed.has(Number(status));
  };
  return {
    allowHttpStatus: (status) => allowed.add(status),
    allowNetworkFailures: () => {
      networkFailuresAllowed = true;
    },
    expectClean: () =>
      expect(
        errors.filter((error) => !isAllowed(error)),
        'errors in the page console',
      ).toEqual([]),
  };
}

export { expect };

/** Registers a buyer through the API (fast), as the storefront's registration call does. */
export async function registerBuyer(request: APIRequestContext, email = newEmail('buyer')): Promise<string> {
  const response = await request.post('/api/v1/auth/register', { data: { email, password: PASSWORD, consent: true } });
  expect(response.status()).toBe(201);
  return email;
}

/** Logs in through the header's dialog, as a shopper does. */
export async function logInThroughDialog(page: Page, email: string, password = PASSWORD): Promise<void> {
  await openLoginDialog(page);
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Email').fill(email);
  await dialog.getByLabel('Пароль', { exact: true }).fill(password);
  await dialog.getByRole('button', { name: 'Войти' }).click();
  await expect(page.getByRole('dialog')).toBeHidden();
  await expect(userButton(page, email)).toBeVisible();
}

/**
 * Waits until an element that appears with an animation (antd's dialogs and menus) has finished
 * appearing. antd first shows it at opacity 0 with its animation not yet started, and Playwright
 * counts that as visible and stable: a click then pressed the button down on the still element and
 * released it on the one the starting animation had moved there, and the click was lost (seen on a
 * busy CI machine, where that pause is long).
 */
export async function waitUntilAppeared(locator: Locator): Promise<void> {
  await expect
    .poll(() =>
      locator.evaluate((element) => {
        for (let node: Element | null = element; node; node = node.parentElement) {
          if (getComputedStyle(node).opacity !== '1') return false;
        }
        return document.getAnimations().every((animation) => {
          const target = (animation.effect as KeyframeEffect | null)?.target;
          return !target?.contains(element) || animation.playState === 'finished';
        });
      }),
    )
    .toBe(true);
}

export async function openPhoneMenu(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Меню' }).click();
  await waitUntilAppeared(page.getByRole('menu'));
}

export async function openLoginDialog(page: Page): Promise<void> {
  const mobile = (page.viewportSize()?.width ?? 1440) < 600;
  if (mobile) {
    await openPhoneMenu(page);
    await page.getByRole('menuitem', { name: 'Войти' }).click();
  } else {
    await page.getByRole('banner').getByRole('button', { name: 'Войти' }).click();
  }
  await waitUntilAppeared(page.getByRole('dialog'));
}

export const userButton = (page: Page, email: string) =>
  page.getByRole('banner').getByRole('button', { name: email.split('@')[0] });

/** Screenshots of a screen at phone, tablet and desktop width, light and dark, for a person to look at. */
export async function screenshots(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const original = page.viewportSize();
  for (const width of [375, 1024, 1440]) {
    for (const scheme of ['light', 'dark'] as const) {
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ colorScheme: scheme });
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.waitForTimeout(300);
      await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}-${width}-${scheme}.png`), fullPage: true });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  if (original) await page.setViewportSize(original);
}

export interface DemoProduct {
  id: number;
  art: string;
  name: string;
  variants: { id: number; color: string; size: number; price: number; stock: number }[];
}

/** The shop's own details for invoices, as a manager fills in «Реквизиты»: published numbers whose checks pass. */
export const SUPPLIER = {
  name: 'ООО «Мягкий Опт»',
  inn: '7707083893',
  kpp: '773601001',
  ogrn: '1027700132195',
  address: '115035, г. Москва, ул. Садовническая, д. 1',
  bank_name: 'ПАО Сбербанк',
  bik: '044525225',
  account: '40702810938000000001',
  corr_account: '30101810400000000225',
};

/** A company's order details as the checkout sends them, for orders placed through the API. */
export const ORDER_DETAILS = {
  address: 'Казань, ул. Баумана, д. 1',
  company_name: 'ООО «Игрушки Казани»',
  company_inn: '1655065554',
  company_kpp: '165501001',
  contact_name: 'Ирина',
  contact_phone: '+7 900 000-00-00',
};

/** An account's Authorization header, from the token call the storefront's sign-in makes. */
export async function bearerOf(request: APIRequestContext, email: string): Promise<{ authorization: string }> {
  const response = await request.post('/api/v1/auth/token', { form: { username: email, password: PASSWORD } });
  expect(response.status()).toBe(200);
  return { authorization: `Bearer ${((await response.json()) as { access_token: string }).access_token}` };
}

/** The account an Authorization header is of: its token's `sub`. */
export const userIdOf = (headers: { authorization: string }) =>
  Number(
    (JSON.parse(Buffer.from(headers.authorization.split('.')[1]!, 'base64url').toString()) as { sub: string }).sub,
  );

/** A page in a browser context of its own, in Russian, on the shop at `baseURL`; signed in when an address is given. */
export async function pageAs(
  browser: Browser,
  baseURL: string,
  email?: string,
  viewport = { width: 1280, height: 900 },
): Promise<Page> {
  const context = await browser.newContext({ baseURL, locale: 'ru-RU', viewport });
  const page = await context.newPage();
  if (email) {
    await page.goto('/');
    await logInThroughDialog(page, email);
  }
  return page;
}

/** A product of the demo catalogue matching a condition, read from the API the storefront uses. */
export async function findProduct(
  request: APIRequestContext,
  condition: (product: DemoProduct) => boolean,
): Promise<DemoProduct> {
  for (let skip = 0; skip < 1000; skip += 100) {
    const response = await request.get(`/api/v1/products/?skip=${skip}&limit=100`);
    const products = (await response.json()) as DemoProduct[];
    const found = products.find(condition);
    if (found) return found;
    if (products.length < 100) break;
  }
  throw new Error('no demo product matches');
}

/** axe-core's WCAG 2.1 A and AA (contrast, names, roles) and its best practices (landmarks, heading order). */
const AXE_RULES = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

/** The violations on the page as it is now, one line each, named by the screen. */
export async function axeViolations(page: Page, screen: string): Promise<string[]> {
  const { violations, incomplete } = await new AxeBuilder({ page }).withTags(AXE_RULES).analyze();
  // axe leaves text in the very colour of its background for a person to review (it may be meant to
  // be hidden); the shop hides nothing that way, so such text is unreadable, and counted.
  const sameColourAsBackground = incomplete
    .filter((result) => result.id === 'color-contrast')
    .map((result) => ({
      ...result,
      nodes: result.nodes.filter((node) => node.any.some((check) => check.data?.messageKey === 'equalRatio')),
    }));
  return [...violations, ...sameColourAsBackground].flatMap((violation) =>
    violation.nodes.map(
      (node) =>
        `${screen}: ${violation.id} (${violation.impact}) at ${node.target.join(' ')}: ${node.failureSummary?.replace(/\s+/g, ' ') ?? node.any.map((check) => check.message).join('; ')}`,
    ),
  );
}
