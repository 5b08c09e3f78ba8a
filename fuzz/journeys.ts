/**
 * Phase 2, model-based: sequences of a buyer's steps (register → log in → add to the cart →
 * change a count → order → list the orders), each with the buyer's own token, none, or another
 * buyer's, run against the shop and against a model of it. After every step the shop must agree
 * with the model (the cart's lines and total, the orders, the stock, which never goes below 0),
 * and every answer must be one its operation documents.
 */
import { inArray } from 'drizzle-orm';
import fc from 'fast-check';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { Cart, OrderSummary } from '../src/shared/api';
import { LIMITS } from '../src/shared/limits';
import { maxPiecesPerOrder } from '../src/shared/order-limits';
import { variants } from '../src/server/db/schema';
import { TEST_PASSWORD } from '../test/server/helpers/shop-data';
import { bearer, quickShoppers, setVariant } from '../test/server/helpers/test-app';
import { answerChecker, operationName, servedOperations, type Operation } from './openapi';
import { describeFailure, type FuzzSettings } from './operations';
import { stockedPairs, type FuzzShop } from './shop';

interface Account {
  email: string;
  password: string;
  id: number;
  token?: string;
  /** Variant id → count, in the order first added. */
  cart: Map<number, number>;
  orders: { id: number; kopecks: number; units: number }[];
}

interface JourneyVariant {
  productId: number;
  variantId: number;
  kopecks: number;
}

interface Model {
  accounts: Account[];
  stock: Map<number, number>;
}

interface Real {
  fuzz: FuzzShop;
  variants: JourneyVariant[];
  /** Sends the request for the operation `key` and checks the answer against the document. */
  send(key: string, request: InjectOptions): Promise<LightMyRequestResponse>;
}

type Command = fc.AsyncCommand<Model, Real>;

/** Stock each journey variant starts every run with: sold out, scarce, plenty. */
const STARTING_STOCK = [0, 2, 5, 30, 10_000];
const ADDRESS = 'г. Москва, ул. Моделей, д. 1';

/** Which token a step is sent with: the account's own, none, or another account's. */
type TokenChoice = 'own' | 'none' | 'other';
const tokenChoice = fc.constantFrom<TokenChoice>('own', 'own', 'own', 'none', 'other');

const at = <T>(items: readonly T[], index: number) => items[index % items.length]!;

function headersFor(model: Model, account: Account, choice: TokenChoice): Record<string, string> | null {
  if (choice === 'none') return {};
  const token =
    choice === 'own' ? account.token : model.accounts.find((other) => other !== account && other.token)?.token;
  return token ? bearer(token) : null;
}

function expectStatus(response: LightMyRequestResponse, expected: number, step: string) {
  if (response.statusCode !== expected) {
    throw new Error(`${step}: expected ${expected}, got ${response.statusCode} ${response.body.slice(0, 300)}`);
  }
}

/** The shop's cart of the account equals the model's: lines, counts, total. */
async function expectCartAsModelled(real: Real, account: Account) {
  const response = await real.send('GET /api/v1/cart/{user_id}', {
    method: 'GET',
    url: `/api/v1/cart/${account.id}`,
    headers: bearer(account.token!),
  });
  expectStatus(response, 200, 'read the cart');
  const cart = response.json() as Cart;
  const lines = Object.fromEntries(cart.items.map((item) => [item.variant_id, item.count]));
  const modelled = Object.fromEntries(account.cart);
  if (JSON.stringify(lines) !== JSON.stringify(modelled)) {
    throw new Error(`cart ${JSON.stringify(lines)} is not the model's ${JSON.stringify(modelled)}`);
  }
  const kopecks = cartKopecks(real, account);
  if (Math.round(cart.total_price * 100) !== kopecks) {
    throw new Error(`cart total ${cart.total_price} is not the model's ${kopecks / 100}`);
  }
}

const priceOf = (real: Real, variantId: number) => real.variants.find((variant) => variant.variantId === variantId)!;

function cartKopecks(real: Real, account: Account): number {
  let sum = 0;
  for (const [variantId, count] of account.cart) sum += priceOf(real, variantId).kopecks * count;
  return sum;
}

