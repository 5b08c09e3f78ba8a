import { randomBytes } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { createSigner } from 'fast-jwt';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { type User } from '../../../shared/api';
import { MESSAGES } from '../../../shared/messages';
import { buildApp } from '../../app';
import {
  bearer,
  createTestApp,
  json,
  logIn,
  sessionIdOf,
  setCookie,
  spentLongAgo,
  STARTUP_TIMEOUT,
  type TestApp,
  usesPostgres,
} from '../../../../test/server/helpers/test-app';
import { TEST_PASSWORD } from '../../../../test/server/helpers/shop-data';
import { signInAttempts } from '../../db/schema';
import { DEVICE_COOKIE } from '../../plugins/authentication';
import { PASSWORD_RULE_MESSAGES } from '../../services/password-rules';

const CYRILLIC = /[а-яё]/i;
const uniqueEmail = (label: string) => `${label}-${randomBytes(4).toString('hex')}@example.com`;

let shop: TestApp;
beforeAll(async () => {
  shop = await createTestApp();
}, STARTUP_TIMEOUT);
afterAll(() => shop.close());

/** With the consent the storefront always sends, unless `query` says otherwise. */
const register = (query: Record<string, string>, app = shop.app) =>
  app.inject({ method: 'POST', url: '/api/v1/auth/register', query: { consent: 'true', ...query } });

/** Registers through the query, as the storefront does, and returns the new user. */
async function registered(
  email = uniqueEmail('user'),
  password = TEST_PASSWORD,
  app = shop.app,
): Promise<User & { password: string }> {
  const response = await register({ email, password }, app);
  expect(response.statusCode).toBe(201);
  return { ...json<User>(response), password };
}

const refreshCookie = (response: LightMyRequestResponse) => setCookie(response, 'refresh_token');

const refresh = (token: string | undefined, headers: Record<string, string> = {}) =>
  shop.app.inject({
    method: 'POST',
    url: '/api/v1/auth/refresh',
    headers,
    ...(token === undefined ? {} : { cookies: { refresh_token: token } }),
  });

const currentUser = (headers: Record<string, string>) =>
  shop.app.inject({ method: 'GET', url: '/api/v1/auth/user', headers });

