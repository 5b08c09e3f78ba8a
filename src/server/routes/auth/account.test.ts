import { createHash, randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { mailOutbox, passwordResetTokens, resetRequests } from '../../db/schema';
import { ACCOUNT_MESSAGES, DELETED_PERSONAL_DATA } from '../../../shared/account';
import type { AdminOrder, AdminOrderList, Product } from '../../../shared/api';
import type { AccountExport } from '../../services/account-export';
import {
  allProducts,
  bearer,
  createTestApp,
  json,
  logIn,
  setCookie,
  signUp,
  STARTUP_TIMEOUT,
  usesPostgres,
  type Shopper,
  type TestApp,
  memberOf,
} from '../../../../test/server/helpers/test-app';
import { newManager } from '../../../../test/server/helpers/back-office';
import { placeOrderOf } from '../../../../test/server/helpers/order-workflow';
import { TEST_PASSWORD } from '../../../../test/server/helpers/shop-data';
import { PASSWORD_RULE_MESSAGES } from '../../services/password-rules';
import { DEVICE_COOKIE } from '../../plugins/authentication';

const NEW_PASSWORD = 'another horse staple';
const uniqueEmail = (label: string) => `${label}-${randomBytes(4).toString('hex')}@example.com`;

let shop: TestApp;
let product: Product;
let manager: Shopper;
beforeAll(async () => {
  shop = await createTestApp();
  product = (await allProducts(shop.app)).find((candidate) => candidate.variants.some((variant) => variant.stock > 0))!;
  manager = await newManager(shop.app);
}, STARTUP_TIMEOUT);
afterAll(() => shop.close());

/** A session as the storefront holds it: the bearer token and the refresh cookie. */
interface Session {
  token: string;
  cookie: string;
}

async function signIn(email: string, password = TEST_PASSWORD): Promise<Session> {
  const response = await logIn(shop.app, email, password);
  expect(response.statusCode).toBe(200);
  return {
    token: json<{ access_token: string }>(response).access_token,
    cookie: setCookie(response, 'refresh_token')!.value,
  };
}

const currentUser = (token: string) =>
  shop.app.inject({ method: 'GET', url: '/api/v1/auth/user', headers: bearer(token) });
const refresh = (cookie: string) =>
  shop.app.inject({ method: 'POST', url: '/api/v1/auth/refresh', cookies: { refresh_token: cookie } });
const changePassword = (session: Session, body: Record<string, unknown>, app = shop.app) =>
  app.inject({
    method: 'POST',
    url: '/api/v1/auth/password',
    headers: bearer(session.token),
    cookies: { refresh_token: session.cookie },
    payload: body,
  });
const cartOf = (userId: number, token: string) =>
  shop.app.inject({ method: 'GET', url: `/api/v1/cart/${userId}`, headers: bearer(token) });
const exportOf = (token: string) =>
  shop.app.inject({ method: 'GET', url: '/api/v1/auth/user/export', headers: bearer(token) });
const deleteAccount = (session: Session, password: string) =>
  shop.app.inject({
    method: 'DELETE',
    url: '/api/v1/auth/user',
    headers: bearer(session.token),
    cookies: { refresh_token: session.cookie },
    payload: { password },
  });

const detailOf = (response: LightMyRequestResponse) => json<{ detail: string }>(response).detail;

describe('consent to the processing of personal data at sign-up', () => {
  const register = (query: Record<string, string>, payload?: object) =>
    shop.app.inject({ method: 'POST', url: '/api/v1/auth/register', query, ...(payload ? { payload } : {}) });

  it.each([
    ['missing', {}],
    ['false', { consent: 'false' }],
  ])('consent %s in the query → 422 with the Russian detail, and no account', async (_name, extra) => {
    const email = uniqueEmail('noconsent');
    const response = await register({ email, password: TEST_PASSWORD, ...extra });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({ detail: ACCOUNT_MESSAGES.consentRequired });
    expect(await shop.app.repositories.users.findCredentials(email)).toBeNull();
  });

  it.each([
    ['missing', {}],
    ['false', { consent: false }],
    ['the text "true"', { consent: 'true' }],
  ])('consent %s in a JSON body → 422 {detail}', async (_name, extra) => {
    const response = await register({}, { email: uniqueEmail('json'), password: TEST_PASSWORD, ...extra });
    expect(response.statusCode).toBe(422);
    expect(detailOf(response)).toMatch(/[а-яё]/i);
  });

  it('consent=true → 201, and the moment of consent is kept (the export shows it)', async () => {
    const before = Date.now();
    const email = uniqueEmail('consent');
    const response = await register({ email, password: TEST_PASSWORD, consent: 'true' });
    expect(response.statusCode).toBe(201);
    const { token } = await signIn(email);
    const consentAt = json<AccountExport>(await exportOf(token)).account.personal_data_consent_at;
    expect(new Date(consentAt!).getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(new Date(consentAt!).getTime()).toBeLessThanOrEqual(Date.now());
  });

  it('the OpenAPI document says consent is required', async () => {
    const document = (await shop.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as {
      paths: Record<string, { post: { parameters: { name: string; description?: string }[]; description?: string } }>;
    };
    const operation = document.paths['/api/v1/auth/register']!.post;
    expect(operation.parameters.map((parameter) => parameter.name)).toContain('consent');
    expect(operation.description).toMatch(/consent=true.*обязательно.*422/);
  });
});

describe('POST /api/v1/auth/password', () => {
  let buyer: Shopper;
  beforeEach(async () => {
    buyer = await signUp(shop.app, uniqueEmail('change'));
  });

  it('a wrong current password → 400 with a Russian detail, and the password stays', async () => {
    const session = await signIn(buyer.email);
    const response = await changePassword(session, { current_password: 'not my password', new_password: NEW_PASSWORD });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ detail: ACCOUNT_MESSAGES.currentPasswordWrong });
    expect((await logIn(shop.app, buyer.email, TEST_PASSWORD)).statusCode).toBe(200);
    expect((await currentUser(session.token)).statusCode).toBe(200);
  });

  it.each([
    ['too short', 'x'.repeat(7)],
    ['too long', 'x'.repeat(129)],
  ])('a new password %s → 422 with the registration rule, and nothing changes', async (_name, password) => {
    const session = await signIn(buyer.email);
    const response = await changePassword(session, { current_password: TEST_PASSWORD, new_password: password });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({ detail: ACCOUNT_MESSAGES.passwordLength });
    expect((await currentUser(session.token)).statusCode).toBe(200);
  });

  it('a common new password, or the e-mail or its part before «@» → 422 saying why, and nothing changes', async () => {
    const session = await signIn(buyer.email);
    const local = buyer.email.split('@')[0]!;
    for (const [password, detail] of [
      ['qwertyuiop', PASSWORD_RULE_MESSAGES.common],
      ['Password1', PASSWORD_RULE_MESSAGES.common],
      [buyer.email.toUpperCase(), PASSWORD_RULE_MESSAGES.email],
      [local, PASSWORD_RULE_MESSAGES.email],
    ] as const) {
      const response = await changePassword(session, { current_password: TEST_PASSWORD, new_password: password });
      expect(response.statusCode).toBe(422);
      expect(response.json()).toEqual({ detail });
    }
    expect((await currentUser(session.token)).statusCode).toBe(200);
    expect((await logIn(shop.app, buyer.email, TEST_PASSWORD)).statusCode).toBe(200);
  });

  it('missing fields → 422; no token → 401', async () => {
    const session = await signIn(buyer.email);
    expect((await changePassword(session, { current_password: TEST_PASSWORD })).statusCode).toBe(422);
    const anonymous = await shop.app.inject({
      method: 'POST',
      url: '/api/v1/auth/password',
      payload: { current_password: TEST_PASSWORD, new_password: NEW_PASSWORD },
    });
    expect(anonymous.statusCode).toBe(401);
  });

  it('→ 204; the other sessions end (refresh and access token refused), the current one goes on', async () => {
    const other = await signIn(buyer.email);
    const current = await signIn(buyer.email);
    const response = await changePassword(current, { current_password: TEST_PASSWORD, new_password: NEW_PASSWORD });
    expect(response.statusCode).toBe(204);

    // The other session: its access token and its refresh cookie are refused at once.
    expect((await currentUser(other.token)).statusCode).toBe(401);
    expect((await cartOf(buyer.id, other.token)).statusCode).toBe(401);
    expect((await refresh(other.cookie)).statusCode).toBe(401);

    // The current session goes on: its access token still works, and its cookie refreshes it.
    expect((await currentUser(current.token)).statusCode).toBe(200);
    expect((await cartOf(buyer.id, current.token)).statusCode).toBe(200);
    const renewed = await refresh(current.cookie);
    expect(renewed.statusCode).toBe(200);
    const token = json<{ access_token: string }>(renewed).access_token;
    expect((await currentUser(token)).json()).toMatchObject({ id: buyer.id, email: buyer.email });

    // Only the new password logs in.
    expect((await logIn(shop.app, buyer.email, TEST_PASSWORD)).statusCode).toBe(401);
    expect((await logIn(shop.app, buyer.email, NEW_PASSWORD)).statusCode).toBe(200);
  });

  it(
    'throttled like login: per account, the 4th attempt → 429 with a Russian detail',
    async () => {
      const limited = await createTestApp({ loginRateLimitPerAccount: { max: 3, windowMs: 60_000 } });
      try {
        const target = await signUp(limited.app, uniqueEmail('throttled'));
        const session = { token: target.token, cookie: '' };
        const signIn = (remoteAddress: string, cookies: Record<string, string> = {}) =>
          limited.app.inject({
            method: 'POST',
            url: '/api/v1/auth/token',
            payload: { username: target.email, password: TEST_PASSWORD },
            remoteAddress,
            cookies,
          });
        const ownersDevice = setCookie(await signIn('198.18.2.1'), DEVICE_COOKIE)!.value;
        for (let guess = 1; guess <= 3; guess += 1) {
          const response = await changePassword(
            session,
            { current_password: `guess ${guess}`, new_password: NEW_PASSWORD },
            limited.app,
          );
          expect(response.statusCode).toBe(400);
        }
        const fourth = await changePassword(
          session,
          { current_password: TEST_PASSWORD, new_password: NEW_PASSWORD },
          limited.app,
        );
        expect(fourth.statusCode).toBe(429);
        expect(detailOf(fourth)).toMatch(/[а-яё]/i);
        expect(Number(fourth.headers['retry-after'])).toBeGreaterThan(0);
        // They were attempts at the account without a device cookie, as sign-ins are: every client
        // without one waits too, while a device with the account's device cookie signs in at once.
        expect((await signIn('127.0.0.1')).statusCode).toBe(429);
        expect((await signIn('198.18.2.2')).statusCode).toBe(429);
        expect((await signIn('198.18.2.2', { [DEVICE_COOKIE]: ownersDevice })).statusCode).toBe(200);
      } finally {
        await limited.close();
      }
    },
    STARTUP_TIMEOUT,
  );

  it('keeps only a live session: a cookie already rotated away (the thief refreshed first) keeps none', async () => {
    const buyer = await signUp(shop.app, uniqueEmail('stale-cookie'));
    const victim = await signIn(buyer.email);
    const stolen = await refresh(victim.cookie);
    expect(stolen.statusCode).toBe(200);
    const thiefCookie = setCookie(stolen, 'refresh_token')!.value;
    // The victim still holds the spent cookie (and a live access token) when changing the password.
    expect(
      (await changePassword(victim, { current_password: TEST_PASSWORD, new_password: NEW_PASSWORD })).statusCode,
    ).toBe(204);
    expect((await refresh(thiefCookie)).statusCode).toBe(401);
  });
});

/** A buyer with something of everything: requisites, two addresses, a cart line and an order. */
async function buyerWithData(label: string) {
  const buyer = await signUp(shop.app, uniqueEmail(label));
  const saved = await shop.app.inject({
    method: 'PUT',
    url: `/api/v1/requisites/${buyer.id}`,
    headers: buyer.headers,
    payload: {
      company_name: `ООО «${label}»`,
      company_inn: '7707083893',
      company_kpp: '773601001',
      contact_name: `Иван ${label}`,
      contact_phone: '+7 900 000-00-00',
    },
  });
  expect(saved.statusCode).toBe(200);
  await shop.app.services.addresses.create(await memberOf(shop.app, buyer.id), {
    country: 'Россия',
    city: `Город ${label}`,
    street: 'Ленина',
    home_number: '1',
    apartment_number: null,
  });
  const variant = product.variants.find((candidate) => candidate.stock > 0)!;
  await shop.app.services.cart.add(
    { userId: buyer.id, priceTypeId: null },
    { product_id: product.id, variant_id: variant.id, count: 1 },
  );
  const { order } = await placeOrderOf(shop.app, buyer, product, {
    quantity: 1,
    stock: 100,
    fields: {
      address: `Адрес ${label}`,
      contact_name: `Иван ${label}`,
      contact_phone: '+7 900 000-00-00',
      company_name: `ООО «${label}»`,
      company_inn: '7707083893',
      company_kpp: '773601001',
    },
  });
  return { buyer, orderId: order.id };
}

describe('GET /api/v1/auth/user/export', () => {
  it("the buyer's account, requisites, addresses, cart and orders — and nobody else's", async () => {
    const mine = await buyerWithData('mine');
    const theirs = await buyerWithData('theirs');
    const response = await exportOf(mine.buyer.token);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="moi-dannye\.json"/);
    expect(response.headers['content-type']).toMatch(/application\/json/);
    const data = json<AccountExport>(response);
    expect(data.account).toMatchObject({ id: mine.buyer.id, email: mine.buyer.email, role: 'buyer' });
    expect(data.requisites).toMatchObject({ company_name: 'ООО «mine»', contact_name: 'Иван mine' });
    expect(data.addresses.map((address) => address.city)).toEqual(['Город mine']);
    expect(data.cart.items).toHaveLength(0); // the order took the ordered variant out of the cart
    expect(data.orders.map((order) => order.id)).toEqual([mine.orderId]);
    expect(data.orders[0]).toMatchObject({ address: 'Адрес mine', lines: [expect.objectContaining({ quantity: 1 })] });
    expect(data.orders[0]!.history.length).toBeGreaterThan(0);
    // Nothing of the other buyer's anywhere in the file.
    expect(response.body).not.toContain(theirs.buyer.email);
    expect(response.body).not.toContain('theirs');
    // And no password hash.
    expect(response.body).not.toMatch(/scrypt|password/i);
  });

  it('the cart lines come along', async () => {
    const buyer = await signUp(shop.app, uniqueEmail('cart'));
    const variant = product.variants.find((candidate) => candidate.stock > 0)!;
    await shop.app.services.cart.add(
      { userId: buyer.id, priceTypeId: null },
      { product_id: product.id, variant_id: variant.id, count: 3 },
    );
    const data = json<AccountExport>(await exportOf(buyer.token));
    expect(data.cart.items).toEqual([expect.objectContaining({ variant_id: variant.id, count: 3 })]);
  });

  it('without a token → 401', async () => {
    const response = await shop.app.inject({ method: 'GET', url: '/api/v1/auth/user/export' });
    expect(response.statusCode).toBe(401);
  });
});

