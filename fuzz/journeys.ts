/**
 * Phase 1, model-based: sequences of buyers' steps (register, log in, add to the cart, change a
 * count, remove a line, order, cancel an order, list the orders), each with the buyer's own token,
 * none, or another buyer's, run against the shop and against a model of it. After every step the
 * shop must agree with the model: every signed-in buyer's cart (its lines, their ids and counts,
 * each line's total and the cart's), their orders (totals, units and statuses), and the stock of the
 * journey's variants, which never goes below 0 and, with the units in live orders, stays what it
 * was. Every answer must be one its operation documents, every refusal the one the model expects
 * and a JSON `{detail}`. After every journey the whole shop's data must agree with itself
 * (consistency.ts).
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
import { CANCELLED, inconsistencies, ledgerOf, stockAndSoldOf, type Ledger } from './consistency';
import { answerChecker, errorBodyProblems, operationName, servedOperations, type Operation } from './openapi';
import { describeFailure, type FuzzSettings } from './operations';
import type { FuzzShop } from './shop';

interface Order {
  id: number;
  kopecks: number;
  units: number;
  /** Variant id → units. */
  lines: Map<number, number>;
  cancelled: boolean;
}

interface Account {
  email: string;
  password: string;
  id: number;
  token?: string;
  /** Variant id → the line's id and count, in the order first added. */
  cart: Map<number, { itemId: number; count: number }>;
  orders: Order[];
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
  /** Per journey variant, its stock + units in live orders when the journey began. */
  ledger: Map<number, number>;
  /** Sends the request for the operation `key` and checks the answer against the document. */
  send(key: string, request: InjectOptions): Promise<LightMyRequestResponse>;
}

type Command = fc.AsyncCommand<Model, Real>;

/**
 * Stock each journey variant starts every run with: sold out, scarce, plenty. Two variants of each
 * of three products, so that one order may hold two variants of a product.
 */
const STARTING_STOCK = [0, 2, 5, 30, 10_000, 6];
const ADDRESS = 'г. Москва, ул. Моделей, д. 1';
/** An id that names no cart line and no order. */
const NO_SUCH_ID = 2_000_000_000;

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

const isCount = (count: number) => Number.isInteger(count) && count >= 1 && count <= LIMITS.maxCartCount;

function expectStatus(response: LightMyRequestResponse, expected: number, step: string) {
  if (response.statusCode !== expected) {
    throw new Error(`${step}: expected ${expected}, got ${response.statusCode} ${response.body.slice(0, 300)}`);
  }
}

const priceOf = (real: Real, variantId: number) => real.variants.find((variant) => variant.variantId === variantId)!;

const kopecksOf = (real: Real, lines: Iterable<[number, number]>) => {
  let sum = 0;
  for (const [variantId, units] of lines) sum += priceOf(real, variantId).kopecks * units;
  return sum;
};

/** The account's cart line at `position` (by variant id), or none when the cart is empty. */
function lineAt(account: Account, position: number) {
  const lines = [...account.cart].sort(([a], [b]) => a - b);
  if (lines.length === 0) return undefined;
  const [variantId, line] = at(lines, position);
  return { variantId, itemId: line.itemId };
}

/** The shop's cart of the account equals the model's: lines (ids and counts), each line's total, the cart's. */
async function expectCartAsModelled(real: Real, account: Account) {
  const response = await real.send('GET /api/v1/cart/{user_id}', {
    method: 'GET',
    url: `/api/v1/cart/${account.id}`,
    headers: bearer(account.token!),
  });
  expectStatus(response, 200, 'read the cart');
  const cart = response.json() as Cart;
  const lines = Object.fromEntries(cart.items.map((item) => [item.variant_id, [item.id, item.count]]));
  const modelled = Object.fromEntries(
    [...account.cart].map(([variantId, line]) => [variantId, [line.itemId, line.count]]),
  );
  if (JSON.stringify(lines) !== JSON.stringify(modelled)) {
    throw new Error(`cart ${JSON.stringify(lines)} is not the model's ${JSON.stringify(modelled)}`);
  }
  for (const item of cart.items) {
    const kopecks = priceOf(real, item.variant_id).kopecks * item.count;
    if (Math.round(item.item_total * 100) !== kopecks) {
      throw new Error(`cart line ${item.id}: ${item.item_total}, the model says ${kopecks / 100}`);
    }
  }
  const kopecks = kopecksOf(
    real,
    [...account.cart].map(([variantId, line]) => [variantId, line.count]),
  );
  if (Math.round(cart.total_price * 100) !== kopecks) {
    throw new Error(`cart total ${cart.total_price} is not the model's ${kopecks / 100}`);
  }
}

