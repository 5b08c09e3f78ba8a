import http from 'node:http';
import { eq, sql } from 'drizzle-orm';
import type { Product } from '../../shared/api';
import { freePort } from '../../../deploy/cluster';
import { mailOutbox, orders } from '../db/schema';
import {
  allProducts,
  createTestApp,
  json,
  quickShoppers,
  setVariant,
  STARTUP_TIMEOUT,
  usesPostgres,
  type Shopper,
  type TestApp,
} from '../../../test/server/helpers/test-app';
import { newManager } from '../../../test/server/helpers/back-office';

const TOKEN = 'metrics-token-for-the-tests-0123';
const ADDRESS = 'г. Тверь, ул. Советская, д. 3';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/**
 * The text exposition format, line by line: every line is a comment or `name{labels} value`, or
 * this throws, so a malformed answer fails the test that reads it.
 */
function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('# HELP ') || line.startsWith('# TYPE ')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{((?:[a-zA-Z_]\w*="(?:[^"\\]|\\.)*",?)*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`not in the exposition format: ${line}`);
    const labels = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/([a-zA-Z_]\w*)="((?:[^"\\]|\\.)*)"/g)].map(([, name, value]) => [name!, value!]),
    );
    // prom-client writes NaN as `Nan`; Prometheus reads any case of it (Go's ParseFloat).
    const value = /^nan$/i.test(match[3]!) ? NaN : Number(match[3]!.replace(/^([+-])Inf$/, '$1Infinity'));
    if (Number.isNaN(value) && !/^nan$/i.test(match[3]!)) throw new Error(`not a number: ${line}`);
    samples.push({ name: match[1]!, labels, value });
  }
  return samples;
}

