/**
 * The attack catalogue (issue 6, «Reliability and security»), grouped by threat. Every attack must
 * fail for the attacker, change nothing (the whole shop's rows are compared before and after), and
 * never answer 500: a refusal is a clean 4xx JSON `{detail}` that leaks no stack, SQL or file path.
 *
 * The route suites already hold the plain cases (another user's id → 403/404, no token → 401,
 * alg "none" and expired tokens on /auth/user, refresh rotation and reuse, login throttling,
 * 1 MB bodies, basic image traversal); this file adds the odd forms, the combinations and the
 * checks on the victim's data that those do not make.
 */
import { createHmac } from 'node:crypto';
import { asc, eq, sql } from 'drizzle-orm';
import { createSigner } from 'fast-jwt';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Address, Cart, OrderSummary, Product, Variant } from '../../../src/shared/api';
import { MESSAGES } from '../../../src/shared/messages';
import {
  addresses,
  appSettings,
  cartItems,
  orderLines,
  orders,
  products,
  refreshTokens,
  users,
  variants,
} from '../../../src/server/db/schema';
import {
  allProducts,
  bearer,
  createTestApp,
  json,
  LogCapture,
  logIn,
  quickShoppers,
  sessionIdOf,
  setCookie,
  setVariant,
  signUp,
  spentLongAgo,
  STARTUP_TIMEOUT,
  type Shopper,
  type TestApp,
} from '../helpers/test-app';
import { TEST_PASSWORD } from '../helpers/shop-data';
import { DEVICE_COOKIE } from '../../../src/server/plugins/authentication';

