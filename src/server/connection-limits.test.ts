/** Timeouts and the connection cap: a slow or greedy client cannot hold connections as long as it likes. */
import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { createTestApp, LogCapture, STARTUP_TIMEOUT, type TestApp } from '../../test/server/helpers/test-app';

const LIMITS = {
  headersTimeoutMs: 1000,
  requestTimeoutMs: 1500,
  idleTimeoutMs: 10_000,
  keepAliveTimeoutMs: 1000,
  maxConnections: 3,
};

let shop: TestApp;
let port: number;
// Every line, at the most talkative level: Fastify logs a client's malformed request at trace.
const log = new LogCapture();

beforeAll(async () => {
  shop = await createTestApp({ connectionLimits: LIMITS, logLevel: 'trace' }, { logStream: log });
  await shop.app.listen({ host: '127.0.0.1', port: 0 });
  port = (shop.app.server.address() as AddressInfo).port;
}, STARTUP_TIMEOUT);
afterAll(() => shop.close());

interface Connection {
  socket: Socket;
  /** Everything the server sent, once it closed the connection, and how long after opening. */
  closed: Promise<{ received: string; afterMs: number }>;
}

function open(): Promise<Connection> {
  return new Promise((resolve, reject) => {
    const startedAt = Date.now();
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (received += chunk));
    const closed = new Promise<{ received: string; afterMs: number }>((done) =>
      socket.on('close', () => done({ received, afterMs: Date.now() - startedAt })),
    );
    socket.on('error', () => {});
    socket.once('connect', () => resolve({ socket, closed }));
    socket.once('error', reject);
  });
}

/** Writes `text` a byte at a time every `everyMs` until the socket closes. */
function trickle(socket: Socket, text: string, everyMs: number): void {
  let at = 0;
  const timer = setInterval(() => {
    if (socket.destroyed || at >= text.length) return clearInterval(timer);
    socket.write(text[at++]!);
  }, everyMs);
  socket.on('close', () => clearInterval(timer));
}

/** A raw HTTP answer's status, headers (lower-cased names) and body. */
function parseAnswer(received: string) {
  const [head = '', body = ''] = received.split('\r\n\r\n');
  const [statusLine = '', ...headerLines] = head.split('\r\n');
  const headers = Object.fromEntries(
    headerLines.map((line) => [
      line.slice(0, line.indexOf(':')).toLowerCase(),
      line.slice(line.indexOf(':') + 1).trim(),
    ]),
  );
  return { status: Number(statusLine.split(' ')[1]), headers, body };
}

/** What the API says of every error: `{detail}` in Russian, JSON that is never sniffed as anything else. */
function expectApiError(received: string, status: number) {
  const answer = parseAnswer(received);
  expect(answer.status).toBe(status);
  expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(answer.headers['x-content-type-options']).toBe('nosniff');
  expect(Number(answer.headers['content-length'])).toBe(Buffer.byteLength(answer.body));
  expect(JSON.parse(answer.body)).toEqual({ detail: expect.stringMatching(/[а-яё]/i) });
}

const PASSWORD = `slow-secret-${Date.now()}`;
const BODY = JSON.stringify({ email: 'slow@example.com', password: PASSWORD });

describe('timeouts', () => {
  it('a body trickling in is cut off with 408 once the request timeout is over', async () => {
    const { socket, closed } = await open();
    socket.write(
      `POST /api/v1/auth/register HTTP/1.1\r\nHost: shop\r\nContent-Type: application/json\r\nContent-Length: ${BODY.length}\r\n\r\n`,
    );
    trickle(socket, BODY, 100);
    const { received, afterMs } = await closed;
    expectApiError(received, 408);
    // The request timeout plus Node's check interval (one second), not as long as the client likes.
    expect(afterMs).toBeGreaterThanOrEqual(LIMITS.requestTimeoutMs - 100);
    expect(afterMs).toBeLessThan(LIMITS.requestTimeoutMs + 1500);
  }, 10_000);

  it('headers trickling in (slowloris) are cut off once the headers timeout is over', async () => {
    const { socket, closed } = await open();
    trickle(socket, `GET /api/health/live HTTP/1.1\r\nHost: shop\r\nX-Slow: ${'a'.repeat(100)}\r\n\r\n`, 100);
    const { received, afterMs } = await closed;
    expectApiError(received, 408);
    expect(afterMs).toBeLessThan(LIMITS.headersTimeoutMs + 1500);
  }, 10_000);

  it('an idle keep-alive connection is closed after the keep-alive timeout', async () => {
    const { socket, closed } = await open();
    socket.write('GET /api/health/live HTTP/1.1\r\nHost: shop\r\n\r\n');
    const { received, afterMs } = await closed;
    expect(received).toMatch(/^HTTP\/1\.1 200 /);
    expect(received).toContain(`Keep-Alive: timeout=${LIMITS.keepAliveTimeoutMs / 1000}`);
    expect(afterMs).toBeLessThan(LIMITS.keepAliveTimeoutMs + 1500);
  }, 10_000);
});

describe("what Node's HTTP parser refuses is answered as the API answers", () => {
  it('headers too large: 431 {detail} with nosniff (Node would answer it bare)', async () => {
    const { socket, closed } = await open();
    socket.write(`GET /api/health/live HTTP/1.1\r\nHost: shop\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expectApiError((await closed).received, 431);
  });

  it('HTTP/1.1 without Host: 400 {detail} with nosniff (Node would answer it bare)', async () => {
    const { socket, closed } = await open();
    socket.write('GET /api/health/live HTTP/1.1\r\nConnection: close\r\n\r\n');
    expectApiError((await closed).received, 400);
  });

  it('a malformed request: 400 {detail} with nosniff', async () => {
    const { socket, closed } = await open();
    socket.write('GET /api/health/live HTTP/1.1\r\nNot a header\r\n\r\n');
    expectApiError((await closed).received, 400);
  });
});

describe('the connection cap', () => {
  it('connections beyond the maximum are closed on arrival; the ones within are served', async () => {
    const held = await Promise.all(Array.from({ length: LIMITS.maxConnections }, open));
    // Let the server accept (and count) them before the one too many arrives.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const extra = await open();
    extra.socket.write('GET /api/health/live HTTP/1.1\r\nHost: shop\r\n\r\n');
    expect((await extra.closed).received).toBe('');

    held[0]!.socket.write('GET /api/health/live HTTP/1.1\r\nHost: shop\r\nConnection: close\r\n\r\n');
    expect((await held[0]!.closed).received).toMatch(/^HTTP\/1\.1 200 /);
    for (const { socket } of held) socket.destroy();
  }, 10_000);
});

describe('the log', () => {
  it('holds none of the bytes of a malformed request (the password in its query, say)', async () => {
    const { socket, closed } = await open();
    socket.write(`POST /api/v1/auth/register?password=${PASSWORD} HTTP/1.1\r\nNot a header\r\n\r\n`);
    expect((await closed).received).toMatch(/^HTTP\/1\.1 400 /);
    await new Promise((resolve) => setImmediate(resolve));
    // The capture works: the client's error is there, at trace.
    expect(log.text).toContain('"msg":"client error"');
    expect(log.text).not.toContain(PASSWORD);
    // Nor in another form: Node hands Fastify the bytes received as the error's rawPacket.
    expect(log.text).not.toContain('rawPacket');
  });
});
