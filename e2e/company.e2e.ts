import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { request as apiRequest, type APIRequestContext } from '@playwright/test';
import { COMPANY_MESSAGES } from '../src/shared/company';
import {
  axeViolations,
  bearerOf,
  pageAs,
  userIdOf,
  expect,
  findProduct,
  newEmail,
  ORDER_DETAILS,
  PASSWORD,
  registerBuyer,
  SUPPLIER,
  test,
  watchConsole,
} from './fixtures';
import { latestLetter } from './mailbox';
import { startShopWithManager, type RunningShop } from './shop-server';

/**
 * A buyer company's journeys: the owner invites a purchaser, who makes an account from the letter
 * and orders for the company's ООО; an accountant downloads the company's invoice and finds no
 * «Оформить заказ». A shop of its own, with a manager to issue the invoice.
 */
let shop: RunningShop;
let dataDir: string;
let api: APIRequestContext;
const managerEmail = newEmail('manager');

const OOO = {
  name: 'ООО «Ромашка»',
  inn: '7707083893',
  kpp: '770701001',
  address: '101000, г. Москва, ул. Мясницкая, д. 1',
};

test.beforeAll(async () => {
  test.setTimeout(240_000);
  ({ shop, dataDir } = await startShopWithManager(managerEmail));
  api = await apiRequest.newContext({ baseURL: shop.url });
  const saved = await api.put('/api/v1/admin/settings/requisites', {
    headers: await bearerOf(api, managerEmail),
    data: { ...SUPPLIER, vat_rate: null, payment_days: 5 },
  });
  expect(saved.status()).toBe(200);
});