/** What an error body must never show: stack frames, file paths, SQL, driver or framework internals. */
const LEAKS =
  /\bat [\w.<>]+ \(|node_modules|\/work\/|src\/server|\.ts:\d+|\bselect\b[\s\S]*\bfrom\b|\binsert into\b|\bdelete from\b|syntax error|postgres|pglite|drizzle|FST_ERR|"stack"|"code"/i;

let shop: TestApp;
/** Everything the shop logs while this file runs, at the most talkative level. */
const log = new LogCapture();
/** Passwords, tokens and cookie values seen by this file: none may appear in the log (section 8). */
const secrets = new Set<string>();

let victim: Shopper;
let attacker: Shopper;
let catalogue: Product[];
let spare: Product[];
/** The victim's rows, by id. */
let victimLines: number[];
let victimOrder: OrderSummary;
let victimAddresses: Address[];
let jwtSecret: string;

const inStock = (product: Product) => product.variants.filter((variant) => variant.stock > 0);
function takeProduct(): { product: Product; v1: Variant; v2: Variant } {
  const product = spare.shift();
  if (!product) throw new Error('ran out of products with two variants in stock');
  const [v1, v2] = inStock(product);
  return { product, v1: v1!, v2: v2! };
}

const ADDRESS_FIELDS = {
  country: 'Россия',
  city: 'Тверь',
  street: 'ул. Советская',
  home_number: '3',
  apartment_number: '8',
};

beforeAll(async () => {
  shop = await createTestApp({ logLevel: 'trace' }, { logStream: log });
  // The victim is the first user, so the literal "1" in the odd id forms below is the victim's id.
  victim = await signUp(shop.app);
  attacker = (await quickShoppers(shop.app, 1))[0]!;
  catalogue = await allProducts(shop.app);
  spare = catalogue.filter((product) => inStock(product).length >= 2);
  secrets.add(TEST_PASSWORD).add(victim.token).add(attacker.token);

  const inject = (shopper: Shopper, method: 'POST', url: string, payload: object) =>
    shop.app.inject({ method, url, headers: shopper.headers, payload: { user_id: shopper.id, ...payload } });
  // The victim: two cart lines, an order, two addresses. The attacker: one of each, so ids interleave.
  const a = takeProduct();
  const b = takeProduct();
  const c = takeProduct();
  victimLines = [];
  for (const variant of [a.v1, a.v2]) {
    const added = await inject(victim, 'POST', '/api/v1/cart/add', {
      product_id: a.product.id,
      variant_id: variant.id,
      count: 2,
    });
    expect(added.statusCode).toBe(201);
    victimLines.push(json<{ id: number }>(added).id);
  }
  expect(
    (await inject(attacker, 'POST', '/api/v1/cart/add', { product_id: b.product.id, variant_id: b.v1.id, count: 1 }))
      .statusCode,
  ).toBe(201);
  const placed = await inject(victim, 'POST', '/api/v1/order/', {
    address: 'г. Тверь, ул. Советская, д. 3',
    items: [{ product_id: c.product.id, variant_id: c.v1.id, quantity: 2 }],
    company_name: 'ООО «Жертва»',
  });
  expect(placed.statusCode).toBe(201);
  victimOrder = json<OrderSummary>(placed);
  expect(
    (
      await inject(attacker, 'POST', '/api/v1/order/', {
        address: 'г. Тула',
        items: [{ product_id: c.product.id, variant_id: c.v2.id, quantity: 1 }],
      })
    ).statusCode,
  ).toBe(201);
  victimAddresses = [];
  for (const city of ['Тверь', 'Клин']) {
    const created = await inject(victim, 'POST', '/api/v1/address/', { ...ADDRESS_FIELDS, city });
    expect(created.statusCode).toBe(201);
    victimAddresses.push(json<Address>(created));
  }
  expect((await inject(attacker, 'POST', '/api/v1/address/', ADDRESS_FIELDS)).statusCode).toBe(201);

  const [setting] = await shop.app.database.db.select().from(appSettings).where(eq(appSettings.key, 'jwt_secret'));
  jwtSecret = setting!.value;
  secrets.add(jwtSecret);
}, STARTUP_TIMEOUT);
afterAll(() => shop.close());

/** Every row an attack could touch, in a stable order. */
async function wholeShop() {
  const db = shop.app.database.db;
  return {
    users: await db.select().from(users).orderBy(asc(users.id)),
    cart: await db.select().from(cartItems).orderBy(asc(cartItems.id)),
    orders: await db.select().from(orders).orderBy(asc(orders.id)),
    orderLines: await db.select().from(orderLines).orderBy(asc(orderLines.id)),
    addresses: await db.select().from(addresses).orderBy(asc(addresses.id)),
    stock: await db
      .select({ id: variants.id, stock: variants.stock, price: variants.price })
      .from(variants)
      .orderBy(asc(variants.id)),
    popularity: await db
      .select({ id: products.id, units: products.unitsOrdered })
      .from(products)
      .orderBy(asc(products.id)),
    refreshTokens: await db.select().from(refreshTokens).orderBy(asc(refreshTokens.id)),
  };
}

/** Runs `attack` and checks that not one row of the shop changed. */
async function changesNothing(attack: () => Promise<void>): Promise<void> {
  const before = await wholeShop();
  await attack();
  expect(await wholeShop()).toEqual(before);
}

/**
 * What is wrong with a refusal, as readable lines (an empty list when it is a clean one): a 4xx
 * among `allowed`, JSON `{detail: string}` with nosniff, and nothing internal in the body.
 */
function refusalProblems(label: string, response: LightMyRequestResponse, allowed: readonly number[]): string[] {
  const problems: string[] = [];
  const say = (what: string) =>
    problems.push(`${label}: ${what} (${response.statusCode} ${response.body.slice(0, 200)})`);
  if (!allowed.includes(response.statusCode)) say(`status not in ${allowed.join('/')}`);
  if (!String(response.headers['content-type']).startsWith('application/json'))
    say(`content-type ${response.headers['content-type']}`);
  if (response.headers['x-content-type-options'] !== 'nosniff') say('no nosniff');
  if (LEAKS.test(response.body)) say('leaks internals');
  if (response.raw.req.method !== 'HEAD') {
    try {
      const body = JSON.parse(response.body) as Record<string, unknown>;
      if (Object.keys(body).join() !== 'detail' || typeof body.detail !== 'string' || body.detail === '')
        say('not {detail}');
    } catch {
      say('not JSON');
    }
  }
  return problems;
}

const REFUSED = [400, 403, 404, 405, 409, 413, 414, 415, 422];

// ---------------------------------------------------------------------------------------------
describe("1. Broken access control: another user's cart, orders and addresses, with a valid token of one's own", () => {
  /** The odd spellings of an id: for `n` (the victim's) and the literal ones of the issue. */
  const oddForms = (n: number) => [
    ...new Set([
      '0',
      '-1',
      `-${n}`,
      `${n}.0`,
      '1.0',
      `${n} OR 1=1`,
      '1 OR 1=1',
      `${n};DROP TABLE users`,
      '1;DROP TABLE users',
      '99999999999999999999',
      `0x${n.toString(16)}`,
      '0x1',
      ` ${n}`,
      ' 1',
      `${n}e0`,
      '\u0000',
      `${n}\u0000`,
      `${n}/../${attacker.id}`,
      `${attacker.id},${n}`,
      '',
    ]),
  ];

  type Target = 'user' | 'line' | 'order' | 'address';
  const idOf = (target: Target): number =>
    ({ user: victim.id, line: victimLines[0]!, order: victimOrder.id, address: victimAddresses[0]!.id })[target];

  const path = (id: string) => encodeURIComponent(id);
  // [name, what the id names, the status for the victim's plain id, the request]
  const inPath: [string, Target, number, (id: string) => Promise<LightMyRequestResponse>][] = [
    [
      'read the cart: GET /cart/{victim}',
      'user',
      403,
      (id) => shop.app.inject({ method: 'GET', url: `/api/v1/cart/${path(id)}`, headers: attacker.headers }),
    ],
    [
      'read the orders: GET /order/{victim}',
      'user',
      403,
      (id) => shop.app.inject({ method: 'GET', url: `/api/v1/order/${path(id)}`, headers: attacker.headers }),
    ],
    [
      'read the addresses: GET /address/{victim}',
      'user',
      403,
      (id) => shop.app.inject({ method: 'GET', url: `/api/v1/address/${path(id)}`, headers: attacker.headers }),
    ],
    [
      "read an order's status: GET /order/{victimOrder}/status",
      'order',
      404,
      (id) => shop.app.inject({ method: 'GET', url: `/api/v1/order/${path(id)}/status`, headers: attacker.headers }),
    ],
    [
      'change a count: PUT /cart/count?item_id={victimLine}',
      'line',
      404,
      (id) =>
        shop.app.inject({
          method: 'PUT',
          url: '/api/v1/cart/count',
          query: { item_id: id, count: '9999' },
          headers: attacker.headers,
        }),
    ],
    [
      'delete a cart line: DELETE /cart/{victimLine}',
      'line',
      404,
      (id) => shop.app.inject({ method: 'DELETE', url: `/api/v1/cart/${path(id)}`, headers: attacker.headers }),
    ],
    [
      'cancel an order: DELETE /order/{victimOrder}',
      'order',
      404,
      (id) => shop.app.inject({ method: 'DELETE', url: `/api/v1/order/${path(id)}`, headers: attacker.headers }),
    ],
    [
      'delete an address: DELETE /address/{victimAddress}',
      'address',
      404,
      (id) => shop.app.inject({ method: 'DELETE', url: `/api/v1/address/${path(id)}`, headers: attacker.headers }),
    ],
    [
      'edit an address: PUT /address/{victimAddress} (own user_id)',
      'address',
      404,
      (id) =>
        shop.app.inject({
          method: 'PUT',
          url: `/api/v1/address/${path(id)}`,
          headers: attacker.headers,
          payload: { ...ADDRESS_FIELDS, city: 'Взломанск', user_id: attacker.id },
        }),
    ],
  ];

  it.each(inPath.map(([name, target, status, send]) => ({ name, target, status, send })))(
    "$name → refused in its plain form and in every odd form; the victim's data unchanged",
    async ({ target, status, send }) => {
      await changesNothing(async () => {
        const problems = refusalProblems('plain id', await send(String(idOf(target))), [status]);
        for (const form of oddForms(idOf(target)))
          problems.push(...refusalProblems(JSON.stringify(form), await send(form), REFUSED));
        expect(problems).toEqual([]);
      });
    },
  );

  /** user_id spelled in JSON: the victim's as a number, and everything odd around it. */
  const jsonForms = (n: number) => [
    `${n}.0`,
    `${n}e0`,
    `"${n}"`,
    `[${n}]`,
    `{"$eq":${n}}`,
    `"${n} OR 1=1"`,
    '"1;DROP TABLE users"',
    '-1',
    '0',
    '99999999999999999999',
    '9007199254740993',
    'null',
    'true',
    `"0x${n.toString(16)}"`,
  ];
  const inBody: [string, (userId: string) => Promise<LightMyRequestResponse>][] = [
    [
      'add to their cart: POST /cart/add with user_id=victim',
      (userId) => {
        const product = catalogue.find((candidate) => inStock(candidate).length > 0)!;
        const v1 = inStock(product)[0]!;
        return shop.app.inject({
          method: 'POST',
          url: '/api/v1/cart/add',
          headers: { ...attacker.headers, 'content-type': 'application/json' },
          payload: `{"user_id":${userId},"product_id":${product.id},"variant_id":${v1.id},"count":1}`,
        });
      },
    ],
    [
      'order in their name: POST /order/ with user_id=victim',
      (userId) => {
        const product = catalogue.find((candidate) => inStock(candidate).length > 0)!;
        return shop.app.inject({
          method: 'POST',
          url: '/api/v1/order/',
          headers: { ...attacker.headers, 'content-type': 'application/json' },
          payload: `{"user_id":${userId},"address":"г. Тверь","items":[{"product_id":${product.id},"variant_id":${inStock(product)[0]!.id},"quantity":1}]}`,
        });
      },
    ],
    [
      'add an address for them: POST /address/ with user_id=victim',
      (userId) =>
        shop.app.inject({
          method: 'POST',
          url: '/api/v1/address/',
          headers: { ...attacker.headers, 'content-type': 'application/json' },
          payload: `{"user_id":${userId},"country":"Россия","city":"Взломанск","street":"ул. Ложная","home_number":"1"}`,
        }),
    ],
    [
      'edit their address: PUT /address/{victimAddress} with user_id=victim',
      (userId) =>
        shop.app.inject({
          method: 'PUT',
          url: `/api/v1/address/${victimAddresses[0]!.id}`,
          headers: { ...attacker.headers, 'content-type': 'application/json' },
          payload: `{"user_id":${userId},"country":"Россия","city":"Взломанск","street":"ул. Ложная","home_number":"1"}`,
        }),
    ],
  ];

  it.each(inBody.map(([name, send]) => ({ name, send })))(
    '$name → 403 as a plain number, 403/422 in every odd JSON form; nothing stored for anyone',
    async ({ send }) => {
      await changesNothing(async () => {
        const problems = refusalProblems('plain user_id', await send(String(victim.id)), [403]);
        for (const form of jsonForms(victim.id)) problems.push(...refusalProblems(form, await send(form), [403, 422]));
        expect(problems).toEqual([]);
      });
    },
  );

  it("the same calls with the victim's own token succeed (the attacks above fail for the right reason)", async () => {
    const cart = await shop.app.inject({ method: 'GET', url: `/api/v1/cart/${victim.id}`, headers: victim.headers });
    expect(cart.statusCode).toBe(200);
    expect(json<Cart>(cart).items.map((item) => item.id)).toEqual(victimLines);
    const list = await shop.app.inject({ method: 'GET', url: `/api/v1/order/${victim.id}`, headers: victim.headers });
    expect(json<OrderSummary[]>(list)).toEqual([victimOrder]);
    const status = await shop.app.inject({
      method: 'GET',
      url: `/api/v1/order/${victimOrder.id}/status`,
      headers: victim.headers,
    });
    expect(status.json()).toEqual({ id: victimOrder.id, status: 'Создан' });
    const mine = await shop.app.inject({ method: 'GET', url: `/api/v1/address/${victim.id}`, headers: victim.headers });
    expect(json<Address[]>(mine)).toEqual(victimAddresses);
  });
});

// ---------------------------------------------------------------------------------------------
describe('2. Forged, stolen and malformed access tokens', () => {
  const b64 = (value: object | string) =>
    Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
  const now = () => Math.floor(Date.now() / 1000);
  // In the victim's own session, so that only what each test forges can make the shop refuse it.
  const claims = (sub: number, exp = now() + 600) => ({
    sub: String(sub),
    sid: sessionIdOf(victim.token),
    iat: now() - 10,
    exp,
  });
  /** A JWT signed by hand with HMAC (`key` null: no signature at all). */
  function jwt(
    header: object,
    payload: object,
    key: string | null,
    hash: 'sha256' | 'sha384' | 'sha512' = 'sha256',
  ): string {
    const signed = `${b64(header)}.${b64(payload)}`;
    return key === null ? `${signed}.` : `${signed}.${createHmac(hash, key).update(signed).digest('base64url')}`;
  }

  /** Requests that would read or change the victim's data if the token were taken for the victim's. */
  const victimCalls = (headers: Record<string, string | string[]>, cookies?: Record<string, string>, whoAmI = true) => [
    ...(whoAmI
      ? [shop.app.inject({ method: 'GET', url: '/api/v1/auth/user', headers, ...(cookies ? { cookies } : {}) })]
      : []),
    shop.app.inject({ method: 'GET', url: `/api/v1/cart/${victim.id}`, headers, ...(cookies ? { cookies } : {}) }),
    shop.app.inject({ method: 'GET', url: `/api/v1/order/${victim.id}`, headers, ...(cookies ? { cookies } : {}) }),
    shop.app.inject({
      method: 'DELETE',
      url: `/api/v1/cart/${victimLines[0]}`,
      headers,
      ...(cookies ? { cookies } : {}),
    }),
    shop.app.inject({
      method: 'DELETE',
      url: `/api/v1/order/${victimOrder.id}`,
      headers,
      ...(cookies ? { cookies } : {}),
    }),
    shop.app.inject({
      method: 'DELETE',
      url: `/api/v1/address/${victimAddresses[1]!.id}`,
      headers,
      ...(cookies ? { cookies } : {}),
    }),
    shop.app.inject({
      method: 'PUT',
      url: '/api/v1/cart/count',
      query: { item_id: String(victimLines[1]), count: '7' },
      headers,
      ...(cookies ? { cookies } : {}),
    }),
  ];

  async function expectAllRefused(
    label: string,
    headers: Record<string, string | string[]>,
    cookies?: Record<string, string>,
    allowed = [401],
  ) {
    const problems: string[] = [];
    // With a token that is the attacker's own, /auth/user rightly answers the attacker: leave it out.
    for (const response of await Promise.all(victimCalls(headers, cookies, allowed.length === 1))) {
      problems.push(
        ...refusalProblems(`${label} ${response.raw.req.method} ${response.raw.req.url}`, response, allowed),
      );
    }
    expect(problems).toEqual([]);
  }

  it("the hand-made signer is right: with the shop's secret it makes a token the shop accepts (control)", async () => {
    const genuine = jwt({ alg: 'HS256', typ: 'JWT' }, claims(victim.id), jwtSecret);
    const response = await shop.app.inject({ method: 'GET', url: '/api/v1/auth/user', headers: bearer(genuine) });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ id: victim.id, email: victim.email, role: 'buyer' });
  });

  it('no token, or "Bearer" with no token → 401 on every call; nothing changes', async () => {
    await changesNothing(async () => {
      await expectAllRefused('none', {});
      for (const authorization of [
        'Bearer',
        'Bearer ',
        'Bearer    ',
        'bearer',
        'Token',
        'Basic ' + b64('victim:password'),
        victim.token,
      ]) {
        await expectAllRefused(JSON.stringify(authorization), { authorization });
      }
    });
  });

  it("an expired token signed with the shop's own secret → 401; nothing changes", async () => {
    await changesNothing(async () => {
      const expired = createSigner({ key: jwtSecret, algorithm: 'HS256' })(claims(victim.id, now() - 1));
      secrets.add(expired);
      await expectAllRefused('expired', bearer(expired));
      // Long expired, and one whose not-before lies in the future.
      await expectAllRefused(
        'long expired',
        bearer(jwt({ alg: 'HS256' }, { sub: String(victim.id), iat: 1, exp: 2 }, jwtSecret)),
      );
      await expectAllRefused(
        'not yet valid',
        bearer(jwt({ alg: 'HS256' }, { ...claims(victim.id), nbf: now() + 3600 }, jwtSecret)),
      );
    });
  });

  it.each(['none', 'None', 'NONE', 'nOnE'])(
    "alg %j (unsigned, empty signature, or the attacker's signature kept) → 401",
    async (alg) => {
      await changesNothing(async () => {
        const unsigned = jwt({ alg, typ: 'JWT' }, claims(victim.id), null);
        const withAttackerSignature = `${unsigned}${attacker.token.split('.')[2]}`;
        const signedAnyway = jwt({ alg, typ: 'JWT' }, claims(victim.id), jwtSecret);
        for (const token of [unsigned, unsigned.slice(0, -1), withAttackerSignature, signedAnyway]) {
          await expectAllRefused(`alg ${alg}`, bearer(token));
        }
      });
    },
  );

  it("the attacker's own token with the payload changed to the victim's id and the old signature kept → 401", async () => {
    await changesNothing(async () => {
      const [header, payload, signature] = attacker.token.split('.') as [string, string, string];
      const original = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
      for (const sub of [String(victim.id), victim.id, `${victim.id}`.padStart(3, '0'), [String(victim.id)]]) {
        await expectAllRefused(
          `sub ${JSON.stringify(sub)}`,
          bearer(`${header}.${b64({ ...original, sub })}.${signature}`),
        );
      }
      // A longer life for the attacker's own token is refused just the same.
      await expectAllRefused(
        'exp pushed',
        bearer(`${header}.${b64({ ...original, exp: now() + 10 * 365 * 86400 })}.${signature}`),
        undefined,
        [401],
      );
    });
  });

  it.each([
    'secret',
    'changeme',
    '',
    'password',
    'jwt_secret',
    'Мягкий Опт',
    'Мягкий опт',
    'myagkiy-opt',
    'myagkiy_opt',
    'your-256-bit-secret',
  ])('a token signed with the guessable secret %j → 401', async (guess) => {
    await changesNothing(async () => {
      await expectAllRefused(`secret ${guess}`, bearer(jwt({ alg: 'HS256', typ: 'JWT' }, claims(victim.id), guess)));
    });
  });

  it("other algorithms in the header (RS256, HS384, HS512, ES256, PS256), even signed with the shop's secret → 401", async () => {
    await changesNothing(async () => {
      const forged: [string, string][] = [
        // Algorithm confusion: RS256 claimed, the "public key" being the HMAC secret.
        ['RS256/HMAC', jwt({ alg: 'RS256', typ: 'JWT' }, claims(victim.id), jwtSecret)],
        ['HS384', jwt({ alg: 'HS384', typ: 'JWT' }, claims(victim.id), jwtSecret, 'sha384')],
        ['HS512', jwt({ alg: 'HS512', typ: 'JWT' }, claims(victim.id), jwtSecret, 'sha512')],
        ['ES256', jwt({ alg: 'ES256', typ: 'JWT' }, claims(victim.id), jwtSecret)],
        ['PS256', jwt({ alg: 'PS256', typ: 'JWT' }, claims(victim.id), jwtSecret)],
        ['no alg', jwt({ typ: 'JWT' }, claims(victim.id), jwtSecret)],
        [
          'jwk header',
          jwt({ alg: 'HS256', jwk: { kty: 'oct', k: b64('attacker key') } }, claims(victim.id), 'attacker key'),
        ],
      ];
      for (const [label, token] of forged) await expectAllRefused(label, bearer(token));
    });
  });

  it("the victim's identity asserted another way: sub missing, zero, negative, SQL; the token in a cookie instead of the header → 401", async () => {
    await changesNothing(async () => {
      for (const payload of [
        { exp: now() + 600 },
        { sub: '0', exp: now() + 600 },
        { sub: '-1', exp: now() + 600 },
        { sub: '1 OR 1=1', exp: now() + 600 },
      ]) {
        await expectAllRefused(JSON.stringify(payload), bearer(jwt({ alg: 'HS256' }, payload, jwtSecret)));
      }
      // A token anywhere but the Authorization header is no token.
      await expectAllRefused(
        'cookie',
        {},
        { access_token: victim.token, token: victim.token, authorization: `Bearer ${victim.token}`, jwt: victim.token },
      );
      await expectAllRefused('x-access-token', { 'x-access-token': victim.token, 'x-auth-token': victim.token });
    });
  });

  it('two tokens: in one header (forged after real, real after forged), or two headers → never the victim', async () => {
    const forged = jwt({ alg: 'none' }, claims(victim.id), null);
    await changesNothing(async () => {
      for (const authorization of [
        `Bearer ${attacker.token} ${forged}`,
        `Bearer ${forged} ${attacker.token}`,
        `Bearer ${attacker.token}, Bearer ${forged}`,
        `Bearer ${attacker.token},${forged}`,
      ]) {
        await expectAllRefused('one header', { authorization });
      }
      // Two Authorization headers: one of them is used, never to the victim's benefit; with the
      // attacker's token the calls are refused as they would be anyway.
      await expectAllRefused(
        'two headers',
        { authorization: [`Bearer ${forged}`, `Bearer ${attacker.token}`] },
        undefined,
        [401, 403, 404],
      );
      await expectAllRefused(
        'two headers',
        { authorization: [`Bearer ${attacker.token}`, `Bearer ${forged}`] },
        undefined,
        [401, 403, 404],
      );
    });
  });
});