/** The stock of the journey's variants in the database equals the model's, and none is below 0. */
async function expectStockAsModelled(real: Real, model: Model) {
  const rows = await real.fuzz.app.database.db
    .select({ id: variants.id, stock: variants.stock })
    .from(variants)
    .where(inArray(variants.id, [...model.stock.keys()]));
  for (const row of rows) {
    if (row.stock < 0) throw new Error(`variant ${row.id}: stock ${row.stock} below 0`);
    if (row.stock !== model.stock.get(row.id)) {
      throw new Error(`variant ${row.id}: stock ${row.stock}, the model says ${model.stock.get(row.id)}`);
    }
  }
}

class Register implements Command {
  constructor(
    readonly consent: boolean,
    readonly password: string,
  ) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const email = `journey-${randomName()}@example.com`;
    const response = await real.send('POST /api/v1/auth/register', {
      method: 'POST',
      url: '/api/v1/auth/register',
      payload: { email, password: this.password, consent: this.consent },
    });
    if (!this.consent) return expectStatus(response, 422, 'register without consent');
    expectStatus(response, 201, 'register');
    const { id } = response.json() as { id: number };
    model.accounts.push({ email, password: this.password, id, cart: new Map(), orders: [] });
  }
  toString = () => `Register(consent: ${this.consent}, ${JSON.stringify(this.password)})`;
}

class LogIn implements Command {
  constructor(
    readonly account: number,
    readonly rightPassword: boolean,
  ) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const account = at(model.accounts, this.account);
    const password = this.rightPassword ? account.password : `${account.password}!`;
    const response = await real.send('POST /api/v1/auth/token', {
      method: 'POST',
      url: '/api/v1/auth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ username: account.email, password }).toString(),
    });
    if (!this.rightPassword) return expectStatus(response, 401, 'log in with a wrong password');
    expectStatus(response, 200, 'log in');
    account.token = (response.json() as { access_token: string }).access_token;
  }
  toString = () => `LogIn(${this.account}, right password: ${this.rightPassword})`;
}

class AddToCart implements Command {
  constructor(
    readonly account: number,
    readonly variant: number,
    readonly count: number,
    readonly token: TokenChoice,
  ) {}
  check = (model: Model) => headersFor(model, at(model.accounts, this.account), this.token) !== null;
  async run(model: Model, real: Real) {
    const account = at(model.accounts, this.account);
    const variant = at(real.variants, this.variant);
    const response = await real.send('POST /api/v1/cart/add', {
      method: 'POST',
      url: '/api/v1/cart/add',
      headers: headersFor(model, account, this.token)!,
      payload: { user_id: account.id, product_id: variant.productId, variant_id: variant.variantId, count: this.count },
    });
    if (this.token === 'none') return expectStatus(response, 401, 'add without a token');
    if (this.token === 'other') return expectStatus(response, 403, "add to another's cart");
    const inCart = account.cart.get(variant.variantId) ?? 0;
    if (model.stock.get(variant.variantId) === 0) expectStatus(response, 409, 'add a sold-out variant');
    else if (inCart + this.count > LIMITS.maxCartCount) expectStatus(response, 422, 'add beyond the limit');
    else {
      expectStatus(response, 201, 'add');
      account.cart.set(variant.variantId, inCart + this.count);
    }
    await expectCartAsModelled(real, account);
  }
  toString = () => `AddToCart(${this.account}, variant ${this.variant}, ×${this.count}, token: ${this.token})`;
}

class ChangeCount implements Command {
  constructor(
    readonly account: number,
    readonly line: number,
    readonly count: number,
    readonly token: TokenChoice,
  ) {}
  check = (model: Model) => {
    const account = at(model.accounts, this.account);
    return account.token !== undefined && headersFor(model, account, this.token) !== null;
  };
  async run(model: Model, real: Real) {
    const account = at(model.accounts, this.account);
    const cart = (
      await real.send('GET /api/v1/cart/{user_id}', {
        method: 'GET',
        url: `/api/v1/cart/${account.id}`,
        headers: bearer(account.token!),
      })
    ).json() as Cart;
    const item = cart.items.length > 0 ? at(cart.items, this.line) : undefined;
    const response = await real.send('PUT /api/v1/cart/count', {
      method: 'PUT',
      url: '/api/v1/cart/count',
      query: { item_id: String(item?.id ?? 2_147_483_647), count: String(this.count) },
      headers: headersFor(model, account, this.token)!,
    });
    if (this.token === 'none') return expectStatus(response, 401, 'change a count without a token');
    // Another buyer's line does not exist for this one.
    if (this.token === 'other' || !item) return expectStatus(response, 404, 'change a line not in the cart');
    expectStatus(response, 200, 'change a count');
    account.cart.set(item.variant_id, this.count);
    await expectCartAsModelled(real, account);
  }
  toString = () => `ChangeCount(${this.account}, line ${this.line}, to ${this.count}, token: ${this.token})`;
}

