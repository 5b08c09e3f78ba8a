import http from 'node:http';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { AnsweredRead } from '../kept-reads';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { checkMetricsHostResolves } from '../config';
import type { PoolUse, QueryObserver } from '../db/database';
import { LineRefusedError, OutOfStockError, SoldOutError } from '../domain/domain-errors';
import type { OutboxBacklog } from '../repositories/outbox';
import type { CatalogueCacheStats } from '../services/catalogue-cache';

/** The shop's own counters, incremented where the event happens; everything else is read at scrape time. */
export interface ShopMetrics {
  registry: Registry;
  ordersCreated: Counter;
  /** `by`: buyer, manager (the back office) or expiry (the server, when the reservation lapsed). */
  ordersCancelled: Counter<'by'>;
  mailDelivery: Counter<'outcome'>;
  /** Handed to the database to time each statement; unset while nobody can read the metrics. */
  queryObserver: QueryObserver | undefined;
  /** Times an answered request by its route's pattern and status (a no-op while nobody can read the metrics). */
  requestAnswered(read: AnsweredRead): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    metrics: ShopMetrics;
  }
}

/** The label of requests no route took: 404s, and the storefront's pages (served by the not-found handler). */
const UNMATCHED_ROUTE = 'unmatched';

/** From 1 ms (a cached catalogue read) to 10 s (an export or an import). */
const REQUEST_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** From half a millisecond (a lookup by key) to 5 s (the pool's connection timeout). */
const QUERY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/** The stock answers worth watching: a buyer wanted more than there was. Everything else refused is not counted. */
function stockConflictOf(error: unknown): 'out_of_stock' | 'sold_out' | null {
  const reason = error instanceof LineRefusedError ? error.reason : error;
  if (reason instanceof OutOfStockError) return 'out_of_stock';
  if (reason instanceof SoldOutError) return 'sold_out';
  return null;
}

function createMetrics(app: FastifyInstance, exposed: boolean): ShopMetrics {
  const registry = new Registry();
  const registers = [registry];

  const cacheCounter = (name: string, help: string, read: (stats: CatalogueCacheStats) => number) =>
    new Counter({
      name,
      help,
      registers,
      // Read from the cache's own tally at scrape time, so its hot path only adds one to a field.
      collect() {
        this.reset();
        this.inc(read(app.catalogueCache.stats()));
      },
    });
  const cacheGauge = (name: string, help: string, read: (stats: CatalogueCacheStats) => number) =>
    new Gauge({
      name,
      help,
      registers,
      collect() {
        this.set(read(app.catalogueCache.stats()));
      },
    });
  cacheCounter('shop_catalogue_cache_hits_total', 'Catalogue reads answered from the cache.', (stats) => stats.hits);
  cacheCounter(
    'shop_catalogue_cache_misses_total',
    'Catalogue reads that loaded their answer from the database.',
    (stats) => stats.misses,
  );
  cacheCounter(
    'shop_catalogue_cache_evictions_total',
    'Cached answers dropped to keep the cache within its size.',
    (stats) => stats.evictions,
  );
  cacheCounter(
    'shop_catalogue_cache_invalidations_total',
    'Times the whole cache was dropped because the catalogue or a stock changed.',
    (stats) => stats.invalidations,
  );
  cacheGauge('shop_catalogue_cache_entries', 'Answers the catalogue cache holds.', (stats) => stats.entries);
  cacheGauge('shop_catalogue_cache_bytes', 'Bytes of the answers the catalogue cache holds.', (stats) => stats.bytes);

  // Only on PostgreSQL: PGlite is one connection inside the process, with no pool to report.
  if (app.config.databaseUrl) {
    const pool = (name: string, help: string, read: (use: PoolUse) => number) =>
      new Gauge({
        name,
        help,
        registers,
        collect() {
          const use = app.database.poolUse();
          if (use) this.set(read(use));
        },
      });
    pool(
      'shop_db_pool_connections',
      'PostgreSQL connections the pool holds open (in use or idle).',
      (use) => use.total,
    );
    pool('shop_db_pool_idle_connections', 'PostgreSQL connections open and idle.', (use) => use.idle);
    pool(
      'shop_db_pool_waiting_queries',
      'Queries waiting for a free connection: the pool is exhausted.',
      (use) => use.waiting,
    );
    pool('shop_db_pool_max_connections', 'The most connections the pool opens.', (use) => use.max);
  }

  const queryDuration = new Histogram({
    name: 'shop_db_query_duration_seconds',
    help: 'Time of each database statement, from sending it to its result (on PGlite, waiting for the one connection included).',
    buckets: QUERY_BUCKETS,
    registers,
  });

  const outbox = async () => {
    try {
      return await app.repositories.outbox.backlog();
    } catch {
      // The database did not answer: the scrape still has every other metric (the 503s say why).
      return null;
    }
  };
  let backlog: ReturnType<typeof outbox> | null = null;
  // Both gauges come from one query, made once per scrape: the first collect starts it, the second takes it.
  const outboxGauge = (name: string, help: string, read: (backlog: OutboxBacklog) => number) =>
    new Gauge({
      name,
      help,
      registers,
      async collect() {
        const current = (backlog ??= outbox());
        const value = await current;
        if (backlog === current) backlog = null;
        // Unknown is NaN, not 0, which would say the outbox is empty.
        this.set(value ? read(value) : NaN);
      },
    });
  outboxGauge(
    'shop_mail_outbox_pending',
    'Messages in the outbox neither sent nor given up (the whole shop: every process reports the same).',
    (value) => value.pending,
  );
  outboxGauge(
    'shop_mail_outbox_oldest_pending_age_seconds',
    'How long the oldest message not yet sent has waited; 0 when none waits.',
    (value) => value.oldestSeconds,
  );

  new Counter({
    name: 'shop_kept_reads_total',
    help: "Catalogue reads answered before the router from the cache's kept answers (they are in http_request_duration_seconds too).",
    registers,
    collect() {
      this.reset();
      this.inc(app.keptReads.answered);
    },
  });

  if (exposed) collectDefaultMetrics({ register: registry });
  const requestDuration = exposed
    ? new Histogram({
        name: 'http_request_duration_seconds',
        help: "Time from a request arriving to its answer sent, by the route's pattern (never the raw address) and status.",
        labelNames: ['method', 'route', 'status_code'] as const,
        buckets: REQUEST_BUCKETS,
        registers,
      })
    : undefined;

  return {
    registry,
    ordersCreated: new Counter({
      name: 'shop_orders_created_total',
      help: 'Orders placed (a retried Idempotency-Key not counted again).',
      registers,
    }),
    ordersCancelled: new Counter({
      name: 'shop_orders_cancelled_total',
      help: 'Orders cancelled, by the buyer, a manager (back office) or the server (expiry: the reservation lapsed).',
      labelNames: ['by'] as const,
      registers,
    }),
    mailDelivery: new Counter({
      name: 'shop_mail_deliveries_total',
      help: 'Attempts to send a message of the outbox: sent, retry (will be tried again) or failed (given up).',
      labelNames: ['outcome'] as const,
      registers,
    }),
    queryObserver: exposed ? (seconds) => queryDuration.observe(seconds) : undefined,
    requestAnswered({ method, route, statusCode, ms }) {
      requestDuration?.observe({ method, route: route ?? UNMATCHED_ROUTE, status_code: statusCode }, ms / 1000);
    },
  };
}

/** A listener of its own, serving GET /metrics and nothing else, for Prometheus to reach on the inside. */
async function listenForScrapes(
  host: string,
  port: number,
  registry: Registry,
  log: FastifyBaseLogger,
): Promise<http.Server> {
  const server = http.createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    if (path !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found: GET /metrics\n');
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' }).end();
      return;
    }
    registry.metrics().then(
      (body) =>
        response
          .writeHead(200, { 'content-type': registry.contentType, 'cache-control': 'no-store' })
          .end(request.method === 'HEAD' ? undefined : body),
      (error: unknown) => {
        log.error({ err: error }, 'metrics could not be collected');
        response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end();
      },
    );
  });
  // As the shop's own port: a client that trickles its request cannot hold the connection.
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  log.info({ address: server.address() }, 'metrics served for Prometheus at /metrics');
  return server;
}

