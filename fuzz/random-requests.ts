/**
 * Phase 2: thousands of random and malformed requests to every endpoint, written by hand rather
 * than from the document: methods, paths, path parameters, queries, bodies, content types and
 * headers drawn from arbitrary unicode text, numbers and nested JSON, and text that has broken
 * parsers before, mixed with well-formed calls so that carts fill and orders are placed and
 * cancelled. Every answer: never a 5xx, and every error is JSON `{detail: string}`. Afterwards the
 * shop's data must agree with itself (consistency.ts).
 */
import fc from 'fast-check';
import { gt, max } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import type { Product } from '../src/shared/api';
import { orders } from '../src/server/db/schema';
import { quickShoppers, setVariant, type Shopper } from '../test/server/helpers/test-app';
import { CANCELLED, inconsistencies, ledgerOf } from './consistency';
import { errorBodyProblems } from './openapi';
import { describeFailure, type FuzzSettings } from './operations';
import type { FuzzShop } from './shop';

/** Who calls, and what with. */
interface Cast {
  shoppers: Shopper[];
  catalogue: Product[];
  /** In-stock variants the requests order from. */
  pool: { productId: number; variantId: number }[];
}

interface RandomRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
}

/** Text that has broken parsers before: numbers in odd spellings, SQL, traversal, unicode. */
const NASTY = [
  '',
  ' ',
  '0',
  '-1',
  '1.0',
  '1e3',
  '0x1',
  '01',
  '+1',
  'NaN',
  'Infinity',
  '-0',
  'null',
  'true',
  'undefined',
  '[]',
  '{}',
  '[1]',
  '99999999999999999999',
  '2147483648',
  '9007199254740993',
  '1e308',
  "' OR '1'='1",
  '1;DROP TABLE users',
  '"; --',
  '../../etc/passwd',
  '..\\..\\package.json',
  '%00',
  '\u0000',
  '%',
  '%zz',
  '%C0%AE',
  '\uFEFF1',
  '１',
  '١',
  '𝟙',
  '½',
  '²',
  'ё',
  'Ёлка',
  '🧸',
  'e\u0301',
  '\u202E',
  '<script>alert(1)</script>',
  '${7*7}',
  '{{7*7}}',
  '__proto__',
  'constructor',
  'toString',
  'a'.repeat(300),
  'я'.repeat(700),
];

const asciiChar = fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code));
/** Printable ASCII, as a header value may carry. */
const headerText = fc.string({ unit: asciiChar, maxLength: 60 });
/** Any text: every code point (no lone surrogates), graphemes, or a known troublemaker. */
const text = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 20 }) },
  { weight: 3, arbitrary: fc.constantFrom(...NASTY) },
);
/** A path or query value: mostly a plausible id, often anything. */
const idText = fc.oneof(
  { weight: 5, arbitrary: fc.integer({ min: 1, max: 80 }).map(String) },
  { weight: 1, arbitrary: fc.integer().map(String) },
  { weight: 1, arbitrary: fc.double().map(String) },
  { weight: 3, arbitrary: text },
);
/** A JSON value where a number belongs: mostly small integers, sometimes anything JSON can hold. */
const jsonNumberish = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 1, max: 6 }) },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.double() },
  { weight: 1, arbitrary: fc.constantFrom(0, -1, 10_000, 10_001, 2 ** 31, 2 ** 53, 1e308, -0, 1.5) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 2, stringUnit: 'binary' }) },
);
const anyJson = fc.jsonValue({ maxDepth: 4, stringUnit: 'binary' });
/** Extra fields an attacker adds to a body. */
const extras = fc.dictionary(
  fc.oneof(
    fc.constantFrom(
      'price',
      'total_price',
      'item_total',
      'status',
      'id',
      'user_id',
      '__proto__',
      'constructor',
      'is_admin',
    ),
    fc.string({ maxLength: 10 }),
  ),
  anyJson,
  { maxKeys: 3 },
);