class PlaceOrder implements Command {
  constructor(
    readonly account: number,
    readonly token: TokenChoice,
  ) {}
  check = (model: Model) => {
    const account = at(model.accounts, this.account);
    return account.token !== undefined && headersFor(model, account, this.token) !== null;
  };
  async run(model: Model, real: Real) {
    const account = at(model.accounts, this.account);
    const lines = [...account.cart];
    const response = await real.send('POST /api/v1/order', {
      method: 'POST',
      url: '/api/v1/order',
      headers: headersFor(model, account, this.token)!,
      payload: {
        user_id: account.id,
        address: ADDRESS,
        items: lines.map(([variantId, quantity]) => ({
          product_id: priceOf(real, variantId).productId,
          variant_id: variantId,
          quantity,
        })),
      },
    });
    if (this.token === 'none') return expectStatus(response, 401, 'order without a token');
    // The body is validated before the handler compares its buyer with the token's.
    if (lines.length === 0) return expectStatus(response, 422, 'order nothing');
    if (this.token === 'other') return expectStatus(response, 403, 'order for another buyer');
    // The journeys' buyers have no paid order: one order line may take only its share of the stock
    // (MAX_STOCK_SHARE_PERCENT), checked after the stock itself.
    const { maxStockSharePercent } = real.fuzz.shop.config.buyerLimits;
    if (lines.some(([variantId, quantity]) => quantity > model.stock.get(variantId)!)) {
      expectStatus(response, 409, 'order beyond the stock');
    } else if (
      lines.some(
        ([variantId, quantity]) => quantity > maxPiecesPerOrder(model.stock.get(variantId)!, maxStockSharePercent),
      )
    ) {
      expectStatus(response, 422, "order beyond a line's share of the stock");
    } else {
      expectStatus(response, 201, 'order');
      const order = response.json() as OrderSummary;
      const kopecks = cartKopecks(real, account);
      const units = lines.reduce((sum, [, quantity]) => sum + quantity, 0);
      if (Math.round(order.total_price * 100) !== kopecks) {
        throw new Error(`order total ${order.total_price} is not the cart's ${kopecks / 100}`);
      }
      if (order.items_count !== units) throw new Error(`order of ${order.items_count} units, the cart had ${units}`);
      for (const [variantId, quantity] of lines) model.stock.set(variantId, model.stock.get(variantId)! - quantity);
      account.orders.push({ id: order.id, kopecks, units });
      // The ordered variants leave the cart.
      account.cart.clear();
    }
    await expectCartAsModelled(real, account);
    await expectStockAsModelled(real, model);
  }
  toString = () => `PlaceOrder(${this.account}, token: ${this.token})`;
}

class ListOrders implements Command {
  constructor(
    readonly account: number,
    readonly token: TokenChoice,
  ) {}
  check = (model: Model) => headersFor(model, at(model.accounts, this.account), this.token) !== null;
  async run(model: Model, real: Real) {
    const account = at(model.accounts, this.account);
    const response = await real.send('GET /api/v1/order/{user_id}', {
      method: 'GET',
      url: `/api/v1/order/${account.id}`,
      headers: headersFor(model, account, this.token)!,
    });
    if (this.token === 'none') return expectStatus(response, 401, 'list orders without a token');
    if (this.token === 'other') return expectStatus(response, 403, "list another's orders");
    expectStatus(response, 200, 'list orders');
    const listed = (response.json() as OrderSummary[])
      .map((order) => ({ id: order.id, kopecks: Math.round(order.total_price * 100), units: order.items_count }))
      .sort((a, b) => a.id - b.id);
    if (JSON.stringify(listed) !== JSON.stringify(account.orders)) {
      throw new Error(`orders ${JSON.stringify(listed)} are not the model's ${JSON.stringify(account.orders)}`);
    }
  }
  toString = () => `ListOrders(${this.account}, token: ${this.token})`;
}

let names = 0;
const randomName = () => `${Date.now().toString(36)}-${(names += 1)}`;

