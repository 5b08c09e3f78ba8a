/**
 * Phase 4, over a real socket: what `inject` cannot send, because Node's HTTP parser refuses it
 * before Fastify sees a request (headers too large, a broken request line or chunk). Whatever the
 * server answers must be the API's: no 5xx, `{detail}` JSON for an error, and nosniff.
 */
import { connect, type AddressInfo } from 'node:net';
import fc from 'fast-check';
import { describeFailure, type FuzzSettings } from './operations';
import type { FuzzShop } from './shop';

/** Bytes of a request as a client could write them, mostly broken. */
const RAW_REQUESTS = fc.oneof(
  // Headers beyond Node's 16 KB.
  fc
    .integer({ min: 8_000, max: 70_000 })
    .map(
      (size) =>
        `GET /api/v1/products HTTP/1.1\r\nHost: shop\r\nConnection: close\r\nX-Big: ${'a'.repeat(size)}\r\n\r\n`,
    ),
  // A request line of anything.
  fc
    .string({ unit: 'binary-ascii', maxLength: 200 })
    .map((line) => `${line.replace(/\r|\n/g, '')}\r\nHost: shop\r\nConnection: close\r\n\r\n`),
  // A header line that is no header.
  fc
    .string({ unit: 'binary-ascii', minLength: 1, maxLength: 100 })
    .map(
      (line) =>
        `GET /api/v1/banners/all HTTP/1.1\r\nHost: shop\r\nConnection: close\r\n${line.replace(/[\r\n:]/g, '')}\r\n\r\n`,
    ),
  // A chunked body that is not chunked, or whose chunk extensions never end.
  fc.constantFrom(
    'POST /api/v1/auth/token HTTP/1.1\r\nHost: shop\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\nzz\r\n\r\n',
    `POST /api/v1/auth/token HTTP/1.1\r\nHost: shop\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\n1;${'x'.repeat(20_000)}\r\n`,
    'POST /api/v1/auth/token HTTP/1.1\r\nHost: shop\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
    'GET /api/v1/products HTTP/9.9\r\nHost: shop\r\n\r\n',
    'GET /api/v1/products HTTP/1.1\r\nConnection: close\r\n\r\n',
    'GET /api/v1/products HTTP/1.1\r\nHost: shop\r\nContent-Length: -1\r\n\r\n',
  ),
);

/** Everything the server wrote back before closing (or after `waitMs`, when it kept the connection). */
function exchange(port: number, raw: string, waitMs = 2000): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(received);
    };
    const timer = setTimeout(done, waitMs);
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      received += chunk;
    });
    socket.on('close', done);
    socket.on('error', () => {});
    socket.write(raw);
  });
}

/** What is wrong with a raw answer (empty when it is the API's, or when the server just closed). */
function answerProblems(received: string): string[] {
  if (received === '') return [];
  const [head = '', body = ''] = received.split('\r\n\r\n');
  const [statusLine = '', ...lines] = head.split('\r\n');
  const status = Number(statusLine.split(' ')[1]);
  const headers = new Map(
    lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
  );
  const problems: string[] = [];
  if (!(status >= 200 && status < 500)) problems.push(`status line «${statusLine}»`);
  if (headers.get('x-content-type-options') !== 'nosniff') problems.push('no X-Content-Type-Options: nosniff');
  if (status >= 400) {
    let detail: unknown;
    try {
      detail = (JSON.parse(body) as { detail?: unknown }).detail;
    } catch {
      // Reported below.
    }
    if (!headers.get('content-type')?.startsWith('application/json') || typeof detail !== 'string') {
      problems.push(`not {detail} JSON: ${headers.get('content-type')} ${body.slice(0, 200)}`);
    }
  }
  return problems;
}

export async function fuzzWire(fuzz: FuzzShop, settings: FuzzSettings): Promise<string | null> {
  await fuzz.app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = fuzz.app.server.address() as AddressInfo;
  const property = fc.asyncProperty(RAW_REQUESTS, async (raw) => {
    const received = await exchange(port, raw);
    const problems = answerProblems(received);
    if (problems.length > 0) throw new Error(`${problems.join('; ')}\n  answer: ${received.slice(0, 500)}`);
  });
  const details = await fc.check(property, { numRuns: settings.runs, seed: settings.seed });
  settings.progress?.(`wire: ${details.failed ? 'FAILED' : 'ok'}`);
  if (!details.failed) return null;
  const [raw] = details.counterexample ?? [];
  return `seed ${settings.seed}, path ${details.counterexamplePath}:\n  request: ${JSON.stringify(raw?.slice(0, 300))}\n  ${describeFailure(details)}`;
}