describe('DELETE /api/v1/auth/user', () => {
  it('a wrong password → 400 with a Russian detail, and nothing is deleted', async () => {
    const { buyer } = await buyerWithData('keep');
    const session = await signIn(buyer.email);
    const response = await deleteAccount(session, 'not my password');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ detail: ACCOUNT_MESSAGES.passwordWrong });
    const data = json<AccountExport>(await exportOf(session.token));
    expect(data.addresses).toHaveLength(1);
    expect(data.orders).toHaveLength(1);
  });

  it('→ 204: the sessions end, the orders stay anonymised for the managers, the e-mail registers again', async () => {
    const { buyer, orderId } = await buyerWithData('gone');
    const member = await memberOf(shop.app, buyer.id);
    const session = await signIn(buyer.email);
    const response = await deleteAccount(session, TEST_PASSWORD);
    expect(response.statusCode).toBe(204);
    expect(setCookie(response, 'refresh_token')?.value).toBe('');

    // Every token of the account is refused.
    expect((await currentUser(session.token)).statusCode).toBe(401);
    expect((await currentUser(buyer.token)).statusCode).toBe(401);
    expect((await cartOf(buyer.id, session.token)).statusCode).toBe(401);
    expect((await cartOf(buyer.id, buyer.token)).statusCode).toBe(401);
    expect((await refresh(session.cookie)).statusCode).toBe(401);
    expect((await logIn(shop.app, buyer.email, TEST_PASSWORD)).statusCode).toBe(401);

    // The company of one goes with its only member: addresses, legal entities, requisites and cart.
    const { repositories } = shop.app;
    expect(await repositories.addresses.list(member)).toEqual([]);
    expect((await repositories.cart.read(buyer.id, null)).lines).toEqual([]);
    expect(await repositories.requisites.find(buyer.id, member.companyId)).toMatchObject({
      company_name: null,
      contact_name: null,
    });
    expect(await repositories.companies.find(member.companyId)).toBeNull();
    expect(await repositories.companies.legalEntities(member.companyId)).toEqual([]);

    // The order stays, with «удалено» in every personal field, and the back office still shows it.
    const view = await shop.app.inject({
      method: 'GET',
      url: `/api/v1/admin/orders/${orderId}`,
      headers: manager.headers,
    });
    expect(view.statusCode).toBe(200);
    expect(json<AdminOrder>(view)).toMatchObject({
      id: orderId,
      user: null,
      address: DELETED_PERSONAL_DATA,
      contact_name: DELETED_PERSONAL_DATA,
      contact_phone: DELETED_PERSONAL_DATA,
      company_name: DELETED_PERSONAL_DATA,
      company_inn: DELETED_PERSONAL_DATA,
      company_kpp: DELETED_PERSONAL_DATA,
      lines: [expect.objectContaining({ quantity: 1 })],
    });
    const list = await shop.app.inject({
      method: 'GET',
      url: '/api/v1/admin/orders',
      query: { limit: '100' },
      headers: manager.headers,
    });
    expect(list.statusCode).toBe(200);
    expect(json<AdminOrderList>(list).items.find((item) => item.id === orderId)).toMatchObject({
      user_email: DELETED_PERSONAL_DATA,
      company_name: DELETED_PERSONAL_DATA,
    });

    // The letters to the address are forgotten with it, and the order goes on without writing to anyone.
    const letters = () => shop.app.database.db.select().from(mailOutbox).where(eq(mailOutbox.recipient, buyer.email));
    expect(await letters()).toEqual([]);
    const cancelled = await shop.app.inject({
      method: 'POST',
      url: `/api/v1/admin/orders/${orderId}/status`,
      headers: manager.headers,
      payload: { status: 'Отменён' },
    });
    expect(cancelled.statusCode).toBe(200);
    expect(await letters()).toEqual([]);

    // The e-mail is free: a new account, with nothing of the old one.
    const again = await signUp(shop.app, buyer.email);
    expect(again.id).not.toBe(buyer.id);
    const data = json<AccountExport>(await exportOf(again.token));
    expect(data.orders).toEqual([]);
    expect(data.addresses).toEqual([]);
  });

  it('an order without requisites keeps its empty fields empty', async () => {
    const buyer = await signUp(shop.app, uniqueEmail('plain'));
    const { order } = await placeOrderOf(shop.app, buyer, product, { quantity: 1, stock: 100 });
    expect((await deleteAccount({ token: buyer.token, cookie: '' }, TEST_PASSWORD)).statusCode).toBe(204);
    const view = json<AdminOrder>(
      await shop.app.inject({ method: 'GET', url: `/api/v1/admin/orders/${order.id}`, headers: manager.headers }),
    );
    expect(view).toMatchObject({ address: DELETED_PERSONAL_DATA, company_name: null, company_inn: null });
  });

  it('missing password → 422; no token → 401', async () => {
    const buyer = await signUp(shop.app, uniqueEmail('nopw'));
    const missing = await shop.app.inject({
      method: 'DELETE',
      url: '/api/v1/auth/user',
      headers: buyer.headers,
      payload: {},
    });
    expect(missing.statusCode).toBe(422);
    for (const payload of [{ password: TEST_PASSWORD }, undefined]) {
      const anonymous = await shop.app.inject({ method: 'DELETE', url: '/api/v1/auth/user', payload });
      expect(anonymous.statusCode).toBe(401);
    }
    expect((await currentUser(buyer.token)).statusCode).toBe(200);
  });
});