describe('POST /api/v1/auth/register', () => {
  it('registers from query parameters: 201 {id, email, role: "buyer"}', async () => {
    const email = uniqueEmail('query');
    const response = await register({ email, password: TEST_PASSWORD });
    expect(response.statusCode).toBe(201);
    const user = json<User>(response);
    expect(Object.keys(user).sort()).toEqual(['email', 'id', 'role']);
    expect(Number.isInteger(user.id)).toBe(true);
    expect(user.email).toBe(email);
    // The password hash, of course, never comes back.
    expect(response.body).not.toMatch(/scrypt|password/i);
  });

  it('registers from a JSON body: 201 {id, email, role: "buyer"}', async () => {
    const email = uniqueEmail('json');
    const response = await shop.app.inject({
      method: 'POST',
      url: '/api/v1/auth/register',
      payload: { email, password: TEST_PASSWORD, consent: true },
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({ id: expect.any(Number), email, role: 'buyer' });
    expect((await logIn(shop.app, email, TEST_PASSWORD)).statusCode).toBe(200);
  });

  it('trims and lower-cases the e-mail; a duplicate in another case is 409', async () => {
    const local = `Mixed.Case-${randomBytes(4).toString('hex')}`;
    const response = await register({ email: `  ${local}@Example.COM  `, password: TEST_PASSWORD });
    expect(response.statusCode).toBe(201);
    const email = `${local.toLowerCase()}@example.com`;
    expect(json<User>(response).email).toBe(email);

    const duplicate = await register({ email: email.toUpperCase(), password: 'another password' });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json()).toEqual({ detail: 'Пользователь с таким email уже существует' });

    // Login works in any case, too.
    expect((await logIn(shop.app, ` ${email.toUpperCase()} `, TEST_PASSWORD)).statusCode).toBe(200);
  });

  it.each([
    ['empty', ''],
    ['blank', '   '],
  ])('%s e-mail → 422 "Email обязателен"', async (_name, email) => {
    const response = await register({ email, password: TEST_PASSWORD });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({ detail: MESSAGES.emailRequired });
  });

  it('missing e-mail and password → 422 "Email обязателен"', async () => {
    const response = await shop.app.inject({ method: 'POST', url: '/api/v1/auth/register' });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({ detail: 'Email обязателен' });
  });

  it.each([
    'plainaddress',
    'no-at.example.com',
    'a@b',
    'a b@example.com',
    '@example.com',
    'user@',
    'user@@example.com',
  ])('bad e-mail %j → 422 "Некорректный формат email"', async (email) => {
    const response = await register({ email, password: TEST_PASSWORD });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({ detail: 'Некорректный формат email' });
  });

  it('an e-mail longer than 254 characters is refused', async () => {
    const response = await register({ email: `${'a'.repeat(250)}@example.com`, password: TEST_PASSWORD });
    expect(response.statusCode).toBe(422);
  });

  it.each([
    ['7 characters', 'x'.repeat(7)],
    ['129 characters', 'x'.repeat(129)],
    ['empty', ''],
  ])('password of %s → 422 with a Russian detail, and no user is created', async (_name, password) => {
    const email = uniqueEmail('shortpw');
    const response = await register({ email, password });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({ detail: expect.stringMatching(CYRILLIC) });
    expect(json<{ detail: string }>(response).detail).toMatch(/8.*128/);
    // Nothing was stored.
    expect(await shop.app.repositories.users.findCredentials(email)).toBeNull();
  });

  it('a 128-character password is accepted and used in full (not truncated)', async () => {
    const password = `${randomBytes(48).toString('hex')}${'Я'.repeat(32)}`;
    expect([...password]).toHaveLength(128);
    const user = await registered(uniqueEmail('longpw'), password);
    expect((await logIn(shop.app, user.email, password)).statusCode).toBe(200);
    const lastCharWrong = `${password.slice(0, 127)}Ж`;
    const failed = await logIn(shop.app, user.email, lastCharWrong);
    expect(failed.statusCode).toBe(401);
    expect(failed.json()).toEqual({ detail: 'Неверный email или пароль' });
    expect((await logIn(shop.app, user.email, password.slice(0, 127))).statusCode).toBe(401);
  });

  it('two simultaneous sign-ups with one e-mail (in different case): one 201, one 409, never 500', async () => {
    const email = uniqueEmail('race');
    const answers = await Promise.all([
      register({ email, password: TEST_PASSWORD }),
      register({ email: email.toUpperCase(), password: TEST_PASSWORD }),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 409]);
  });

  it('an 8-character password is the minimum', async () => {
    expect((await register({ email: uniqueEmail('minpw'), password: 'мишка-42' })).statusCode).toBe(201);
  });

  it.each([
    // The examples, and the same in other cases or typed on the Russian layout («йцукенгш» is qwertyui).
    '12345678',
    'password',
    'qwertyui',
    '11111111',
    'PassWord',
    'QWERTYUI',
    'йцукенгш',
    'gfhjkm123',
    '00000000',
  ])('a common password %j → 422 saying it is too easy to guess, and no user is created', async (password) => {
    const email = uniqueEmail('common');
    const response = await register({ email, password });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({ detail: PASSWORD_RULE_MESSAGES.common });
    expect(PASSWORD_RULE_MESSAGES.common).toMatch(/распространён.*подобрать/);
    expect(await shop.app.repositories.users.findCredentials(email)).toBeNull();
  });

  it('a password equal to the e-mail or to its part before «@», in any case → 422 saying why, and no user', async () => {
    const local = `Buyer.Name-${randomBytes(4).toString('hex')}`;
    const email = `${local}@Example.com`;
    for (const password of [email, email.toUpperCase(), local, local.toLowerCase()]) {
      const response = await register({ email, password });
      expect(response.statusCode).toBe(422);
      expect(response.json()).toEqual({ detail: PASSWORD_RULE_MESSAGES.email });
    }
    expect(PASSWORD_RULE_MESSAGES.email).toMatch(/не должен совпадать с адресом почты/);
    expect(await shop.app.repositories.users.findCredentials(email.toLowerCase())).toBeNull();
    // The same rule for the JSON body, and a password that only contains the address is fine.
    const json = await shop.app.inject({
      method: 'POST',
      url: '/api/v1/auth/register',
      payload: { email, password: local, consent: true },
    });
    expect(json.statusCode).toBe(422);
    expect((await register({ email, password: `${local} и мишка` })).statusCode).toBe(201);
  });
});

describe('POST /api/v1/auth/token', () => {
  let user: User & { password: string };
  beforeAll(async () => {
    user = await registered(uniqueEmail('login'));
  });

  it('form-encoded login → {access_token, token_type: "bearer"} and an HttpOnly, SameSite=Strict refresh cookie on /api/v1/auth', async () => {
    const response = await logIn(shop.app, user.email, user.password);
    expect(response.statusCode).toBe(200);
    const body = response.json() as { access_token: string; token_type: string };
    expect(Object.keys(body).sort()).toEqual(['access_token', 'token_type']);
    expect(body.token_type).toBe('bearer');
    expect(body.access_token.split('.')).toHaveLength(3);
    // The token carries an exp claim in seconds (the storefront reads it, SPEC §9).
    // It lives exactly the configured accessTokenTtlSeconds (an expired one is refused: see /auth/user).
    const claims = JSON.parse(Buffer.from(body.access_token.split('.')[1]!, 'base64url').toString()) as {
      exp: number;
      iat: number;
      sub: string;
      sid: string;
    };
    expect(claims.exp - claims.iat).toBe(shop.config.accessTokenTtlSeconds);
    expect(Math.abs(claims.iat - Date.now() / 1000)).toBeLessThan(30);
    expect(claims.sub).toBe(String(user.id));
    // The session it belongs to, which a logout ends.
    expect(claims.sid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);

    const raw = ([] as string[])
      .concat(response.headers['set-cookie'] ?? [])
      .find((line) => line.startsWith('refresh_token='));
    expect(raw).toBeDefined();
    expect(raw).toMatch(/;\s*HttpOnly/i);
    expect(raw).toMatch(/;\s*SameSite=Strict/i);
    expect(raw).toMatch(/;\s*Path=\/api\/v1\/auth(;|$)/);
    const cookie = refreshCookie(response)!;
    expect(cookie.value.length).toBeGreaterThanOrEqual(32);
    expect(cookie.expires!.getTime()).toBeGreaterThan(Date.now());
    // The refresh token is only in the cookie, never in the JSON.
    expect(response.body).not.toContain(cookie.value);
    // Its readable twin tells the storefront a session exists, and lives exactly as long.
    const hint = setCookie(response, 'session_hint')!;
    expect(hint).toMatchObject({ value: '1', path: '/', sameSite: 'Strict' });
    expect(hint.httpOnly).toBeFalsy();
    expect(hint.expires!.getTime()).toBe(cookie.expires!.getTime());

    const me = await currentUser(bearer(body.access_token));
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ id: user.id, email: user.email, role: 'buyer' });
  });

  it('JSON login works too', async () => {
    const response = await shop.app.inject({
      method: 'POST',
      url: '/api/v1/auth/token',
      payload: { username: user.email, password: user.password },
    });
    expect(response.statusCode).toBe(200);
  });

  it('wrong password and unknown e-mail both → 401 "Неверный email или пароль", no cookie', async () => {
    for (const [email, password] of [
      [user.email, 'wrong password'],
      [uniqueEmail('nobody'), user.password],
    ] as const) {
      const response = await logIn(shop.app, email, password);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ detail: 'Неверный email или пароль' });
      expect(refreshCookie(response)).toBeUndefined();
    }
  });

  it('missing fields → 422 with a Russian detail', async () => {
    const response = await shop.app.inject({
      method: 'POST',
      url: '/api/v1/auth/token',
      payload: 'username=someone%40example.com',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({ detail: expect.stringMatching(CYRILLIC) });
  });
});

