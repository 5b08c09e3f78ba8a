import { lookup } from 'node:dns/promises';
import path from 'node:path';
import ipaddr from 'ipaddr.js';
import type { CatalogueCacheLimits } from './services/catalogue-cache';
import { EMAIL_PATTERN } from '../shared/api';
import { ORDER_MAX_LINES } from '../shared/limits';
import { CART_IMPORT_MAX_LINES } from '../shared/cart-import';
import { SHOP_NAME } from '../shared/page-titles';
import { DEFAULT_CONTACT_EMAIL } from '../shared/shop-contacts';

export interface RateLimitConfig {
  max: number;
  windowMs: number;
}

export interface MailConfig {
  /** SMTP_URL (smtp:// or smtps://, credentials in it); null: messages are written as .eml files to `dir`. */
  smtpUrl: string | null;
  /** MAIL_FROM, the From of every message. */
  from: string;
  /** MANAGER_EMAILS: told of every new order, besides the accounts with the manager role. */
  managerEmails: string[];
  /** The shop's address for buyers' questions, printed in every message (CONTACT_EMAIL, as the storefront's). */
  contactEmail: string;
  /** Where the .eml files go without SMTP_URL: DATA_DIR/mail. */
  dir: string;
  /** How often the outbox is looked at besides the nudge each queued message gives. */
  pollMs: number;
  /** How long a claimed message is left to its sender before another process may send it again. */
  leaseSeconds: number;
  /** The first wait after a failed send; each next one doubles, up to an hour. */
  retrySeconds: number;
}

/** How long a client may take over each part of its connection, and how many the process keeps open. */
export interface ConnectionLimits {
  /** The request line and headers must arrive within this (slowloris). */
  headersTimeoutMs: number;
  /** The whole request, body included, must arrive within this, else 408 and the connection closes. */
  requestTimeoutMs: number;
  /** A connection with no bytes either way for this long is closed (a client that stops reading its answer). */
  idleTimeoutMs: number;
  /** An idle keep-alive connection between two requests is closed after this. */
  keepAliveTimeoutMs: number;
  /** Open connections per process; further ones are closed on arrival. */
  maxConnections: number;
}

/**
 * Caps on what one buyer's account may hold or reserve (README, «Лимиты покупателя»). They bound
 * the buyer's own API calls only: managers' status changes, invoices, stock edits and the command
 * line are never refused by them. Most fall on the unproven: buyers with no paid order whom no
 * manager has marked as trusted (docs/decisions.md).
 */
export interface BuyerLimits {
  /**
   * Orders in «Создан» or «Ожидает оплаты» an unproven buyer's company may have at once (MAX_UNPAID_ORDERS).
   */
  maxUnpaidOrders: number;
  /** The same for a proven company: one with a paid order, or trusted by a manager (MAX_UNPAID_ORDERS_TRUSTED). */
  maxUnpaidOrdersTrusted: number;
  /** Orders a company may place in any 24 hours, cancelled ones included (MAX_ORDERS_PER_DAY). */
  maxOrdersPerDay: number;
  /**
   * One order line of an unproven buyer may take at most this percentage of the variant's stock at
   * the moment of ordering, and never less than one piece (MAX_STOCK_SHARE_PERCENT).
   */
  maxStockSharePercent: number;
  /**
   * What the unpaid orders of all unproven buyers together may hold of a variant: this percentage
   * of its free stock plus what they already hold, and never less than one piece
   * (UNPROVEN_STOCK_SHARE_PERCENT).
   */
  unprovenStockSharePercent: number;
  /** Saved delivery addresses per company (MAX_ADDRESSES). */
  maxAddresses: number;
  /** Legal entities per company (MAX_LEGAL_ENTITIES). */
  maxLegalEntities: number;
  /** Lines (different variants) in one cart (MAX_CART_LINES). */
  maxCartLines: number;
  /**
   * Quick-order imports (checks and additions, pasted or uploaded) one account may send in a window
   * (QUICK_ORDER_IMPORT_LIMIT, QUICK_ORDER_IMPORT_WINDOW_SECONDS).
   */
  quickOrderImports: RateLimitConfig;
}

