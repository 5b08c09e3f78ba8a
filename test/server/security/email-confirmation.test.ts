/**
 * Sign-up is free, so a buyer confirms the e-mail address before the first order
 * (REQUIRE_EMAIL_CONFIRMATION, on by default): a letter with a one-time link through the outbox, a
 * resend, the order refused until then with what to do. A shop that vets its buyers otherwise turns
 * it off.
 */
import { and, eq, like } from 'drizzle-orm';
import type { CurrentUser, Product } from '../../../src/shared/api';
import { EMAIL_CONFIRMATION_MESSAGES } from '../../../src/shared/account';
import { loadConfig } from '../../../src/server/config';
import { mailOutbox } from '../../../src/server/db/schema';
import {
  allProducts,
  createTestApp,
  json,
  signUp,
  STARTUP_TIMEOUT,
  type Shopper,
  type TestApp,
} from '../helpers/test-app';
import { newManager } from '../helpers/back-office';

const SUBJECT = 'Подтвердите адрес почты — Мягкий Опт';

let shop: TestApp;
let product: Product;

beforeAll(async () => {
  shop = await createTestApp({ requireEmailConfirmation: loadConfig({}).requireEmailConfirmation });
  product = (await allProducts(shop.app)).find((candidate) => candidate.variants.some((variant) => variant.stock > 2))!;
}, STARTUP_TIMEOUT);
afterAll(() => shop.close());

it('is asked for by default', () => {
  expect(shop.config.requireEmailConfirmation).toBe(true);
});

const order = (app: TestApp['app'], buyer: Shopper) => {
  const variant = product.variants.find((candidate) => candidate.stock > 2)!;
  return app.inject({
    method: 'POST',
    url: '/api/v1/order/',
    headers: buyer.headers,
    payload: {
      user_id: buyer.id,
      address: 'г. Рязань, ул. Есенина, д. 2',
      items: [{ product_id: product.id, variant_id: variant.id, quantity: 1 }],
    },
  });
};

const lettersTo = (email: string) =>
  shop.app.database.db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.recipient, email), like(mailOutbox.subject, `${SUBJECT}%`)))
    .orderBy(mailOutbox.id);

/** The token of the latest confirmation letter to the address, read from the link in its text. */
async function tokenFromLetter(email: string): Promise<string> {
  const letter = (await lettersTo(email)).at(-1)!;
  expect(letter.subject).toBe(SUBJECT);
  const link = /https?:\/\/\S+\/confirm-email\?token=\S+/.exec(letter.text)?.[0];
  expect(link).toBeDefined();
  expect(letter.html).toContain(link!.replace(/&/g, '&amp;'));
  return new URL(link!).searchParams.get('token')!;
}

const confirm = (token: string) =>
  shop.app.inject({ method: 'POST', url: '/api/v1/auth/email-confirmation/confirm', payload: { token } });
const resend = (buyer: Shopper) =>
  shop.app.inject({ method: 'POST', url: '/api/v1/auth/email-confirmation', headers: buyer.headers });
const me = async (buyer: Shopper) =>
  json<CurrentUser>(await shop.app.inject({ method: 'GET', url: '/api/v1/auth/user', headers: buyer.headers }));

it('sign-up sends the letter; no order until its link is opened, then the order goes; the link works once', async () => {
  const buyer = await signUp(shop.app);
  expect(await lettersTo(buyer.email)).toHaveLength(1);
  expect(await me(buyer)).toMatchObject({ email_confirmed: false, must_confirm_email: true });

  const refused = await order(shop.app, buyer);
  expect(refused.statusCode).toBe(403);
  expect(refused.json()).toEqual({ detail: EMAIL_CONFIRMATION_MESSAGES.required });

  const token = await tokenFromLetter(buyer.email);
  expect((await confirm(token)).statusCode).toBe(204);
  expect(await me(buyer)).toMatchObject({ email_confirmed: true, must_confirm_email: false });
  expect((await order(shop.app, buyer)).statusCode).toBe(201);

  const again = await confirm(token);
  expect(again.statusCode).toBe(400);
  expect(again.json()).toEqual({ detail: EMAIL_CONFIRMATION_MESSAGES.linkInvalid });
  expect((await confirm('not-a-token')).statusCode).toBe(400);
});

