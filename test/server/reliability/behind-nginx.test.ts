/**
 * Two server processes on one PostgreSQL database behind Debian's nginx, as `npm run cluster`
 * runs them (deploy/cluster.ts): what nginx serves itself and what it passes on, that it balances,
 * that the servers see the real client's address, the limits at the edge, and a process restarted
 * behind it without a failed request.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { BROTLI_STATIC_MODULE, startCluster, type Cluster } from '../../../deploy/cluster';
import type { Product } from '../../../src/shared/api';
import type { FreshDatabase } from '../helpers/fresh-database';
import { freshPostgresDatabase, ROOT, sleep, tempDir, waitUntil } from '../helpers/server-process';

jest.setTimeout(60_000);

// A storefront build in miniature: the shell page, one hashed script with the build's compressed
// copies beside it, and its source map.
const SCRIPT = `assets/main.0123abcd.js`;
const SCRIPT_BODY = `console.log(${JSON.stringify('Мягкий Опт '.repeat(200))});\n`;
const storefront = tempDir('storefront');
// Where the processes write their mail (as .eml files, without SMTP_URL).
const dataDir = tempDir('cluster-data');
const BROTLI = existsSync(BROTLI_STATIC_MODULE) ? BROTLI_STATIC_MODULE : null;

let database: FreshDatabase | undefined;
let cluster: Cluster | undefined;

beforeAll(async () => {
  // nginx's workers (nobody, when the suite runs as root) read it as they read dist/.
  chmodSync(storefront.dir, 0o755);
  mkdirSync(path.join(storefront.dir, 'assets'));
  const shell = readFileSync(path.join(ROOT, 'public/index.html'), 'utf8').replace(
    '</head>',
    `<script defer src="/${SCRIPT}"></script></head>`,
  );
  writeFileSync(path.join(storefront.dir, 'index.html'), shell);
  writeFileSync(path.join(storefront.dir, SCRIPT), SCRIPT_BODY);
  writeFileSync(path.join(storefront.dir, `${SCRIPT}.gz`), gzipSync(SCRIPT_BODY));
  writeFileSync(path.join(storefront.dir, `${SCRIPT}.br`), brotliCompressSync(SCRIPT_BODY));
  writeFileSync(path.join(storefront.dir, `${SCRIPT}.map`), '{"sources":["secret.ts"]}');

  database = await freshPostgresDatabase();
  cluster = await startCluster({
    processes: 2,
    databaseUrl: database.url,
    port: 0,
    firstServerPort: 0,
    storefrontDir: storefront.dir,
    brotliStaticModule: BROTLI,
    env: {
      LOG_LEVEL: 'info',
      DATA_DIR: dataDir.dir,
      // Small, so that a few sign-in attempts show whom each process counts them against.
      LOGIN_LIMIT_PER_CLIENT: '2',
      LOGIN_LIMIT_PER_ACCOUNT: '1000',
      SHUTDOWN_DRAIN_SECONDS: '2',
    },
  });
}, 60_000);

afterAll(async () => {
  try {
    await cluster?.stop();
  } finally {
    await database?.drop();
    storefront.remove();
    dataDir.remove();
  }
});

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  text: string;
}

interface SendOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** The client's own address (any of 127.0.0.0/8): nginx sees it as the client's. */
  from?: string;
  /** A server process directly instead of nginx. */
  port?: number;
}

function send(pathname: string, options: SendOptions = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: '127.0.0.1',
        port: options.port ?? cluster!.port,
        path: pathname,
        method: options.method ?? 'GET',
        headers: {
          ...(options.body !== undefined ? { 'content-length': String(Buffer.byteLength(options.body)) } : {}),
          ...options.headers,
        },
        localAddress: options.from,
        agent: false,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          const body = Buffer.concat(chunks);
          resolve({ status: response.statusCode!, headers: response.headers, body, text: body.toString('utf8') });
        });
      },
    );
    request.on('error', reject);
    request.end(options.body);
  });
}

