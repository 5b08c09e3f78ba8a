import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { Writable } from 'node:stream';
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import { buildApp } from '../../../src/server/app';
import { createFreshDatabase } from './fresh-database';
import { TEST_PASSWORD } from './shop-data';
import { loadConfig, type AppConfig, type MailConfig } from '../../../src/server/config';
import { companies, refreshTokens, variants } from '../../../src/server/db/schema';
import type { Member } from '../../../src/server/domain/company-member';
import { hashPassword } from '../../../src/server/services/passwords';
import { createSessions } from '../../../src/server/services/sessions';
import { hashRandomToken } from '../../../src/server/services/tokens';
import type { Product } from '../../../src/shared/api';

export interface TestApp {
  app: FastifyInstance;
  config: AppConfig;
  close(): Promise<void>;
}

export const usesPostgres = Boolean(process.env.TEST_DATABASE_URL);

/** For the beforeAll that builds an app: PGlite start-up, migrations and the seed take seconds on a busy machine. */
export const STARTUP_TIMEOUT = 60_000;

export interface TestAppOptions {
  /** Receives every log line (pino JSON), e.g. a `LogCapture`. */
  logStream?: { write(line: string): void };
  /** Runs before `ready()`, while routes can still be added. */
  beforeReady?: (app: FastifyInstance) => void | Promise<void>;
}

/** Settings besides the tests' defaults; the mail settings given are merged into the defaults. */
export type TestConfig = Partial<Omit<AppConfig, 'mail'>> & { mail?: Partial<MailConfig> };

export async function createTestApp(overrides: TestConfig = {}, options: TestAppOptions = {}): Promise<TestApp> {
  const { mail, ...rest } = overrides;
  const adminUrl = process.env.TEST_DATABASE_URL;
  const postgres = adminUrl ? await createFreshDatabase(adminUrl, 'shop_test') : null;
  // Without SMTP_URL messages are written as files: into a directory of this app's own, not the shop's data/.
  const mailDir = await mkdtemp(path.join(tmpdir(), 'myagkiy-opt-mail-'));
  // The product feeds too: the files are built only when one is asked for.
  const feedDir = await mkdtemp(path.join(tmpdir(), 'myagkiy-opt-feeds-'));
  const defaults = loadConfig({});
  const config: AppConfig = {
    ...defaults,
    mail: { ...defaults.mail, dir: mailDir, ...mail },
    databaseUrl: postgres?.url,
    dataDir: null,
    storefrontDir: null,
    logLevel: 'silent',
    loginRateLimitPerClient: { max: 10_000, windowMs: 60_000 },
    loginRateLimitPerAccount: { max: 1_000, windowMs: 60_000 },
    // Tests place far more orders with one account than a buyer would, and leave them unpaid, and
    // many buyers who never paid order one variant down to its last piece; the caps' own tests
    // (routes/order/buyer-limits.test.ts, test/server/security/unproven-buyers.test.ts) set the
    // shop's defaults back. The share of the stock one order may take stays the shop's. The quick
    // order's imports per account, too, have their own test (test/server/security/spreadsheet-uploads.test.ts).
    buyerLimits: {
      ...defaults.buyerLimits,
      maxUnpaidOrders: 10_000,
      maxUnpaidOrdersTrusted: 10_000,
      maxOrdersPerDay: 10_000,
      unprovenStockSharePercent: 100,
      quickOrderImports: { max: 10_000, windowMs: 60_000 },
    },
    // Buyers order right after signing up, as with a shop that vets them otherwise; the
    // confirmation's own tests turn it on.
    requireEmailConfirmation: false,
    feeds: { ...defaults.feeds, dir: feedDir },
    ...rest,
  };
  const app = await buildApp(config, { logStream: options.logStream });
  await options.beforeReady?.(app);
  await app.ready();
  return {
    app,
    config,
    async close() {
      try {
        await app.close();
      } finally {
        await postgres?.drop();
        await rm(mailDir, { recursive: true, force: true });
        await rm(feedDir, { recursive: true, force: true });
      }
    },
  };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** The session an access token names (claim `sid`), for tokens a test signs by hand for the same session. */
export const sessionIdOf = (token: string) =>
  (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { sid: string }).sid;

export interface Shopper {
  id: number;
  email: string;
  token: string;
  headers: { authorization: string };
}

let counter = 0;
/** Registers and logs in a new user through the public API, as the storefront does. */
export async function signUp(
  app: FastifyInstance,
  email = `buyer${++counter}-${randomBytes(3).toString('hex')}@example.com`,
): Promise<Shopper> {
  const password = TEST_PASSWORD;
  const registered = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/register',
    query: { email, password, consent: 'true' },
  });
  if (registered.statusCode !== 201) throw new Error(`register failed: ${registered.body}`);
  const login = await logIn(app, email, password);
  if (login.statusCode !== 200) throw new Error(`login failed: ${login.body}`);
  const token = (login.json() as { access_token: string }).access_token;
  return { id: (registered.json() as { id: number }).id, email, token, headers: bearer(token) };
}

export const json = <T>(response: LightMyRequestResponse) => response.json() as T;