/** The value of the one sample named so whose labels include `labels`; undefined when there is none. */
function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  const found = samples.filter(
    (sample) =>
      sample.name === name && Object.entries(labels).every(([label, value]) => sample.labels[label] === value),
  );
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} ${JSON.stringify(labels)}`);
  return found[0]?.value;
}

function get(port: number, path: string): Promise<{ status: number; type: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path, agent: false }, (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode!, type: response.headers['content-type'], body }),
        );
      })
      .on('error', reject);
  });
}

describe('without METRICS_PORT or METRICS_TOKEN', () => {
  let shop: TestApp;
  beforeAll(async () => {
    shop = await createTestApp();
  }, STARTUP_TIMEOUT);
  afterAll(() => shop.close());

  it('the shop port has no /metrics, whatever token comes with the request', async () => {
    for (const headers of [{}, { authorization: `Bearer ${TOKEN}` }]) {
      const response = await shop.app.inject({ method: 'GET', url: '/metrics', headers });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ detail: 'Не найдено' });
    }
    const document = json<{ paths: Record<string, unknown> }>(
      await shop.app.inject({ method: 'GET', url: '/api/docs/json' }),
    );
    expect(document.paths['/metrics']).toBeUndefined();
  });

  it('measures nothing per request or per query, and runs none of Node’s collectors', async () => {
    expect((await shop.app.inject({ method: 'GET', url: '/api/v1/products/popular' })).statusCode).toBe(200);
    const samples = parseExposition(await shop.app.metrics.registry.metrics());
    const names = new Set(samples.map((sample) => sample.name));
    expect(names.has('http_request_duration_seconds_count')).toBe(false);
    expect(valueOf(samples, 'shop_db_query_duration_seconds_count')).toBe(0);
    expect(names.has('process_resident_memory_bytes')).toBe(false);
    // The shop's own counters still count: code that counts never asks whether metrics are served.
    expect(names.has('shop_orders_created_total')).toBe(true);
  });
});

describe('with METRICS_TOKEN', () => {
  let shop: TestApp;
  let buyer: Shopper;
  let products: Product[];

  beforeAll(async () => {
    shop = await createTestApp({ metrics: { port: null, host: '127.0.0.1', token: TOKEN } });
    [buyer] = (await quickShoppers(shop.app, 1)) as [Shopper];
    products = await allProducts(shop.app);
  }, STARTUP_TIMEOUT);
  afterAll(() => shop.close());

  async function scrape(): Promise<Sample[]> {
    const response = await shop.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(response.statusCode).toBe(200);
    return parseExposition(response.body);
  }

  /** A product of the catalogue no other test here touches, with its first variant's stock set. */
  let nextProduct = 0;
  async function productWithStock(stock: number) {
    const product = products[nextProduct++]!;
    const variant = product.variants[0]!;
    await setVariant(shop.app, variant.id, { stock });
    return { product, variant };
  }

  async function placeOrder(quantity: number, stock = 20) {
    const { product, variant } = await productWithStock(stock);
    return shop.app.inject({
      method: 'POST',
      url: '/api/v1/order/',
      headers: buyer.headers,
      payload: {
        user_id: buyer.id,
        address: ADDRESS,
        items: [{ product_id: product.id, variant_id: variant.id, quantity }],
      },
    });
  }

  it('refuses a scrape without the token, with another or in another scheme: 401 {detail}, not stored', async () => {
    for (const authorization of [undefined, 'Bearer wrong-token-of-the-same-size', `Basic ${TOKEN}`, TOKEN]) {
      const response = await shop.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: authorization === undefined ? {} : { authorization },
      });
      expect([authorization, response.statusCode]).toEqual([authorization, 401]);
      expect(response.json()).toEqual({ detail: expect.stringMatching(/токен/) });
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.headers['www-authenticate']).toMatch(/^Bearer/);
    }
  });

  it('answers the token with the text format, every line a comment or a sample, Node’s own metrics among them', async () => {
    const response = await shop.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `bearer ${TOKEN}` },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-store');
    const samples = parseExposition(response.body);
    expect(valueOf(samples, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(valueOf(samples, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
    expect(valueOf(samples, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
  });

  it('times requests by their route’s pattern, never the address itself; requests no route took are "unmatched"', async () => {
    const { art } = products[products.length - 1]!;
    expect(
      (await shop.app.inject({ method: 'GET', url: `/api/v1/products/${encodeURIComponent(art)}` })).statusCode,
    ).toBe(200);
    expect((await shop.app.inject({ method: 'GET', url: '/api/v1/no-such-call/12345' })).statusCode).toBe(404);
    const response = await shop.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    const samples = parseExposition(response.body);
    const product = { method: 'GET', route: '/api/v1/products/:art', status_code: '200' };
    expect(valueOf(samples, 'http_request_duration_seconds_count', product)).toBeGreaterThanOrEqual(1);
    expect(valueOf(samples, 'http_request_duration_seconds_bucket', { ...product, le: '+Inf' })).toBe(
      valueOf(samples, 'http_request_duration_seconds_count', product),
    );
    expect(
      valueOf(samples, 'http_request_duration_seconds_count', { route: 'unmatched', status_code: '404' }),
    ).toBeGreaterThanOrEqual(1);
    expect(response.body).not.toContain('no-such-call');
    expect(response.body).not.toContain(art);
    // Each statement those reads sent was timed.
    expect(valueOf(samples, 'shop_db_query_duration_seconds_count')).toBeGreaterThan(0);
  });

  it('counts an order placed once, its retry with the same Idempotency-Key not again', async () => {
    const before = valueOf(await scrape(), 'shop_orders_created_total') ?? 0;
    const { product, variant } = await productWithStock(20);
    const place = () =>
      shop.app.inject({
        method: 'POST',
        url: '/api/v1/order/',
        headers: { ...buyer.headers, 'idempotency-key': `metrics-${variant.id}` },
        payload: {
          user_id: buyer.id,
          address: ADDRESS,
          items: [{ product_id: product.id, variant_id: variant.id, quantity: 2 }],
        },
      });
    expect((await place()).statusCode).toBe(201);
    expect((await place()).headers['idempotent-replayed']).toBe('true');
    expect(valueOf(await scrape(), 'shop_orders_created_total')).toBe(before + 1);
  });

  it('counts cancellations by who cancelled: the buyer, a manager, the lapsed reservation', async () => {
    const cancelled = (samples: Sample[], by: string) => valueOf(samples, 'shop_orders_cancelled_total', { by }) ?? 0;
    const before = await scrape();
    const [byBuyer, byManager, lapsed] = await Promise.all([placeOrder(1), placeOrder(1), placeOrder(1)]);
    const idOf = (response: typeof byBuyer) => json<{ id: number }>(response).id;

    const buyerCancel = await shop.app.inject({
      method: 'DELETE',
      url: `/api/v1/order/${idOf(byBuyer)}`,
      headers: buyer.headers,
    });
    expect(buyerCancel.statusCode).toBe(200);
    const manager = await newManager(shop.app);
    const managerCancel = await shop.app.inject({
      method: 'POST',
      url: `/api/v1/admin/orders/${idOf(byManager)}/status`,
      headers: manager.headers,
      payload: { status: 'Отменён' },
    });
    expect(managerCancel.statusCode).toBe(200);
    await shop.app.database.db
      .update(orders)
      .set({ createdAt: sql`now() - make_interval(hours => 121)` })
      .where(eq(orders.id, idOf(lapsed)));
    expect(await shop.app.reservationSweeper.sweep()).toEqual([idOf(lapsed)]);

    const after = await scrape();
    expect(cancelled(after, 'buyer')).toBe(cancelled(before, 'buyer') + 1);
    expect(cancelled(after, 'manager')).toBe(cancelled(before, 'manager') + 1);
    expect(cancelled(after, 'expiry')).toBe(cancelled(before, 'expiry') + 1);
  });

  it('counts stock conflicts: an order beyond the stock, a sold-out variant put in the cart', async () => {
    const conflicts = (samples: Sample[], reason: string) =>
      valueOf(samples, 'shop_stock_conflicts_total', { reason }) ?? 0;
    const before = await scrape();

    const tooMany = await placeOrder(5, 3);
    expect(tooMany.statusCode).toBe(409);
    expect(tooMany.json()).toEqual({ detail: expect.stringMatching(/^Недостаточно товара/) });
    const { product, variant } = await productWithStock(0);
    const soldOut = await shop.app.inject({
      method: 'POST',
      url: '/api/v1/cart/bulk',
      headers: buyer.headers,
      payload: { user_id: buyer.id, items: [{ product_id: product.id, variant_id: variant.id, count: 1 }] },
    });
    expect(soldOut.statusCode).toBe(409);
    // Another refusal is no stock conflict.
    expect((await placeOrder(0)).statusCode).toBe(422);

    const after = await scrape();
    expect(conflicts(after, 'out_of_stock')).toBe(conflicts(before, 'out_of_stock') + 1);
    expect(conflicts(after, 'sold_out')).toBe(conflicts(before, 'sold_out') + 1);
  });

  it('counts catalogue cache misses and hits: the first of two same reads loads, the second is kept', async () => {
    const read = () => shop.app.inject({ method: 'GET', url: '/api/v1/products/', query: { skip: '3', limit: '7' } });
    const stat = (samples: Sample[], name: string) => valueOf(samples, `shop_catalogue_cache_${name}`) ?? 0;
    const before = await scrape();
    expect((await read()).statusCode).toBe(200);
    const between = await scrape();
    expect((await read()).statusCode).toBe(200);
    const after = await scrape();

    expect(stat(between, 'misses_total')).toBe(stat(before, 'misses_total') + 1);
    expect(stat(between, 'hits_total')).toBe(stat(before, 'hits_total'));
    expect(stat(after, 'hits_total')).toBe(stat(between, 'hits_total') + 1);
    expect(stat(after, 'misses_total')).toBe(stat(between, 'misses_total'));
    expect(stat(after, 'entries')).toBeGreaterThanOrEqual(1);
    expect(stat(after, 'bytes')).toBeGreaterThan(0);
  });

  it('reports the outbox backlog: a letter waiting for its retry, and how long the oldest has waited', async () => {
    const [letter] = await shop.app.database.db
      .insert(mailOutbox)
      .values({
        recipient: buyer.email,
        subject: 'Письмо, которое ждёт повтора',
        html: '<p>…</p>',
        text: '…',
        attempts: 1,
        nextAttemptAt: sql`now() + interval '1 hour'`,
        createdAt: sql`now() - interval '10 minutes'`,
      })
      .returning({ id: mailOutbox.id });
    try {
      const samples = await scrape();
      expect(valueOf(samples, 'shop_mail_outbox_pending')).toBeGreaterThanOrEqual(1);
      expect(valueOf(samples, 'shop_mail_outbox_oldest_pending_age_seconds')).toBeGreaterThanOrEqual(600);
    } finally {
      await shop.app.database.db.delete(mailOutbox).where(eq(mailOutbox.id, letter!.id));
    }
  });

  it('counts the letters sent from the outbox', async () => {
    // The orders above queued letters; the sender writes them as files.
    const deadline = Date.now() + 10_000;
    let sent = 0;
    while (sent === 0 && Date.now() < deadline) {
      sent = valueOf(await scrape(), 'shop_mail_deliveries_total', { outcome: 'sent' }) ?? 0;
      if (sent === 0) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(sent).toBeGreaterThan(0);
  });

  it('reports the PostgreSQL pool, and no pool on PGlite', async () => {
    const samples = await scrape();
    if (usesPostgres) {
      expect(valueOf(samples, 'shop_db_pool_max_connections')).toBe(10);
      expect(valueOf(samples, 'shop_db_pool_connections')).toBeGreaterThanOrEqual(1);
      expect(valueOf(samples, 'shop_db_pool_waiting_queries')).toBe(0);
    } else {
      expect(valueOf(samples, 'shop_db_pool_max_connections')).toBeUndefined();
      expect(valueOf(samples, 'shop_db_pool_connections')).toBeUndefined();
    }
  });

  it('is in the OpenAPI document under «operations», a text/plain answer behind its own bearer token', async () => {
    const document = json<{
      paths: Record<
        string,
        { get: { tags: string[]; security: unknown; responses: Record<string, { content: object }> } }
      >;
    }>(await shop.app.inject({ method: 'GET', url: '/api/docs/json' }));
    const metrics = document.paths['/metrics']!.get;
    expect(metrics.tags).toEqual(['operations']);
    expect(metrics.security).toEqual([{ metricsToken: [] }]);
    expect(Object.keys(metrics.responses['200']!.content)).toEqual(['text/plain']);
    expect(Object.keys(metrics.responses['401']!.content)).toEqual(['application/json']);
  });
});

describe('with METRICS_PORT', () => {
  let shop: TestApp;
  let port: number;
  beforeAll(async () => {
    port = await freePort();
    shop = await createTestApp({ metrics: { port, host: '127.0.0.1', token: null } });
  }, STARTUP_TIMEOUT);
  afterAll(() => shop.close());

  it('serves /metrics on that port only, without a token, and not on the shop’s port', async () => {
    expect((await shop.app.inject({ method: 'GET', url: '/api/health/live' })).statusCode).toBe(200);
    const scraped = await get(port, '/metrics');
    expect(scraped.status).toBe(200);
    expect(scraped.type).toBe('text/plain; version=0.0.4; charset=utf-8');
    const samples = parseExposition(scraped.body);
    expect(
      valueOf(samples, 'http_request_duration_seconds_count', { route: '/api/health/live', status_code: '200' }),
    ).toBe(1);

    expect((await get(port, '/')).status).toBe(404);
    expect((await get(port, '/api/health/live')).status).toBe(404);
    const publicPort = await shop.app.inject({ method: 'GET', url: '/metrics' });
    expect(publicPort.statusCode).toBe(404);
  });

  it(
    'stops listening when the app closes',
    async () => {
      const other = await freePort();
      const closing = await createTestApp({ metrics: { port: other, host: '127.0.0.1', token: null } });
      expect((await get(other, '/metrics')).status).toBe(200);
      await closing.close();
      await expect(get(other, '/metrics')).rejects.toThrow(/ECONNREFUSED/);
    },
    STARTUP_TIMEOUT,
  );
});
