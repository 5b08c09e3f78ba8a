import fastifyCompress from '@fastify/compress';
import fastifyFormbody from '@fastify/formbody';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyHttpOptions,
} from 'fastify';
import { createServer, type Server } from 'node:http';
import type { DestinationStream } from 'pino';
import type { AppConfig } from './config';
import { stdoutLines } from './log-lines';
import { loggableUrl, REDACTED_PATHS } from './log-redaction';
import { KeptReads, type AnsweredRead } from './kept-reads';
import { requestLogger } from './request-logger';
import allowedMethods from './plugins/allowed-methods';
import backgroundJobs from './plugins/background-jobs';
import authentication from './plugins/authentication';
import catalogueCache from './plugins/catalogue-cache';
import configPlugin from './plugins/config';
import database from './plugins/database';
import docs from './plugins/docs';
import feeds from './plugins/feeds';
import errorHandling, { sendClientError, sendFrameworkError } from './plugins/error-handler';
import metrics from './plugins/metrics';
import securityHeaders, { API_HEADERS } from './plugins/security-headers';
import services from './plugins/services';
import storefront from './plugins/storefront';
import validation from './plugins/validation';
import addressRoutes from './routes/address';
import adminRoutes from './routes/admin';
import authRoutes from './routes/auth';
import emailConfirmationRoutes from './routes/auth/email-confirmation';
import bannersRoutes from './routes/banners';
import cartRoutes from './routes/cart';
import exchangeRoutes from './routes/exchange';
import feedRoutes from './routes/feed';
import healthRoutes from './routes/health';
import imageRoutes from './routes/image';
import metricsRoutes from './routes/metrics';
import orderRoutes from './routes/order';
import marketplaceKitRoutes from './routes/marketplace-kit';
import productsRoutes from './routes/products';
import requisitesRoutes from './routes/requisites';
import companyRoutes from './routes/company';
import robotsRoutes from './routes/robots';
import sitemapRoutes from './routes/sitemap';

/**
 * Requests slower than this always have their access line, sampled or not: a slow read is one to see.
 */
const SLOW_REQUEST_MS = 500;

/**
 * One JSON line per request, written when it completes; of the public catalogue's answered reads
 * (routes marked `sampledAccessLog`), anonymous or a signed-in buyer's, one in `sample`, saying so
 * (`sampled`): their lines cost 12–15% of the reads per second (docs/performance.md), and the
 * metrics count every one. A line names no account either way. Errors (a refused token's 401
 * among them), slow answers and every other route are always logged.
 */
class RequestLog extends LogController {
  private lines: FastifyBaseLogger | undefined;
  private readsSinceLine = 0;
  /** Reads answered in front of the router have no Fastify request id: theirs is counted here. */
  private keptReads = 0;

  constructor(private readonly sample: number) {
    super();
  }

  /**
   * A completed request's line has a fixed shape with nothing secret in it (loggableUrl cuts the
   * /auth queries and masks secrets in any other), so it skips the redaction that every other line goes through: redaction
   * copied the object of every line, on every request (docs/performance.md).
   */
  writeTo(logger: FastifyBaseLogger): void {
    this.lines = logger.child({}, { redact: [] });
  }

  override incomingRequest(): void {}

  override requestCompleted(error: Error | null, request: FastifyRequest, reply: FastifyReply): void {
    const sampledRoute = request.routeOptions.config.sampledAccessLog === true;
    const line = this.lineOf(
      {
        method: request.method,
        url: request.url,
        route: request.routeOptions.url,
        statusCode: reply.statusCode,
        ms: reply.elapsedTime,
      },
      sampledRoute && !error,
    );
    if (!line) return;
    if (error) reply.log.error({ ...line, err: error }, 'request failed');
    else (this.lines ?? reply.log).info({ reqId: request.id, ...line }, 'request');
  }

