/**
 * The shop the fuzzer talks to: a fresh app on a fresh database (PGlite, or PostgreSQL when
 * TEST_DATABASE_URL is set, as every server test), with its catalogue, and the people who call it.
 */
import fc from 'fast-check';
import type { FastifyInstance, InjectOptions } from 'fastify';
import type { Product } from '../src/shared/api';
import { newManager } from '../test/server/helpers/back-office';
import { TEST_PASSWORD } from '../test/server/helpers/shop-data';
import {
  allProducts,
  createTestApp,
  LogCapture,
  quickShoppers,
  type Shopper,
  type TestApp,
} from '../test/server/helpers/test-app';
import type { Hints } from './schema-arbitraries';
import { priceTypes, products } from '../src/server/db/schema';
import { PRICES_FOR_VISITORS_SETTING } from '../src/server/services/price-views';

export interface FuzzShop {
  shop: TestApp;
  app: FastifyInstance;
  catalogue: Product[];
  categories: string[];
  /** The server's error lines: a 500's stack is here. */
  log: LogCapture;
}

/** The products and categories on sale now. */
async function readCatalogue(app: FastifyInstance): Promise<Pick<FuzzShop, 'catalogue' | 'categories'>> {
  const categories = (await app.inject({ method: 'GET', url: '/api/v1/products/categories/all' })).json() as string[];
  return { catalogue: await allProducts(app), categories };
}

export async function openFuzzShop(): Promise<FuzzShop> {
  const log = new LogCapture();
  const shop = await createTestApp({ logLevel: 'error' }, { logStream: log });
  return { shop, app: shop.app, ...(await readCatalogue(shop.app)), log };
}

/** Who sends a request: nobody, a token that is no token, a buyer (whose data hints name), another buyer, a manager. */
export type ActorKind = 'anonymous' | 'forged' | 'buyer' | 'other-buyer' | 'manager';

export interface Actor {
  kind: ActorKind;
  headers: Record<string, string>;
  /** The account whose data the request names (the buyer's for anonymous and forged calls). */
  subject: Shopper;
}

/** What a buyer has, so that calls naming it find something: cart lines, an address, an order. */
export interface Holdings {
  cartItemIds: number[];
  addressIds: number[];
  orderIds: number[];
}

export interface Cast {
  buyer: Shopper;
  otherBuyer: Shopper;
  manager: Shopper;
  holdings: Holdings;
}

/** In-stock variants of on-sale products, as the cart and the order want them named. */
export function stockedPairs(catalogue: readonly Product[]): { product_id: number; variant_id: number }[] {
  return catalogue.flatMap((product) =>
    product.variants
      .filter((variant) => variant.stock > 0)
      .map((variant) => ({ product_id: product.id, variant_id: variant.id })),
  );
}

async function expectCreated(app: FastifyInstance, request: InjectOptions) {
  const response = await app.inject(request);
  if (response.statusCode !== 201) throw new Error(`set-up call refused: ${response.statusCode} ${response.body}`);
  return response.json() as { id: number };
}

/**
 * New accounts for one operation's run (a run may delete an account or change its password), the
 * buyer with two cart lines, an address and an order.
 */
export async function newCast(fuzz: FuzzShop): Promise<Cast> {
  const { app } = fuzz;
  // The back office's operations set minimum order sums, cartons and hidden prices as they are
  // fuzzed: undone here, so that the set-up's own one-piece cart lines and order go through.
  await app.database.db.update(priceTypes).set({ minOrderSum: '0' });
  await app.database.db.update(products).set({ multiple: 1, minQuantity: 1 });
  await app.repositories.settings.set(PRICES_FOR_VISITORS_SETTING, 'true');
  app.priceViews.invalidate();
  app.catalogueCache.invalidate();
  // Read anew: the back office's operations hide, delete and restock products as they are fuzzed.
  Object.assign(fuzz, await readCatalogue(app));
  const [buyer, otherBuyer] = (await quickShoppers(app, 2)) as [Shopper, Shopper];
  const manager = await newManager(app);
  const pairs = stockedPairs(fuzz.catalogue).slice(0, 3);
  const cartItemIds: number[] = [];
  for (const pair of pairs.slice(0, 2)) {
    const added = await expectCreated(app, {
      method: 'POST',
      url: '/api/v1/cart/add',
      headers: buyer.headers,
      payload: { user_id: buyer.id, ...pair, count: 1 },
    });
    cartItemIds.push(added.id);
  }
  const address = await expectCreated(app, {
    method: 'POST',
    url: '/api/v1/address',
    headers: buyer.headers,
    payload: { user_id: buyer.id, country: 'Россия', city: 'Москва', street: 'Тверская', home_number: '1' },
  });
  const order = await expectCreated(app, {
    method: 'POST',
    url: '/api/v1/order',
    headers: buyer.headers,
    payload: { user_id: buyer.id, address: 'г. Москва, ул. Тверская, д. 1', items: [{ ...pairs[2]!, quantity: 1 }] },
  });
  return { buyer, otherBuyer, manager, holdings: { cartItemIds, addressIds: [address.id], orderIds: [order.id] } };
}

export function actorOf(kind: ActorKind, cast: Cast): Actor {
  const { buyer, otherBuyer, manager } = cast;
  switch (kind) {
    case 'anonymous':
      return { kind, headers: {}, subject: buyer };
    case 'forged':
      return { kind, headers: { authorization: 'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIn0.' }, subject: buyer };
    case 'buyer':
      return { kind, headers: buyer.headers, subject: buyer };
    case 'other-buyer':
      // The other buyer's token on the buyer's data: someone else's cart, orders, addresses.
      return { kind, headers: otherBuyer.headers, subject: buyer };
    case 'manager':
      return { kind, headers: manager.headers, subject: manager };
  }
}

/** Values that exist, by field or parameter name, for requests about `actor`'s subject. */
export function hintsFor(actor: Actor, cast: Cast, fuzz: FuzzShop): Hints {
  const { holdings } = cast;
  const { catalogue } = fuzz;
  const smallId = fc.integer({ min: 1, max: 100 });
  const own = (ids: number[]) => (ids.length > 0 ? fc.oneof(fc.constantFrom(...ids), smallId) : smallId);
  const variants = catalogue.flatMap((product) => product.variants);
  return {
    user_id: fc.constant(actor.subject.id),
    item_id: own(holdings.cartItemIds),
    id: own([...holdings.orderIds, ...holdings.addressIds]),
    art: fc.constantFrom(...catalogue.map((product) => product.art)),
    category: fc.constantFrom(...fuzz.categories),
    name: fc.constantFrom(...catalogue.map((product) => product.image)),
    image: fc.constantFrom(...catalogue.map((product) => product.image)),
    color: fc.constantFrom(...new Set(variants.map((variant) => variant.color))),
    count: fc.integer({ min: 1, max: 5 }),
    quantity: fc.integer({ min: 1, max: 3 }),
    username: fc.constant(actor.subject.email),
    email: fc.oneof(
      fc.constant(actor.subject.email),
      fc.uuid().map((id) => `fuzz-${id.slice(0, 8)}@example.com`),
    ),
    password: fc.constant(TEST_PASSWORD),
    current_password: fc.constant(TEST_PASSWORD),
    consent: fc.constant(true),
  };
}
