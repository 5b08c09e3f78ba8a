/**
 * Passwords guessed from many addresses (device cookies), login CSRF (the Origin
 * check on sign-in, sign-up and the reset), and a stranger using up the owner's reset letters.
 */
import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { ACCOUNT_MESSAGES } from '../../../src/shared/account';
import { mailOutbox, signInAttempts, users } from '../../../src/server/db/schema';
import { DEVICE_COOKIE } from '../../../src/server/plugins/authentication';
import { createTestApp, json, setCookie, STARTUP_TIMEOUT, type TestApp } from '../helpers/test-app';
import { TEST_PASSWORD } from '../helpers/shop-data';

const NEW_PASSWORD = 'a new horse staple';
const CROSS_SITE_REFUSAL = { detail: 'Запрос с чужого сайта отклонён' };
const uniqueEmail = (label: string) => `${label}-${randomBytes(4).toString('hex')}@example.com`;

let shop: TestApp;
beforeAll(async () => {
  // Behind a proxy the shop trusts, so that X-Forwarded-For makes each request another address;
  // the shop's own sign-in limits, not the tests' lifted ones.
  shop = await createTestApp({
    trustProxy: true,
    allowedOrigins: ['https://partner.example'],
    loginRateLimitPerAccount: { max: 10, windowMs: 15 * 60 * 1000 },
    loginRateLimitPerClient: { max: 50, windowMs: 15 * 60 * 1000 },
  });
}, STARTUP_TIMEOUT);
afterAll(() => shop.close());

let nextAddress = 0;
/** Another client address each time: 10.35.x.y, through the trusted proxy. */
const freshAddress = () => {
  nextAddress += 1;
  return `10.35.${Math.floor(nextAddress / 250)}.${(nextAddress % 250) + 1}`;
};

interface From {
  address?: string;
  cookies?: Record<string, string>;
  headers?: Record<string, string>;
}
const post = (url: string, payload: object | string | undefined, from: From = {}) =>
  shop.app.inject({
    method: 'POST',
    url: `/api/v1/auth/${url}`,
    ...(payload === undefined ? {} : { payload }),
    headers: { 'x-forwarded-for': from.address ?? freshAddress(), ...from.headers },
    cookies: from.cookies ?? {},
  });
const signIn = (email: string, password: string, from: From = {}) => post('token', { username: email, password }, from);
const deviceCookieOf = (response: LightMyRequestResponse) => setCookie(response, DEVICE_COOKIE);
const lettersTo = (email: string) =>
  shop.app.database.db.select().from(mailOutbox).where(eq(mailOutbox.recipient, email)).orderBy(mailOutbox.id);

async function newAccount(label: string): Promise<string> {
  const email = uniqueEmail(label);
  expect((await post('register', { email, password: TEST_PASSWORD, consent: true })).statusCode).toBe(201);
  return email;
}

/** The token of the latest reset letter to the address. */
async function resetTokenFor(email: string): Promise<string> {
  const letter = (await lettersTo(email)).at(-1)!;
  return new URL(/https?:\/\/\S+\/reset-password\?token=\S+/.exec(letter.text)![0]).searchParams.get('token')!;
}