/** How long an unpaid order holds its goods, and how often the server looks for lapsed ones. */
export interface ReservationConfig {
  /** RESERVATION_HOURS: an unpaid order of a proven buyer is cancelled this long after it was placed (see orders.ts). */
  hours: number;
  /** RESERVATION_HOURS_UNPROVEN: the same for an order placed by a buyer not yet proven. */
  unprovenHours: number;
  /** RESERVATION_SWEEP_SECONDS: how often every server process looks for lapsed reservations. */
  sweepSeconds: number;
}

/**
 * Where Prometheus reads this process's metrics (GET /metrics; README, «Metrics»). Neither set:
 * nowhere, and nothing is measured per request.
 */
export interface MetricsConfig {
  /** METRICS_PORT: a listener of its own that serves /metrics only; null: none. */
  port: number | null;
  /** METRICS_HOST: the address that listener listens on. */
  host: string;
  /** METRICS_TOKEN: /metrics on the shop's own port, for `Authorization: Bearer <token>`; null: not there. */
  token: string | null;
}

/** The 1С exchange at /1c_exchange (README, «Обмен с 1С»). */
export interface ExchangeConfig {
  /** EXCHANGE_DIR: each exchange's files in <dir>/<run id>/; in a cluster, storage every process reads. */
  dir: string;
  /** EXCHANGE_FILE_LIMIT: the most one request of 1С may carry (1С cuts bigger files in chunks of it). */
  fileLimitBytes: number;
  /** EXCHANGE_MAX_RUN_BYTES: what one exchange may upload in all. */
  maxRunBytes: number;
  /** EXCHANGE_MAX_UNPACKED_BYTES: what the zips of one exchange may inflate to, counted as they inflate. */
  maxUnpackedBytes: number;
  /** EXCHANGE_MAX_ZIP_ENTRIES: the files the zips of one exchange may hold. */
  maxZipEntries: number;
  /** EXCHANGE_FILES_KEEP_DAYS: an exchange's files are kept this long for support, then deleted. */
  filesKeepDays: number;
  /** EXCHANGE_ALLOWED_IPS: addresses and networks 1С may call from; empty: any. */
  allowedIps: string[];
  /**
   * EXCHANGE_IMPORT_STEP_SECONDS: how long one `import` call waits for its file's work before
   * answering `progress` (the work goes on; 1С calls again). Well within nginx's and 1С's 60 s.
   */
  importStepMs: number;
}

/** The product feeds in YML (README, «Фиды товаров»). */
export interface FeedConfig {
  /** FEED_DIR: where the built feed files are kept; in a cluster, storage every process reads. */
  dir: string;
  /**
   * FEED_REFRESH_SECONDS: a feed is rebuilt after a catalogue change at most this often (the file
   * built before is served meanwhile); 0 rebuilds at once.
   */
  refreshSeconds: number;
}