// ---------------------------------------------------------------------------------------------
describe('3. Tampered counts, quantities, prices and ids', () => {
  const BAD_COUNTS: [string, string][] = [
    ['0', '0'],
    ['negative', '-3'],
    ['fractional', '1.5'],
    ['1e9', '1e9'],
    ['2^53', String(2 ** 53)],
    ['2^53 + 1 as text', '9007199254740993'],
    ['huge', '1e308'],
    ['a string', '"5"'],
    ['a word', '"много"'],
    ['true', 'true'],
    ['false', 'false'],
    ['null', 'null'],
    ['an array', '[1]'],
    ['an object', '{"$gt":0}'],
    ['NaN as text', '"NaN"'],
  ];

  it.each(BAD_COUNTS)('cart add with count %s → 422, nothing added', async (_name, count) => {
    const { product, v1 } = { product: spare[0]!, v1: inStock(spare[0]!)[0]! };
    await changesNothing(async () => {
      const response = await shop.app.inject({
        method: 'POST',
        url: '/api/v1/cart/add',
        headers: { ...attacker.headers, 'content-type': 'application/json' },
        payload: `{"user_id":${attacker.id},"product_id":${product.id},"variant_id":${v1.id},"count":${count}}`,
      });
      expect(refusalProblems(count, response, [422])).toEqual([]);
    });
  });

  it.each(BAD_COUNTS)('order with quantity %s → 422, no order and no stock taken', async (_name, quantity) => {
    const { product, v1 } = { product: spare[0]!, v1: inStock(spare[0]!)[0]! };
    await changesNothing(async () => {
      const response = await shop.app.inject({
        method: 'POST',
        url: '/api/v1/order/',
        headers: { ...attacker.headers, 'content-type': 'application/json' },
        payload: `{"user_id":${attacker.id},"address":"г. Тула","items":[{"product_id":${product.id},"variant_id":${v1.id},"quantity":${quantity}}]}`,
      });
      expect(refusalProblems(quantity, response, [422])).toEqual([]);
    });
  });

  it('PUT /cart/count with a bad count in the query → 422, the line keeps its count', async () => {
    const attackerLine = (
      await shop.app.database.db.select().from(cartItems).where(eq(cartItems.userId, attacker.id))
    )[0]!;
    await changesNothing(async () => {
      const problems: string[] = [];
      for (const count of [
        '0',
        '-1',
        '1.5',
        '1e9',
        String(2 ** 53),
        '10001',
        'true',
        'null',
        '',
        'Infinity',
        ' ',
        '1,5',
        '1 OR 1=1',
      ]) {
        const response = await shop.app.inject({
          method: 'PUT',
          url: '/api/v1/cart/count',
          query: { item_id: String(attackerLine.id), count },
          headers: attacker.headers,
        });
        problems.push(...refusalProblems(JSON.stringify(count), response, [422]));
      }
      for (const url of [
        `/api/v1/cart/count?item_id=${attackerLine.id}&count=2&count=3`,
        `/api/v1/cart/count?item_id=${attackerLine.id}&count[]=2`,
        `/api/v1/cart/count?item_id=${attackerLine.id}&item_id=${victimLines[0]}&count=2`,
      ]) {
        problems.push(
          ...refusalProblems(url, await shop.app.inject({ method: 'PUT', url, headers: attacker.headers }), [422]),
        );
      }
      expect(problems).toEqual([]);
    });
  });

  it('more than the stock: 409 and nothing taken, even as 1000 lines of 1 000 000 units of one variant', async () => {
    const { product, v1, v2 } = takeProduct();
    await setVariant(shop.app, v1.id, { stock: 5 });
    await setVariant(shop.app, v2.id, { stock: 5 });
    await changesNothing(async () => {
      const order = (items: object[]) =>
        shop.app.inject({
          method: 'POST',
          url: '/api/v1/order/',
          headers: attacker.headers,
          payload: { user_id: attacker.id, address: 'г. Тула', items },
        });
      expect(
        refusalProblems('6 of 5', await order([{ product_id: product.id, variant_id: v1.id, quantity: 6 }]), [409]),
      ).toEqual([]);
      const flood = Array.from({ length: 1000 }, () => ({
        product_id: product.id,
        variant_id: v1.id,
        quantity: 1_000_000,
      }));
      expect(refusalProblems('1000 × 1e6', await order(flood), [409])).toEqual([]);
      // A valid line next to an excessive one takes nothing either.
      const mixed = await order([
        { product_id: product.id, variant_id: v2.id, quantity: 1 },
        { product_id: product.id, variant_id: v1.id, quantity: 5 },
        { product_id: product.id, variant_id: v1.id, quantity: 1 },
      ]);
      expect(refusalProblems('mixed', mixed, [409])).toEqual([]);
    });
  });

  it('a variant of another product, next to a valid line → 422 and nothing taken; in the cart → 422', async () => {
    const a = takeProduct();
    const b = takeProduct();
    await changesNothing(async () => {
      const order = await shop.app.inject({
        method: 'POST',
        url: '/api/v1/order/',
        headers: attacker.headers,
        payload: {
          user_id: attacker.id,
          address: 'г. Тула',
          items: [
            { product_id: a.product.id, variant_id: a.v1.id, quantity: 1 },
            { product_id: a.product.id, variant_id: b.v1.id, quantity: 1 },
          ],
        },
      });
      expect(refusalProblems('order', order, [422])).toEqual([]);
      // The same variant named for two products in one order is refused too.
      const twice = await shop.app.inject({
        method: 'POST',
        url: '/api/v1/order/',
        headers: attacker.headers,
        payload: {
          user_id: attacker.id,
          address: 'г. Тула',
          items: [
            { product_id: a.product.id, variant_id: a.v1.id, quantity: 1 },
            { product_id: b.product.id, variant_id: a.v1.id, quantity: 1 },
          ],
        },
      });
      expect(refusalProblems('twice', twice, [422])).toEqual([]);
      const cart = await shop.app.inject({
        method: 'POST',
        url: '/api/v1/cart/add',
        headers: attacker.headers,
        payload: { user_id: attacker.id, product_id: b.product.id, variant_id: a.v2.id, count: 1 },
      });
      expect(refusalProblems('cart', cart, [422])).toEqual([]);
    });
  });

  it('extra price/total/status/id/user_id fields in an order are ignored: the total is the database price × quantity', async () => {
    const { product, v1, v2 } = takeProduct();
    await setVariant(shop.app, v1.id, { price: '1234.56', stock: 10 });
    await setVariant(shop.app, v2.id, { price: '0.99', stock: 10 });
    const victimBefore = await shop.app.database.db.select().from(orders).where(eq(orders.id, victimOrder.id));
    const response = await shop.app.inject({
      method: 'POST',
      url: '/api/v1/order/',
      headers: attacker.headers,
      payload: {
        user_id: attacker.id,
        address: 'г. Тула',
        items: [
          {
            product_id: product.id,
            variant_id: v1.id,
            quantity: 2,
            price: 0.01,
            total: 0,
            item_total: 0,
            id: victimOrder.id,
          },
          { product_id: product.id, variant_id: v2.id, quantity: 3, price: -100, variant: { price: 0 } },
        ],
        id: victimOrder.id,
        total_price: 1,
        total: 1,
        item_total: 1,
        status: 'Доставлен',
        price: 0,
        created_at: '2000-01-01T00:00:00.000Z',
        owner_id: victim.id,
        userId: victim.id,
      },
    });
    expect(response.statusCode).toBe(201);
    const order = json<OrderSummary>(response);
    expect(order.id).not.toBe(victimOrder.id);
    expect(order.status).toBe('Создан');
    expect(order.total_price).toBe(2472.09); // 1234.56 × 2 + 0.99 × 3
    expect(order.items_count).toBe(5);
    expect(new Date(order.created_at).getFullYear()).toBeGreaterThan(2000);

    const { rows: stored } = (await shop.app.database.db.execute(
      sql`select * from orders where id = ${order.id}`,
    )) as unknown as { rows: Record<string, unknown>[] };
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ user_id: attacker.id, status: 'Создан', total_price: '2472.09' });
    for (const extra of ['price', 'total', 'item_total', 'owner_id', 'userId'])
      expect(stored[0]).not.toHaveProperty(extra);
    const lines = await shop.app.database.db
      .select()
      .from(orderLines)
      .where(eq(orderLines.orderId, order.id))
      .orderBy(asc(orderLines.variantId));
    expect(lines.map((row) => [row.variantId, row.price, row.quantity])).toEqual(
      [
        [v1.id, '1234.56', 2],
        [v2.id, '0.99', 3],
      ].sort((x, y) => Number(x[0]) - Number(y[0])),
    );
    // The victim's order, whose id was in the body twice, is untouched.
    expect(await shop.app.database.db.select().from(orders).where(eq(orders.id, victimOrder.id))).toEqual(victimBefore);
  });

  it('extra price/item_total/id/user_id fields in a cart add are ignored: a new line for the attacker, prices from the database', async () => {
    const { product, v1 } = takeProduct();
    const victimCartBefore = await shop.app.database.db.select().from(cartItems).where(eq(cartItems.userId, victim.id));
    const response = await shop.app.inject({
      method: 'POST',
      url: '/api/v1/cart/add',
      headers: attacker.headers,
      payload: {
        user_id: attacker.id,
        product_id: product.id,
        variant_id: v1.id,
        count: 2,
        id: victimLines[0],
        item_id: victimLines[0],
        price: 0.01,
        item_total: 0.02,
        total_price: 0,
        variant: { price: 0 },
        userId: victim.id,
      },
    });
    expect(response.statusCode).toBe(201);
    const lineId = json<{ id: number }>(response).id;
    expect(victimLines).not.toContain(lineId);
    const cart = json<Cart>(
      await shop.app.inject({ method: 'GET', url: `/api/v1/cart/${attacker.id}`, headers: attacker.headers }),
    );
    const line = cart.items.find((item) => item.id === lineId)!;
    expect(line).toMatchObject({
      count: 2,
      variant_id: v1.id,
      variant: { price: v1.price },
      item_total: Math.round(v1.price * 200) / 100,
    });
    expect(await shop.app.database.db.select().from(cartItems).where(eq(cartItems.userId, victim.id))).toEqual(
      victimCartBefore,
    );
  });

  it("extra id/user_id fields in an address are ignored: the attacker's own new address, the victim's untouched", async () => {
    const before = await shop.app.database.db.select().from(addresses).where(eq(addresses.userId, victim.id));
    const response = await shop.app.inject({
      method: 'POST',
      url: '/api/v1/address/',
      headers: attacker.headers,
      payload: {
        ...ADDRESS_FIELDS,
        user_id: attacker.id,
        id: victimAddresses[0]!.id,
        userId: victim.id,
        owner: victim.id,
      },
    });
    expect(response.statusCode).toBe(201);
    const created = json<Address>(response);
    expect(created.id).not.toBe(victimAddresses[0]!.id);
    expect(created.user_id).toBe(attacker.id);
    // PUT with an id in the body does not move the update to that address.
    const own = (await shop.app.database.db.select().from(addresses).where(eq(addresses.userId, attacker.id)))[0]!;
    const moved = await shop.app.inject({
      method: 'PUT',
      url: `/api/v1/address/${own.id}`,
      headers: attacker.headers,
      payload: { ...ADDRESS_FIELDS, city: 'Взломанск', user_id: attacker.id, id: victimAddresses[0]!.id },
    });
    expect(moved.statusCode).toBe(200);
    expect(json<Address>(moved).id).toBe(own.id);
    expect(await shop.app.database.db.select().from(addresses).where(eq(addresses.userId, victim.id))).toEqual(before);
  });
});