/** nginx's access log lines for `pathname` (the cluster's format ends with `upstream=<who answered>`). */
function accessLogFor(pathname: string): string[] {
  return cluster!.nginx
    .accessLog()
    .split('\n')
    .filter((line) => line.includes(` ${pathname} HTTP/`));
}

/**
 * `accessLogFor` once it has at least `atLeast` lines: nginx writes a request's line after its answer
 * has gone (the log phase comes last), so the last may reach the file a moment after the client.
 * Never empty: a check over no lines would pass whatever nginx did.
 */
async function loggedFor(pathname: string, atLeast = 1): Promise<string[]> {
  for (const deadline = Date.now() + 2000; accessLogFor(pathname).length < atLeast && Date.now() < deadline;) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const lines = accessLogFor(pathname);
  expect(lines.length).toBeGreaterThanOrEqual(atLeast);
  return lines;
}

const servedByNginxItself = (line: string) => line.endsWith('upstream=-');

const EDGE_TOO_MANY = 'Слишком много запросов. Попробуйте позже.';
const APP_TOO_MANY = 'Слишком много попыток. Попробуйте позже.';
const detail = (answer: Answer) => (JSON.parse(answer.text) as { detail?: string }).detail;

describe('what nginx serves itself', () => {
  it('a hashed asset: from the build, pre-compressed, cached for a year, with nosniff', async () => {
    const gzip = await send(`/${SCRIPT}`, { headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.status).toBe(200);
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(gzip.headers['content-type']).toBe('application/javascript');
    expect(gzip.headers['x-content-type-options']).toBe('nosniff');
    expect(gzip.headers.vary).toBe('Accept-Encoding');
    expect(gunzipSync(gzip.body).toString('utf8')).toBe(SCRIPT_BODY);

    const plain = await send(`/${SCRIPT}`);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.text).toBe(SCRIPT_BODY);

    const brotli = await send(`/${SCRIPT}`, { headers: { 'accept-encoding': 'br, gzip' } });
    if (BROTLI) {
      expect(brotli.headers['content-encoding']).toBe('br');
      expect(brotliDecompressSync(brotli.body).toString('utf8')).toBe(SCRIPT_BODY);
    } else {
      // Without the module nginx cannot serve the .br copy; the .gz one it always can.
      expect(brotli.headers['content-encoding']).toBe('gzip');
    }
    // None of them reached a server process.
    const lines = await loggedFor(`/${SCRIPT}`, 3);
    expect(lines).toHaveLength(3);
    expect(lines.every(servedByNginxItself)).toBe(true);
  });

  it('never the source maps', async () => {
    const map = await send(`/${SCRIPT}.map`);
    expect(map.status).toBe(404);
    expect(map.text).not.toContain('secret.ts');
  });
});