/** The account's orders as the shop lists them, by id: total, units, status. */
const listedOrders = (orders: OrderSummary[]) =>
  orders
    .map((order) => ({
      id: order.id,
      kopecks: Math.round(order.total_price * 100),
      units: order.items_count,
      status: order.status,
    }))
    .sort((a, b) => a.id - b.id);

const modelledOrders = (account: Account) =>
  account.orders.map(({ id, kopecks, units, cancelled }) => ({
    id,
    kopecks,
    units,
    status: cancelled ? CANCELLED : 'Создан',
  }));

function expectOrdersAsModelled(account: Account, orders: OrderSummary[]) {
  const listed = listedOrders(orders);
  const modelled = modelledOrders(account);
  if (JSON.stringify(listed) !== JSON.stringify(modelled)) {
    throw new Error(`orders ${JSON.stringify(listed)} are not the model's ${JSON.stringify(modelled)}`);
  }
}

/**
 * The stock of the journey's variants in the database equals the model's, none is below 0, and with
 * the units in live orders each is what it was when the journey began.
 */
async function expectStockAsModelled(real: Real, model: Model) {
  const ids = [...model.stock.keys()];
  const rows = await real.fuzz.app.database.db
    .select({ id: variants.id, stock: variants.stock })
    .from(variants)
    .where(inArray(variants.id, ids));
  for (const row of rows) {
    if (row.stock < 0) throw new Error(`variant ${row.id}: stock ${row.stock} below 0`);
    if (row.stock !== model.stock.get(row.id)) {
      throw new Error(`variant ${row.id}: stock ${row.stock}, the model says ${model.stock.get(row.id)}`);
    }
  }
  for (const [id, now] of await stockAndSoldOf(real.fuzz.app, ids)) {
    if (now !== real.ledger.get(id)) {
      throw new Error(`variant ${id}: stock + sold ${now}, ${real.ledger.get(id)} when the journey began`);
    }
  }
}

/** After every step: every signed-in account's cart and orders, and the stock, are the model's. */
async function expectShopAsModelled(model: Model, real: Real) {
  for (const account of model.accounts) {
    if (!account.token) continue;
    await expectCartAsModelled(real, account);
    const response = await real.send('GET /api/v1/order/{user_id}', {
      method: 'GET',
      url: `/api/v1/order/${account.id}`,
      headers: bearer(account.token),
    });
    expectStatus(response, 200, 'list the orders');
    expectOrdersAsModelled(account, response.json() as OrderSummary[]);
  }
  await expectStockAsModelled(real, model);
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
    await expectShopAsModelled(model, real);
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
    const line = account.cart.get(variant.variantId);
    const inCart = line?.count ?? 0;
    // The token is checked before the body is read, the body before the buyer is compared with the token's.
    if (this.token === 'none') expectStatus(response, 401, 'add without a token');
    else if (!isCount(this.count)) expectStatus(response, 422, 'add a count that is none');
    else if (this.token === 'other') expectStatus(response, 403, "add to another's cart");
    else if (model.stock.get(variant.variantId) === 0) expectStatus(response, 409, 'add a sold-out variant');
    else if (inCart + this.count > LIMITS.maxCartCount) expectStatus(response, 422, 'add beyond the limit');
    else {
      expectStatus(response, 201, 'add');
      const itemId = (response.json() as { id: number }).id;
      if (line && itemId !== line.itemId) throw new Error(`add to line ${line.itemId} answered line ${itemId}`);
      account.cart.set(variant.variantId, { itemId, count: inCart + this.count });
    }
    await expectShopAsModelled(model, real);
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
  check = (model: Model) => headersFor(model, at(model.accounts, this.account), this.token) !== null;
  async run(model: Model, real: Real) {
    const account = at(model.accounts, this.account);
    const line = lineAt(account, this.line);
    const response = await real.send('PUT /api/v1/cart/count', {
      method: 'PUT',
      url: '/api/v1/cart/count',
      query: { item_id: String(line?.itemId ?? NO_SUCH_ID), count: String(this.count) },
      headers: headersFor(model, account, this.token)!,
    });
    if (this.token === 'none') expectStatus(response, 401, 'change a count without a token');
    else if (!isCount(this.count)) expectStatus(response, 422, 'change to a count that is none');
    // Another buyer's line does not exist for this one.
    else if (this.token === 'other' || !line) expectStatus(response, 404, 'change a line not in the cart');
    else {
      expectStatus(response, 200, 'change a count');
      account.cart.get(line.variantId)!.count = this.count;
    }
    await expectShopAsModelled(model, real);
  }
  toString = () => `ChangeCount(${this.account}, line ${this.line}, to ${this.count}, token: ${this.token})`;
}