// ---------------------------------------------------------------------------------------------
describe('4. Injection: SQL-looking input and path traversal', () => {
  const SQL = [
    `' OR '1'='1`,
    `admin'--`,
    `' OR 1=1--`,
    `"; DROP TABLE users; --`,
    `1' UNION SELECT password_hash FROM users--`,
    `\\'; select pg_sleep(5); --`,
  ];

  it('SQL in the login → 401 "Неверный email или пароль" (never a token); JSON operators in the body → 422', async () => {
    await changesNothing(async () => {
      const problems: string[] = [];
      // Each refused login costs a full scrypt, so a few representative pairs.
      for (const [username, password] of [
        [`' OR '1'='1`, `' OR '1'='1`],
        [`admin'--`, 'anything'],
        [`${victim.email}' --`, 'anything'],
        [victim.email, `' OR '1'='1`],
        [victim.email, `${TEST_PASSWORD}' OR '1'='1`],
      ]) {
        const response = await logIn(shop.app, username!, password!);
        problems.push(...refusalProblems(`${username} / ${password}`, response, [401]));
        if (setCookie(response, 'refresh_token')) problems.push(`${username}: a refresh cookie was set`);
      }
      for (const payload of [
        { username: { $ne: null }, password: { $ne: null } },
        { username: victim.email, password: { $gt: '' } },
        { username: [victim.email], password: [TEST_PASSWORD] },
        { username: victim.email, password: true },
      ]) {
        problems.push(
          ...refusalProblems(
            JSON.stringify(payload),
            await shop.app.inject({ method: 'POST', url: '/api/v1/auth/token', payload }),
            [422],
          ),
        );
      }
      expect(problems).toEqual([]);
    });
  });

  it('SQL in the category path, the art path, the ids and skip/limit → 404 or 422; the catalogue and the users are intact', async () => {
    await changesNothing(async () => {
      const problems: string[] = [];
      for (const text of SQL) {
        for (const url of [
          `/api/v1/products/categories/${encodeURIComponent(text)}`,
          `/api/v1/products/${encodeURIComponent(text)}`,
        ]) {
          problems.push(...refusalProblems(url, await shop.app.inject({ method: 'GET', url }), [404]));
        }
        for (const url of [
          `/api/v1/cart/${encodeURIComponent(text)}`,
          `/api/v1/order/${encodeURIComponent(text)}/status`,
          `/api/v1/address/${encodeURIComponent(text)}`,
        ]) {
          problems.push(
            ...refusalProblems(url, await shop.app.inject({ method: 'GET', url, headers: attacker.headers }), [422]),
          );
        }
        for (const query of [
          { skip: text },
          { limit: text },
          { skip: `0; ${text}` },
          { limit: `10 ${text}` },
        ] as Record<string, string>[]) {
          for (const url of [
            '/api/v1/products/',
            '/api/v1/products/popular',
            `/api/v1/products/categories/${encodeURIComponent('Мишки')}`,
          ]) {
            problems.push(
              ...refusalProblems(
                `${url} ${JSON.stringify(query)}`,
                await shop.app.inject({ method: 'GET', url, query }),
                [404, 422],
              ),
            );
          }
        }
      }
      expect(problems).toEqual([]);
    });
    // The tables are all still there and the victim can still sign in.
    expect((await allProducts(shop.app)).length).toBe(catalogue.length);
    const login = await logIn(shop.app, victim.email, TEST_PASSWORD);
    expect(login.statusCode).toBe(200);
    secrets.add(json<{ access_token: string }>(login).access_token).add(setCookie(login, 'refresh_token')!.value);
  });

  it('an e-mail full of SQL is stored verbatim as an e-mail, and nothing else happens', async () => {
    const email = `o'brien');drop/**/table/**/users;--@example.com`;
    const before = await shop.app.database.db.select({ id: users.id }).from(users);
    const response = await shop.app.inject({
      method: 'POST',
      url: '/api/v1/auth/register',
      query: { email, password: TEST_PASSWORD, consent: 'true' },
    });
    expect(response.statusCode).toBe(201);
    expect(json<{ email: string }>(response).email).toBe(email);
    const after = await shop.app.database.db.select({ id: users.id, email: users.email }).from(users);
    expect(after).toHaveLength(before.length + 1);
    expect(after.map((row) => row.email)).toContain(email);
  });

  const TRAVERSALS = [
    '..%2F..%2Fpackage.json',
    '%252e%252e%252fpackage.json',
    '%252e%252e%252f%252e%252e%252fetc%252fpasswd',
    '..%255c..%255cpackage.json',
    '..%5C..%5Cpackage.json',
    '..%5C..%5C..%5C.env',
    '%5Cetc%5Cpasswd',
    'C%3A%5CWindows%5Cwin.ini',
    '%2Fetc%2Fpasswd',
    '%2F%2Fetc%2Fpasswd',
    'file%3A%2F%2F%2Fetc%2Fpasswd',
    'MO-1001.svg%00.png',
    'MO-1001.svg%00',
    '%00',
    '.env',
    '.env.svg',
    'package.json',
    '..%2Fpackage.json%00.svg',
    '%E2%80%A4%E2%80%A4%2Fpackage.json',
    '%EF%BC%8E%EF%BC%8E%EF%BC%8Fpackage.json',
    '%C0%AE%C0%AE%2Fpackage.json',
    '%C0%AE%C0%AE%C0%AFetc%C0%AFpasswd',
    '%E0%80%AE%E0%80%AE%2Fpackage.json',
    '..%c1%9c..%c1%9cpackage.json',
    '....%2F%2F....%2F%2Fpackage.json',
    '.%2E%2Fpackage.json',
    `MO-1001.svg%2F${'..%2F'.repeat(10)}etc%2Fpasswd`,
    `${'a'.repeat(600)}.svg`,
    '%',
    '%zz.svg',
  ];

  it.each(TRAVERSALS)(
    'GET /api/v1/image/%s → a clean 4xx, never a file from outside the image folder',
    async (name) => {
      const response = await shop.app.inject({ method: 'GET', url: `/api/v1/image/${name}` });
      expect(refusalProblems(name, response, [400, 404, 414, 422])).toEqual([]);
      expect(response.body).not.toMatch(/root:|"dependencies"|DATABASE_URL|\[fonts\]|buildApp/);
    },
  );

  it.each([
    '/api/v1/image/../../package.json',
    '/api/v1/image/..\\..\\package.json',
    '/api/v1/image//etc/passwd',
    '/api/v1/image/./.env',
    '/api/v1/image/MO-1001.svg/../../../package.json',
  ])('the raw path %s → a clean 4xx', async (url) => {
    const response = await shop.app.inject({ method: 'GET', url });
    expect(refusalProblems(url, response, [400, 404, 422])).toEqual([]);
    expect(response.body).not.toMatch(/root:|"dependencies"|buildApp/);
  });
});