/** A path segment, usually encoded; sometimes raw percent junk. */
const segment = (value: fc.Arbitrary<string>) =>
  fc.oneof(
    { weight: 9, arbitrary: value.map((raw) => encodeURIComponent(raw)) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '%',
        '%zz',
        '%C0%AE%C0%AE',
        '%FF',
        '..',
        '.',
        '%2e%2e%2f',
        'a'.repeat(600),
        '%00',
        '%E0%A4%A',
      ),
    },
  );

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/x-www-form-urlencoded',
  'text/plain',
  'application/xml',
  'multipart/form-data; boundary=----fuzz',
  'application/octet-stream',
  'application/json; charset=latin1',
  'APPLICATION/JSON',
  'application/vnd.api+json',
  '*/*',
];

/** Turns a body value into what goes on the wire, under one of many content types. */
const wireBody = (value: fc.Arbitrary<unknown>) =>
  fc.oneof(
    // Well-formed JSON, as the storefront sends it.
    {
      weight: 10,
      arbitrary: value.map((body) => ({ contentType: 'application/json', payload: JSON.stringify(body) ?? 'null' })),
    },
    // The same, form-encoded (the login's format).
    {
      weight: 2,
      arbitrary: value.map((body) => ({
        contentType: 'application/x-www-form-urlencoded',
        payload: new URLSearchParams(
          Object.entries(body && typeof body === 'object' ? body : { value: body }).map(
            ([key, field]): [string, string] => [
              key,
              field !== null && typeof field === 'object' ? JSON.stringify(field) : String(field),
            ],
          ),
        ).toString(),
      })),
    },
    // Truncated or mangled JSON.
    {
      weight: 2,
      arbitrary: fc.tuple(value, fc.nat(), text).map(([body, cut, junk]) => {
        const json = JSON.stringify(body) ?? '';
        return { contentType: 'application/json', payload: json.slice(0, cut % (json.length + 1)) + junk };
      }),
    },
    // Anything under any content type, or none.
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          fc.oneof(fc.constantFrom(...CONTENT_TYPES), headerText, fc.constant(undefined)),
          fc.oneof(
            text,
            anyJson.map((json) => JSON.stringify(json)),
          ),
        )
        .map(([contentType, payload]) => ({ contentType, payload })),
    },
    { weight: 1, arbitrary: fc.constant({ contentType: undefined, payload: undefined }) },
  );

/**
 * Stands for the id of the user whose token the request carries (the "actor", drawn with the
 * token), so that well-formed calls are the actor's own and can succeed.
 */
const SELF = 777_000_777;