export interface AppConfig {
  host: string;
  port: number;
  /** PostgreSQL connection string; when absent the embedded PGlite is used. */
  databaseUrl: string | undefined;
  /** Where PGlite keeps its files; `null` keeps the database in memory (tests). */
  dataDir: string | null;
  /** Fixed signing secret; when absent one is generated once and stored in the database. */
  jwtSecret: string | undefined;
  accessTokenTtlSeconds: number;
  refreshIdleSeconds: number;
  refreshMaxSeconds: number;
  /** A refresh token spent this recently still refreshes (two tabs at one moment), instead of counting as stolen. */
  refreshGraceSeconds: number;
  /** Fastify's trustProxy: false (X-Forwarded-For ignored), true, or the proxy addresses of TRUST_PROXY. */
  trustProxy: boolean | string[];
  /**
   * The shop's public origin (PUBLIC_URL, e.g. https://myagkiy-opt.ru) for the absolute addresses in
   * pages' link-preview tags, the sitemap and robots.txt; `null`: each request's own (publicOrigin).
   */
  publicUrl: string | null;
  /** Origins besides the shop's own that may call refresh and logout (comma-separated ALLOWED_ORIGINS). */
  allowedOrigins: string[];
  loginRateLimitPerAccount: RateLimitConfig;
  loginRateLimitPerClient: RateLimitConfig;
  bodyLimitBytes: number;
  connectionLimits: ConnectionLimits;
  /**
   * After SIGTERM, how long /api/health/ready answers 503 while everything else is still served,
   * before the process stops accepting: a balancer that checks readiness stops sending it requests.
   */
  shutdownDrainMs: number;
  imageDir: string;
  /** The built storefront; `null` serves the API only. */
  storefrontDir: string | null;
  logLevel: string;
  /**
   * ACCESS_LOG_SAMPLE: one in this many answered anonymous reads of the public catalogue has its
   * access line (1: every one); every other request always has one.
   */
  accessLogSample: number;
  seedDemoCatalogue: boolean;
  /**
   * REQUIRE_EMAIL_CONFIRMATION: a buyer confirms the e-mail address by the link of a letter before
   * the first order. A shop that vets its buyers otherwise may turn it off.
   */
  requireEmailConfirmation: boolean;
  mail: MailConfig;
  buyerLimits: BuyerLimits;
  reservation: ReservationConfig;
  /** What each process keeps of the catalogue's answers (CATALOGUE_CACHE_MAX_ENTRIES, CATALOGUE_CACHE_MAX_MB). */
  catalogueCache: CatalogueCacheLimits;
  metrics: MetricsConfig;
  exchange: ExchangeConfig;
  feeds: FeedConfig;
}

const projectRoot = path.resolve(__dirname, '..', '..');

class ConfigError extends Error {}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min = 1, max = Infinity): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    const range = max === Infinity ? `≥ ${min}` : `from ${min} to ${max}`;
    throw new ConfigError(`${name} must be a whole number ${range}, got "${raw}"`);
  }
  return value;
}

/** `true` or `false`; unset or empty: `fallback`. Anything else stops the start, so a typo does not flip a guard. */
function flag(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'true' || raw === 'false') return raw === 'true';
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

function trustProxy(raw: string | undefined): AppConfig['trustProxy'] {
  if (raw === undefined || raw === '' || raw === 'false') return false;
  if (raw === 'true') return true;
  return raw
    .split(',')
    .map((address) => address.trim())
    .filter(Boolean);
}

/** An http(s) origin, without a path: the storefront is served from the root. */
function publicUrl(raw: string | undefined): string | null {
  if (raw === undefined || raw === '') return null;
  const url = URL.parse(raw);
  if (!url || !['http:', 'https:'].includes(url.protocol) || url.pathname !== '/' || url.search || url.hash) {
    throw new ConfigError(`PUBLIC_URL must be an http(s) origin such as https://shop.example, got "${raw}"`);
  }
  return url.origin;
}

function smtpUrl(raw: string | undefined): string | null {
  if (raw === undefined || raw === '') return null;
  const url = URL.parse(raw);
  if (!url || !['smtp:', 'smtps:'].includes(url.protocol) || !url.hostname) {
    throw new ConfigError('SMTP_URL must be smtp://user:pass@host:587 or smtps://user:pass@host:465');
  }
  return raw;
}

function emails(name: string, raw: string | undefined): string[] {
  const list = (raw ?? '')
    .split(',')
    .map((email) => email.trim().toLowerCase())
    .filter(Boolean);
  const wrong = list.find((email) => !EMAIL_PATTERN.test(email));
  if (wrong !== undefined) throw new ConfigError(`${name} must be comma-separated e-mail addresses, got "${wrong}"`);
  return list;
}

/** The sender the messages come from: no-reply at the shop's own domain when PUBLIC_URL names it. */
function defaultSender(publicOrigin: string | null): string {
  const host = publicOrigin ? new URL(publicOrigin).hostname : 'myagkiy-opt.example';
  return `"${SHOP_NAME}" <noreply@${host}>`;
}

const DAY = 24 * 60 * 60;