describe('GET /api/v1/auth/user', () => {
  let user: User & { password: string };
  let token: string;
  let secret: string;
  beforeAll(async () => {
    user = await registered(uniqueEmail('me'));
    token = json<{ access_token: string }>(await logIn(shop.app, user.email, user.password)).access_token;
    secret = (await shop.app.repositories.settings.get('jwt_secret'))!;
  });

  it('with a valid token → {id, email, role} and what the shop asks of the buyer before ordering', async () => {
    const response = await currentUser(bearer(token));
    expect(response.statusCode).toBe(200);
    // The tests' shop does not ask for the confirmation (createTestApp); the buyer has never paid.
    expect(response.json()).toEqual({
      id: user.id,
      email: user.email,
      role: 'buyer',
      email_confirmed: false,
      must_confirm_email: false,
      proven: false,
      order_limits: { line_share_percent: 50, unproven_pool_percent: 100, max_unpaid_orders: 10_000 },
      // A sign-up is the owner of a company of one, named by the address until renamed.
      company: { id: expect.any(Number), name: user.email, role: 'owner', blocked: false },
    });
  });

  it('without a token → 401 {detail}', async () => {
    const response = await currentUser({});
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ detail: expect.stringMatching(CYRILLIC) });
  });

  it.each([
    ['garbage', 'Bearer not-a-jwt'],
    ['three garbage parts', 'Bearer aaa.bbb.ccc'],
    ['another scheme', 'Basic dXNlcjpwYXNz'],
    ['empty bearer', 'Bearer '],
  ])('%s → 401', async (_name, authorization) => {
    const response = await currentUser({ authorization });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ detail: expect.any(String) });
  });

  it('a token with alg "none" → 401', async () => {
    const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const claims = {
      sub: String(user.id),
      iat: Math.floor(Date.now() / 1000),
      exp: Math.floor(Date.now() / 1000) + 600,
    };
    for (const unsigned of [
      `${encode({ alg: 'none', typ: 'JWT' })}.${encode(claims)}.`,
      `${encode({ alg: 'none' })}.${encode(claims)}`,
    ]) {
      expect((await currentUser(bearer(unsigned))).statusCode).toBe(401);
    }
  });

  it('a token signed with another secret, or with the right secret but HS512, → 401', async () => {
    const claims = { sub: String(user.id) };
    const foreign = createSigner({ key: 'some other secret of enough length', algorithm: 'HS256', expiresIn: 60_000 })(
      claims,
    );
    expect((await currentUser(bearer(foreign))).statusCode).toBe(401);
    const otherAlgorithm = createSigner({ key: secret, algorithm: 'HS512', expiresIn: 60_000 })(claims);
    expect((await currentUser(bearer(otherAlgorithm))).statusCode).toBe(401);
  });

  it('an expired token signed with the shop secret → 401, while the same token unexpired passes', async () => {
    const now = Math.floor(Date.now() / 1000);
    const sign = createSigner({ key: secret, algorithm: 'HS256' });
    const sid = sessionIdOf(token);
    const fresh = sign({ sub: String(user.id), sid, iat: now, exp: now + 60 });
    expect((await currentUser(bearer(fresh))).statusCode).toBe(200);
    const expired = sign({ sub: String(user.id), sid, iat: now - 120, exp: now - 60 });
    const response = await currentUser(bearer(expired));
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ detail: expect.stringMatching(CYRILLIC) });
  });

  it('a token without exp, without a session, or for a user that does not exist, → 401', async () => {
    const sid = sessionIdOf(token);
    const sign = createSigner({ key: secret, algorithm: 'HS256' });
    expect((await currentUser(bearer(sign({ sub: String(user.id), sid })))).statusCode).toBe(401);
    const signExpiring = createSigner({ key: secret, algorithm: 'HS256', expiresIn: 60_000 });
    expect((await currentUser(bearer(signExpiring({ sub: String(user.id) })))).statusCode).toBe(401);
    expect((await currentUser(bearer(signExpiring({ sub: String(user.id), sid: 'not-a-uuid' })))).statusCode).toBe(401);
    expect((await currentUser(bearer(signExpiring({ sub: '2147483000', sid })))).statusCode).toBe(401);
  });
});