/** The arbitrary of one random request by the shoppers of `cast`, about its catalogue and variants. */
function requestArbitrary({ shoppers, catalogue, pool }: Cast): fc.Arbitrary<RandomRequest> {
  const ids = shoppers.map((shopper) => shopper.id);
  const arts = catalogue.map((product) => product.art);
  const images = catalogue.map((product) => product.image);
  const userId = fc.oneof(
    { weight: 6, arbitrary: fc.constant(SELF) },
    { weight: 2, arbitrary: fc.constantFrom(...ids) },
    { weight: 1, arbitrary: jsonNumberish },
  );
  const userIdText = fc.oneof(
    { weight: 6, arbitrary: fc.constant(String(SELF)) },
    { weight: 2, arbitrary: fc.constantFrom(...ids).map(String) },
    { weight: 1, arbitrary: idText },
  );
  const pair = fc.constantFrom(...pool);
  const productAndVariant = fc.oneof(
    {
      weight: 4,
      arbitrary: pair.map(({ productId, variantId }) => ({ product_id: productId, variant_id: variantId })),
    },
    { weight: 1, arbitrary: fc.record({ product_id: jsonNumberish, variant_id: jsonNumberish }) },
  );
  /** A record where each field may be missing, plus attacker's extras. */
  const loose = <T extends Record<string, fc.Arbitrary<unknown>>>(fields: T, required = true) =>
    fc
      .tuple(required ? fc.record(fields) : fc.record(fields, { requiredKeys: [] }), extras)
      .map(([body, extra]) => ({ ...extra, ...body }) as Record<string, unknown>);

  const cartAdd = fc.oneof(
    {
      weight: 3,
      arbitrary: fc
        .tuple(productAndVariant, loose({ user_id: userId, count: jsonNumberish }))
        .map(([ids, body]) => ({ ...ids, ...body })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(productAndVariant, loose({ user_id: userId, count: jsonNumberish }, false))
        .map(([ids, body]) => ({ ...ids, ...body })),
    },
  );
  const orderItem = fc
    .tuple(productAndVariant, fc.record({ quantity: jsonNumberish }, { requiredKeys: [] }))
    .map(([ids, rest]) => ({ ...ids, ...rest }));
  // The checkout's own order: the actor's, with real lines (and sometimes an attacker's extras).
  const wellFormedOrder = loose({
    user_id: fc.constant(SELF),
    address: fc.constant('г. Москва, ул. Фаззинга, д. 1'),
    items: fc.array(
      pair.chain(({ productId, variantId }) =>
        fc.record({
          product_id: fc.constant(productId),
          variant_id: fc.constant(variantId),
          quantity: fc.integer({ min: 1, max: 3 }),
        }),
      ),
      { minLength: 1, maxLength: 3 },
    ),
    company_name: fc.constantFrom(null, 'ООО «Фазз»'),
    company_inn: fc.constantFrom(null, '123456789012'),
    company_kpp: fc.constantFrom(null, '123456789'),
  });
  const looseOrder = loose(
    {
      user_id: userId,
      address: fc.oneof(
        { weight: 3, arbitrary: fc.constant('г. Москва, ул. Фаззинга, д. 1') },
        { weight: 1, arbitrary: text },
      ),
      items: fc.oneof(
        { weight: 5, arbitrary: fc.array(orderItem, { minLength: 1, maxLength: 3 }) },
        { weight: 1, arbitrary: anyJson },
      ),
      company_name: fc.oneof(fc.constant(null), text),
      company_inn: fc.oneof(fc.constant(null), fc.constant('123456789012'), text),
      company_kpp: fc.oneof(fc.constant(null), fc.constant('123456789'), text),
      contact_name: text,
      contact_phone: text,
    },
    false,
  );
  const order = fc.oneof({ weight: 2, arbitrary: wellFormedOrder }, { weight: 2, arbitrary: looseOrder });
  const address = loose(
    {
      user_id: userId,
      country: fc.oneof(fc.constant('Россия'), text),
      city: fc.oneof(fc.constant('Москва'), text),
      street: fc.oneof(fc.constant('ул. Тверская'), text),
      home_number: fc.oneof(fc.constant('1'), text),
      apartment_number: fc.oneof(fc.constant(null), text),
    },
    false,
  );
  // A login or sign-up that passes validation costs a full scrypt: such bodies are made rare.
  const login = fc.oneof(
    { weight: 6, arbitrary: anyJson },
    {
      weight: 1,
      arbitrary: fc.record(
        { username: fc.oneof(text, fc.constant(shoppers[0]!.email)), password: fc.oneof(text, anyJson) },
        { requiredKeys: [] },
      ),
    },
  );
  const register = fc.record(
    {
      email: fc.oneof({ weight: 9, arbitrary: text }, { weight: 1, arbitrary: fc.constant('fuzz-user@example.com') }),
      password: text,
    },
    { requiredKeys: [] },
  );
  const pageQuery = fc.record({ skip: idText, limit: idText }, { requiredKeys: [] });

  type Call = {
    method: string;
    path: fc.Arbitrary<string>;
    query?: fc.Arbitrary<Record<string, unknown>>;
    body?: fc.Arbitrary<unknown>;
    weight: number;
  };
  const c = (
    method: string,
    path: fc.Arbitrary<string> | string,
    weight: number,
    extra: Partial<Pick<Call, 'query' | 'body'>> = {},
  ): Call => ({
    method,
    path: typeof path === 'string' ? fc.constant(path) : path,
    weight,
    ...extra,
  });
  const at = (prefix: string, value: fc.Arbitrary<string>, suffix = '') =>
    segment(value).map((part) => `${prefix}${part}${suffix}`);
  const calls: Call[] = [
    c('GET', '/api/v1/products/', 2, { query: pageQuery }),
    c('GET', at('/api/v1/products/', fc.oneof(fc.constantFrom(...arts), text)), 2),
    c('GET', '/api/v1/products/categories/all', 1),
    c('GET', at('/api/v1/products/categories/', fc.oneof(fc.constantFrom('Мишки', 'Зайцы', 'Куклы'), text)), 2, {
      query: pageQuery,
    }),
    c('GET', '/api/v1/products/popular', 2, { query: pageQuery }),
    c('GET', '/api/v1/banners/all', 1),
    c('POST', '/api/v1/auth/token', 1, { body: login }),
    c('POST', '/api/v1/auth/register', 1, { query: register, body: fc.oneof(register, anyJson) }),
    c('GET', '/api/v1/auth/user', 2),
    c('POST', '/api/v1/auth/refresh', 2, { body: anyJson }),
    c('POST', '/api/v1/auth/logout', 2, { body: anyJson }),
    c('GET', at('/api/v1/cart/', userIdText), 4),
    c('PUT', '/api/v1/cart/count', 5, {
      query: fc.record(
        { item_id: idText, count: fc.oneof(fc.integer({ min: 1, max: 6 }).map(String), idText) },
        { requiredKeys: [] },
      ),
    }),
    c('POST', '/api/v1/cart/add', 8, { body: cartAdd }),
    c('DELETE', at('/api/v1/cart/', idText), 3),
    c('POST', '/api/v1/order/', 6, { body: order }),
    c('GET', at('/api/v1/order/', userIdText), 2),
    c('DELETE', at('/api/v1/order/', idText), 3),
    c('GET', at('/api/v1/order/', idText, '/status'), 2),
    c('POST', '/api/v1/address/', 3, { body: address }),
    c('GET', at('/api/v1/address/', userIdText), 2),
    c('PUT', at('/api/v1/address/', idText), 2, { body: address }),
    c('DELETE', at('/api/v1/address/', idText), 2),
    c('GET', at('/api/v1/image/', fc.oneof(fc.constantFrom(...images), text)), 2),
    c(
      'GET',
      fc.array(segment(text), { minLength: 1, maxLength: 4 }).map((parts) => `/api/${parts.join('/')}`),
      2,
    ),
  ];

  const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS', 'TRACE'];
  /** Given the actor: their token, mostly; sometimes none or a broken one. */
  const auth = (actor: Shopper) =>
    fc.oneof(
      { weight: 8, arbitrary: fc.constant(`Bearer ${actor.token}`) },
      { weight: 1, arbitrary: fc.constant(undefined) },
      {
        weight: 1,
        arbitrary: fc.oneof(
          headerText,
          headerText.map((junk) => `Bearer ${junk}`),
          fc.constantFrom(
            'Bearer',
            'Bearer ',
            `Bearer ${shoppers[0]!.token}x`,
            `bearer ${shoppers[1]!.token} ${shoppers[2]!.token}`,
          ),
        ),
      },
    );
  const extraHeaders = fc.dictionary(
    fc.constantFrom(
      'origin',
      'cookie',
      'x-forwarded-for',
      'x-forwarded-proto',
      'x-forwarded-host',
      'accept',
      'accept-encoding',
      'idempotency-key',
      'if-none-match',
      'range',
      'x-http-method-override',
      'user-agent',
      'x-fuzz',
    ),
    fc.oneof(
      headerText,
      fc.constantFrom(
        'refresh_token=abc',
        'refresh_token=%',
        'gzip',
        'br',
        'bytes=0-10',
        'bytes=999999-',
        'https',
        '*',
        '"x"',
        'null',
      ),
    ),
    { maxKeys: 3 },
  );

  return fc.oneof(
    ...calls.map((call) => ({
      weight: call.weight,
      arbitrary: fc
        .record({
          method: fc.oneof(
            { weight: 9, arbitrary: fc.constant(call.method) },
            { weight: 1, arbitrary: fc.constantFrom(...METHODS) },
          ),
          path: call.path,
          query: call.query ?? fc.constant({}),
          rawQuery: fc.oneof(
            { weight: 12, arbitrary: fc.constant('') },
            {
              weight: 1,
              arbitrary: fc.constantFrom(
                'skip=%',
                'limit=%zz&skip=1',
                'a[b]=1&a[c]=2',
                'count=1&count=2',
                '&&==&',
                '%00=%00',
              ),
            },
          ),
          body: call.body
            ? wireBody(call.body)
            : fc.oneof(
                { weight: 4, arbitrary: fc.constant({ contentType: undefined, payload: undefined }) },
                { weight: 1, arbitrary: wireBody(anyJson) },
              ),
          actor: fc.constantFrom(...shoppers).chain((actor) => fc.tuple(fc.constant(actor), auth(actor))),
          headers: extraHeaders,
        })
        .map(({ method, path, query, rawQuery, body, actor: [actor, authorization], headers }): RandomRequest => {
          const self = (wire: string) => wire.replaceAll(String(SELF), String(actor.id));
          const search = new URLSearchParams(
            Object.entries(query).map(([key, value]): [string, string] => [key, String(value)]),
          ).toString();
          const queryString = [search, rawQuery].filter(Boolean).join('&');
          return {
            method,
            url: self(queryString ? `${path}?${queryString}` : path),
            headers: {
              ...headers,
              ...(authorization === undefined ? {} : { authorization }),
              ...(body.contentType === undefined ? {} : { 'content-type': body.contentType }),
            },
            ...(body.payload === undefined ? {} : { payload: self(body.payload) }),
          };
        }),
    })),
  );
}

/** What is wrong with one answer (empty when nothing is). */
function answerProblems(request: RandomRequest, response: LightMyRequestResponse): string[] {
  return [
    ...(response.statusCode >= 500 ? [`status ${response.statusCode}: ${response.body.slice(0, 300)}`] : []),
    ...errorBodyProblems(request.method, response),
  ];
}

export interface RandomRequestsReport {
  requests: number;
  /** Per status, how many answers. */
  statuses: Record<string, number>;
  /** Method and path (its last segment left out) of every request sent: how much of the API was reached. */
  routes: number;
  /** Orders the requests placed, and of them those cancelled. */
  ordersPlaced: number;
  ordersCancelled: number;
  /** The shrunk request that failed, and why (null when none did). */
  failure: string | null;
  /** How the shop's data disagrees with itself afterwards (empty when it does not). */
  inconsistencies: string[];
}

export async function fuzzRandomRequests(fuzz: FuzzShop, settings: FuzzSettings): Promise<RandomRequestsReport> {
  const { app, catalogue } = fuzz;
  const shoppers = await quickShoppers(app, 4);
  const stocked = catalogue.filter((product) => product.variants.filter((variant) => variant.stock > 0).length >= 2);
  // Small stocks, so that the requests run some of them out and meet 409s too.
  const pool: Cast['pool'] = [];
  for (const product of stocked.slice(0, 8)) {
    for (const [index, variant] of product.variants.entries()) {
      await setVariant(app, variant.id, { stock: index === 0 ? 0 : 12 });
      pool.push({ productId: product.id, variantId: variant.id });
    }
  }
  // Written straight to the database: the catalogue's cached reads must not show the old stock.
  app.catalogueCache.invalidate();
  const ledger = await ledgerOf(app);
  const [before] = await app.database.db.select({ last: max(orders.id) }).from(orders);

  const statuses: Record<string, number> = {};
  const routes = new Set<string>();
  let requests = 0;
  const property = fc.asyncProperty(requestArbitrary({ shoppers, catalogue, pool }), async (request) => {
    const response = await app.inject({
      method: request.method as 'GET',
      url: request.url,
      headers: request.headers,
      ...(request.payload === undefined ? {} : { payload: request.payload }),
    });
    requests += 1;
    statuses[response.statusCode] = (statuses[response.statusCode] ?? 0) + 1;
    routes.add(`${request.method} ${request.url.split('?')[0]!.replace(/\/[^/]*$/, '/…')}`);
    const problems = answerProblems(request, response);
    if (problems.length > 0) throw new Error(`${request.method} ${request.url}\n${problems.join('\n')}`);
  });
  const details = await fc.check(property, { numRuns: settings.runs, seed: settings.seed });
  settings.progress?.(`random requests: ${requests}`);
  const placed = await app.database.db
    .select({ status: orders.status })
    .from(orders)
    .where(gt(orders.id, before?.last ?? 0));
  return {
    requests,
    statuses,
    routes: routes.size,
    ordersPlaced: placed.length,
    ordersCancelled: placed.filter((order) => order.status === CANCELLED).length,
    failure: details.failed
      ? `seed ${settings.seed}, path ${details.counterexamplePath}: ${describeFailure(details)}`
      : null,
    inconsistencies: await inconsistencies(app, ledger),
  };
}
