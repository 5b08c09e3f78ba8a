/** Liveness and readiness for balancers, and what the app does while it drains before a graceful stop. */
import { connect, type AddressInfo } from 'node:net';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { createTestApp, STARTUP_TIMEOUT, type TestApp } from '../../../../test/server/helpers/test-app';

/**
 * A connection kept alive as a balancer keeps it: requests one after another on the same socket,
 * and whether the server has closed it.
 */
async function keptAlive(port: number) {
  const socket = connect(port, '127.0.0.1');
  await once(socket, 'connect');
  socket.setEncoding('utf8');
  let received = '';
  let closed = false;
  socket.on('data', (chunk: string) => (received += chunk));
  socket.on('close', () => (closed = true));
  socket.on('error', () => {});
  /** The answer's status and headers (lower-cased names) once all of it has arrived, else null. */
  const answer = () => {
    const end = received.indexOf('\r\n\r\n');
    if (end < 0) return null;
    const [statusLine = '', ...lines] = received.slice(0, end).split('\r\n');
    const headers = Object.fromEntries(
      lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
    );
    const bodyBytes = Buffer.byteLength(received.slice(end + 4));
    return bodyBytes >= Number(headers['content-length'] ?? 0)
      ? { status: Number(statusLine.split(' ')[1]), headers }
      : null;
  };
  return {
    closed: () => closed,
    async ask(url: string) {
      received = '';
      socket.write(`GET ${url} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
      for (let waited = 0; waited < 5000; waited += 10) {
        const done = answer();
        if (done) return done;
        if (closed) throw new Error(`closed by the server before an answer to ${url}: ${JSON.stringify(received)}`);
        await sleep(10);
      }
      throw new Error(`no answer to ${url}: ${JSON.stringify(received)}`);
    },
  };
}

let shop: TestApp;

beforeAll(async () => {
  shop = await createTestApp();
}, STARTUP_TIMEOUT);
afterAll(() => shop.close());

describe('health', () => {
  it.each(['/api/health/live', '/api/health/ready'])('%s → 200 {status: "ok"}', async (url) => {
    const response = await shop.app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
  });

  it(
    '/ready → 503 once the database is gone',
    async () => {
      const doomed = await createTestApp();
      try {
        await doomed.app.database.close();
        const response = await doomed.app.inject({ method: 'GET', url: '/api/health/ready' });
        expect(response.statusCode).toBe(503);
        expect((await doomed.app.inject({ method: 'GET', url: '/api/health/live' })).statusCode).toBe(200);
      } finally {
        // The database handle is already closed; closing the app must not throw because of it.
        await doomed.close().catch(() => {});
      }
    },
    STARTUP_TIMEOUT,
  );

  it(
    'draining (the start of a graceful stop): /ready → 503 for balancers, every other request still served, on connections not kept',
    async () => {
      const stopping = await createTestApp();
      try {
        stopping.app.startDraining();
        const ready = await stopping.app.inject({ method: 'GET', url: '/api/health/ready' });
        expect(ready.statusCode).toBe(503);
        expect(ready.json()).toEqual({ status: 'shutting down' });
        expect((await stopping.app.inject({ method: 'GET', url: '/api/health/live' })).statusCode).toBe(200);
        const products = await stopping.app.inject({ method: 'GET', url: '/api/v1/products/?limit=1' });
        expect(products.statusCode).toBe(200);
        // No connection is kept for another request: none is left idle for a balancer when it stops accepting.
        expect(products.headers.connection).toBe('close');
      } finally {
        await stopping.close();
      }
    },
    STARTUP_TIMEOUT,
  );

  it(
    'draining closes no idle kept-alive connection (a balancer may be sending on it that moment): each is closed after its next answer',
    async () => {
      const stopping = await createTestApp();
      try {
        await stopping.app.listen({ host: '127.0.0.1', port: 0 });
        const { port } = stopping.app.server.address() as AddressInfo;
        const [first, second] = [await keptAlive(port), await keptAlive(port)];
        for (const connection of [first, second]) {
          expect((await connection.ask('/api/health/live')).status).toBe(200);
        }
        stopping.app.startDraining();
        await sleep(100);
        expect([first.closed(), second.closed()]).toEqual([false, false]);

        const products = await first.ask('/api/v1/products/?limit=1');
        expect(products.status).toBe(200);
        expect(products.headers.connection).toBe('close');
        // Another connection's answer closes none but its own either.
        await sleep(100);
        expect([first.closed(), second.closed()]).toEqual([true, false]);
        const live = await second.ask('/api/health/live');
        expect(live.status).toBe(200);
        expect(live.headers.connection).toBe('close');
        await sleep(100);
        expect(second.closed()).toBe(true);
      } finally {
        await stopping.close();
      }
    },
    STARTUP_TIMEOUT,
  );
});