describe('POST /api/v1/auth/refresh and /logout', () => {
  let user: User & { password: string };
  beforeAll(async () => {
    user = await registered(uniqueEmail('refresh'));
  });

  async function freshLogin(): Promise<string> {
    return (await signedIn()).cookie;
  }

  /** A new sign-in: its access token and its refresh cookie. */
  async function signedIn(): Promise<{ token: string; cookie: string }> {
    const response = await logIn(shop.app, user.email, user.password);
    expect(response.statusCode).toBe(200);
    return { token: json<{ access_token: string }>(response).access_token, cookie: refreshCookie(response)!.value };
  }

  const cartOf = (token: string) =>
    shop.app.inject({ method: 'GET', url: `/api/v1/cart/${user.id}`, headers: bearer(token) });

  it('without a cookie → 401', async () => {
    const response = await refresh(undefined);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ detail: expect.stringMatching(CYRILLIC) });
  });

  it('with an unknown cookie → 401', async () => {
    expect((await refresh('made-up-token')).statusCode).toBe(401);
  });

  it('answers a new access token and rotates the cookie', async () => {
    const first = await freshLogin();
    const response = await refresh(first);
    expect(response.statusCode).toBe(200);
    const body = response.json() as { access_token: string; token_type: string };
    expect(body.token_type).toBe('bearer');
    expect((await currentUser(bearer(body.access_token))).json()).toMatchObject({
      id: user.id,
      email: user.email,
      role: 'buyer',
    });

    const rotated = refreshCookie(response)!;
    expect(rotated.value).not.toBe(first);
    expect(rotated.httpOnly).toBe(true);
    expect(rotated.sameSite).toBe('Strict');
    expect(rotated.path).toBe('/api/v1/auth');

    // The new one can be spent in turn.
    const next = await refresh(rotated.value);
    expect(next.statusCode).toBe(200);
    expect(refreshCookie(next)!.value).not.toBe(rotated.value);
  });

  it('re-using a spent cookie after the grace period → 401 and revokes the whole family: the newer cookie and its access token fail too', async () => {
    const first = await freshLogin();
    const renewed = await refresh(first);
    const rotated = refreshCookie(renewed)!.value;
    const token = json<{ access_token: string }>(renewed).access_token;
    expect((await cartOf(token)).statusCode).toBe(200);
    await spentLongAgo(shop.app, first);

    const replay = await refresh(first);
    expect(replay.statusCode).toBe(401);
    // The answer also tells the browser to forget the cookie.
    expect(refreshCookie(replay)?.value ?? '').toBe('');

    expect((await refresh(rotated)).statusCode).toBe(401);
    expect((await cartOf(token)).statusCode).toBe(401);

    // Another login (another family) is unaffected.
    expect((await refresh(await freshLogin())).statusCode).toBe(200);
  });

  it('two tabs refreshing with one cookie at the same moment both get a new token, and the session goes on', async () => {
    const cookie = await freshLogin();
    const answers = await Promise.all([refresh(cookie), refresh(cookie)]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200]);
    const cookies = answers.map((answer) => refreshCookie(answer)!.value);
    expect(new Set([cookie, ...cookies]).size).toBe(3);
    for (const answer of answers) {
      expect((await cartOf(json<{ access_token: string }>(answer).access_token)).statusCode).toBe(200);
    }
    // Whichever cookie the browser kept refreshes in turn: nothing was taken for theft.
    for (const next of cookies) {
      const again = await refresh(next);
      expect(again.statusCode).toBe(200);
      expect((await cartOf(json<{ access_token: string }>(again).access_token)).statusCode).toBe(200);
    }
  });

  it('a cookie spent a moment ago (a tab a little late) refreshes again within the grace period', async () => {
    const cookie = await freshLogin();
    const first = await refresh(cookie);
    const late = await refresh(cookie);
    expect(late.statusCode).toBe(200);
    expect(refreshCookie(late)!.value).not.toBe(refreshCookie(first)!.value);
    expect((await refresh(refreshCookie(first)!.value)).statusCode).toBe(200);
  });

  it("a foreign Origin → 403 and the cookie stays valid; the shop's own Origin is fine", async () => {
    const cookie = await freshLogin();
    const foreign = await refresh(cookie, { origin: 'https://evil.example' });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json()).toEqual({ detail: expect.stringMatching(CYRILLIC) });
    expect(refreshCookie(foreign)).toBeUndefined();

    const sameOrigin = await refresh(cookie, { host: 'shop.example', origin: 'http://shop.example' });
    expect(sameOrigin.statusCode).toBe(200);
  });

  it('a look-alike Origin is foreign too', async () => {
    const cookie = await freshLogin();
    for (const origin of ['http://shop.example.evil.example', 'https://shop.example', 'null']) {
      expect((await refresh(cookie, { host: 'shop.example', origin })).statusCode).toBe(403);
    }
  });

  it('logout → 204, clears the cookie, and the cookie can no longer refresh', async () => {
    const cookie = await freshLogin();
    const response = await shop.app.inject({
      method: 'POST',
      url: '/api/v1/auth/logout',
      cookies: { refresh_token: cookie },
    });
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    const cleared = refreshCookie(response)!;
    expect(cleared).toBeDefined();
    expect(cleared.value).toBe('');
    expect(cleared.path).toBe('/api/v1/auth');
    expect(cleared.expires!.getTime()).toBeLessThanOrEqual(Date.now());
    const hintCleared = setCookie(response, 'session_hint')!;
    expect(hintCleared).toMatchObject({ value: '', path: '/' });

    const after = await refresh(cookie);
    expect(after.statusCode).toBe(401);
    // A refused refresh clears the hint too, so the storefront stops trying.
    expect(setCookie(after, 'session_hint')).toMatchObject({ value: '' });
  });

  it("logout ends the session's access token at once; another sign-in of the account goes on", async () => {
    const session = await signedIn();
    const other = await signedIn();
    expect((await cartOf(session.token)).statusCode).toBe(200);
    const out = await shop.app.inject({
      method: 'POST',
      url: '/api/v1/auth/logout',
      cookies: { refresh_token: session.cookie },
    });
    expect(out.statusCode).toBe(204);
    const refused = await cartOf(session.token);
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toEqual({ detail: expect.stringMatching(CYRILLIC) });
    expect((await currentUser(bearer(session.token))).statusCode).toBe(401);
    expect((await cartOf(other.token)).statusCode).toBe(200);
  });

  it('an account whose row is deleted, even straight in the database, has its tokens refused (401, never a 500)', async () => {
    const gone = await registered(uniqueEmail('gone'));
    const signIn = await logIn(shop.app, gone.email, gone.password);
    const token = json<{ access_token: string }>(signIn).access_token;
    const headers = bearer(token);
    await shop.app.database.db.execute(sql`delete from users where id = ${gone.id}`);
    // Nobody told this process: the database's trigger did, by NOTIFY, which PostgreSQL delivers
    // on the listening connection a moment after the commit.
    const read = () => shop.app.inject({ method: 'GET', url: `/api/v1/cart/${gone.id}`, headers });
    const deadline = Date.now() + 2000;
    while ((await read()).statusCode !== 401 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect((await read()).statusCode).toBe(401);
    const write = await shop.app.inject({
      method: 'POST',
      url: '/api/v1/address',
      headers,
      payload: { user_id: gone.id, country: 'Россия', city: 'Москва', street: 'Тверская', home_number: '1' },
    });
    expect(write.statusCode).toBe(401);
    expect(write.json()).toEqual({ detail: expect.stringMatching(CYRILLIC) });
  });

  it('logout with a cookie already rotated away still ends the access tokens of that sign-in', async () => {
    const session = await signedIn();
    const renewed = await refresh(session.cookie);
    const token = json<{ access_token: string }>(renewed).access_token;
    await shop.app.inject({ method: 'POST', url: '/api/v1/auth/logout', cookies: { refresh_token: session.cookie } });
    expect((await cartOf(session.token)).statusCode).toBe(401);
    expect((await cartOf(token)).statusCode).toBe(401);
    expect((await refresh(refreshCookie(renewed)!.value)).statusCode).toBe(401);
  });

  it('logout without a cookie is still 204; logout from a foreign Origin → 403 and the session survives', async () => {
    expect((await shop.app.inject({ method: 'POST', url: '/api/v1/auth/logout' })).statusCode).toBe(204);
    const cookie = await freshLogin();
    const foreign = await shop.app.inject({
      method: 'POST',
      url: '/api/v1/auth/logout',
      cookies: { refresh_token: cookie },
      headers: { origin: 'https://evil.example' },
    });
    expect(foreign.statusCode).toBe(403);
    expect((await refresh(cookie)).statusCode).toBe(200);
  });
});

