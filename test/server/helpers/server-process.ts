/**
 * Process-level harness for the reliability suite: real server processes (the compiled server,
 * started by scripts/start-server.sh as `npm start` starts it), plain HTTP on 127.0.0.1, fresh
 * PostgreSQL databases and temp dirs that are always removed again. Nothing here imports the
 * application: the servers are black boxes.
 */
import { execFile, execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { PROJECT_ROOT, spawnServer, type ServerProcess } from '../../../deploy/server-process';
import type { OrderItemPayload, Product } from '../../../src/shared/api';
import { createFreshDatabase } from './fresh-database';
import { TEST_PASSWORD } from './shop-data';

export const ROOT = PROJECT_ROOT;

export type { ServerProcess };

/** The admin URL of the PostgreSQL server the suite may create databases on. */
export function adminUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url)
    throw new Error(
      'The reliability suite needs PostgreSQL: set TEST_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/test)',
    );
  return url;
}

// ---------------------------------------------------------------------------------------------
// Processes

export interface StartOptions {
  databaseUrl?: string;
  dataDir?: string;
  env?: Record<string, string>;
  startupTimeoutMs?: number;
}

const started = new Set<ServerProcess>();

/**
 * Starts the server built in build/ (`npm run test:reliability` builds it first) on a free port
 * and waits for "Server listening at …".
 */
export async function startServer(options: StartOptions): Promise<ServerProcess> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_OPTIONS: '',
    NODE_ENV: 'development',
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    STOREFRONT_DIR: path.join(ROOT, 'does-not-exist'),
    JWT_SECRET: 'reliability-suite-secret-0123456789abcdef',
    LOGIN_LIMIT_PER_CLIENT: '100000',
    LOGIN_LIMIT_PER_ACCOUNT: '1000',
    // The suites' buyers place order after order, unpaid, and count a stock down to its last piece:
    // the buyer limits are the subject of their own tests (routes/order/buyer-limits.test.ts).
    MAX_UNPAID_ORDERS: '100000',
    MAX_ORDERS_PER_DAY: '100000',
    MAX_STOCK_SHARE_PERCENT: '100',
    UNPROVEN_STOCK_SHARE_PERCENT: '100',
    // They order right after signing up (the confirmation is tested in unproven-buyers' suites).
    REQUIRE_EMAIL_CONFIRMATION: 'false',
    ...options.env,
  };
  delete env.DATABASE_URL;
  delete env.DATA_DIR;
  if (options.databaseUrl) env.DATABASE_URL = options.databaseUrl;
  if (options.dataDir) env.DATA_DIR = options.dataDir;

  const server: ServerProcess = await spawnServer({
    env,
    startupTimeoutMs: options.startupTimeoutMs,
    onStopped: () => started.delete(server),
  });
  started.add(server);
  return server;
}

/** True once no process has `pid` any more (waits up to `timeoutMs` for it to be reaped). */
export async function processGone(pid: number, timeoutMs = 5000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      process.kill(pid, 0);
    } catch {
      return true;
    }
    if (Date.now() > deadline) return false;
    await sleep(25);
  }
}

/** Safety net for afterAll/afterEach: every server this file started and did not stop yet. */
export async function stopAllServers(): Promise<void> {
  await Promise.all([...started].map((server) => server.stop(5000)));
}

// ---------------------------------------------------------------------------------------------
// Temporary places