describe('what nginx passes to the servers', () => {
  it("a product page, rendered by a server with the shop's address (PUBLIC_URL, nginx's)", async () => {
    const [product] = JSON.parse((await send('/api/v1/products/?limit=1')).text) as Product[];
    const pagePath = `/product/${encodeURIComponent(product!.art)}`;
    const page = await send(pagePath);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['cache-control']).toBe('no-cache');
    // The server wrote the product's head into the shell, with the shop's address: nginx's.
    expect(page.text).toContain(`Артикул ${product!.art}.`);
    expect(page.text).toContain(`${cluster!.url}${pagePath}`);
    expect(page.text).toContain(`/${SCRIPT}`);
    expect((await loggedFor(pagePath)).some(servedByNginxItself)).toBe(false);

    const home = await send('/');
    expect(home.status).toBe(200);
    expect(home.text).toContain('<div id="root"></div>');
    expect((await loggedFor('/')).some(servedByNginxItself)).toBe(false);
  });

  it('/api/health/ready, and the requests are shared between both processes', async () => {
    expect(JSON.parse((await send('/api/health/ready')).text)).toEqual({ status: 'ok' });
    // Each process logs every request it answers (a moment after its answer).
    const logged = () => cluster!.servers.map((server) => server.output().split('/api/health/live').length - 1);
    const before = logged();
    for (let i = 0; i < 10; i += 1) expect((await send('/api/health/live')).status).toBe(200);
    const answered = () => logged().map((count, index) => count - before[index]!);
    await waitUntil('every request logged', async () => answered()[0]! + answered()[1]! === 10, 2000, 20);
    expect(Math.min(...answered())).toBeGreaterThanOrEqual(3);
  });

  it('the servers see the real client address (X-Forwarded-For from nginx), never one a client claims', async () => {
    const signIn = (from: string, headers: Record<string, string> = {}) =>
      send('/api/v1/auth/token', {
        method: 'POST',
        from,
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body: 'username=nobody%40example.com&password=wrong-password-1',
      });
    // LOGIN_LIMIT_PER_CLIENT is 2, counted in PostgreSQL for every process: from the third attempt
    // on, whichever process nginx picks refuses it.
    const attempts: Answer[] = [];
    for (let i = 0; i < 6; i += 1) attempts.push(await signIn('127.0.0.2'));
    expect(attempts.slice(0, 2).map((answer) => answer.status)).toEqual([401, 401]);
    expect(attempts.slice(2).map(detail)).toEqual(Array(4).fill(APP_TOO_MANY));
    // The same client claiming another address is still itself ...
    const spoofed = await signIn('127.0.0.2', { 'x-forwarded-for': '10.1.2.3' });
    expect(detail(spoofed)).toBe(APP_TOO_MANY);
    // ... and another client is not held back by it: the processes do not see everyone as nginx.
    expect((await signIn('127.0.0.3')).status).toBe(401);
  });

  it("refresh from the shop's own page passes the servers' Origin check; a foreign one does not", async () => {
    const refresh = (origin: string) =>
      send('/api/v1/auth/refresh', { method: 'POST', from: '127.0.0.6', headers: { origin } });
    expect((await refresh(cluster!.url)).status).toBe(401);
    expect((await refresh('http://shop.example')).status).toBe(403);
  });

  it("its access log masks a company's secret feed address, a signed download's link and /auth's query", async () => {
    const secret = 'c2VjcmV0LWZlZWQtdG9rZW4tNDI';
    const logged = cluster!.nginx.accessLog().length;
    for (const pathname of [
      `/api/v1/feed/${secret}.yml`,
      // The same address spelled with an escape: nginx judges its decoded path.
      `/api/v1/feed/%${secret.charCodeAt(0).toString(16)}${secret.slice(1)}.yml`,
      // With a trailing slash, which the server takes for the same address.
      `/api/v1/feed/${secret}.yml/`,
      `/api/v1/order/1/1/marketplace-kit?link=${secret}`,
      // An escaped «?» in the path: the query is still judged on its own.
      `/api/v1/order/1/1/marketplace-kit%3Fq=1?link=${secret}`,
      `/api/v1/auth/confirm-email?email=buyer%40example.com&token=${secret}`,
      // A parameter's name escaped (here «link»): the whole query is masked.
      `/api/v1/products/search?q=x&%6Cink=${secret}`,
      '/api/v1/products/search?q=x&skip=0',
    ]) {
      await send(pathname, { from: '127.0.0.7' });
    }
    // nginx writes a request's line once its answer has gone.
    const lines = () => cluster!.nginx.accessLog().slice(logged).split('\n').filter(Boolean);
    await waitUntil('eight requests logged', async () => lines().length >= 8, 2000, 20);
    expect(lines().join('\n')).not.toContain(secret.slice(1));
    expect(lines().map((line) => line.split('"')[1])).toEqual([
      'GET /api/v1/feed/[redacted] HTTP/1.1',
      'GET /api/v1/feed/[redacted] HTTP/1.1',
      'GET /api/v1/feed/[redacted] HTTP/1.1',
      'GET /api/v1/order/1/1/marketplace-kit?[redacted] HTTP/1.1',
      'GET /api/v1/order/1/1/marketplace-kit?q=1?[redacted] HTTP/1.1',
      'GET /api/v1/auth/confirm-email?[redacted] HTTP/1.1',
      'GET /api/v1/products/search?[redacted] HTTP/1.1',
      'GET /api/v1/products/search?q=x&skip=0 HTTP/1.1',
    ]);
  });
});