describe('login throttling', () => {
  // One app for both limits: 3 failures per account, 5 attempts per client address, a minute's window.
  const limits = {
    loginRateLimitPerAccount: { max: 3, windowMs: 60_000 },
    loginRateLimitPerClient: { max: 5, windowMs: 60_000 },
  };
  // Each attempt hashes a password (scrypt, deliberately slow): a dozen of them outlast Jest's 5 s on a busy machine.
  const GUESSES_TIMEOUT = 60_000;
  let limited: TestApp;
  let nextAddress = 0;
  /** A client address no other request used, so that only the per-account rule can apply. */
  const freshClient = () => ({ remoteAddress: `198.18.0.${++nextAddress}` });
  const attempt = (
    username: string,
    password: string,
    options: { remoteAddress?: string; headers?: Record<string, string>; device?: string } = {},
    app = limited.app,
  ) =>
    app.inject({
      method: 'POST',
      url: '/api/v1/auth/token',
      payload: new URLSearchParams({ username, password }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...options.headers },
      ...(options.remoteAddress ? { remoteAddress: options.remoteAddress } : {}),
      ...(options.device ? { cookies: { [DEVICE_COOKIE]: options.device } } : {}),
    });
  const deviceCookieOf = (response: LightMyRequestResponse) => setCookie(response, DEVICE_COOKIE)?.value;

  async function newAccount(label: string): Promise<string> {
    const email = uniqueEmail(label);
    const response = await limited.app.inject({
      method: 'POST',
      url: '/api/v1/auth/register',
      query: { email, password: TEST_PASSWORD, consent: 'true' },
      ...freshClient(),
    });
    expect(response.statusCode).toBe(201);
    return email;
  }

  /** The owner signs in once from a fresh address; answers the device cookie that sign-in set. */
  async function ownersDevice(account: string): Promise<string> {
    const response = await attempt(account, TEST_PASSWORD, freshClient());
    expect(response.statusCode).toBe(200);
    return deviceCookieOf(response)!;
  }

  /** As if `seconds` had passed for the account's attempts. */
  const age = (account: string, seconds: number) =>
    limited.app.database.db
      .update(signInAttempts)
      .set({ attemptedAt: sql`${signInAttempts.attemptedAt} - ${seconds}::float8 * interval '1 second'` })
      .where(eq(signInAttempts.account, account));

  beforeAll(async () => {
    limited = await createTestApp(limits);
  }, STARTUP_TIMEOUT);
  afterAll(() => limited.close());

  it(
    "a stranger's wrong passwords from many addresses do not lock the owner's device out: with its device cookie the right one → 200 at once",
    async () => {
      const victim = await newAccount('victim');
      const device = await ownersDevice(victim);
      // Ten guesses, each from another address: three are checked, then every client without a device cookie waits.
      const statuses: number[] = [];
      for (let guess = 1; guess <= 10; guess += 1) {
        statuses.push((await attempt(victim, `wrong password ${guess}`, freshClient())).statusCode);
      }
      expect(statuses).toEqual([401, 401, 401, ...Array<number>(7).fill(429)]);
      const owner = await attempt(victim, TEST_PASSWORD, { ...freshClient(), device });
      expect(owner.statusCode).toBe(200);
      expect(refreshCookie(owner)?.value).toEqual(expect.any(String));
      const token = json<{ access_token: string }>(owner).access_token;
      expect(
        (await limited.app.inject({ method: 'GET', url: '/api/v1/auth/user', headers: bearer(token) })).json(),
      ).toEqual(expect.objectContaining({ email: victim }));
    },
    GUESSES_TIMEOUT,
  );

  it(
    'guessing one account without a device cookie: after 3 failures from any addresses every client without one is refused, even with the right password, until the oldest failure leaves the window',
    async () => {
      const victim = await newAccount('guessed');
      for (const client of [freshClient(), freshClient(), freshClient()]) {
        expect((await attempt(victim, 'wrong password', client)).statusCode).toBe(401);
      }
      const refused = await attempt(victim, TEST_PASSWORD, freshClient());
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toEqual({ detail: expect.stringMatching(CYRILLIC) });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(50);
      expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
      expect(refreshCookie(refused)).toBeUndefined();
      // The same account spelled differently is the same account.
      expect((await attempt(` ${victim.toUpperCase()}`, TEST_PASSWORD, freshClient())).statusCode).toBe(429);
      // A device cookie of another account, a tampered one, or an access token in its place counts as none.
      const other = await attempt(await newAccount('other'), TEST_PASSWORD, freshClient());
      const otherDevice = deviceCookieOf(other)!;
      const accessToken = json<{ access_token: string }>(other).access_token;
      for (const device of [otherDevice, `${otherDevice.slice(0, -2)}xx`, accessToken, 'not.a.token']) {
        expect((await attempt(victim, TEST_PASSWORD, { ...freshClient(), device })).statusCode).toBe(429);
      }

      // Once the oldest failure has left the window, one more attempt without a cookie is checked,
      // and a sign-in forgives that client's failures.
      await age(victim, 61);
      const owner = await attempt(victim, TEST_PASSWORD, freshClient());
      expect(owner.statusCode).toBe(200);
      expect(deviceCookieOf(owner)).toEqual(expect.any(String));
    },
    GUESSES_TIMEOUT,
  );

  it(
    "each device cookie is locked on its own: the owner's typos on one device do not hold back another, and a sign-in forgives them",
    async () => {
      const owner = await newAccount('typo');
      const [laptop, phone] = [await ownersDevice(owner), await ownersDevice(owner)];
      expect(laptop).not.toBe(phone);
      // From another address each time: the per-client limit is not what is tested here.
      const onLaptop = () => ({ ...freshClient(), device: laptop });
      expect((await attempt(owner, 'a typo in it', onLaptop())).statusCode).toBe(401);
      const signedIn = await attempt(owner, TEST_PASSWORD, onLaptop());
      expect(signedIn.statusCode).toBe(200);
      // A valid device cookie for the account is kept, not replaced.
      expect(deviceCookieOf(signedIn)).toBeUndefined();
      for (let typo = 1; typo <= 3; typo += 1) {
        expect((await attempt(owner, `typo ${typo}`, onLaptop())).statusCode).toBe(401);
      }
      const locked = await attempt(owner, TEST_PASSWORD, onLaptop());
      expect(locked.statusCode).toBe(429);
      expect(Number(locked.headers['retry-after'])).toBeGreaterThan(50);
      // The phone, and the clients without a cookie, are not held back by the laptop's failures.
      expect((await attempt(owner, TEST_PASSWORD, { ...freshClient(), device: phone })).statusCode).toBe(200);
      expect((await attempt(owner, TEST_PASSWORD, freshClient())).statusCode).toBe(200);
    },
    GUESSES_TIMEOUT,
  );

  it(
    'the addresses of one IPv6 /64 are one client: a new address in the network that used up its attempts is refused, another network is not',
    async () => {
      for (let guess = 1; guess <= 5; guess += 1) {
        const response = await attempt(uniqueEmail(`ipv6-${guess}`), 'some password', {
          remoteAddress: `2001:db8:77:1::${guess}`,
        });
        expect(response.statusCode).toBe(401);
      }
      expect(
        (await attempt(uniqueEmail('ipv6'), 'some password', { remoteAddress: '2001:db8:77:1:abcd::9' })).statusCode,
      ).toBe(429);
      expect(
        (await attempt(uniqueEmail('ipv6'), 'some password', { remoteAddress: '2001:db8:77:2::1' })).statusCode,
      ).toBe(401);
    },
    GUESSES_TIMEOUT,
  );

  it(
    'an unknown e-mail is throttled exactly as a known one (a 429 tells nothing of an account)',
    async () => {
      const nobody = uniqueEmail('nobody');
      const client = freshClient();
      const statuses: number[] = [];
      for (let guess = 1; guess <= 4; guess += 1)
        statuses.push((await attempt(nobody, 'some password', client)).statusCode);
      expect(statuses).toEqual([401, 401, 401, 429]);
    },
    GUESSES_TIMEOUT,
  );

  it(
    'per client: one address trying many accounts is stopped after 5, and a spoofed X-Forwarded-For does not reset it',
    async () => {
      const sprayer = '192.0.2.50';
      for (let guess = 1; guess <= 5; guess += 1) {
        const response = await attempt(uniqueEmail(`spray${guess}`), 'some password', {
          remoteAddress: sprayer,
          headers: { 'x-forwarded-for': `198.51.100.${guess}` },
        });
        expect(response.statusCode).toBe(401);
      }
      for (const spoofed of ['198.51.100.200', '10.0.0.1', '127.0.0.2']) {
        const response = await attempt(uniqueEmail('spray'), 'some password', {
          remoteAddress: sprayer,
          headers: { 'x-forwarded-for': spoofed },
        });
        expect(response.statusCode).toBe(429);
        expect(response.json()).toEqual({ detail: expect.stringMatching(CYRILLIC) });
      }
      // Sign-up from that address counts against the same client limit.
      const signUpAttempt = await limited.app.inject({
        method: 'POST',
        url: '/api/v1/auth/register',
        query: { email: uniqueEmail('late'), password: TEST_PASSWORD, consent: 'true' },
        remoteAddress: sprayer,
      });
      expect(signUpAttempt.statusCode).toBe(429);

      // Another address is counted separately.
      expect(
        (await attempt(uniqueEmail('elsewhere'), 'some password', { remoteAddress: '192.0.2.77' })).statusCode,
      ).toBe(401);
    },
    GUESSES_TIMEOUT,
  );
  it(
    "per client: attempts at different accounts sent at once are counted one after another, so exactly the limit's worth is let through",
    async () => {
      const sprayer = '192.0.2.60';
      // More at once than the pool has connections: on PostgreSQL they run side by side.
      const answers = await Promise.all(
        Array.from({ length: 15 }, (_, i) =>
          attempt(uniqueEmail(`at-once${i}`), 'some password', { remoteAddress: sprayer }),
        ),
      );
      const statuses = answers.map((answer) => answer.statusCode).sort();
      expect(statuses).toEqual([...Array<number>(5).fill(401), ...Array<number>(10).fill(429)]);
    },
    GUESSES_TIMEOUT,
  );

  (usesPostgres ? it : it.skip)(
    'two server processes on one PostgreSQL count the same attempts',
    async () => {
      const other = await createTestApp({ ...limits, databaseUrl: limited.config.databaseUrl });
      try {
        const victim = await newAccount('two-processes');
        const device = await ownersDevice(victim);
        expect((await attempt(victim, 'wrong password', freshClient())).statusCode).toBe(401);
        expect((await attempt(victim, 'wrong password', freshClient(), other.app)).statusCode).toBe(401);
        expect((await attempt(victim, 'wrong password', freshClient())).statusCode).toBe(401);
        expect((await attempt(victim, TEST_PASSWORD, freshClient(), other.app)).statusCode).toBe(429);
        expect((await attempt(victim, TEST_PASSWORD, { ...freshClient(), device }, other.app)).statusCode).toBe(200);
      } finally {
        await other.close();
      }
    },
    STARTUP_TIMEOUT,
  );

  it(
    'the attempts are kept in the database only as long as a window counts them',
    async () => {
      const account = uniqueEmail('purged');
      const client = freshClient().remoteAddress;
      expect((await attempt(account, 'some password', { remoteAddress: client })).statusCode).toBe(401);
      expect((await attempt(account, 'other password', { remoteAddress: client })).statusCode).toBe(401);
      const stored = () =>
        limited.app.database.db.select().from(signInAttempts).where(eq(signInAttempts.client, client));
      expect(await stored()).toEqual([
        expect.objectContaining({ account, failed: true }),
        expect.objectContaining({ account, failed: true }),
      ]);
      await limited.app.database.db
        .update(signInAttempts)
        .set({ attemptedAt: sql`${signInAttempts.attemptedAt} - interval '61 seconds'` })
        .where(and(eq(signInAttempts.client, client), eq(signInAttempts.account, account)));
      expect((await attempt(account, TEST_PASSWORD, { remoteAddress: client })).statusCode).toBe(401);
      await limited.app.repositories.signInAttempts.purge(60_000);
      expect(await stored()).toEqual([expect.objectContaining({ account, failed: true })]);
    },
    GUESSES_TIMEOUT,
  );
});

