/**
 * Kept catalogue reads answered before the router (kept-reads.ts), over a real socket: app.inject
 * goes straight to Fastify's router and never meets them, so each answer here is compared with the
 * router's own answer to the same request through inject.
 */
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PriceType, Product } from '../shared/api';
import { newManager } from '../../test/server/helpers/back-office';
import {
  allProducts,
  createTestApp,
  json,
  LogCapture,
  memberOf,
  quickShoppers,
  sessionIdOf,
  STARTUP_TIMEOUT,
  type Shopper,
  type TestApp,
} from '../../test/server/helpers/test-app';

const METRICS_TOKEN = 'kept-reads-metrics-token';
let shop: TestApp;
let port: number;
let manager: Shopper;
let catalogue: Product[];
let category: string;
const log = new LogCapture();

beforeAll(async () => {
  shop = await createTestApp(
    { accessLogSample: 1, logLevel: 'info', metrics: { port: null, host: '127.0.0.1', token: METRICS_TOKEN } },
    { logStream: log },
  );
  await shop.app.listen({ host: '127.0.0.1', port: 0 });
  port = (shop.app.server.address() as AddressInfo).port;
  manager = await newManager(shop.app);
  catalogue = await allProducts(shop.app);
  [category] = json<string[]>(await shop.app.inject({ method: 'GET', url: '/api/v1/products/categories/all' })) as [
    string,
  ];
}, STARTUP_TIMEOUT);
afterAll(() => shop.close());

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A request over the socket, the body as the bytes sent (never decompressed). */
function overSocket(
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const sent = httpRequest({ host: '127.0.0.1', port, method, path, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }),
      );
    });
    sent.on('error', reject);
    sent.end(body);
  });
}

/** The router's own answer to the same request. */
async function throughRouter(path: string, headers: Record<string, string> = {}): Promise<Answer> {
  const response = await shop.app.inject({ method: 'GET', url: path, headers });
  return { status: response.statusCode, headers: response.headers as IncomingHttpHeaders, body: response.rawPayload };
}

/** What two answers to one request must share: all but the connection's own headers. */
function comparable({ status, headers, body }: Answer) {
  const { date: _date, connection: _connection, 'keep-alive': _keepAlive, ...rest } = headers;
  return { status, headers: rest, body: body.toString('base64') };
}

const answeredHere = () => shop.app.keptReads.answered;

/**
 * Reads `path` through the router until it remembers it (on a read answered from a kept answer: the
 * second, and for a search, kept only when asked again, the third), then answers it here.
 */
async function keptAnswer(path: string, headers: Record<string, string> = {}): Promise<Answer> {
  for (let read = 0; read < 3; read += 1) await overSocket('GET', path, headers);
  const before = answeredHere();
  const answer = await overSocket('GET', path, headers);
  expect({ path, headers, answeredHere: answeredHere() }).toEqual({ path, headers, answeredHere: before + 1 });
  return answer;
}

const HEADER_SETS: Record<string, string>[] = [
  {},
  { 'accept-encoding': 'gzip, deflate, br, zstd' },
  { 'accept-encoding': 'gzip' },
  // Not a bearer token: the visitors' prices, yet private (the answer varies by Authorization).
  { authorization: 'Basic dXNlcjpwYXNz', 'accept-encoding': 'br' },
  // The refresh cookie makes an answer personal (security-headers.ts): the route's caching stands.
  { cookie: 'refresh_token=abc', 'accept-encoding': 'br' },
];

describe('a read the route has answered from the cache', () => {
  const paths = () => {
    const product = catalogue[0]!;
    return [
      '/api/v1/products/popular?skip=0&limit=8',
      `/api/v1/products/categories/${encodeURIComponent(category)}?skip=0&limit=9`,
      `/api/v1/products/categories/${encodeURIComponent(category)}?skip=0&limit=9&sort=price_asc`,
      `/api/v1/products/${encodeURIComponent(product.art)}`,
      '/api/v1/products/categories/all',
      `/api/v1/products/search?q=${encodeURIComponent(product.art)}`,
    ];
  };

  it('is answered before the router, byte for byte as the router answers it, in every encoding and as a 304', async () => {
    for (const path of paths()) {
      for (const headers of HEADER_SETS) {
        const kept = await keptAnswer(path, headers);
        expect(kept.status).toBe(200);
        expect(comparable(kept)).toEqual(comparable(await throughRouter(path, headers)));
      }
      const etag = (await throughRouter(path)).headers.etag as string;
      const notModified = await keptAnswer(path, { 'if-none-match': etag });
      expect(notModified.status).toBe(304);
      expect(notModified.body.length).toBe(0);
      expect(comparable(notModified)).toEqual(comparable(await throughRouter(path, { 'if-none-match': etag })));
    }
  });

  it('carries the API’s security headers, as every answer of the API does', async () => {
    const kept = await keptAnswer('/api/v1/products/popular?skip=0&limit=4');
    expect(kept.headers).toMatchObject({
      'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
      'x-content-type-options': 'nosniff',
      'cache-control': 'no-cache',
    });
  });

  it('is never an answer the cache no longer keeps: a changed price is read at once', async () => {
    const product = catalogue[1]!;
    const path = `/api/v1/products/${encodeURIComponent(product.art)}`;
    const variant = product.variants[0]!;
    await keptAnswer(path);
    const changed = await shop.app.inject({
      method: 'PATCH',
      url: `/api/v1/admin/variants/${variant.id}`,
      headers: manager.headers,
      payload: { price: Number(variant.price) + 7 },
    });
    expect(changed.statusCode).toBe(200);
    const before = answeredHere();
    const fresh = JSON.parse((await overSocket('GET', path)).body.toString('utf8')) as Product;
    expect(answeredHere()).toBe(before);
    expect(Number(fresh.variants.find((candidate) => candidate.id === variant.id)!.price)).toBe(
      Number(variant.price) + 7,
    );
    // Kept again, and answered here again.
    expect(comparable(await keptAnswer(path))).toEqual(comparable(await throughRouter(path)));
  });

  it('goes to the router as anything else when it is not a plain GET, or names an address too long to keep', async () => {
    const path = '/api/v1/products/popular?skip=0&limit=3';
    await keptAnswer(path);
    const before = answeredHere();
    const head = await overSocket('HEAD', path);
    expect(head.status).toBe(200);
    const withBody = await overSocket('GET', path, { 'content-type': 'application/json', 'content-length': '2' }, '{}');
    expect(withBody.status).toBe(200);
    expect(answeredHere()).toBe(before);

    const long = `/api/v1/products/search?q=${encodeURIComponent('м'.repeat(90))}`;
    for (let read = 0; read < 3; read += 1) expect((await overSocket('GET', long)).status).toBe(200);
    expect(answeredHere()).toBe(before);
  });
});