test.afterAll(async () => {
  await api?.dispose();
  await shop?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** The path of the invitation letter's link (`/invite#<token>`), read from the letter as the invitee would. */
async function invitationLink(email: string): Promise<string> {
  const letter = await latestLetter(email, 'Приглашение в компанию', dataDir);
  const link = /https?:\/\/\S+?(\/invite#[\w-]+)/.exec(letter.text ?? '')?.[1];
  expect(link).toBeDefined();
  return link!;
}

/** One piece of a toy in the employee's cart, through the API the product page calls. */
async function fillCart(headers: { authorization: string }): Promise<void> {
  const product = await findProduct(api, (candidate) => candidate.variants.some((variant) => variant.stock >= 10));
  const variant = product.variants.find((candidate) => candidate.stock >= 10)!;
  const added = await api.post('/api/v1/cart/add', {
    headers,
    data: { user_id: userIdOf(headers), product_id: product.id, variant_id: variant.id, count: 1 },
  });
  expect(added.status()).toBe(201);
}

test('an owner invites a purchaser, who makes an account from the letter and orders for the ООО', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const ownerEmail = newEmail('owner');
  const purchaserEmail = newEmail('purchaser');
  await registerBuyer(api, ownerEmail);

  // The owner adds the company's ООО and invites a purchaser from the profile's «Компания».
  const owner = await pageAs(browser, shop.url, ownerEmail);
  const ownerConsole = watchConsole(owner);
  await owner.goto('/profile#company');
  const company = owner.getByRole('region', { name: 'Компания' });
  await company.getByRole('button', { name: 'Добавить юрлицо' }).click();
  const dialog = owner.getByRole('dialog', { name: 'Новое юрлицо' });
  await dialog.getByLabel('Наименование').fill(OOO.name);
  await dialog.getByLabel('ИНН').fill(OOO.inn);
  await dialog.getByLabel('КПП').fill(OOO.kpp);
  await dialog.getByLabel('Юридический адрес').fill(OOO.address);
  await dialog.getByRole('button', { name: 'Сохранить' }).click();
  await expect(dialog).toBeHidden();
  await expect(company.getByText(OOO.name)).toBeVisible();

  const invitation = company.getByRole('form', { name: 'Пригласить сотрудника' });
  await invitation.getByLabel('E-mail сотрудника').fill(purchaserEmail);
  // A purchaser is what the form offers first.
  await expect(invitation.getByText('корзина, заказы для компании, история заказов компании')).toBeVisible();
  await invitation.getByRole('button', { name: 'Отправить приглашение' }).click();
  await expect(company.getByText(purchaserEmail)).toBeVisible();
  expect(await axeViolations(owner, 'the company section')).toEqual([]);

  // The purchaser opens the letter's link: a new account, signed in, an employee of the company.
  const purchaser = await pageAs(browser, shop.url);
  const purchaserConsole = watchConsole(purchaser);
  await purchaser.goto(await invitationLink(purchaserEmail));
  await expect(purchaser.getByText(ownerEmail).first()).toBeVisible();
  // The token leaves the address bar as soon as it is read: no later link or bookmark carries it.
  await expect.poll(() => new URL(purchaser.url()).hash).toBe('');
  expect(await axeViolations(purchaser, 'the invitation page')).toEqual([]);
  await purchaser.getByLabel('Пароль', { exact: true }).fill(PASSWORD);
  await purchaser.getByLabel('Подтвердите пароль').fill(PASSWORD);
  await purchaser.getByRole('checkbox', { name: /Я согласен на обработку персональных данных/ }).check();
  await purchaser.getByRole('button', { name: 'Принять приглашение' }).click();
  await expect(purchaser).toHaveURL(/\/profile#company$/);
  await expect(purchaser.getByRole('region', { name: 'Компания' }).getByText(OOO.name)).toBeVisible();

  // The purchaser orders for the ООО: the checkout offers the company's legal entity.
  await fillCart(await bearerOf(api, purchaserEmail));
  await purchaser.goto('/cart');
  await purchaser.getByRole('button', { name: 'Оформить заказ' }).click();
  await expect(purchaser.getByRole('combobox', { name: 'Юрлицо' })).toBeVisible();
  await expect(purchaser.getByLabel('ИНН')).toHaveValue(OOO.inn);
  await purchaser.getByLabel('Имя').fill('Мария');
  await purchaser.getByLabel('Телефон').fill('+7 900 111-22-33');
  await purchaser.getByLabel('Адрес доставки').fill(ORDER_DETAILS.address);
  await purchaser.getByRole('button', { name: 'Оформить заказ' }).click();
  await expect(purchaser.getByRole('heading', { name: 'Заказ принят!' })).toBeVisible();

  // The owner sees the company's order, placed by the purchaser, made out to the ООО.
  await owner.goto('/profile');
  await expect(owner.getByText('Оформил: Мария')).toBeVisible();
  const orders = (await (
    await api.get(`/api/v1/order/${userIdOf(await bearerOf(api, ownerEmail))}`, {
      headers: await bearerOf(api, ownerEmail),
    })
  ).json()) as { placed_by: { name: string }; legal_entity_id: string | null }[];
  expect(orders).toEqual([expect.objectContaining({ placed_by: expect.objectContaining({ name: 'Мария' }) })]);
  expect(orders[0]!.legal_entity_id).not.toBeNull();
  ownerConsole.expectClean();
  purchaserConsole.expectClean();
});

test('an accountant downloads the company’s invoice and finds no «Оформить заказ»', async ({ browser }) => {
  test.setTimeout(180_000);
  const ownerEmail = newEmail('owner');
  const accountantEmail = newEmail('accountant');
  await registerBuyer(api, ownerEmail);
  const owner = await bearerOf(api, ownerEmail);

  // Invited and accepted through the API the pages call; the owner orders, the manager invoices.
  const invited = await api.post('/api/v1/company/invitations', {
    headers: owner,
    data: { email: accountantEmail, role: 'accountant' },
  });
  expect(invited.status()).toBe(201);
  const token = (await invitationLink(accountantEmail)).split('#')[1]!;
  const accepted = await api.post('/api/v1/company/invitations/accept', {
    data: { token, password: PASSWORD, consent: true },
  });
  expect(accepted.status()).toBe(200);
  const product = await findProduct(api, (candidate) => candidate.variants.some((variant) => variant.stock >= 10));
  const variant = product.variants.find((candidate) => candidate.stock >= 10)!;
  const placed = await api.post('/api/v1/order/', {
    headers: owner,
    data: {
      user_id: userIdOf(owner),
      items: [{ product_id: product.id, variant_id: variant.id, quantity: 2 }],
      ...ORDER_DETAILS,
    },
  });
  expect(placed.status()).toBe(201);
  const orderId = ((await placed.json()) as { id: number }).id;
  const invoiced = await api.post(`/api/v1/admin/orders/${orderId}/invoice`, {
    headers: await bearerOf(api, managerEmail),
  });
  expect(invoiced.status()).toBe(201);

  // The accountant's cart says why there is no «Оформить заказ».
  const accountant = await pageAs(browser, shop.url, accountantEmail);
  const console = watchConsole(accountant);
  await fillCart(await bearerOf(api, accountantEmail));
  await accountant.goto('/cart');
  await expect(accountant.getByText(COMPANY_MESSAGES.accountantCannotOrder)).toBeVisible();
  await expect(accountant.getByRole('button', { name: 'Оформить заказ' })).toHaveCount(0);
  expect(await axeViolations(accountant, 'the accountant’s cart')).toEqual([]);

  // The company's order is in the accountant's profile, its invoice downloads, and it says what it should.
  await accountant.goto('/profile');
  const [download] = await Promise.all([
    accountant.waitForEvent('download'),
    accountant.getByRole('button', { name: 'Скачать счёт' }).click(),
  ]);
  const pdfPath = path.join(dataDir, `invoice-${orderId}.pdf`);
  await download.saveAs(pdfPath);
  const text = execFileSync('pdftotext', ['-layout', pdfPath, '-'], { encoding: 'utf8' });
  expect(text).toContain(ORDER_DETAILS.company_name);
  expect(text).toContain(SUPPLIER.name);
  console.expectClean();
});