/** The length HS256 wants of its key: RFC 7518 §3.2 asks for at least the hash's size. */
const MIN_JWT_SECRET_BYTES = 32;

/** JWT_SECRET as given; in production one shorter than 32 bytes is refused (unset, one is generated). */
function jwtSecret(raw: string | undefined, production: boolean): string | undefined {
  if (!raw) return undefined;
  const bytes = Buffer.byteLength(raw, 'utf8');
  if (production && bytes < MIN_JWT_SECRET_BYTES) {
    throw new ConfigError(
      `JWT_SECRET must be at least ${MIN_JWT_SECRET_BYTES} bytes in production, got ${bytes}; ` +
        'leave it unset to have a random one generated and kept in the database',
    );
  }
  return raw;
}

/** A guessable token would publish the shop's traffic and order counts to anyone on the public port. */
const MIN_METRICS_TOKEN_LENGTH = 16;

function metrics(env: NodeJS.ProcessEnv, port: number): MetricsConfig {
  const metricsPort = env.METRICS_PORT ? integer(env, 'METRICS_PORT', 0, 0, 65535) : null;
  if (metricsPort !== null && metricsPort !== 0 && metricsPort === port) {
    throw new ConfigError(
      "METRICS_PORT must differ from PORT: the shop's port never serves /metrics without METRICS_TOKEN",
    );
  }
  const token = env.METRICS_TOKEN || null;
  if (token !== null && token.length < MIN_METRICS_TOKEN_LENGTH) {
    throw new ConfigError(`METRICS_TOKEN must be at least ${MIN_METRICS_TOKEN_LENGTH} characters, got ${token.length}`);
  }
  const host = env.METRICS_HOST || '127.0.0.1';
  if (metricsPort !== null && isPublicAddress(host)) {
    throw new ConfigError(
      `METRICS_HOST ${host} is a public address, and the metrics port has no token: give the internal address Prometheus scrapes from`,
    );
  }
  return { port: metricsPort, host, token };
}

/**
 * Loopback, private, shared (carrier NAT), link-local and unique-local ranges, and «every
 * interface», by ipaddr.js's names for them; every other range (ordinary unicast, but also
 * multicast, broadcast, reserved) is not a place for a listener without a token.
 */
const INTERNAL_RANGES = new Set(['loopback', 'private', 'carrierGradeNat', 'linkLocal', 'uniqueLocal', 'unspecified']);

/**
 * An IP address outside the internal ranges, in any spelling the system's resolver takes for one:
 * inet_aton's forms (`134744072`, `0x8.8.8.8`, `010.0.0.1` in octal) and IPv6, an IPv4-mapped one
 * judged as its IPv4 address. False for anything else (a host name).
 */
export function isPublicAddress(address: string): boolean {
  return ipaddr.isValid(address) && !INTERNAL_RANGES.has(ipaddr.process(address).range());
}

/**
 * At start: the addresses METRICS_HOST resolves to (all of them, as the listener would take any),
 * none of which may be public; a name that does not resolve is refused too. An address literal was
 * checked by loadConfig already and resolves to itself. «Every interface» (0.0.0.0, ::) is allowed
 * for containers, whose interfaces are internal, and the README says what it means on a machine
 * with a public one.
 */
export async function checkMetricsHostResolves(host: string): Promise<void> {
  const resolved = await lookup(host, { all: true }).catch((error: NodeJS.ErrnoException) => {
    throw new ConfigError(
      `METRICS_HOST ${host} does not resolve (${error.code ?? error.message}): give the internal address Prometheus scrapes from`,
    );
  });
  const exposed = resolved.map(({ address }) => address).filter(isPublicAddress);
  if (exposed.length > 0) {
    throw new ConfigError(
      `METRICS_HOST ${host} resolves to the public address ${exposed.join(', ')}, and the metrics port has no token: give the internal address Prometheus scrapes from`,
    );
  }
}