class RemoveLine implements Command {
  constructor(
    readonly account: number,
    readonly line: number,
    readonly token: TokenChoice,
  ) {}
  check = (model: Model) => headersFor(model, at(model.accounts, this.account), this.token) !== null;
  async run(model: Model, real: Real) {
    const account = at(model.accounts, this.account);
    const line = lineAt(account, this.line);
    const response = await real.send('DELETE /api/v1/cart/{item_id}', {
      method: 'DELETE',
      url: `/api/v1/cart/${line?.itemId ?? NO_SUCH_ID}`,
      headers: headersFor(model, account, this.token)!,
    });
    if (this.token === 'none') expectStatus(response, 401, 'remove a line without a token');
    else if (this.token === 'other' || !line) expectStatus(response, 404, 'remove a line not in the cart');
    else {
      expectStatus(response, 200, 'remove a line');
      account.cart.delete(line.variantId);
    }
    await expectShopAsModelled(model, real);
  }
  toString = () => `RemoveLine(${this.account}, line ${this.line}, token: ${this.token})`;
}

class PlaceOrder implements Command {
  constructor(
    readonly account: number,
    readonly token: TokenChoice,
    /** The checkout's order: the cart as it is, however empty; otherwise `lines`. */
    readonly fromCart: boolean,
    readonly lines: { variant: number; quantity: number }[],
  ) {}
  check = (model: Model) => headersFor(model, at(model.accounts, this.account), this.token) !== null;
  async run(model: Model, real: Real) {
    const account = at(model.accounts, this.account);
    const items = this.fromCart
      ? [...account.cart].map(([variantId, line]) => ({ variantId, quantity: line.count }))
      : this.lines.map(({ variant, quantity }) => ({ variantId: at(real.variants, variant).variantId, quantity }));
    const response = await real.send('POST /api/v1/order', {
      method: 'POST',
      url: '/api/v1/order',
      headers: headersFor(model, account, this.token)!,
      payload: {
        user_id: account.id,
        address: ADDRESS,
        items: items.map(({ variantId, quantity }) => ({
          product_id: priceOf(real, variantId).productId,
          variant_id: variantId,
          quantity,
        })),
        company_name: null,
        company_inn: null,
        company_kpp: null,
      },
    });
    const merged = new Map<number, number>();
    for (const { variantId, quantity } of items) merged.set(variantId, (merged.get(variantId) ?? 0) + quantity);
    // The journeys' buyers have no paid order: one order line may take only its share of the stock
    // (MAX_STOCK_SHARE_PERCENT), checked after the stock itself.
    const { maxStockSharePercent } = real.fuzz.shop.config.buyerLimits;
    if (this.token === 'none') expectStatus(response, 401, 'order without a token');
    // The body is validated before the handler compares its buyer with the token's.
    else if (items.length === 0) expectStatus(response, 422, 'order nothing');
    else if (this.token === 'other') expectStatus(response, 403, 'order for another buyer');
    else if ([...merged].some(([variantId, quantity]) => quantity > model.stock.get(variantId)!)) {
      expectStatus(response, 409, 'order beyond the stock');
    } else if (
      [...merged].some(
        ([variantId, quantity]) => quantity > maxPiecesPerOrder(model.stock.get(variantId)!, maxStockSharePercent),
      )
    ) {
      expectStatus(response, 422, "order beyond a line's share of the stock");
    } else {
      expectStatus(response, 201, 'order');
      const order = response.json() as OrderSummary;
      const kopecks = kopecksOf(real, merged);
      const units = [...merged.values()].reduce((sum, quantity) => sum + quantity, 0);
      if (Math.round(order.total_price * 100) !== kopecks) {
        throw new Error(`order total ${order.total_price} is not the model's ${kopecks / 100}`);
      }
      if (order.items_count !== units) throw new Error(`order of ${order.items_count} units, the model says ${units}`);
      for (const [variantId, quantity] of merged) {
        model.stock.set(variantId, model.stock.get(variantId)! - quantity);
        // The ordered variants leave the cart.
        account.cart.delete(variantId);
      }
      account.orders.push({ id: order.id, kopecks, units, lines: merged, cancelled: false });
    }
    await expectShopAsModelled(model, real);
  }
  toString = () =>
    `PlaceOrder(${this.account}, token: ${this.token}, ${this.fromCart ? 'the cart' : JSON.stringify(this.lines)})`;
}