describe('a signed-in buyer of another price type', () => {
  let buyer: Shopper;
  let product: Product;
  const path = () => `/api/v1/products/${encodeURIComponent(product.art)}`;

  beforeAll(async () => {
    [buyer] = (await quickShoppers(shop.app, 1)) as [Shopper];
    product = catalogue[2]!;
    const created = await shop.app.inject({
      method: 'POST',
      url: '/api/v1/admin/price-types',
      headers: manager.headers,
      payload: { name: 'Крупный опт' },
    });
    const type = json<PriceType>(created);
    const variant = product.variants[0]!;
    const priced = await shop.app.inject({
      method: 'PUT',
      url: `/api/v1/admin/variants/${variant.id}/prices`,
      headers: manager.headers,
      payload: [{ price_type_id: type.id, price: 11, tiers: [] }],
    });
    expect(priced.statusCode).toBe(200);
    const { companyId } = await memberOf(shop.app, buyer.id);
    const assigned = await shop.app.inject({
      method: 'PATCH',
      url: `/api/v1/admin/companies/${companyId}`,
      headers: manager.headers,
      payload: { price_type_id: type.id },
    });
    expect(assigned.statusCode).toBe(200);
  });

  it('gets their own prices, private, as the router gives them; a visitor at the same address gets the visitors’', async () => {
    const kept = await keptAnswer(path(), buyer.headers);
    expect(comparable(kept)).toEqual(comparable(await throughRouter(path(), buyer.headers)));
    expect(kept.headers['cache-control']).toBe('private, no-cache');
    const theirs = JSON.parse(kept.body.toString('utf8')) as Product;
    expect(theirs.variants[0]!.price).toBe(11);

    const visitors = await keptAnswer(path());
    expect(visitors.headers['cache-control']).toBe('no-cache');
    expect((JSON.parse(visitors.body.toString('utf8')) as Product).variants[0]!.price).toBe(product.variants[0]!.price);
  });

  it('is refused (401) once the session is revoked, never answered the kept prices', async () => {
    await keptAnswer(path(), buyer.headers);
    shop.app.sessionRevocations.remember([sessionIdOf(buyer.token)]);
    const before = answeredHere();
    const refused = await overSocket('GET', path(), buyer.headers);
    expect(refused.status).toBe(401);
    expect(answeredHere()).toBe(before);
    expect((await overSocket('GET', path(), { authorization: 'Bearer not-a-token' })).status).toBe(401);
  });
});

describe('what the app’s hooks do for every answer', () => {
  it('writes the access line and counts the read in the metrics, under the route’s pattern', async () => {
    const product = catalogue[3]!;
    const path = `/api/v1/products/${encodeURIComponent(product.art)}`;
    const count = async () => {
      const metrics = await shop.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: `Bearer ${METRICS_TOKEN}` },
      });
      const line = metrics.body
        .split('\n')
        .find(
          (candidate) =>
            candidate.startsWith('http_request_duration_seconds_count{') &&
            candidate.includes('route="/api/v1/products/:art"') &&
            candidate.includes('status_code="200"'),
        );
      return { requests: Number(line?.split(' ').at(-1) ?? 0), kept: metrics.body };
    };
    await keptAnswer(path);
    const before = await count();
    const linesBefore = log.lines.length;
    for (let i = 0; i < 3; i += 1) await overSocket('GET', path);
    const after = await count();
    expect(after.requests - before.requests).toBe(3);
    expect(after.kept).toMatch(new RegExp(`^shop_kept_reads_total ${shop.app.keptReads.answered}$`, 'm'));
    const lines = log.lines
      .slice(linesBefore)
      .map((line) => JSON.parse(line) as { msg: string; url?: string; reqId?: string; statusCode?: number })
      .filter((line) => line.msg === 'request' && line.url === path);
    expect(lines).toHaveLength(3);
    expect(lines.every((line) => line.statusCode === 200 && /^kept-[0-9a-z]+$/.test(line.reqId ?? ''))).toBe(true);
  });

  it('says «Connection: close» while the process drains: then the router answers', async () => {
    const path = '/api/v1/products/popular?skip=0&limit=2';
    await keptAnswer(path);
    shop.app.startDraining();
    const before = answeredHere();
    const answer = await overSocket('GET', path);
    expect(answer.status).toBe(200);
    expect(answer.headers.connection).toBe('close');
    expect(answeredHere()).toBe(before);
  });
});