const account = fc.nat({ max: 20 });
const COMMANDS = [
  fc
    .tuple(fc.boolean(), fc.string({ unit: 'grapheme-ascii', minLength: 8, maxLength: 20 }))
    .map(([consent, password]) => new Register(consent, password)),
  fc.tuple(account, fc.boolean()).map(([index, right]) => new LogIn(index, right)),
  ...Array.from({ length: 3 }, () =>
    fc
      .tuple(
        account,
        fc.nat(),
        fc.oneof(
          { weight: 6, arbitrary: fc.integer({ min: 1, max: 4 }) },
          { weight: 1, arbitrary: fc.constant(LIMITS.maxCartCount) },
        ),
        tokenChoice,
      )
      .map(([index, variant, count, token]) => new AddToCart(index, variant, count, token)),
  ),
  fc
    .tuple(account, fc.nat(), fc.integer({ min: 1, max: 40 }), tokenChoice)
    .map(([index, line, count, token]) => new ChangeCount(index, line, count, token)),
  ...Array.from({ length: 2 }, () =>
    fc.tuple(account, tokenChoice).map(([index, token]) => new PlaceOrder(index, token)),
  ),
  fc.tuple(account, tokenChoice).map(([index, token]) => new ListOrders(index, token)),
];

export interface JourneysReport {
  runs: number;
  /** How many answers of each operation and status the steps got: shows what the journeys reached. */
  answers: Record<string, number>;
  /** The shrunk sequence of steps that fails, and why (null when none did). */
  failure: string | null;
}

export async function fuzzJourneys(fuzz: FuzzShop, settings: FuzzSettings): Promise<JourneysReport> {
  const operations = new Map(
    (await servedOperations(fuzz.app)).map((operation) => [operationName(operation), operation]),
  );
  const check = answerChecker();
  const answers: Record<string, number> = {};
  const send = async (key: string, request: InjectOptions) => {
    const operation: Operation | undefined = operations.get(key);
    if (!operation) throw new Error(`${key} is not in the document`);
    const response = await fuzz.app.inject(request);
    const answer = `${key} → ${response.statusCode}`;
    answers[answer] = (answers[answer] ?? 0) + 1;
    const problems = check(operation, response);
    if (problems.length > 0) throw new Error(problems.join('\n'));
    return response;
  };
  // Five variants of different products, their prices as the catalogue shows them.
  const journeyVariants = stockedPairs(fuzz.catalogue)
    .filter((pair, index, pairs) => pairs.findIndex((other) => other.product_id === pair.product_id) === index)
    .slice(0, STARTING_STOCK.length)
    .map(({ product_id, variant_id }) => {
      const price = fuzz.catalogue.flatMap((product) => product.variants).find((v) => v.id === variant_id)!.price;
      return { productId: product_id, variantId: variant_id, kopecks: Math.round(price * 100) };
    });
  let runs = 0;
  const setup = async () => {
    runs += 1;
    const stock = new Map<number, number>();
    for (const [index, variant] of journeyVariants.entries()) {
      await setVariant(fuzz.app, variant.variantId, { stock: STARTING_STOCK[index]! });
      stock.set(variant.variantId, STARTING_STOCK[index]!);
    }
    // Written straight to the database: the catalogue's cached reads must not show the old stock.
    fuzz.app.catalogueCache.invalidate();
    // Two accounts to start with (made as a registration would, without its deliberately slow
    // hashing each time), one of them signed in.
    const accounts = (await quickShoppers(fuzz.app, 2)).map((shopper, index): Account => ({
      email: shopper.email,
      password: TEST_PASSWORD,
      id: shopper.id,
      token: index === 0 ? shopper.token : undefined,
      cart: new Map(),
      orders: [],
    }));
    return { model: { accounts, stock }, real: { fuzz, variants: journeyVariants, send } };
  };
  const property = fc.asyncProperty(fc.commands(COMMANDS, { maxCommands: 30, size: '+1' }), async (commands) => {
    await fc.asyncModelRun(setup, commands);
    settings.progress?.(`journey ${runs}: ok`);
  });
  const details = await fc.check(property, { numRuns: settings.runs, seed: settings.seed });
  const failure = details.failed
    ? `seed ${settings.seed}, path ${details.counterexamplePath}:\n  steps: ${String(details.counterexample?.[0])}\n  ${String(describeFailure(details))}`
    : null;
  return { runs, answers, failure };
}