class CancelOrder implements Command {
  constructor(
    readonly account: number,
    readonly order: number,
    readonly token: TokenChoice,
  ) {}
  check = (model: Model) => headersFor(model, at(model.accounts, this.account), this.token) !== null;
  async run(model: Model, real: Real) {
    const account = at(model.accounts, this.account);
    const order = account.orders.length > 0 ? at(account.orders, this.order) : undefined;
    const response = await real.send('DELETE /api/v1/order/{id}', {
      method: 'DELETE',
      url: `/api/v1/order/${order?.id ?? NO_SUCH_ID}`,
      headers: headersFor(model, account, this.token)!,
    });
    if (this.token === 'none') expectStatus(response, 401, 'cancel without a token');
    else if (this.token === 'other' || !order) expectStatus(response, 404, "cancel another's order, or none");
    else if (order.cancelled) expectStatus(response, 409, 'cancel a cancelled order');
    else {
      expectStatus(response, 200, 'cancel');
      const answer = JSON.stringify(response.json());
      if (answer !== JSON.stringify({ id: order.id, status: CANCELLED })) throw new Error(`cancel answered ${answer}`);
      order.cancelled = true;
      for (const [variantId, quantity] of order.lines)
        model.stock.set(variantId, model.stock.get(variantId)! + quantity);
    }
    await expectShopAsModelled(model, real);
  }
  toString = () => `CancelOrder(${this.account}, order ${this.order}, token: ${this.token})`;
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
    expectOrdersAsModelled(account, response.json() as OrderSummary[]);
  }
  toString = () => `ListOrders(${this.account}, token: ${this.token})`;
}

let names = 0;
const randomName = () => `${Date.now().toString(36)}-${(names += 1)}`;