it('«Отправить письмо ещё раз»: a new letter whose link works, the older links retired by it; 409 once confirmed', async () => {
  const buyer = await signUp(shop.app);
  const first = await tokenFromLetter(buyer.email);
  const resent = await resend(buyer);
  expect(resent.statusCode).toBe(202);
  expect(resent.json()).toEqual({ detail: EMAIL_CONFIRMATION_MESSAGES.sent });
  expect(await lettersTo(buyer.email)).toHaveLength(2);
  const second = await tokenFromLetter(buyer.email);
  expect(second).not.toBe(first);

  expect((await confirm(second)).statusCode).toBe(204);
  // Using one link retires every other link of the account.
  expect((await confirm(first)).statusCode).toBe(400);
  const late = await resend(buyer);
  expect(late.statusCode).toBe(409);
  expect(late.json()).toEqual({ detail: EMAIL_CONFIRMATION_MESSAGES.alreadyConfirmed });
  expect(await lettersTo(buyer.email)).toHaveLength(2);
  expect((await shop.app.inject({ method: 'POST', url: '/api/v1/auth/email-confirmation' })).statusCode).toBe(401);
});

it('at most 5 letters an hour to one address, then 429 with Retry-After', async () => {
  const buyer = await signUp(shop.app);
  const statuses: number[] = [];
  for (let i = 0; i < 5; i += 1) statuses.push((await resend(buyer)).statusCode);
  const refused = await resend(buyer);
  expect(statuses).toEqual([202, 202, 202, 202, 202]);
  expect(refused.statusCode).toBe(429);
  expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  // The sign-up's letter and the five.
  expect(await lettersTo(buyer.email)).toHaveLength(6);
});

it('at most 20 letters a day to one address however many clients ask, then 429 to every one of them', async () => {
  const buyer = await signUp(shop.app);
  const from = (client: number) =>
    shop.app.inject({
      method: 'POST',
      url: '/api/v1/auth/email-confirmation',
      headers: buyer.headers,
      remoteAddress: `198.51.100.${client}`,
    });
  const statuses: number[] = [];
  for (let client = 1; client <= 20; client += 1) statuses.push((await from(client)).statusCode);
  expect(statuses).toEqual(Array<number>(20).fill(202));
  const refused = await from(21);
  expect(refused.statusCode).toBe(429);
  expect(Number(refused.headers['retry-after'])).toBe(24 * 60 * 60);
  expect((await from(1)).statusCode).toBe(429);
  // The sign-up's letter and the twenty.
  expect(await lettersTo(buyer.email)).toHaveLength(21);
});

it('a manager made from the command line needs no letter', async () => {
  const manager = await newManager(shop.app);
  expect(await me(manager)).toMatchObject({ email_confirmed: true, must_confirm_email: false });
});

it(
  'REQUIRE_EMAIL_CONFIRMATION=false: no letter at sign-up, the order goes at once, nothing to confirm',
  async () => {
    const vetting = await createTestApp({ requireEmailConfirmation: false });
    try {
      const buyer = await signUp(vetting.app);
      const letters = await vetting.app.database.db
        .select()
        .from(mailOutbox)
        .where(and(eq(mailOutbox.recipient, buyer.email), like(mailOutbox.subject, `${SUBJECT}%`)));
      expect(letters).toHaveLength(0);
      const seen = json<CurrentUser>(
        await vetting.app.inject({ method: 'GET', url: '/api/v1/auth/user', headers: buyer.headers }),
      );
      expect(seen).toMatchObject({ email_confirmed: false, must_confirm_email: false });
      expect((await order(vetting.app, buyer)).statusCode).toBe(201);
    } finally {
      await vetting.close();
    }
  },
  STARTUP_TIMEOUT,
);