/** POST /auth/token as the storefront sends it (form-encoded username and password). */
export function logIn(app: FastifyInstance, username: string, password: string, headers: Record<string, string> = {}) {
  return app.inject({
    method: 'POST',
    url: '/api/v1/auth/token',
    payload: new URLSearchParams({ username, password }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
  });
}

/**
 * The access token of a new session of the account, started and signed by the app itself exactly
 * as a sign-in would (without the password): a logout, password change or deletion ends it.
 */
export async function sessionTokenOf(app: FastifyInstance, userId: number): Promise<string> {
  const version = await app.repositories.users.holdSessionVersion(userId);
  const sessions = createSessions(app.database.db, app.config, app.sessionRevocations);
  const session = version === null ? null : await sessions.start(userId, version);
  if (!session) throw new Error(`no session for user ${userId}`);
  return app.accessTokens.sign(userId, session.sessionId);
}

let quickHash: Promise<string> | undefined;
/**
 * Many users at once, for tests about something other than signing up: the rows are inserted
 * through the users repository with one shared password hash (scrypt is deliberately slow), and
 * each gets a session of its own (sessionTokenOf).
 */
export async function quickShoppers(app: FastifyInstance, count: number): Promise<Shopper[]> {
  quickHash ??= hashPassword(TEST_PASSWORD);
  const hash = await quickHash;
  const shoppers: Shopper[] = [];
  for (let i = 0; i < count; i += 1) {
    const email = `quick${++counter}-${randomBytes(3).toString('hex')}@example.com`;
    const user = await app.repositories.users.create(email, hash);
    if (!user) throw new Error(`could not create ${email}`);
    const token = await sessionTokenOf(app, user.id);
    shoppers.push({ id: user.id, email, token, headers: bearer(token) });
  }
  return shoppers;
}

/** The whole catalogue, read through the public list call page by page. */
export async function allProducts(app: FastifyInstance): Promise<Product[]> {
  const products: Product[] = [];
  for (let skip = 0; ; skip += 100) {
    const response = await app.inject({
      method: 'GET',
      url: '/api/v1/products/',
      query: { skip: String(skip), limit: '100' },
    });
    if (response.statusCode !== 200) throw new Error(`products: ${response.statusCode} ${response.body}`);
    const page = response.json() as Product[];
    products.push(...page);
    if (page.length < 100) return products;
  }
}

/** Current stock of a variant, as the product call shows it. */
export async function stockOf(app: FastifyInstance, art: string, variantId: number): Promise<number> {
  const product = (
    await app.inject({ method: 'GET', url: `/api/v1/products/${encodeURIComponent(art)}` })
  ).json() as Product;
  const variant = product.variants.find((candidate) => candidate.id === variantId);
  if (!variant) throw new Error(`variant ${variantId} not in ${art}`);
  return variant.stock;
}

/** Test set-up straight in the database: a variant's stock and/or price. */
export async function setVariant(
  app: FastifyInstance,
  variantId: number,
  values: { stock?: number; price?: string },
): Promise<void> {
  await app.database.db.update(variants).set(values).where(eq(variants.id, variantId));
}

/** Collects log lines in memory. */
export class LogCapture extends Writable {
  readonly lines: string[] = [];
  override _write(chunk: Buffer | string, _encoding: BufferEncoding, callback: () => void): void {
    this.lines.push(chunk.toString());
    callback();
  }
  get text(): string {
    return this.lines.join('');
  }
}

/**
 * Moves the moment a refresh token was spent back past the grace period (REFRESH_GRACE_SECONDS),
 * as if it came back that much later: its reuse is then taken for theft.
 */
export async function spentLongAgo(app: FastifyInstance, refreshToken: string): Promise<void> {
  const moved = await app.database.db
    .update(refreshTokens)
    .set({ usedAt: sql`${refreshTokens.usedAt} - make_interval(secs => ${app.config.refreshGraceSeconds + 1})` })
    .where(and(eq(refreshTokens.tokenHash, hashRandomToken(refreshToken)), isNotNull(refreshTokens.usedAt)))
    .returning({ id: refreshTokens.id });
  if (moved.length === 0) throw new Error('no such spent refresh token');
}

/** The value of one cookie set by a response (undefined when it does not set it). */
export function setCookie(response: LightMyRequestResponse, name: string) {
  return response.cookies.find((cookie) => cookie.name === name) as
    | {
        name: string;
        value: string;
        path?: string;
        httpOnly?: boolean;
        sameSite?: string;
        expires?: Date;
        maxAge?: number;
        secure?: boolean;
      }
    | undefined;
}

/** The account as its company knows it now (the member the company service acts as). */
export async function memberOf(app: FastifyInstance, userId: number): Promise<Member> {
  const membership = await app.repositories.companies.membershipOf(userId);
  if (!membership) throw new Error(`no account ${userId}`);
  return { userId, ...membership };
}

/** Marks the account's company as having paid an order: the company is proven. */
export async function markCompanyPaid(app: FastifyInstance, userId: number): Promise<void> {
  const { companyId } = await memberOf(app, userId);
  await app.database.db.update(companies).set({ firstPaidAt: new Date() }).where(eq(companies.id, companyId));
}