export function tempDir(label: string): { dir: string; remove(): void } {
  const dir = mkdtempSync(path.join(tmpdir(), `myagkiy-opt-reliability-${label}-`));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A new database on the TEST_DATABASE_URL server (dropped by `drop`). */
export const freshPostgresDatabase = () => createFreshDatabase(adminUrl(), 'shop_reliability');

// ---------------------------------------------------------------------------------------------
// PostgreSQL cluster control (the database-outage test only)

const execFileAsync = promisify(execFile);
const clusterVersion = () => execFileSync('ls', ['/etc/postgresql'], { encoding: 'utf8' }).trim().split('\n')[0]!;

/** pg_ctlcluster stop|start, without blocking the event loop (the load keeps running meanwhile). */
export async function postgresCluster(action: 'stop' | 'start'): Promise<void> {
  await execFileAsync('pg_ctlcluster', ['--skip-systemctl-redirect', clusterVersion(), 'main', action], {
    timeout: 60_000,
  });
}

export async function postgresAccepting(): Promise<boolean> {
  const client = new Client({ connectionString: adminUrl(), connectionTimeoutMillis: 2000 });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch (error) {
    // Up, but every connection slot taken: running all the same (the test using it will say why).
    return (error as { code?: string }).code === '53300';
  } finally {
    await client.end().catch(() => {});
  }
}

/** Starts the cluster if it is down and waits until it accepts connections. */
export async function ensurePostgresRunning(timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  if (await postgresAccepting()) return;
  try {
    await postgresCluster('start');
  } catch {
    // already starting / running: wait below
  }
  while (Date.now() < deadline) {
    if (await postgresAccepting()) return;
    await sleep(250);
  }
  throw new Error('PostgreSQL did not come back');
}

// ---------------------------------------------------------------------------------------------
// HTTP

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  /** The body as it came: a picture, a spreadsheet. */
  bytes: Buffer;
  json<T = unknown>(): T;
  ms: number;
}

export interface RequestOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: unknown;
  /** A form-encoded body instead of JSON. */
  form?: Record<string, string>;
  /** A body sent as it is (a multipart upload), its content-type in `headers`. */
  raw?: Buffer;
  timeoutMs?: number;
  /** An agent with keep-alive connections; `false` opens a new connection just for this request. */
  agent?: http.Agent | false;
  /** The client's own address (any of 127.0.0.0/8): a proxy in front sees it as the client's. */
  from?: string;
}

/** A failed exchange: no HTTP answer at all (refused, reset, timed out). */
export class TransportError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly ms: number,
  ) {
    super(message);
  }
}

export const keepAliveAgent = (maxSockets = 256) => new http.Agent({ keepAlive: true, maxSockets });

export function request(base: string, pathname: string, options: RequestOptions = {}): Promise<Answer> {
  const started = Date.now();
  const url = new URL(pathname, base);
  let payload: string | Buffer | undefined;
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  if (options.raw) {
    payload = options.raw;
  } else if (options.form) {
    payload = new URLSearchParams(options.form).toString();
    headers['content-type'] = 'application/x-www-form-urlencoded';
  } else if (options.body !== undefined) {
    payload = JSON.stringify(options.body);
    headers['content-type'] = 'application/json';
  }
  if (payload !== undefined) headers['content-length'] = String(Buffer.byteLength(payload));
  return new Promise<Answer>((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: options.method ?? 'GET',
        headers,
        agent: options.agent === undefined ? undefined : options.agent,
        localAddress: options.from,
        timeout: options.timeoutMs ?? 30_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', (error: NodeJS.ErrnoException) =>
          reject(new TransportError(error.message, error.code ?? 'ERESPONSE', Date.now() - started)),
        );
        res.on('end', () => {
          const bytes = Buffer.concat(chunks);
          const text = bytes.toString('utf8');
          resolve({
            status: res.statusCode!,
            headers: res.headers,
            text,
            bytes,
            json: <T>() => JSON.parse(text) as T,
            ms: Date.now() - started,
          });
        });
      },
    );
    req.on('timeout', () =>
      req.destroy(
        Object.assign(new Error(`no answer within ${options.timeoutMs ?? 30_000} ms`), { code: 'ETIMEDOUT_CLIENT' }),
      ),
    );
    req.on('error', (error: NodeJS.ErrnoException) =>
      reject(new TransportError(`${error.message}`, error.code ?? 'EUNKNOWN', Date.now() - started)),
    );
    if (payload !== undefined) req.write(payload);
    req.end();
  });
}

/** Like `request`, but a transport failure becomes a value instead of a rejection. */
export async function attempt(
  base: string,
  pathname: string,
  options: RequestOptions = {},
): Promise<Answer | TransportError> {
  try {
    return await request(base, pathname, options);
  } catch (error) {
    if (error instanceof TransportError) return error;
    throw error;
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Polls until `check` is true; returns the milliseconds it took, or throws after `timeoutMs`. */
export async function waitUntil(
  what: string,
  check: () => Promise<boolean>,
  timeoutMs: number,
  everyMs = 200,
): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (await check().catch(() => false)) return Date.now() - started;
    if (Date.now() - started > timeoutMs) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await sleep(everyMs);
  }
}