/**
 * Prometheus metrics of this process (README, «Metrics»; docs/operations.md): requests by route and
 * status, the shop's events, the catalogue cache, the database, the outbox, and Node's own (memory,
 * event-loop lag, GC). Each app has its own registry, so tests may build many in one process.
 * Served on METRICS_PORT (a listener of its own, here), at /metrics on the shop's port behind
 * METRICS_TOKEN (routes/metrics), or not at all: then nothing is measured per request or per query.
 */
export default fp(
  async (app) => {
    const config = app.config.metrics;
    const exposed = config.port !== null || config.token !== null;
    const metrics = createMetrics(app, exposed);
    app.decorate('metrics', metrics);

    const stockConflicts = new Counter({
      name: 'shop_stock_conflicts_total',
      help: 'Answers refusing goods for want of stock: 409 «Недостаточно товара…» (out_of_stock) when ordering, «…нет в наличии» (sold_out) when adding to the cart.',
      labelNames: ['reason'] as const,
      registers: [metrics.registry],
    });
    app.addHook('onError', (_request, _reply, error, done) => {
      const reason = stockConflictOf(error);
      if (reason) stockConflicts.inc({ reason });
      done();
    });

    if (exposed) {
      // A callback hook, not an async one: it runs on every request, and a promise each is measurable.
      app.addHook('onResponse', (request, reply, done) => {
        metrics.requestAnswered({
          method: request.method,
          url: request.url,
          route: request.routeOptions.url,
          statusCode: reply.statusCode,
          ms: reply.elapsedTime,
        });
        done();
      });
    }

    const { host, port } = config;
    if (port !== null) {
      let server: http.Server | undefined;
      app.addHook('onReady', async () => {
        // A host name may name a public address: the listener has no token, so the start fails.
        await checkMetricsHostResolves(host);
        server = await listenForScrapes(host, port, metrics.registry, app.log);
      });
      app.addHook('onClose', async () => {
        if (!server) return;
        server.closeAllConnections();
        await new Promise((resolve) => server!.close(resolve));
      });
    }
  },
  { name: 'metrics', dependencies: ['config'] },
);
