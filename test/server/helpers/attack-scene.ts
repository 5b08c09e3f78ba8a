/**
 * The scene of the attack catalogue (test/server/security/attacks/), one file per threat. Every
 * attack must fail for the attacker, change nothing (the whole shop's rows are compared before and
 * after), and never answer 500: a refusal is a clean 4xx JSON `{detail}` that leaks no stack, SQL or
 * file path. Each file sets the scene up once: a victim and an attacker with interleaved cart
 * lines, orders and addresses in a shop that logs everything, so that its last test can look for
 * the secrets its calls carried in the log.
 *
 * The route suites already hold the plain cases (another user's id → 403/404, no token → 401,
 * alg "none" and expired tokens on /auth/user, refresh rotation and reuse, login throttling,
 * 1 MB bodies, basic image traversal); the catalogue adds the odd forms, the combinations and the
 * checks on the victim's data that those do not make.
 */
import { asc, eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import type { Address, OrderSummary, Product, Variant } from '../../../src/shared/api';
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
import { TEST_PASSWORD } from './shop-data';
import {
  allProducts,
  createTestApp,
  json,
  LogCapture,
  quickShoppers,
  signUp,
  STARTUP_TIMEOUT,
  type Shopper,
  type TestApp,
} from './test-app';

/** What an error body must never show: stack frames, file paths, SQL, driver or framework internals. */
const LEAKS =
  /\bat [\w.<>]+ \(|node_modules|\/work\/|src\/server|\.ts:\d+|\bselect\b[\s\S]*\bfrom\b|\binsert into\b|\bdelete from\b|syntax error|postgres|pglite|drizzle|FST_ERR|"stack"|"code"/i;

/** Every refusal an odd form of a request may meet, as long as it is a clean one. */
export const REFUSED = [400, 403, 404, 405, 409, 413, 414, 415, 422];

export const ADDRESS_FIELDS = {
  country: 'Россия',
  city: 'Тверь',
  street: 'ул. Советская',
  home_number: '3',
  apartment_number: '8',
};

export const inStock = (product: Product) => product.variants.filter((variant) => variant.stock > 0);

/**
 * What is wrong with a refusal, as readable lines (an empty list when it is a clean one): a 4xx
 * among `allowed`, JSON `{detail: string}` with nosniff, and nothing internal in the body.
 */
export function refusalProblems(label: string, response: LightMyRequestResponse, allowed: readonly number[]): string[] {
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

export interface AttackScene {
  shop: TestApp;
  /** Everything the shop logs while the file runs, at the most talkative level. */
  log: LogCapture;
  /** Passwords, tokens and cookie values seen by the file: none may appear in the log. */
  secrets: Set<string>;
  /** The first user, so the literal "1" among the odd id forms is the victim's id. */
  victim: Shopper;
  attacker: Shopper;
  catalogue: Product[];
  /** Products with two variants in stock that no test has taken yet (takeProduct). */
  spare: Product[];
  /** The victim's rows, by id. */
  victimLines: number[];
  victimOrder: OrderSummary;
  victimAddresses: Address[];
  jwtSecret: string;
  /** A product no other test of the file uses, with two of its variants in stock. */
  takeProduct(): { product: Product; v1: Variant; v2: Variant };
  /** Runs `attack` and checks that not one row of the shop changed. */
  changesNothing(attack: () => Promise<void>): Promise<void>;
}

/**
 * Sets the scene up before the file's tests (and closes the shop after them). Its fields are there
 * from the first test on.
 */
export function attackScene(): AttackScene {
  const scene = { log: new LogCapture(), secrets: new Set<string>() } as AttackScene;

  /** Every row an attack could touch, in a stable order. */
  async function wholeShop() {
    const db = scene.shop.app.database.db;
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
  scene.changesNothing = async (attack) => {
    const before = await wholeShop();
    await attack();
    expect(await wholeShop()).toEqual(before);
  };
  scene.takeProduct = () => {
    const product = scene.spare.shift();
    if (!product) throw new Error('ran out of products with two variants in stock');
    const [v1, v2] = inStock(product);
    return { product, v1: v1!, v2: v2! };
  };

  beforeAll(async () => {
    const shop = await createTestApp({ logLevel: 'trace' }, { logStream: scene.log });
    scene.shop = shop;
    const victim = await signUp(shop.app);
    const attacker = (await quickShoppers(shop.app, 1))[0]!;
    Object.assign(scene, { victim, attacker, catalogue: await allProducts(shop.app) });
    scene.spare = scene.catalogue.filter((product) => inStock(product).length >= 2);
    scene.secrets.add(TEST_PASSWORD).add(victim.token).add(attacker.token);

    const inject = (shopper: Shopper, method: 'POST', url: string, payload: object) =>
      shop.app.inject({ method, url, headers: shopper.headers, payload: { user_id: shopper.id, ...payload } });
    // The victim: two cart lines, an order, two addresses. The attacker: one of each, so ids interleave.
    const a = scene.takeProduct();
    const b = scene.takeProduct();
    const c = scene.takeProduct();
    scene.victimLines = [];
    for (const variant of [a.v1, a.v2]) {
      const added = await inject(victim, 'POST', '/api/v1/cart/add', {
        product_id: a.product.id,
        variant_id: variant.id,
        count: 2,
      });
      expect(added.statusCode).toBe(201);
      scene.victimLines.push(json<{ id: number }>(added).id);
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
    scene.victimOrder = json<OrderSummary>(placed);
    expect(
      (
        await inject(attacker, 'POST', '/api/v1/order/', {
          address: 'г. Тула',
          items: [{ product_id: c.product.id, variant_id: c.v2.id, quantity: 1 }],
        })
      ).statusCode,
    ).toBe(201);
    scene.victimAddresses = [];
    for (const city of ['Тверь', 'Клин']) {
      const created = await inject(victim, 'POST', '/api/v1/address/', { ...ADDRESS_FIELDS, city });
      expect(created.statusCode).toBe(201);
      scene.victimAddresses.push(json<Address>(created));
    }
    expect((await inject(attacker, 'POST', '/api/v1/address/', ADDRESS_FIELDS)).statusCode).toBe(201);

    const [setting] = await shop.app.database.db.select().from(appSettings).where(eq(appSettings.key, 'jwt_secret'));
    scene.jwtSecret = setting!.value;
    scene.secrets.add(scene.jwtSecret);
  }, STARTUP_TIMEOUT);
  afterAll(() => scene.shop.close());

  return scene;
}

/** Fails on any of `secrets` (whole, URL-encoded, or a token's signature) or a credential's header in the logs. */
export function expectNoSecretLogged(texts: readonly string[], secrets: ReadonlySet<string>): void {
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
}

/**
 * The last test of a file of the catalogue: the calls of every test before it, the refused ones
 * included, left no password, token or secret in the shop's log.
 */
export function itLogsNoSecret(scene: AttackScene): void {
  it('no password, access token or JWT secret is ever logged, at trace level, by any call of this file', () => {
    // The capture works: the scene's own calls are there.
    expect(scene.log.text).toContain('"url":"/api/v1/address/"');
    expectNoSecretLogged([scene.log.text], scene.secrets);
  });
}