describe('limits at the edge', () => {
  it('a body over the limit: 413 {detail} from nginx, never read by a server; an upload route allows its own', async () => {
    const tooLarge = await send('/api/v1/order/', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ address: 'x'.repeat(1024 * 1024) }),
    });
    expect(tooLarge.status).toBe(413);
    expect(JSON.parse(tooLarge.text)).toEqual({ detail: 'Слишком большой запрос' });
    expect((await loggedFor('/api/v1/order/')).every(servedByNginxItself)).toBe(true);

    const quickOrder = await send('/api/v1/cart/import', {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'MO-1001 красный M 1\n'.repeat(100_000),
    });
    // 3 MB: past nginx to the server, which wants a signed-in buyer.
    expect(quickOrder.status).toBe(401);
    expect((await loggedFor('/api/v1/cart/import')).some(servedByNginxItself)).toBe(false);
  });

  it('sign-in attempts beyond the burst: 429 {detail} from nginx; refreshes are not counted', async () => {
    const answers: Answer[] = [];
    for (let i = 0; i < 16; i += 1) {
      answers.push(
        await send('/api/v1/auth/token', {
          method: 'POST',
          from: '127.0.0.4',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: 'username=nobody%40example.com',
        }),
      );
    }
    const refusedAtTheEdge = answers.map((answer) => answer.status === 429 && detail(answer) === EDGE_TOO_MANY);
    // A burst of 10 beyond the first; the rest within the same seconds are refused.
    expect(refusedAtTheEdge.slice(0, 10)).not.toContain(true);
    expect(refusedAtTheEdge.slice(12)).toEqual([true, true, true, true]);

    for (let i = 0; i < 16; i += 1) {
      const refresh = await send('/api/v1/auth/refresh', { method: 'POST', from: '127.0.0.4' });
      expect(refresh.status).toBe(401);
    }
  });
});

describe('a rolling restart', () => {
  it('a stopping process says "not ready" while it still serves, and nginx loses no request meanwhile', async () => {
    const stopping = cluster!.servers[0]!;
    const port = cluster!.serverPorts[0]!;
    const failures: string[] = [];
    let requests = 0;
    let running = true;
    // Four shoppers at once (each under the edge's 50 requests a second), so that nginx keeps
    // several connections to each process.
    const shopper = async (from: string) => {
      while (running) {
        const answer = await send('/api/v1/products/?limit=1', { from });
        requests += 1;
        if (answer.status !== 200) failures.push(`${answer.status} ${answer.text.slice(0, 200)}`);
        await sleep(25);
      }
    };
    const traffic = Promise.all(['127.0.0.11', '127.0.0.12', '127.0.0.13', '127.0.0.14'].map(shopper));

    try {
      const restarted = cluster!.restartServer(0);
      await stopping.waitForOutput(/"msg":"shutting down"/, 5000);
      // SHUTDOWN_DRAIN_SECONDS (2): not ready for the balancers, and still answering.
      expect((await send('/api/health/ready', { port })).status).toBe(503);
      expect((await send('/api/health/live', { port })).status).toBe(200);
      const fresh = await restarted;
      expect((await stopping.exited).code).toBe(0);
      expect(fresh.port).toBe(port);
      expect((await send('/api/health/ready', { port })).status).toBe(200);
    } finally {
      running = false;
      await traffic;
    }
    expect(failures.slice(0, 5)).toEqual([]);
    expect(requests).toBeGreaterThan(100);
  });
});