describe('item 4: passwords guessed from many addresses are bounded per account (device cookies)', () => {
  it('150 wrong passwords from 150 addresses: 10 are checked, then every client without a device cookie gets 429; the owner signs in with the device cookie, and a reset link lets the owner in from a new device', async () => {
    const victim = await newAccount('guessed-150');
    const ownersSignIn = await signIn(victim, TEST_PASSWORD);
    expect(ownersSignIn.statusCode).toBe(200);

    const answers: LightMyRequestResponse[] = [];
    for (let guess = 1; guess <= 150; guess += 1) answers.push(await signIn(victim, `guess number ${guess}`));
    expect(answers.map((answer) => answer.statusCode)).toEqual([
      ...Array<number>(10).fill(401),
      ...Array<number>(140).fill(429),
    ]);
    const last = answers.at(-1)!;
    expect(Number(last.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(last.headers['retry-after'])).toBeLessThanOrEqual(15 * 60);
    // Only the ten checked guesses were recorded as failures.
    const failures = await shop.app.database.db
      .select()
      .from(signInAttempts)
      .where(and(eq(signInAttempts.account, victim), eq(signInAttempts.failed, true)));
    expect(failures).toHaveLength(10);

    // The right password without a device cookie is refused too: the lockout is the account's.
    expect((await signIn(victim, TEST_PASSWORD)).statusCode).toBe(429);
    // The owner's device signs in, from any address.
    const ownersDevice = deviceCookieOf(ownersSignIn)!.value;
    const owner = await signIn(victim, TEST_PASSWORD, { cookies: { [DEVICE_COOKIE]: ownersDevice } });
    expect(owner.statusCode).toBe(200);
    expect(setCookie(owner, 'refresh_token')?.value).toEqual(expect.any(String));

    // On a new device the owner asks for a reset, follows the link, and is let in by the device cookie it sets.
    const newDevice = freshAddress();
    expect((await post('password-reset', { email: victim }, { address: newDevice })).statusCode).toBe(202);
    const reset = await post(
      'password-reset/confirm',
      { token: await resetTokenFor(victim), password: NEW_PASSWORD },
      { address: newDevice },
    );
    expect(reset.statusCode).toBe(204);
    const resetDevice = deviceCookieOf(reset)!.value;
    expect(resetDevice).toEqual(expect.any(String));
    const afterReset = await signIn(victim, NEW_PASSWORD, {
      address: newDevice,
      cookies: { [DEVICE_COOKIE]: resetDevice },
    });
    expect(afterReset.statusCode).toBe(200);
  }, 120_000);

  it("a reset link lets the owner in on a device the owner's own typos locked", async () => {
    const owner = await newAccount('typos');
    const device = deviceCookieOf(await signIn(owner, TEST_PASSWORD))!.value;
    const fromDevice = { cookies: { [DEVICE_COOKIE]: device } };
    for (let typo = 1; typo <= 10; typo += 1) {
      expect((await signIn(owner, `typo number ${typo}`, fromDevice)).statusCode).toBe(401);
    }
    expect((await signIn(owner, TEST_PASSWORD, fromDevice)).statusCode).toBe(429);

    expect((await post('password-reset', { email: owner }, fromDevice)).statusCode).toBe(202);
    const reset = await post(
      'password-reset/confirm',
      { token: await resetTokenFor(owner), password: NEW_PASSWORD },
      fromDevice,
    );
    expect(reset.statusCode).toBe(204);
    // The device keeps its cookie (it was valid), and its failures are forgiven.
    expect((await signIn(owner, NEW_PASSWORD, fromDevice)).statusCode).toBe(200);
  });

  it('the device cookie: HttpOnly, SameSite=Strict, Secure over https, Path=/api/v1/auth, a year; logout keeps it; a live refresh cookie without one gets one on refresh', async () => {
    const email = await newAccount('device-flags');
    const https = { 'x-forwarded-proto': 'https' };
    const signedIn = await signIn(email, TEST_PASSWORD, { headers: https });
    expect(signedIn.statusCode).toBe(200);
    const device = deviceCookieOf(signedIn)!;
    expect(device).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Strict', path: '/api/v1/auth' });
    expect(device.maxAge).toBe(365 * 24 * 60 * 60);
    expect(deviceCookieOf(await signIn(email, TEST_PASSWORD))!.secure ?? false).toBe(false);

    // Logout clears the refresh cookie only.
    const refreshToken = setCookie(signedIn, 'refresh_token')!.value;
    const out = await post('logout', undefined, {
      cookies: { refresh_token: refreshToken, [DEVICE_COOKIE]: device.value },
    });
    expect(out.statusCode).toBe(204);
    expect(setCookie(out, 'refresh_token')?.value).toBe('');
    expect(deviceCookieOf(out)).toBeUndefined();

    // A browser signed in before device cookies existed: its next refresh sets one, and later ones keep it.
    const session = setCookie(await signIn(email, TEST_PASSWORD), 'refresh_token')!.value;
    const refreshed = await post('refresh', undefined, { cookies: { refresh_token: session } });
    expect(refreshed.statusCode).toBe(200);
    const given = deviceCookieOf(refreshed)!.value;
    const again = await post('refresh', undefined, {
      cookies: { refresh_token: setCookie(refreshed, 'refresh_token')!.value, [DEVICE_COOKIE]: given },
    });
    expect(again.statusCode).toBe(200);
    expect(deviceCookieOf(again)).toBeUndefined();
  }, 60_000);
});

describe('item 5: login CSRF — a foreign Origin is refused on sign-in, sign-up and the reset', () => {
  const origins = ['https://evil.example', 'null'];
  const host = { host: 'shop.example' };

  it('cross-site form posts to /token and /register → 403, no cookie, no account; same origin, ALLOWED_ORIGINS and no Origin pass', async () => {
    const email = await newAccount('csrf-login');
    const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
    const formHeaders = (origin?: string) => ({
      ...host,
      'content-type': 'application/x-www-form-urlencoded',
      ...(origin === undefined ? {} : { origin }),
    });
    for (const origin of origins) {
      const login = await post('token', form({ username: email, password: TEST_PASSWORD }), {
        headers: formHeaders(origin),
      });
      expect(login.statusCode).toBe(403);
      expect(json(login)).toEqual(CROSS_SITE_REFUSAL);
      expect(login.headers['set-cookie']).toBeUndefined();
      const newcomer = uniqueEmail('csrf-register');
      const register = await post('register?consent=true', form({ email: newcomer, password: TEST_PASSWORD }), {
        headers: formHeaders(origin),
      });
      expect(register.statusCode).toBe(403);
      expect(json(register)).toEqual(CROSS_SITE_REFUSAL);
      expect(await shop.app.database.db.select().from(users).where(eq(users.email, newcomer))).toEqual([]);
    }
    for (const origin of ['http://shop.example', 'https://partner.example', undefined]) {
      const login = await post('token', form({ username: email, password: TEST_PASSWORD }), {
        headers: formHeaders(origin),
      });
      expect(login.statusCode).toBe(200);
      expect(setCookie(login, 'refresh_token')?.value).toEqual(expect.any(String));
      const register = await post(
        'register?consent=true',
        form({ email: uniqueEmail('csrf-register'), password: TEST_PASSWORD }),
        { headers: formHeaders(origin) },
      );
      expect(register.statusCode).toBe(201);
    }
  }, 60_000);

  it('cross-site reset requests and confirmations → 403: no letter is sent and the link is not spent', async () => {
    const email = await newAccount('csrf-reset');
    const withOrigin = (origin?: string) => ({ headers: { ...host, ...(origin === undefined ? {} : { origin }) } });
    for (const origin of origins) {
      const requested = await post('password-reset', { email }, withOrigin(origin));
      expect(requested.statusCode).toBe(403);
      expect(json(requested)).toEqual(CROSS_SITE_REFUSAL);
    }
    expect(await lettersTo(email)).toEqual([]);
    expect((await post('password-reset', { email }, withOrigin('http://shop.example'))).statusCode).toBe(202);
    const token = await resetTokenFor(email);
    for (const origin of origins) {
      const confirmed = await post('password-reset/confirm', { token, password: NEW_PASSWORD }, withOrigin(origin));
      expect(confirmed.statusCode).toBe(403);
      expect(json(confirmed)).toEqual(CROSS_SITE_REFUSAL);
      expect(deviceCookieOf(confirmed)).toBeUndefined();
    }
    // The link still works, and the old password still signs in until it is used.
    expect((await signIn(email, TEST_PASSWORD)).statusCode).toBe(200);
    expect((await post('password-reset/confirm', { token, password: NEW_PASSWORD }, withOrigin())).statusCode).toBe(
      204,
    );
  }, 60_000);
});

describe("item 6: a stranger cannot use up the owner's reset letters", () => {
  it("five anonymous requests for the owner's address, from one client and from five, do not stop the owner's own request: its letter is sent", async () => {
    const owner = await newAccount('reset-owner');
    const stranger = freshAddress();
    for (let request = 0; request < 5; request += 1) {
      expect((await post('password-reset', { email: owner }, { address: stranger })).statusCode).toBe(202);
    }
    for (let request = 0; request < 5; request += 1) {
      expect((await post('password-reset', { email: owner })).statusCode).toBe(202);
    }
    expect(await lettersTo(owner)).toHaveLength(10);
    // The stranger's sixth: the same neutral answer, and no letter.
    const sixth = await post('password-reset', { email: owner }, { address: stranger });
    expect(sixth.statusCode).toBe(202);
    expect(json(sixth)).toEqual({ detail: ACCOUNT_MESSAGES.resetRequested });
    expect(await lettersTo(owner)).toHaveLength(10);

    const own = await post('password-reset', { email: owner }, { address: freshAddress() });
    expect(own.statusCode).toBe(202);
    expect(json(own)).toEqual({ detail: ACCOUNT_MESSAGES.resetRequested });
    expect(await lettersTo(owner)).toHaveLength(11);
  }, 60_000);
});