describe('password reset: POST /api/v1/auth/password-reset and /confirm', () => {
  const requestReset = (email: string, app = shop.app, remoteAddress = '127.0.0.1') =>
    app.inject({ method: 'POST', url: '/api/v1/auth/password-reset', payload: { email }, remoteAddress });
  const confirmReset = (token: string, password: string) =>
    shop.app.inject({ method: 'POST', url: '/api/v1/auth/password-reset/confirm', payload: { token, password } });
  const lettersTo = (email: string) =>
    shop.app.database.db.select().from(mailOutbox).where(eq(mailOutbox.recipient, email)).orderBy(mailOutbox.id);

  /** The token of the latest reset letter to the address, read from the link in its text. */
  async function tokenFromLetter(email: string): Promise<string> {
    const letter = (await lettersTo(email)).at(-1)!;
    expect(letter.subject).toBe('Восстановление пароля — Мягкий Опт');
    const link = /https?:\/\/\S+\/reset-password\?token=\S+/.exec(letter.text)?.[0];
    expect(link).toBeDefined();
    expect(letter.html).toContain(link!.replace(/&/g, '&amp;'));
    return new URL(link!).searchParams.get('token')!;
  }

  it('answers 202 with the same body, no sooner than the other, whether or not the address has an account', async () => {
    const buyer = await signUp(shop.app, uniqueEmail('reset-known'));
    const unknown = uniqueEmail('reset-unknown');
    const timed = async (email: string) => {
      const started = performance.now();
      const response = await requestReset(email);
      return { response, ms: performance.now() - started };
    };
    const known = await timed(buyer.email);
    const nobody = await timed(unknown);
    for (const { response, ms } of [known, nobody]) {
      expect(response.statusCode).toBe(202);
      expect(ms).toBeGreaterThanOrEqual(240);
    }
    expect(known.response.body).toBe(nobody.response.body);
    expect(json(known.response)).toEqual({ detail: ACCOUNT_MESSAGES.resetRequested });
    // Only the account's address gets a letter.
    expect(await lettersTo(buyer.email)).toHaveLength(1);
    expect(await lettersTo(unknown)).toEqual([]);
  });

  // Several password hashes and a reset letter: over 5 s on a loaded two-core machine.
  it('the link sets a new password once; every session ends; the old password and the other links stop working', async () => {
    const buyer = await signUp(shop.app, uniqueEmail('reset-flow'));
    const before = await signIn(buyer.email);
    expect((await requestReset(` ${buyer.email.toUpperCase()} `)).statusCode).toBe(202);
    const olderToken = await tokenFromLetter(buyer.email);
    expect((await requestReset(buyer.email)).statusCode).toBe(202);
    const token = await tokenFromLetter(buyer.email);
    expect(token).not.toBe(olderToken);

    expect((await confirmReset(token, NEW_PASSWORD)).statusCode).toBe(204);
    expect((await currentUser(before.token)).statusCode).toBe(401);
    expect((await cartOf(buyer.id, buyer.token)).statusCode).toBe(401);
    expect((await refresh(before.cookie)).statusCode).toBe(401);
    expect((await logIn(shop.app, buyer.email, TEST_PASSWORD)).statusCode).toBe(401);
    expect((await logIn(shop.app, buyer.email, NEW_PASSWORD)).statusCode).toBe(200);

    // Used once; and the link sent before it was retired with it.
    for (const spent of [token, olderToken]) {
      const again = await confirmReset(spent, 'yet another password');
      expect(again.statusCode).toBe(400);
      expect(detailOf(again)).toBe('Ссылка для сброса пароля недействительна или устарела.');
    }
    expect((await logIn(shop.app, buyer.email, NEW_PASSWORD)).statusCode).toBe(200);
  }, 20_000);

  it('a link sent before the password was changed in the profile no longer works', async () => {
    const buyer = await signUp(shop.app, uniqueEmail('reset-then-change'));
    await requestReset(buyer.email);
    const token = await tokenFromLetter(buyer.email);
    const session = await signIn(buyer.email);
    expect(
      (await changePassword(session, { current_password: TEST_PASSWORD, new_password: NEW_PASSWORD })).statusCode,
    ).toBe(204);
    const response = await confirmReset(token, 'the mailbox reader');
    expect(response.statusCode).toBe(400);
    expect((await logIn(shop.app, buyer.email, NEW_PASSWORD)).statusCode).toBe(200);
  });

  it('an expired or unknown link → 400, and the password stays', async () => {
    const buyer = await signUp(shop.app, uniqueEmail('reset-expired'));
    await requestReset(buyer.email);
    const token = await tokenFromLetter(buyer.email);
    await shop.app.database.db
      .update(passwordResetTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(passwordResetTokens.userId, buyer.id));
    for (const stale of [token, 'not-a-token-at-all']) {
      const response = await confirmReset(stale, NEW_PASSWORD);
      expect(response.statusCode).toBe(400);
      expect(detailOf(response)).toBe(ACCOUNT_MESSAGES.resetLinkInvalid);
    }
    expect((await logIn(shop.app, buyer.email, TEST_PASSWORD)).statusCode).toBe(200);
  });

  it('a password breaking the rules → 422 and the link still works; bad bodies → 422', async () => {
    const buyer = await signUp(shop.app, uniqueEmail('reset-rules'));
    await requestReset(buyer.email);
    const token = await tokenFromLetter(buyer.email);
    const short = await confirmReset(token, '123');
    expect(short.statusCode).toBe(422);
    expect(detailOf(short)).toBe(ACCOUNT_MESSAGES.passwordLength);
    const common = await confirmReset(token, '11111111');
    expect(common.statusCode).toBe(422);
    expect(detailOf(common)).toBe(PASSWORD_RULE_MESSAGES.common);
    const email = await confirmReset(token, buyer.email.split('@')[0]!.toUpperCase());
    expect(email.statusCode).toBe(422);
    expect(detailOf(email)).toBe(PASSWORD_RULE_MESSAGES.email);
    expect((await confirmReset(token, NEW_PASSWORD)).statusCode).toBe(204);

    for (const payload of [{}, { email: 'not an address' }, { email: 42 }]) {
      const response = await shop.app.inject({ method: 'POST', url: '/api/v1/auth/password-reset', payload });
      expect(response.statusCode).toBe(422);
      expect(detailOf(response)).toEqual(expect.any(String));
    }
    const noToken = await shop.app.inject({
      method: 'POST',
      url: '/api/v1/auth/password-reset/confirm',
      payload: { password: NEW_PASSWORD },
    });
    expect(noToken.statusCode).toBe(422);
  });

  describe('at most 5 letters an hour per address and client, 20 a day per address', () => {
    const statusesOf = (answers: LightMyRequestResponse[]) => answers.map((answer) => answer.statusCode);
    const allAccepted = (count: number) => Array<number>(count).fill(202);
    /** The header names of an answer, `date` left out: it differs by the second. */
    const headerNames = (response: LightMyRequestResponse) =>
      Object.keys(response.headers)
        .filter((name) => name !== 'date')
        .sort();
    const hashOf = (text: string) => createHash('sha256').update(text).digest('base64url');
    const rowsOf = (address: string) =>
      shop.app.database.db
        .select()
        .from(resetRequests)
        .where(eq(resetRequests.addressHash, hashOf(address)));

    it('the 6th request from one client → the same neutral 202, but no letter; exactly alike with or without an account', async () => {
      const buyer = await signUp(shop.app, uniqueEmail('reset-flood-known'));
      const unknown = uniqueEmail('reset-flood-unknown');
      const known: LightMyRequestResponse[] = [];
      const nobody: LightMyRequestResponse[] = [];
      for (let attempt = 0; attempt < 6; attempt += 1) {
        known.push(await requestReset(buyer.email));
        nobody.push(await requestReset(unknown));
      }
      expect(statusesOf(known)).toEqual(allAccepted(6));
      expect(statusesOf(nobody)).toEqual(allAccepted(6));
      const [sixthKnown, sixthNobody] = [known[5]!, nobody[5]!];
      expect(sixthKnown.body).toBe(known[0]!.body);
      expect(sixthKnown.body).toBe(sixthNobody.body);
      expect(json(sixthKnown)).toEqual({ detail: ACCOUNT_MESSAGES.resetRequested });
      expect(headerNames(sixthKnown)).toEqual(headerNames(known[0]!));
      expect(headerNames(sixthKnown)).toEqual(headerNames(sixthNobody));
      expect(await lettersTo(buyer.email)).toHaveLength(5);
      expect(await rowsOf(unknown)).toHaveLength(5);
      // Another client is not held back by these, nor is another address.
      expect((await requestReset(buyer.email, shop.app, '198.18.3.1')).statusCode).toBe(202);
      expect(await lettersTo(buyer.email)).toHaveLength(6);
      expect((await requestReset(uniqueEmail('reset-other'))).statusCode).toBe(202);
    }, 30_000);

    it('spellings differing only in case and spaces are one address', async () => {
      const address = uniqueEmail('reset-spelling');
      const spellings = [address, address.toUpperCase(), ` ${address}`, `${address}  `, ` ${address.toUpperCase()} `];
      for (const spelling of spellings) expect((await requestReset(spelling)).statusCode).toBe(202);
      expect((await requestReset(address)).statusCode).toBe(202);
      expect(await rowsOf(address)).toHaveLength(5);
    }, 30_000);

    it('ten requests for one address from one client at once: all answered 202, exactly five letters', async () => {
      const buyer = await signUp(shop.app, uniqueEmail('reset-burst'));
      const answers = await Promise.all(Array.from({ length: 10 }, () => requestReset(buyer.email)));
      expect(statusesOf(answers)).toEqual(allAccepted(10));
      expect(await lettersTo(buyer.email)).toHaveLength(5);
    }, 30_000);

    it("20 letters a day to one address from all clients; the owner's device cookie is not held back by them", async () => {
      const buyer = await signUp(shop.app, uniqueEmail('reset-ceiling'));
      for (let client = 1; client <= 4; client += 1) {
        const answers = await Promise.all(
          Array.from({ length: 5 }, () => requestReset(buyer.email, shop.app, `198.18.4.${client}`)),
        );
        expect(statusesOf(answers)).toEqual(allAccepted(5));
      }
      expect(await lettersTo(buyer.email)).toHaveLength(20);
      // A fifth client: the same 202, no letter.
      expect((await requestReset(buyer.email, shop.app, '198.18.4.5')).statusCode).toBe(202);
      expect(await lettersTo(buyer.email)).toHaveLength(20);
      // A device the owner signed in on is let through (another account's device cookie is not).
      const device = setCookie(await logIn(shop.app, buyer.email, TEST_PASSWORD), DEVICE_COOKIE)!.value;
      const stranger = await signUp(shop.app, uniqueEmail('reset-ceiling-stranger'));
      const strangersDevice = setCookie(await logIn(shop.app, stranger.email, TEST_PASSWORD), DEVICE_COOKIE)!.value;
      const withDevice = (cookie: string) =>
        shop.app.inject({
          method: 'POST',
          url: '/api/v1/auth/password-reset',
          payload: { email: buyer.email },
          remoteAddress: '198.18.4.6',
          cookies: { [DEVICE_COOKIE]: cookie },
        });
      expect((await withDevice(strangersDevice)).statusCode).toBe(202);
      expect(await lettersTo(buyer.email)).toHaveLength(20);
      expect((await withDevice(device)).statusCode).toBe(202);
      expect(await lettersTo(buyer.email)).toHaveLength(21);
    }, 60_000);

    it('the rows hold hashes of the address and the client, never either, and go once the day is over', async () => {
      const address = uniqueEmail('reset-kept');
      const { db } = shop.app.database;
      for (let attempt = 0; attempt < 6; attempt += 1) {
        expect((await requestReset(` ${address.toUpperCase()}`, shop.app, '198.18.5.1')).statusCode).toBe(202);
      }
      expect(await rowsOf(address)).toEqual(
        Array.from({ length: 5 }, () => expect.objectContaining({ clientHash: hashOf('198.18.5.1') })),
      );
      const stored = JSON.stringify(await db.select().from(resetRequests));
      expect(stored).not.toContain('@');
      expect(stored).not.toContain('198.18.5.1');

      // An hour and a minute later the client's five no longer hold it back; a day later the purge deletes them.
      const age = (interval: string) =>
        db
          .update(resetRequests)
          .set({ requestedAt: sql`${resetRequests.requestedAt} - ${interval}::interval` })
          .where(eq(resetRequests.addressHash, hashOf(address)));
      await age('61 minutes');
      expect((await requestReset(address, shop.app, '198.18.5.1')).statusCode).toBe(202);
      expect(await rowsOf(address)).toHaveLength(6);
      await shop.app.repositories.resetRequests.purge(24 * 60 * 60 * 1000);
      expect(await rowsOf(address)).toHaveLength(6);
      await age('1 day');
      await shop.app.repositories.resetRequests.purge(24 * 60 * 60 * 1000);
      expect(await rowsOf(address)).toEqual([]);
    }, 30_000);

    (usesPostgres ? it : it.skip)(
      'two server processes on one PostgreSQL count the same letters, one after another and at once',
      async () => {
        const other = await createTestApp({ databaseUrl: shop.config.databaseUrl });
        try {
          const buyer = await signUp(shop.app, uniqueEmail('reset-two-processes'));
          for (let attempt = 0; attempt < 3; attempt += 1)
            expect((await requestReset(buyer.email)).statusCode).toBe(202);
          for (let attempt = 0; attempt < 3; attempt += 1)
            expect((await requestReset(buyer.email, other.app)).statusCode).toBe(202);
          expect(await lettersTo(buyer.email)).toHaveLength(5);

          const burst = await signUp(shop.app, uniqueEmail('reset-two-processes-burst'));
          const answers = await Promise.all(
            Array.from({ length: 10 }, (_, i) => requestReset(burst.email, i % 2 === 0 ? shop.app : other.app)),
          );
          expect(statusesOf(answers)).toEqual(allAccepted(10));
          expect(await lettersTo(burst.email)).toHaveLength(5);
        } finally {
          await other.close();
        }
      },
      STARTUP_TIMEOUT,
    );
  });

  it('the OpenAPI document describes both routes', async () => {
    const document = json<{ paths: Record<string, Record<string, { responses: Record<string, unknown> }>> }>(
      await shop.app.inject({ method: 'GET', url: '/api/docs/json' }),
    );
    expect(Object.keys(document.paths['/api/v1/auth/password-reset']!.post!.responses)).toEqual(
      expect.arrayContaining(['202', '422', '429']),
    );
    expect(Object.keys(document.paths['/api/v1/auth/password-reset/confirm']!.post!.responses)).toEqual(
      expect.arrayContaining(['204', '400', '422']),
    );
  });
});