// Two server processes on one PostgreSQL database: a session ended through one is refused by the
// other as soon as the revoking transaction's NOTIFY arrives, long before its list would be read anew.
if (process.env.TEST_DATABASE_URL) {
  describe('sessions across two server processes', () => {
    let other: FastifyInstance;
    beforeAll(async () => {
      other = await buildApp({ ...shop.config });
      await other.ready();
    }, STARTUP_TIMEOUT);
    afterAll(() => other.close());

    const cartThroughOther = (userId: number, token: string) =>
      other.inject({ method: 'GET', url: `/api/v1/cart/${userId}`, headers: bearer(token) });

    /** The other process's answer, asked again for a while (the notification travels). */
    async function settledStatus(ask: () => Promise<LightMyRequestResponse>, expected: number): Promise<number> {
      const deadline = Date.now() + 3000;
      let status = (await ask()).statusCode;
      while (status !== expected && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        status = (await ask()).statusCode;
      }
      return status;
    }

    async function signInThroughThis(user: User & { password: string }) {
      const response = await logIn(shop.app, user.email, user.password);
      expect(response.statusCode).toBe(200);
      return { token: json<{ access_token: string }>(response).access_token, cookie: refreshCookie(response)!.value };
    }

    it('a logout in one process ends the access token in the other', async () => {
      const user = await registered(uniqueEmail('two-processes'));
      const session = await signInThroughThis(user);
      const staying = await signInThroughThis(user);
      // The other process has read its list of revoked sessions just now: fresh for REVOCATIONS_MAX_AGE_MS.
      expect((await cartThroughOther(user.id, session.token)).statusCode).toBe(200);

      const out = await shop.app.inject({
        method: 'POST',
        url: '/api/v1/auth/logout',
        cookies: { refresh_token: session.cookie },
      });
      expect(out.statusCode).toBe(204);
      expect(await settledStatus(() => cartThroughOther(user.id, session.token), 401)).toBe(401);
      expect((await cartThroughOther(user.id, staying.token)).statusCode).toBe(200);
    });

    it("a password change in one process ends the account's other sessions in the other, not the current one", async () => {
      const user = await registered(uniqueEmail('two-processes-password'));
      const elsewhere = await signInThroughThis(user);
      const current = await signInThroughThis(user);
      expect((await cartThroughOther(user.id, elsewhere.token)).statusCode).toBe(200);

      const changed = await shop.app.inject({
        method: 'POST',
        url: '/api/v1/auth/password',
        headers: bearer(current.token),
        cookies: { refresh_token: current.cookie },
        payload: { current_password: user.password, new_password: 'another horse staple' },
      });
      expect(changed.statusCode).toBe(204);
      expect(await settledStatus(() => cartThroughOther(user.id, elsewhere.token), 401)).toBe(401);
      expect((await cartThroughOther(user.id, current.token)).statusCode).toBe(200);
    });

    it('two tabs refreshing with one cookie through the two processes at once both go on', async () => {
      const user = await registered(uniqueEmail('two-processes-refresh'));
      const { cookie } = await signInThroughThis(user);
      const request = { method: 'POST' as const, url: '/api/v1/auth/refresh', cookies: { refresh_token: cookie } };
      const answers = await Promise.all([shop.app.inject(request), other.inject(request)]);
      expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200]);
      for (const answer of answers) {
        expect((await cartThroughOther(user.id, json<{ access_token: string }>(answer).access_token)).statusCode).toBe(
          200,
        );
      }
    });
  });
}