  /** A read answered in front of the router (kept-reads.ts): a sampled route's, as its route would log it. */
  keptReadCompleted(read: AnsweredRead): void {
    const line = this.lineOf(read, true);
    if (line) this.lines?.info({ reqId: `kept-${(this.keptReads += 1).toString(36)}`, ...line }, 'request');
  }

  /** The access line of a completed request; none for a sampled read that is not the one in `sample` to log. */
  private lineOf({ method, url, route, statusCode, ms }: AnsweredRead, sampledRoute: boolean) {
    // The line of a sampled read stands for `sample` reads, and says so.
    const sampled = this.sample > 1 && sampledRoute && statusCode < 400 && ms < SLOW_REQUEST_MS;
    if (sampled) {
      this.readsSinceLine += 1;
      if (this.readsSinceLine < this.sample) return undefined;
      this.readsSinceLine = 0;
    }
    return {
      method,
      url: loggableUrl(url, route),
      statusCode,
      ms: Math.round(ms),
      ...(sampled && { sampled: this.sample }),
    };
  }
}

const CONNECTIONS_CHECKING_INTERVAL_MS = 1000;

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * From now on /api/health/ready answers 503 while every other request is still served: the
     * first step of a graceful stop (server.ts), so that balancers stop sending requests here.
     */
    startDraining(): void;
    isDraining(): boolean;
    /** The catalogue's kept reads, answered before the router (kept-reads.ts). */
    keptReads: KeptReads;
  }
}

export interface BuildOptions {
  /** Where log lines go instead of stdout (tests capture them to check what is logged). */
  logStream?: DestinationStream;
}