const account = fc.nat({ max: 20 });
/** A count for the cart: mostly a few, sometimes the cart's limit, now and then none at all. */
const cartCount = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 1, max: 5 }) },
  { weight: 1, arbitrary: fc.constant(LIMITS.maxCartCount) },
  { weight: 1, arbitrary: fc.constantFrom(0, -1, 1.5, LIMITS.maxCartCount - 1, LIMITS.maxCartCount + 1) },
);
const COMMANDS = [
  fc
    .tuple(fc.boolean(), fc.string({ unit: 'grapheme-ascii', minLength: 8, maxLength: 20 }))
    .map(([consent, password]) => new Register(consent, password)),
  fc.tuple(account, fc.boolean()).map(([index, right]) => new LogIn(index, right)),
  ...Array.from({ length: 3 }, () =>
    fc
      .tuple(account, fc.nat(), cartCount, tokenChoice)
      .map(([index, variant, count, token]) => new AddToCart(index, variant, count, token)),
  ),
  ...Array.from({ length: 2 }, () =>
    fc
      .tuple(
        account,
        fc.nat(),
        fc.oneof(
          { weight: 6, arbitrary: fc.integer({ min: 1, max: 40 }) },
          { weight: 2, arbitrary: fc.constantFrom(0, -1, 1.5, LIMITS.maxCartCount + 1) },
        ),
        tokenChoice,
      )
      .map(([index, line, count, token]) => new ChangeCount(index, line, count, token)),
  ),
  fc.tuple(account, fc.nat(), tokenChoice).map(([index, line, token]) => new RemoveLine(index, line, token)),
  ...Array.from({ length: 2 }, () =>
    fc
      .tuple(
        account,
        tokenChoice,
        fc.boolean(),
        fc.array(fc.record({ variant: fc.nat(), quantity: fc.integer({ min: 1, max: 4 }) }), {
          minLength: 1,
          maxLength: 3,
        }),
      )
      .map(([index, token, fromCart, lines]) => new PlaceOrder(index, token, fromCart, lines)),
  ),
  fc.tuple(account, fc.nat(), tokenChoice).map(([index, order, token]) => new CancelOrder(index, order, token)),
  fc.tuple(account, tokenChoice).map(([index, token]) => new ListOrders(index, token)),
];

export interface JourneysReport {
  runs: number;
  /** Steps run, in all. */
  steps: number;
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
    const problems = [...check(operation, response), ...errorBodyProblems(request.method ?? 'GET', response)];
    if (problems.length > 0) throw new Error(problems.join('\n'));
    return response;
  };
  // Two in-stock variants of each of three products, their prices as the catalogue shows them.
  const journeyVariants = fuzz.catalogue
    .filter((product) => product.variants.filter((variant) => variant.stock > 0).length >= 2)
    .slice(0, STARTING_STOCK.length / 2)
    .flatMap((product) =>
      product.variants
        .filter((variant) => variant.stock > 0)
        .slice(0, 2)
        .map((variant) => ({
          productId: product.id,
          variantId: variant.id,
          kopecks: Math.round(variant.price! * 100),
        })),
    );
  let runs = 0;
  let steps = 0;
  /** The whole shop's ledger when the current journey began, to check it against when it ends. */
  let ledger: Ledger | undefined;
  const setup = async () => {
    runs += 1;
    const stock = new Map<number, number>();
    for (const [index, variant] of journeyVariants.entries()) {
      await setVariant(fuzz.app, variant.variantId, { stock: STARTING_STOCK[index]! });
      stock.set(variant.variantId, STARTING_STOCK[index]!);
    }
    // Written straight to the database: the catalogue's cached reads must not show the old stock.
    fuzz.app.catalogueCache.invalidate();
    ledger = await ledgerOf(fuzz.app);
    // Three accounts to start with (made as a registration would, without its deliberately slow
    // hashing each time), two of them signed in.
    const accounts = (await quickShoppers(fuzz.app, 3)).map((shopper, index): Account => ({
      email: shopper.email,
      password: TEST_PASSWORD,
      id: shopper.id,
      token: index < 2 ? shopper.token : undefined,
      cart: new Map(),
      orders: [],
    }));
    const real: Real = {
      fuzz,
      variants: journeyVariants,
      ledger: await stockAndSoldOf(
        fuzz.app,
        journeyVariants.map((variant) => variant.variantId),
      ),
      send,
    };
    return { model: { accounts, stock }, real };
  };
  const property = fc.asyncProperty(fc.commands(COMMANDS, { maxCommands: 30, size: '+1' }), async (commands) => {
    const sequence = [...commands];
    steps += sequence.length;
    await fc.asyncModelRun(setup, sequence);
    const problems = await inconsistencies(fuzz.app, ledger!);
    if (problems.length > 0)
      throw new Error(`the shop disagrees with itself after the journey:\n${problems.join('\n')}`);
    settings.progress?.(`journey ${runs}: ok`);
  });
  const details = await fc.check(property, { numRuns: settings.runs, seed: settings.seed });
  const failure = details.failed
    ? `seed ${settings.seed}, path ${details.counterexamplePath}:\n  steps: ${String(details.counterexample?.[0])}\n  ${String(describeFailure(details))}`
    : null;
  return { runs, steps, answers, failure };
}