// ---------------------------------------------------------------------------------------------
// The shop's API

export interface Buyer {
  id: number;
  email: string;
  headers: { authorization: string };
}
export const ADDRESS = 'г. Казань, ул. Баумана, д. 1';

/** Registers and logs in a buyer through the public API, as the storefront does. */
export async function signUp(base: string, agent?: http.Agent): Promise<Buyer> {
  const email = `reliability-${randomUUID()}@example.com`;
  const registered = await request(
    base,
    `/api/v1/auth/register?${new URLSearchParams({ email, password: TEST_PASSWORD, consent: 'true' })}`,
    { method: 'POST', agent },
  );
  if (registered.status !== 201) throw new Error(`register: ${registered.status} ${registered.text}`);
  const login = await request(base, '/api/v1/auth/token', {
    method: 'POST',
    form: { username: email, password: TEST_PASSWORD },
    agent,
  });
  if (login.status !== 200) throw new Error(`login: ${login.status} ${login.text}`);
  return {
    id: registered.json<{ id: number }>().id,
    email,
    headers: { authorization: `Bearer ${login.json<{ access_token: string }>().access_token}` },
  };
}

/** `count` buyers, a few at a time (scrypt is deliberately slow), spread over the given servers. */
export async function signUpMany(bases: string[], count: number, agent?: http.Agent, parallel = 6): Promise<Buyer[]> {
  const buyers: Buyer[] = [];
  for (let start = 0; start < count; start += parallel) {
    const batch = Array.from({ length: Math.min(parallel, count - start) }, (_, i) =>
      signUp(bases[(start + i) % bases.length]!, agent),
    );
    buyers.push(...(await Promise.all(batch)));
  }
  return buyers;
}

export async function allProducts(base: string, agent?: http.Agent): Promise<Product[]> {
  const products: Product[] = [];
  for (let skip = 0; ; skip += 100) {
    const answer = await request(base, `/api/v1/products/?skip=${skip}&limit=100`, { agent });
    if (answer.status !== 200) throw new Error(`products: ${answer.status} ${answer.text}`);
    const page = answer.json<Product[]>();
    products.push(...page);
    if (page.length < 100) return products;
  }
}

export function placeOrder(
  base: string,
  buyer: Buyer,
  items: OrderItemPayload[],
  options: { key?: string; agent?: http.Agent | false; timeoutMs?: number } = {},
) {
  return request(base, '/api/v1/order/', {
    method: 'POST',
    headers: { ...buyer.headers, ...(options.key ? { 'idempotency-key': options.key } : {}) },
    body: { user_id: buyer.id, address: ADDRESS, items },
    agent: options.agent,
    timeoutMs: options.timeoutMs,
  });
}

/** Counts of each status (and transport error code) in a list of outcomes, for messages and docs. */
export function tally(outcomes: (Answer | TransportError)[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const outcome of outcomes) {
    const key = outcome instanceof TransportError ? outcome.code : String(outcome.status);
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

/**
 * Runs `work`; if it fails, the servers' own account is added to the failure: their error lines
 * (other than the per-request ones) and the end of their output.
 */
export async function explainFailure<T>(
  servers: () => (ServerProcess | undefined)[],
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof Error) {
      for (const server of servers()) {
        if (!server) continue;
        const output = server.output();
        const failures = output
          .split('\n')
          .filter(
            (entry) =>
              /closing after an error|killed by timeout|"level":(50|60)/.test(entry) &&
              !entry.includes('"msg":"request failed"'),
          );
        error.message +=
          `\n--- server ${server.url}: errors other than failed requests ---\n${failures.join('\n').slice(0, 4000)}` +
          `\n--- server ${server.url}: last lines ---\n${output.slice(-2500)}`;
      }
    }
    throw error;
  }
}

/** A line for the run's log: the numbers docs/reliability.md quotes. */
export function report(test: string, numbers: Record<string, unknown>): void {
  process.stdout.write(`[reliability] ${test}: ${JSON.stringify(numbers)}\n`);
}