/** Comma-separated addresses and CIDR networks, each checked now so that a typo stops the start. */
function addressList(name: string, raw: string | undefined): string[] {
  const list = (raw ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const wrong = list.find((entry) => !(ipaddr.isValid(entry) || isValidCidr(entry)));
  if (wrong !== undefined)
    throw new ConfigError(`${name} must be comma-separated IP addresses or CIDR networks, got "${wrong}"`);
  return list;
}

function isValidCidr(entry: string): boolean {
  try {
    ipaddr.parseCIDR(entry);
    return true;
  } catch {
    return false;
  }
}

const MIB = 1024 * 1024;

function exchange(env: NodeJS.ProcessEnv, dataDir: string): ExchangeConfig {
  return {
    dir: path.resolve(projectRoot, env.EXCHANGE_DIR || path.join(dataDir, 'exchange')),
    fileLimitBytes: integer(env, 'EXCHANGE_FILE_LIMIT', 100 * MIB, 1024),
    maxRunBytes: integer(env, 'EXCHANGE_MAX_RUN_BYTES', 2048 * MIB, 1024),
    maxUnpackedBytes: integer(env, 'EXCHANGE_MAX_UNPACKED_BYTES', 4096 * MIB, 1024),
    maxZipEntries: integer(env, 'EXCHANGE_MAX_ZIP_ENTRIES', 200_000),
    filesKeepDays: integer(env, 'EXCHANGE_FILES_KEEP_DAYS', 30),
    allowedIps: addressList('EXCHANGE_ALLOWED_IPS', env.EXCHANGE_ALLOWED_IPS),
    importStepMs: integer(env, 'EXCHANGE_IMPORT_STEP_SECONDS', 20, 1) * 1000,
  };
}

function connectionLimits(env: NodeJS.ProcessEnv): ConnectionLimits {
  const headersTimeoutMs = integer(env, 'HEADERS_TIMEOUT_SECONDS', 10) * 1000;
  const requestTimeoutMs = integer(env, 'REQUEST_TIMEOUT_SECONDS', 120) * 1000;
  // Node refuses a headers timeout beyond the request's; say so in the shop's own terms.
  if (headersTimeoutMs > requestTimeoutMs) {
    throw new ConfigError('HEADERS_TIMEOUT_SECONDS must not exceed REQUEST_TIMEOUT_SECONDS');
  }
  return {
    headersTimeoutMs,
    requestTimeoutMs,
    idleTimeoutMs: integer(env, 'IDLE_TIMEOUT_SECONDS', 60) * 1000,
    keepAliveTimeoutMs: integer(env, 'KEEP_ALIVE_TIMEOUT_SECONDS', 72) * 1000,
    maxConnections: integer(env, 'MAX_CONNECTIONS', 1000),
  };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const production = env.NODE_ENV === 'production';
  const dataDir = path.resolve(projectRoot, env.DATA_DIR || 'data');
  const origin = publicUrl(env.PUBLIC_URL);
  // Without it absolute links (link previews, the sitemap, robots.txt) follow each request's Host,
  // which whoever sends the request chooses.
  if (production && origin === null) {
    throw new ConfigError(
      "PUBLIC_URL is required in production (NODE_ENV=production): the shop's origin, e.g. https://myagkiy-opt.ru",
    );
  }
  const port = integer(env, 'PORT', 3000, 0);
  return {
    host: env.HOST || (production ? '0.0.0.0' : '127.0.0.1'),
    port,
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir,
    jwtSecret: jwtSecret(env.JWT_SECRET, production),
    accessTokenTtlSeconds: integer(env, 'ACCESS_TOKEN_TTL_SECONDS', 15 * 60),
    refreshIdleSeconds: integer(env, 'REFRESH_IDLE_DAYS', 30) * DAY,
    refreshMaxSeconds: integer(env, 'REFRESH_MAX_DAYS', 90) * DAY,
    refreshGraceSeconds: integer(env, 'REFRESH_GRACE_SECONDS', 20, 0),
    trustProxy: trustProxy(env.TRUST_PROXY),
    publicUrl: origin,
    allowedOrigins: (env.ALLOWED_ORIGINS ?? '')
      .split(',')
      .map((origin) => origin.trim())
      .filter(Boolean),
    loginRateLimitPerAccount: {
      max: integer(env, 'LOGIN_LIMIT_PER_ACCOUNT', 10),
      windowMs: integer(env, 'LOGIN_LIMIT_WINDOW_SECONDS', 15 * 60) * 1000,
    },
    loginRateLimitPerClient: {
      max: integer(env, 'LOGIN_LIMIT_PER_CLIENT', 50),
      windowMs: integer(env, 'LOGIN_LIMIT_WINDOW_SECONDS', 15 * 60) * 1000,
    },
    bodyLimitBytes: 1024 * 1024,
    connectionLimits: connectionLimits(env),
    shutdownDrainMs: integer(env, 'SHUTDOWN_DRAIN_SECONDS', 0, 0) * 1000,
    imageDir: path.resolve(projectRoot, env.IMAGE_DIR || 'src/server/assets/images'),
    storefrontDir: path.resolve(projectRoot, env.STOREFRONT_DIR || 'dist'),
    logLevel: env.LOG_LEVEL || 'info',
    accessLogSample: integer(env, 'ACCESS_LOG_SAMPLE', 100),
    seedDemoCatalogue: env.SEED_DEMO_CATALOGUE !== 'false',
    requireEmailConfirmation: flag(env, 'REQUIRE_EMAIL_CONFIRMATION', true),
    mail: {
      smtpUrl: smtpUrl(env.SMTP_URL),
      from: env.MAIL_FROM || defaultSender(origin),
      managerEmails: emails('MANAGER_EMAILS', env.MANAGER_EMAILS),
      contactEmail: env.CONTACT_EMAIL || DEFAULT_CONTACT_EMAIL,
      dir: path.join(dataDir, 'mail'),
      pollMs: integer(env, 'MAIL_POLL_MS', 5000),
      leaseSeconds: integer(env, 'MAIL_LEASE_SECONDS', 5 * 60),
      retrySeconds: integer(env, 'MAIL_RETRY_SECONDS', 30),
    },
    buyerLimits: {
      maxUnpaidOrders: integer(env, 'MAX_UNPAID_ORDERS', 3),
      maxUnpaidOrdersTrusted: integer(env, 'MAX_UNPAID_ORDERS_TRUSTED', 20),
      maxOrdersPerDay: integer(env, 'MAX_ORDERS_PER_DAY', 50),
      maxStockSharePercent: integer(env, 'MAX_STOCK_SHARE_PERCENT', 50, 1, 100),
      unprovenStockSharePercent: integer(env, 'UNPROVEN_STOCK_SHARE_PERCENT', 50, 1, 100),
      maxAddresses: integer(env, 'MAX_ADDRESSES', 20),
      maxLegalEntities: integer(env, 'MAX_LEGAL_ENTITIES', 20),
      maxCartLines: integer(env, 'MAX_CART_LINES', CART_IMPORT_MAX_LINES, 1, ORDER_MAX_LINES),
      quickOrderImports: {
        max: integer(env, 'QUICK_ORDER_IMPORT_LIMIT', 30),
        windowMs: integer(env, 'QUICK_ORDER_IMPORT_WINDOW_SECONDS', 10 * 60) * 1000,
      },
    },
    reservation: {
      hours: integer(env, 'RESERVATION_HOURS', 120),
      unprovenHours: integer(env, 'RESERVATION_HOURS_UNPROVEN', 24),
      sweepSeconds: integer(env, 'RESERVATION_SWEEP_SECONDS', 300, 1, DAY),
    },
    catalogueCache: {
      maxEntries: integer(env, 'CATALOGUE_CACHE_MAX_ENTRIES', 2000),
      maxBytes: integer(env, 'CATALOGUE_CACHE_MAX_MB', 16) * 1024 * 1024,
    },
    metrics: metrics(env, port),
    exchange: exchange(env, dataDir),
    feeds: {
      dir: path.resolve(projectRoot, env.FEED_DIR || path.join(dataDir, 'feeds')),
      refreshSeconds: integer(env, 'FEED_REFRESH_SECONDS', 300, 0, DAY),
    },
  };
}