export async function buildApp(config: AppConfig, options: BuildOptions = {}): Promise<FastifyInstance> {
  const requestLog = new RequestLog(config.accessLogSample);
  const keptReads = new KeptReads();
  const app = Fastify({
    logger: {
      level: config.logLevel,
      // Belt and braces: nothing below should log these, but if a future log line does, they are masked.
      redact: REDACTED_PATHS,
      serializers: {
        // Fastify's own lines that name the request (a failed writeHead) say its URL as ours do.
        req: (request: FastifyRequest) => ({
          method: request.method,
          url: loggableUrl(request.url, request.routeOptions?.url),
        }),
      },
      stream: options.logStream ?? stdoutLines,
    },
    logController: requestLog,
    childLoggerFactory: requestLogger,
    bodyLimit: config.bodyLimitBytes,
    // Without these a client decides how long it holds a connection (README, «Ограничения соединений»).
    connectionTimeout: config.connectionLimits.idleTimeoutMs,
    keepAliveTimeout: config.connectionLimits.keepAliveTimeoutMs,
    requestTimeout: config.connectionLimits.requestTimeoutMs,
    http: {
      headersTimeout: config.connectionLimits.headersTimeoutMs,
      requestTimeout: config.connectionLimits.requestTimeoutMs,
      // Node checks the two above only this often (30 s by default, on top of the timeout).
      connectionsCheckingInterval: CONNECTIONS_CHECKING_INTERVAL_MS,
      // A request without Host is refused by the error-handling plugin, as {detail} like every 400.
      requireHostHeader: false,
    },
    trustProxy: config.trustProxy,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
    forceCloseConnections: 'idle',
    // The server Fastify would make (its lib/server.js, from the options above), with the kept
    // catalogue reads answered before its router (kept-reads.ts).
    serverFactory: (router, options) => {
      const { http, keepAliveTimeout, requestTimeout, connectionTimeout } = options as FastifyHttpOptions<Server>;
      const server = createServer(http ?? {}, keptReads.before(router));
      server.keepAliveTimeout = keepAliveTimeout!;
      server.requestTimeout = requestTimeout!;
      server.setTimeout(connectionTimeout);
      return server;
    },
    // The first start creates, migrates and seeds the embedded database: tens of seconds on a
    // slow or busy machine, far beyond the 10 s Fastify allows a plugin by default.
    pluginTimeout: 120_000,
    frameworkErrors: sendFrameworkError,
    clientErrorHandler: sendClientError,
  }).withTypeProvider<TypeBoxTypeProvider>();
  requestLog.writeTo(app.log);
  app.decorate('keptReads', keptReads);
  // Beyond it, Node closes new connections at once; without it, every socket the process can open.
  app.server.maxConnections = config.connectionLimits.maxConnections;

  await app.register(configPlugin, { config });
  // First: its hooks see every request, and the database times its statements with it.
  await app.register(metrics);
  await app.register(errorHandling);
  await app.register(validation);
  await app.register(allowedMethods);
  // A graceful stop (app.close) waits until every connection has ended. A keep-alive connection
  // whose request was in flight when it began would stay open after its answer (until the client
  // or keepAliveTimeout closes it), so close-with-grace killed the process after 10 s with code 1.
  // While closing, answers say `Connection: close`, and connections gone idle are closed at once.
  // Draining says `Connection: close` from its start, so that each connection a balancer keeps is
  // closed after its next answer and none is left when the process stops accepting (server.ts),
  // but closes no idle one itself: the balancer may be sending a request on it at that very moment,
  // and a POST lost so is one nginx may not send again (a failed order in a rolling restart).
  let endingConnections = false;
  let closing = false;
  app.addHook('preClose', async () => {
    endingConnections = true;
    closing = true;
  });
  let draining = false;
  app.decorate('startDraining', () => {
    draining = true;
    endingConnections = true;
  });
  app.decorate('isDraining', () => draining);
  // Callback hooks, not async ones: they run on every request, and a promise each is measurable.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (endingConnections) reply.header('connection', 'close');
    done(null, payload);
  });
  app.addHook('onResponse', (_request, _reply, done) => {
    if (closing) app.server.closeIdleConnections();
    done();
  });
  // Bodies are JSON (or form-encoded for login); Fastify's built-in text/plain parser would let a
  // text body through to validation (422) instead of refusing its type (415).
  app.removeContentTypeParser('text/plain');

  await app.register(securityHeaders);
  await app.register(fastifyCompress, { threshold: 1024 });
  await app.register(fastifyFormbody, { bodyLimit: config.bodyLimitBytes });
  await app.register(database);
  await app.register(services);
  await app.register(authentication);
  await app.register(catalogueCache);
  await app.register(backgroundJobs);
  await app.register(feeds);
  await app.register(docs);

  await app.register(productsRoutes, { prefix: '/api/v1/products' });
  await app.register(bannersRoutes, { prefix: '/api/v1/banners' });
  await app.register(authRoutes, { prefix: '/api/v1/auth' });
  await app.register(emailConfirmationRoutes, { prefix: '/api/v1/auth' });
  await app.register(cartRoutes, { prefix: '/api/v1/cart' });
  await app.register(orderRoutes, { prefix: '/api/v1/order' });
  await app.register(marketplaceKitRoutes, { prefix: '/api/v1' });
  await app.register(addressRoutes, { prefix: '/api/v1/address' });
  await app.register(requisitesRoutes, { prefix: '/api/v1/requisites' });
  await app.register(companyRoutes, { prefix: '/api/v1/company' });
  await app.register(feedRoutes, { prefix: '/api/v1' });
  await app.register(imageRoutes, { prefix: '/api/v1/image' });
  await app.register(adminRoutes, { prefix: '/api/v1/admin' });
  await app.register(healthRoutes, { prefix: '/api/health' });
  await app.register(metricsRoutes);
  // 1С's «Обмен с сайтом», at the address 1С is given (EXCHANGE_PATH), outside /api/v1.
  await app.register(exchangeRoutes);
  await app.register(sitemapRoutes);
  await app.register(robotsRoutes);
  await app.register(storefront);

  // From here the kept catalogue reads are answered before the router, doing what its hooks would.
  keptReads.start({
    answersNow: () => !endingConnections,
    apiHeaders: API_HEADERS,
    completed: (read) => {
      requestLog.keptReadCompleted(read);
      app.metrics.requestAnswered(read);
    },
  });
  return app;
}