// ---------------------------------------------------------------------------------------------
describe('5. Malformed requests and protocol abuse: clean 4xx JSON, no internals', () => {
  const POST_ROUTES = [
    '/api/v1/cart/add',
    '/api/v1/order/',
    '/api/v1/address/',
    '/api/v1/auth/token',
    '/api/v1/auth/register',
  ];
  const send = (method: 'POST' | 'PUT' | 'DELETE', url: string, payload: string | Buffer, contentType?: string) =>
    shop.app.inject({
      method,
      url,
      headers: { ...attacker.headers, ...(contentType ? { 'content-type': contentType } : {}) },
      payload,
    });

  it.each([
    ['truncated', '{"user_id": 1, "items": ['],
    ['single quotes', "{'user_id': 1}"],
    ['trailing comma', '{"user_id": 1,}'],
    ['NaN', '{"user_id": NaN}'],
    ['comments', '{"user_id": 1 /* me */}'],
    ['two documents', '{"user_id": 1}{"user_id": 2}'],
    ['__proto__', '{"__proto__": {"isAdmin": true}, "user_id": 1}'],
    ['constructor.prototype', '{"constructor": {"prototype": {"isAdmin": true}}}'],
    ['a BOM and garbage', '\uFEFF\u0000\u0001{'],
    ['binary', Buffer.from([0xff, 0xfe, 0x00, 0x7b, 0x22])],
    // Valid JSON, but nested deeper than any recursive walk over it could go.
    ['100 000 nested arrays', `${'['.repeat(100_000)}${']'.repeat(100_000)}`],
    ['50 000 nested objects', `${'{"a":'.repeat(50_000)}"\u0000"${'}'.repeat(50_000)}`],
  ] as const)('malformed JSON (%s) on every body route → 400/422 {detail}', async (_name, payload) => {
    await changesNothing(async () => {
      const problems: string[] = [];
      for (const url of POST_ROUTES)
        problems.push(...refusalProblems(url, await send('POST', url, payload, 'application/json'), [400, 422]));
      problems.push(
        ...refusalProblems(
          'PUT address',
          await send('PUT', `/api/v1/address/${victimAddresses[0]!.id}`, payload, 'application/json'),
          [400, 422],
        ),
      );
      expect(problems).toEqual([]);
    });
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
  });

  it.each([
    ['text/plain', 'user_id=1'],
    ['application/xml', '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>'],
    ['text/xml', '<x/>'],
    [
      'multipart/form-data; boundary=XyZ',
      '--XyZ\r\nContent-Disposition: form-data; name="user_id"\r\n\r\n1\r\n--XyZ--\r\n',
    ],
    ['application/octet-stream', '\u0000\u0001'],
    ['text/html', '<script>alert(1)</script>'],
    ['application/jsonp', '{}'],
    ['', '{}'],
  ])('content type %j → 415 {detail} on every body route', async (contentType, payload) => {
    await changesNothing(async () => {
      const problems: string[] = [];
      for (const url of POST_ROUTES) {
        const response = await shop.app.inject({
          method: 'POST',
          url,
          headers: { ...attacker.headers, 'content-type': contentType },
          payload,
        });
        problems.push(...refusalProblems(`${url} ${contentType}`, response, [415]));
      }
      expect(problems).toEqual([]);
    });
  });

  it('a 3 MB body → 413 {detail} on every route that takes a body, JSON or form', async () => {
    const huge = 'я'.repeat(1_500_000); // 3 MB of UTF-8
    await changesNothing(async () => {
      const problems: string[] = [];
      for (const url of POST_ROUTES) {
        problems.push(
          ...refusalProblems(
            `${url} json`,
            await send('POST', url, JSON.stringify({ user_id: attacker.id, padding: huge }), 'application/json'),
            [413],
          ),
        );
        problems.push(
          ...refusalProblems(
            `${url} form`,
            await send('POST', url, `username=a&password=${huge}`, 'application/x-www-form-urlencoded'),
            [413],
          ),
        );
      }
      problems.push(
        ...refusalProblems(
          'PUT address',
          await send(
            'PUT',
            `/api/v1/address/${victimAddresses[0]!.id}`,
            JSON.stringify({ padding: huge }),
            'application/json',
          ),
          [413],
        ),
      );
      problems.push(
        ...refusalProblems(
          'DELETE cart',
          await send('DELETE', `/api/v1/cart/${victimLines[0]}`, JSON.stringify({ padding: huge }), 'application/json'),
          [413],
        ),
      );
      problems.push(
        ...refusalProblems(
          'refresh',
          await send('POST', '/api/v1/auth/refresh', JSON.stringify({ padding: huge }), 'application/json'),
          [413],
        ),
      );
      expect(problems).toEqual([]);
    });
  });

  it('unknown routes and versions → 404 {detail}; a known path under a method it does not take → 405 {detail}', async () => {
    const problems: string[] = [];
    for (const [method, url] of [
      ['POST', '/api/v1/order/1/status'],
      ['PATCH', `/api/v1/order/${victimOrder.id}`],
      ['PUT', `/api/v1/order/${victimOrder.id}`],
      ['PATCH', '/api/v1/cart/count'],
      ['PUT', '/api/v1/auth/user'],
      ['GET', '/api/v1/auth/token'],
    ] as const) {
      const response = await shop.app.inject({ method, url, headers: attacker.headers });
      problems.push(...refusalProblems(`${method} ${url}`, response, [405]));
      if (!response.headers.allow) problems.push(`${method} ${url}: 405 without Allow`);
    }
    for (const [method, url] of [
      ['GET', '/api/v1/admin'],
      ['GET', '/api/v1/users'],
      ['GET', '/api/v1/users/1'],
      ['GET', '/api/v1/../../etc/passwd'],
      ['GET', '/api/v0/products/'],
      ['GET', '/api/v1/products/categories/all/extra'],
      ['GET', '/.env'],
      ['GET', '/package.json'],
      ['GET', '/src/server/app.ts'],
      ['GET', '/.git/config'],
    ] as const) {
      problems.push(
        ...refusalProblems(
          `${method} ${url}`,
          await shop.app.inject({ method, url, headers: attacker.headers }),
          [404],
        ),
      );
    }
    expect(problems).toEqual([]);
  });

  it('OPTIONS and TRACE on API routes → 405 {detail}; TRACE does not echo the request (no cross-site tracing)', async () => {
    const problems: string[] = [];
    for (const method of ['OPTIONS', 'TRACE'] as const) {
      for (const url of [
        '/api/v1/products/',
        `/api/v1/cart/${victim.id}`,
        '/api/v1/cart/add',
        '/api/v1/order/',
        '/api/v1/auth/token',
        '/api/v1/auth/refresh',
      ]) {
        const response = await shop.app.inject({
          method,
          url,
          headers: { ...victim.headers, cookie: 'refresh_token=secret-cookie-value', origin: 'https://evil.example' },
        });
        problems.push(...refusalProblems(`${method} ${url}`, response, [405]));
        if (response.body.includes(victim.token) || response.body.includes('secret-cookie-value'))
          problems.push(`${method} ${url} echoes the request`);
        if (response.headers['access-control-allow-origin']) problems.push(`${method} ${url} grants CORS`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('HEAD on protected API routes without a token → 401 with a JSON type and no body; on POST-only routes → 405', async () => {
    const problems: string[] = [];
    for (const url of [
      `/api/v1/cart/${victim.id}`,
      `/api/v1/order/${victim.id}`,
      `/api/v1/address/${victim.id}`,
      '/api/v1/auth/user',
      `/api/v1/order/${victimOrder.id}/status`,
    ]) {
      const response = await shop.app.inject({ method: 'HEAD', url });
      problems.push(...refusalProblems(`HEAD ${url}`, response, [401]));
      if (response.body !== '') problems.push(`HEAD ${url} has a body`);
    }
    // With the attacker's token: refused the same way, the victim's data not even sized.
    const peek = await shop.app.inject({ method: 'HEAD', url: `/api/v1/cart/${victim.id}`, headers: attacker.headers });
    problems.push(...refusalProblems('HEAD victim cart', peek, [403]));
    // HEAD /cart/add reads as the cart of a user called "add": refused before anything else.
    for (const url of ['/api/v1/cart/add', '/api/v1/order/', '/api/v1/auth/token', '/api/v1/auth/refresh']) {
      problems.push(...refusalProblems(`HEAD ${url}`, await shop.app.inject({ method: 'HEAD', url }), [401, 405]));
    }
    expect(problems).toEqual([]);
  });

  // Regression: Fastify answered these itself, bypassing the error handler, with its own body
  // ({"error","code":"FST_ERR_BAD_URL","message","statusCode"}) and none of the security headers.
  it.each([
    ['a lone %', '/api/v1/cart/%'],
    ['a truncated escape', '/api/v1/products/categories/%E0%A4%A'],
    ['an overlong UTF-8 slash', '/api/v1/products/%C0%AF'],
    ['invalid UTF-8', '/api/v1/address/%FF'],
    ['a bad escape on an unknown route', '/api/v1/nothing/%'],
    ['a path segment over 500 characters', `/api/v1/products/${'a'.repeat(600)}`],
    ['an over-long id', `/api/v1/order/${'9'.repeat(600)}/status`],
  ])("%s in the URL → clean 400/414 {detail} with nosniff, not Fastify's own body", async (_name, url) => {
    const response = await shop.app.inject({ method: 'GET', url, headers: attacker.headers });
    expect(refusalProblems(url, response, [400, 414])).toEqual([]);
    expect(response.body).not.toMatch(/not a valid url|max param|statusCode/);
  });

  // Regression: PostgreSQL text cannot hold U+0000, and these reached SQL and answered 500.
  it('a NUL character in any text (path, query, form or JSON) → 422 {detail}, nothing stored', async () => {
    await changesNothing(async () => {
      const problems: string[] = [];
      const checks: [string, Promise<LightMyRequestResponse>][] = [
        ['category', shop.app.inject({ method: 'GET', url: '/api/v1/products/categories/%D0%9C%00' })],
        ['art', shop.app.inject({ method: 'GET', url: '/api/v1/products/MO-1001%00' })],
        ['login form', logIn(shop.app, `${victim.email}\u0000`, TEST_PASSWORD)],
        [
          'login json',
          shop.app.inject({
            method: 'POST',
            url: '/api/v1/auth/token',
            payload: { username: victim.email, password: `${TEST_PASSWORD}\u0000` },
          }),
        ],
        [
          'register query',
          shop.app.inject({
            method: 'POST',
            url: '/api/v1/auth/register',
            query: { email: 'nul\u0000@example.com', password: TEST_PASSWORD, consent: 'true' },
          }),
        ],
        [
          'register json',
          shop.app.inject({
            method: 'POST',
            url: '/api/v1/auth/register',
            payload: { email: 'nul@example.com\u0000', password: TEST_PASSWORD, consent: true },
          }),
        ],
        [
          'address',
          shop.app.inject({
            method: 'POST',
            url: '/api/v1/address/',
            headers: attacker.headers,
            payload: { ...ADDRESS_FIELDS, street: 'ул.\u0000Ленина', user_id: attacker.id },
          }),
        ],
        [
          'address update',
          shop.app.inject({
            method: 'PUT',
            url: `/api/v1/address/${victimAddresses[0]!.id}`,
            headers: victim.headers,
            payload: { ...ADDRESS_FIELDS, apartment_number: '\u0000', user_id: victim.id },
          }),
        ],
        [
          'order',
          shop.app.inject({
            method: 'POST',
            url: '/api/v1/order/',
            headers: attacker.headers,
            payload: {
              user_id: attacker.id,
              address: 'г. Тула',
              company_name: 'ООО\u0000',
              items: [{ product_id: spare[0]!.id, variant_id: inStock(spare[0]!)[0]!.id, quantity: 1 }],
            },
          }),
        ],
      ];
      for (const [label, pending] of checks) problems.push(...refusalProblems(label, await pending, [422]));
      expect(problems).toEqual([]);
    });
  });
});

// ---------------------------------------------------------------------------------------------
describe('6. Stored script in text fields: kept verbatim, served only as JSON', () => {
  const PAYLOADS = [
    '<script>alert(1)</script>',
    '<img src=x onerror=alert(1)>',
    '"><svg/onload=alert(document.cookie)>',
    "javascript:alert('x')",
    '{{constructor.constructor("alert(1)")()}}',
    '</script><script>alert(1)</script>',
    '&lt;b&gt; &amp; «ёлки» \u202Eevil',
  ];

  const expectJsonAnswer = (response: LightMyRequestResponse) => {
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  };

  it.each(PAYLOADS)('address fields %j: stored and answered byte for byte, as JSON with nosniff', async (payload) => {
    const body = {
      country: payload,
      city: `${payload} city`,
      street: payload,
      home_number: payload.slice(0, 50),
      apartment_number: payload.slice(0, 50),
      user_id: victim.id,
    };
    const created = await shop.app.inject({
      method: 'POST',
      url: '/api/v1/address/',
      headers: victim.headers,
      payload: body,
    });
    expect(created.statusCode).toBe(201);
    expectJsonAnswer(created);
    const address = json<Address>(created);
    expect(address).toEqual({ id: expect.any(Number), ...body });
    // In the raw answer it is a JSON string: quotes escaped as JSON does, nothing HTML-escaped or dropped.
    expect(created.body).toContain(JSON.stringify(payload).slice(1, -1));

    const listed = await shop.app.inject({
      method: 'GET',
      url: `/api/v1/address/${victim.id}`,
      headers: victim.headers,
    });
    expectJsonAnswer(listed);
    expect(json<Address[]>(listed).find((candidate) => candidate.id === address.id)).toEqual(address);
    const [row] = await shop.app.database.db.select().from(addresses).where(eq(addresses.id, address.id));
    expect(row).toMatchObject({ country: payload, street: payload, homeNumber: payload.slice(0, 50) });

    const updated = await shop.app.inject({
      method: 'PUT',
      url: `/api/v1/address/${address.id}`,
      headers: victim.headers,
      payload: { ...body, city: payload },
    });
    expectJsonAnswer(updated);
    expect(json<Address>(updated).city).toBe(payload);
  });

  it('order address, company and contact fields with script: stored verbatim; the answers are JSON with nosniff', async () => {
    const { product, v1 } = takeProduct();
    const fields = {
      address: PAYLOADS.join('\n'),
      company_name: '<img src=x onerror=alert(1)> ООО «<b>Ромашка</b>»',
      // ИНН and КПП hold digits only (checked below): script there is refused, not stored.
      company_inn: '7707083893',
      company_kpp: '773601001',
      contact_name: '<script>alert(1)</script>',
      contact_phone: '"><svg/onload=alert(1)>',
    };
    const placeWith = (overrides: Record<string, string>) =>
      shop.app.inject({
        method: 'POST',
        url: '/api/v1/order/',
        headers: attacker.headers,
        payload: {
          user_id: attacker.id,
          items: [{ product_id: product.id, variant_id: v1.id, quantity: 1 }],
          ...fields,
          ...overrides,
        },
      });
    for (const [overrides, detail] of [
      [{ company_inn: '<b>x</b>12' }, MESSAGES.innLength],
      [{ company_kpp: '<i>x</i>1' }, MESSAGES.kppLength],
    ] as const) {
      const refused = await placeWith(overrides);
      expect(refused.statusCode).toBe(422);
      expect(refused.json()).toEqual({ detail });
    }
    const placed = await placeWith({});
    expect(placed.statusCode).toBe(201);
    expectJsonAnswer(placed);
    const order = json<OrderSummary>(placed);
    const [row] = await shop.app.database.db.select().from(orders).where(eq(orders.id, order.id));
    expect(row).toMatchObject({
      address: fields.address,
      companyName: fields.company_name,
      companyInn: fields.company_inn,
      companyKpp: fields.company_kpp,
      contactName: fields.contact_name,
      contactPhone: fields.contact_phone,
    });
    for (const url of [`/api/v1/order/${attacker.id}`, `/api/v1/order/${order.id}/status`]) {
      const response = await shop.app.inject({ method: 'GET', url, headers: attacker.headers });
      expect(response.statusCode).toBe(200);
      expectJsonAnswer(response);
    }
  });

  it('script in a path is never reflected: unknown category, art and image names answer without echoing it', async () => {
    const problems: string[] = [];
    for (const payload of PAYLOADS) {
      for (const url of [
        `/api/v1/products/categories/${encodeURIComponent(payload)}`,
        `/api/v1/products/${encodeURIComponent(payload.slice(0, 60))}`,
        `/api/v1/image/${encodeURIComponent(payload)}`,
        `/api/v1/${encodeURIComponent(payload)}`,
      ]) {
        const response = await shop.app.inject({ method: 'GET', url });
        problems.push(...refusalProblems(url, response, [404, 422]));
        if (/<script|<img|<svg|onerror|javascript:/i.test(response.body)) problems.push(`${url} reflects the payload`);
      }
    }
    expect(problems).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
describe('7. Refresh-token theft and cross-site requests', () => {
  // The Cookie header is written by hand so that any value, however odd, is sent as it is.
  const withCookie = (cookie: string | undefined, headers: Record<string, string>) =>
    cookie === undefined ? headers : { ...headers, cookie: `refresh_token=${cookie}` };
  const refresh = (app: FastifyInstance, cookie: string | undefined, headers: Record<string, string> = {}) =>
    app.inject({ method: 'POST', url: '/api/v1/auth/refresh', headers: withCookie(cookie, headers) });
  const logout = (app: FastifyInstance, cookie: string | undefined, headers: Record<string, string> = {}) =>
    app.inject({ method: 'POST', url: '/api/v1/auth/logout', headers: withCookie(cookie, headers) });
  const cookieOf = (response: LightMyRequestResponse) => {
    const value = setCookie(response, 'refresh_token')?.value;
    if (value) secrets.add(value);
    return value;
  };
  async function login(app = shop.app, headers: Record<string, string> = {}) {
    const response = await logIn(app, victim.email, TEST_PASSWORD, headers);
    expect(response.statusCode).toBe(200);
    secrets.add(json<{ access_token: string }>(response).access_token);
    return response;
  }

  it("a stolen cookie replayed after the victim used it: the thief is refused, and the victim's newest cookie dies with the family", async () => {
    const stolen = cookieOf(await login())!;
    // The victim refreshes twice: generation 2, then 3.
    const second = cookieOf(await refresh(shop.app, stolen))!;
    const third = cookieOf(await refresh(shop.app, second))!;
    expect(new Set([stolen, second, third]).size).toBe(3);
    // The thief replays generation 1 (later than two tabs of the victim's could have): refused,
    // and the whole family is revoked ...
    await spentLongAgo(shop.app, stolen);
    const replay = await refresh(shop.app, stolen);
    expect(refusalProblems('replay', replay, [401])).toEqual([]);
    expect(replay.body).not.toMatch(/access_token/);
    // ... so generation 3, which the thief might hold next, is refused too, as is generation 2.
    expect((await refresh(shop.app, third)).statusCode).toBe(401);
    expect((await refresh(shop.app, second)).statusCode).toBe(401);
    const family = await shop.app.database.db.select().from(refreshTokens).where(eq(refreshTokens.userId, victim.id));
    expect(family.length).toBeGreaterThanOrEqual(3);
  });

  it('a cookie rotated longer ago than the grace period is refused (the thief replaying it loses) and nothing new is issued', async () => {
    const cookie = cookieOf(await login())!;
    const first = await refresh(shop.app, cookie);
    expect(first.statusCode).toBe(200);
    await spentLongAgo(shop.app, cookie);
    const before = await shop.app.database.db.select().from(refreshTokens);
    const again = await refresh(shop.app, cookie);
    expect(again.statusCode).toBe(401);
    expect(setCookie(again, 'refresh_token')?.value ?? '').toBe('');
    // No new token row was issued for the replay.
    expect((await shop.app.database.db.select().from(refreshTokens)).length).toBe(before.length);
  });

  it("a replay within the grace period (taken for the victim's second tab) gets only the victim's session: the victim's logout ends it", async () => {
    const cookie = cookieOf(await login())!;
    const victims = await refresh(shop.app, cookie);
    const thiefs = await refresh(shop.app, cookie);
    expect([victims.statusCode, thiefs.statusCode]).toEqual([200, 200]);
    const thiefToken = json<{ access_token: string }>(thiefs).access_token;
    secrets.add(thiefToken);
    expect(sessionIdOf(thiefToken)).toBe(sessionIdOf(json<{ access_token: string }>(victims).access_token));
    expect((await logout(shop.app, cookieOf(victims))).statusCode).toBe(204);
    for (const url of ['/api/v1/auth/user', `/api/v1/cart/${victim.id}`]) {
      const response = await shop.app.inject({ method: 'GET', url, headers: bearer(thiefToken) });
      expect(refusalProblems(url, response, [401])).toEqual([]);
    }
    expect((await refresh(shop.app, cookieOf(thiefs))).statusCode).toBe(401);
  });

  it("made-up, truncated, padded and other users' hashed cookies → 401, nothing issued", async () => {
    const cookie = cookieOf(await login())!;
    const [row] = await shop.app.database.db.select().from(refreshTokens).orderBy(asc(refreshTokens.id)).limit(1);
    await changesNothing(async () => {
      const problems: string[] = [];
      for (const forged of [
        cookie.slice(0, -1),
        `${cookie}x`,
        `x${cookie}`,
        cookie.toUpperCase(),
        row!.tokenHash,
        "' OR '1'='1",
        'a'.repeat(4000),
        '%00',
        '%E0%A4%A',
        '',
      ]) {
        problems.push(...refusalProblems(JSON.stringify(forged.slice(0, 20)), await refresh(shop.app, forged), [401]));
      }
      expect(problems).toEqual([]);
    });
  });

  it('a foreign Origin is refused (403) on refresh and on logout, with the cookie attached; the session survives both', async () => {
    const cookie = cookieOf(await login())!;
    await changesNothing(async () => {
      for (const origin of [
        'https://evil.example',
        'http://localhost.evil.example',
        'null',
        'file://',
        'http://127.0.0.1:1',
      ]) {
        expect(
          refusalProblems(
            `refresh ${origin}`,
            await refresh(shop.app, cookie, { host: 'shop.example', origin }),
            [403],
          ),
        ).toEqual([]);
        expect(
          refusalProblems(`logout ${origin}`, await logout(shop.app, cookie, { host: 'shop.example', origin }), [403]),
        ).toEqual([]);
      }
    });
    expect((await refresh(shop.app, cookie)).statusCode).toBe(200);
  });

  it('logout ends the session: the cookie, and every cookie of that login, can no longer refresh', async () => {
    const first = cookieOf(await login())!;
    const current = cookieOf(await refresh(shop.app, first))!;
    const out = await logout(shop.app, current);
    expect(out.statusCode).toBe(204);
    expect(setCookie(out, 'refresh_token')!.value).toBe('');
    expect((await refresh(shop.app, current)).statusCode).toBe(401);
    expect((await refresh(shop.app, first)).statusCode).toBe(401);
    // Logging out again with the dead cookie changes nothing.
    await changesNothing(async () => {
      expect((await logout(shop.app, current)).statusCode).toBe(204);
    });
  });

  describe('cookie flags', () => {
    let proxied: TestApp;
    beforeAll(async () => {
      // The shop behind a TLS-terminating proxy that it trusts (TRUST_PROXY=true).
      proxied = await createTestApp({ trustProxy: true });
      expect(
        (
          await proxied.app.inject({
            method: 'POST',
            url: '/api/v1/auth/register',
            query: { email: victim.email, password: TEST_PASSWORD, consent: 'true' },
          })
        ).statusCode,
      ).toBe(201);
    }, STARTUP_TIMEOUT);
    afterAll(() => proxied.close());

    const rawCookies = (response: LightMyRequestResponse) =>
      ([] as string[]).concat(response.headers['set-cookie'] ?? []);
    const flagsOf = (line: string) => {
      const parts = line.split(';').map((part) => part.trim().toLowerCase());
      return {
        httpOnly: parts.includes('httponly'),
        secure: parts.includes('secure'),
        sameSite: parts.find((part) => part.startsWith('samesite=')),
        path: parts.find((part) => part.startsWith('path=')),
      };
    };

    it('over https (x-forwarded-proto from the trusted proxy): HttpOnly, SameSite=Strict, Path=/api/v1/auth and Secure — on login, refresh and logout', async () => {
      const https = { 'x-forwarded-proto': 'https' };
      const signedIn = await login(proxied.app, https);
      const refreshed = await refresh(proxied.app, cookieOf(signedIn), https);
      expect(refreshed.statusCode).toBe(200);
      const out = await logout(proxied.app, cookieOf(refreshed), https);
      expect(out.statusCode).toBe(204);
      for (const response of [signedIn, refreshed, out]) {
        const line = rawCookies(response).find((candidate) => candidate.startsWith('refresh_token='));
        expect(line).toBeDefined();
        expect(flagsOf(line!)).toEqual({
          httpOnly: true,
          secure: true,
          sameSite: 'samesite=strict',
          path: 'path=/api/v1/auth',
        });
        // The readable session hint is Secure and Strict too, but (by design) not HttpOnly.
        const hint = rawCookies(response).find((candidate) => candidate.startsWith('session_hint='));
        expect(flagsOf(hint!)).toMatchObject({
          httpOnly: false,
          secure: true,
          sameSite: 'samesite=strict',
          path: 'path=/',
        });
      }
    });

    it('over plain http the cookie is not Secure (so a LAN shop works), still HttpOnly and Strict', async () => {
      const line = rawCookies(await login(proxied.app)).find((candidate) => candidate.startsWith('refresh_token='))!;
      expect(flagsOf(line)).toEqual({
        httpOnly: true,
        secure: false,
        sameSite: 'samesite=strict',
        path: 'path=/api/v1/auth',
      });
    });

    it("without TRUST_PROXY a client's own x-forwarded-proto is not believed", async () => {
      const line = rawCookies(await login(shop.app, { 'x-forwarded-proto': 'https' })).find((candidate) =>
        candidate.startsWith('refresh_token='),
      )!;
      expect(flagsOf(line).secure).toBe(false);
    });
  });
});

// ---------------------------------------------------------------------------------------------
describe('8. Password guessing, and secrets in the logs', () => {
  let limited: TestApp;
  const limitedLog = new LogCapture();
  let nextAddress = 0;
  const freshClient = () => `198.18.1.${++nextAddress}`;

  beforeAll(async () => {
    limited = await createTestApp(
      {
        logLevel: 'trace',
        loginRateLimitPerAccount: { max: 3, windowMs: 60_000 },
        loginRateLimitPerClient: { max: 5, windowMs: 60_000 },
      },
      { logStream: limitedLog },
    );
  }, STARTUP_TIMEOUT);
  afterAll(() => limited.close());

  const login = (payload: object | string, remoteAddress: string, headers: Record<string, string> = {}) =>
    limited.app.inject({ method: 'POST', url: '/api/v1/auth/token', payload, remoteAddress, headers });

  const register = (email: string, password: string, remoteAddress: string) =>
    limited.app.inject({
      method: 'POST',
      url: '/api/v1/auth/register',
      query: { email, password, consent: 'true' },
      remoteAddress,
    });

  it("sign-ups with someone's e-mail from many addresses (409 each) do not keep its owner out", async () => {
    const email = `target-${Date.now()}@example.com`;
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 6; attempt += 1) {
      const response = await register(
        attempt % 2 ? email.toUpperCase() : email,
        `${TEST_PASSWORD} ${attempt}`,
        freshClient(),
      );
      statuses.push(response.statusCode);
    }
    expect(statuses).toEqual([201, 409, 409, 409, 409, 409]);
    expect((await login({ username: email, password: `${TEST_PASSWORD} 0` }, freshClient())).statusCode).toBe(200);
  }, 60_000);

  it("form and JSON logins, and the e-mail in any case, count against one account: every client without the account's device cookie is then refused even with the right password; the owner's device is not", async () => {
    const email = `guessed-${Date.now()}@example.com`;
    expect((await register(email, TEST_PASSWORD, freshClient())).statusCode).toBe(201);
    const ownersSignIn = await login({ username: email, password: TEST_PASSWORD }, freshClient());
    expect(ownersSignIn.statusCode).toBe(200);
    const device = setCookie(ownersSignIn, DEVICE_COOKIE)!.value;
    secrets.add(device);
    const wrong = [
      new URLSearchParams({ username: email, password: 'guess one' }).toString(),
      { username: email.toUpperCase(), password: 'guess two' },
      { username: `  ${email}\t`, password: 'guess three' },
    ];
    const guessers = wrong.map(() => freshClient());
    for (const [index, payload] of wrong.entries()) {
      const headers: Record<string, string> =
        typeof payload === 'string' ? { 'content-type': 'application/x-www-form-urlencoded' } : {};
      expect((await login(payload, guessers[index]!, headers)).statusCode).toBe(401);
    }
    for (const client of [guessers[0]!, freshClient()]) {
      const again = await login({ username: email, password: TEST_PASSWORD }, client, {
        'x-forwarded-for': '203.0.113.77',
      });
      expect(refusalProblems('a client without a device cookie', again, [429])).toEqual([]);
      expect(setCookie(again, 'refresh_token')).toBeUndefined();
    }
    const owner = await login({ username: email, password: TEST_PASSWORD }, freshClient(), {
      cookie: `${DEVICE_COOKIE}=${device}`,
    });
    expect(owner.statusCode).toBe(200);
    expect(setCookie(owner, 'refresh_token')?.value).toEqual(expect.any(String));
  }, 60_000);

  it("per client: rotating X-Forwarded-For and the account on every try does not reset the client's count (TRUST_PROXY off)", async () => {
    const client = freshClient();
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 8; attempt += 1) {
      const response = await login(
        { username: `spray${attempt}-${Date.now()}@example.com`, password: 'Summer2024!' },
        client,
        {
          'x-forwarded-for': `203.0.113.${attempt}, 10.0.0.${attempt}`,
          'x-real-ip': `198.51.100.${attempt}`,
          forwarded: `for=192.0.2.${attempt}`,
        },
      );
      statuses.push(response.statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
  }, 60_000);

  it('no password, access token, refresh cookie or JWT secret is ever logged, at trace level, by any call of this file', async () => {
    // A few more of the riskiest shapes: the password in the login URL, failed and throttled logins.
    const password = `Секрет-${Date.now()}-пароль`;
    secrets.add(password);
    await limited.app.inject({
      method: 'POST',
      url: `/api/v1/auth/token?password=${encodeURIComponent(password)}&username=x%40y.ru`,
      payload: { username: 'x@y.ru', password },
    });
    await limited.app.inject({
      method: 'POST',
      url: '/api/v1/auth/register',
      query: { email: `logged-${Date.now()}@example.com`, password, consent: 'true' },
    });
    // A client bug sending broken JSON: the parser's error (which quotes the text) must not be logged.
    await limited.app.inject({
      method: 'POST',
      url: '/api/v1/auth/token',
      headers: { 'content-type': 'application/json' },
      payload: `{"username":"x@y.ru","password":"${password}"`,
    });
    await limited.app.inject({
      method: 'POST',
      url: '/api/v1/auth/token',
      headers: { 'content-type': 'application/json' },
      payload: `{"password":"${password}", oops}`,
    });
    // A request carrying a token that the server refuses.
    await limited.app.inject({
      method: 'GET',
      url: '/api/v1/auth/user',
      headers: { authorization: `Bearer ${victim.token}` },
    });

    const texts = [log.text, limitedLog.text];
    // The capture works: this file's calls are there.
    expect(log.text).toContain('"url":"/api/v1/auth/refresh"');
    expect(limitedLog.text).toContain('"statusCode":429');
    const leaked: string[] = [];
    for (const secret of secrets) {
      for (const shape of [secret, encodeURIComponent(secret), secret.split('.')[2] ?? secret]) {
        if (shape.length >= 8 && texts.some((text) => text.includes(shape))) leaked.push(shape.slice(0, 24));
      }
    }
    expect(leaked).toEqual([]);
    for (const text of texts) {
      expect(text).not.toMatch(/refresh_token=/);
      expect(text).not.toMatch(/"authorization"/i);
      expect(text).not.toMatch(/scrypt\$/);
    }
    expect(secrets.size).toBeGreaterThan(10);
  });
});
