/**
 * The shop scaled out: three server processes on one PostgreSQL database behind nginx, as
 * `npm run cluster -- 3` runs them (deploy/cluster.ts). What a manager changes through one process
 * the others serve at once; the sign-in limits and the end of a session hold whichever process a
 * request reaches; an order storm through nginx loses no confirmed order and oversells nothing
 * when a process is killed with kill -9 in the middle of it; a rolling restart of all three under
 * load fails no request. nginx's own limits stay on throughout: every client of the test connects
 * from an address of its own (127.0.0.x), as the shop's customers do.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { startCluster, type Cluster } from '../../../deploy/cluster';
import type { OrderItemPayload, OrderSummary, Product } from '../../../src/shared/api';
import type { FreshDatabase } from '../helpers/fresh-database';
import {
  attempt,
  explainFailure,
  freshPostgresDatabase,
  report,
  request,
  ROOT,
  sleep,
  tally,
  tempDir,
  TransportError,
  waitUntil,
  type Answer,
  type RequestOptions,
  type ServerProcess,
} from '../helpers/server-process';
import { TEST_PASSWORD } from '../helpers/shop-data';
import { DEVICE_COOKIE } from '../../../src/server/plugins/authentication';

jest.setTimeout(90_000);

const PROCESSES = 3;
// Small, so that a few dozen attempts (each a deliberately slow password hash) reach them.
const LOGIN_LIMIT_PER_CLIENT = 20;
const LOGIN_LIMIT_PER_ACCOUNT = 5;

const storefront = tempDir('cluster-storefront');
// Where the processes write their mail (as .eml files, without SMTP_URL).
const dataDir = tempDir('cluster-data');

let database: FreshDatabase | undefined;
let cluster: Cluster | undefined;

beforeAll(async () => {
  // nginx's workers (nobody, when the suite runs as root) read it as they read dist/.
  chmodSync(storefront.dir, 0o755);
  writeFileSync(path.join(storefront.dir, 'index.html'), readFileSync(path.join(ROOT, 'public/index.html')));
  database = await freshPostgresDatabase();
  cluster = await startCluster({
    processes: PROCESSES,
    databaseUrl: database.url,
    port: 0,
    firstServerPort: 0,
    storefrontDir: storefront.dir,
    env: {
      LOG_LEVEL: 'info',
      // Every request's line, the catalogue's reads too: the rolling restart counts what a stopping
      // process still served from them.
      ACCESS_LOG_SAMPLE: '1',
      DATA_DIR: dataDir.dir,
      LOGIN_LIMIT_PER_CLIENT: String(LOGIN_LIMIT_PER_CLIENT),
      LOGIN_LIMIT_PER_ACCOUNT: String(LOGIN_LIMIT_PER_ACCOUNT),
      // The storm's buyers place order after order, unpaid, and empty a stock to its last piece:
      // the buyer limits have tests of their own (routes/order/buyer-limits.test.ts).
      MAX_UNPAID_ORDERS: '100000',
      MAX_ORDERS_PER_DAY: '100000',
      MAX_STOCK_SHARE_PERCENT: '100',
      UNPROVEN_STOCK_SHARE_PERCENT: '100',
      REQUIRE_EMAIL_CONFIRMATION: 'false',
      // A stopping process keeps serving, "not ready", closing each kept-alive connection after its
      // next answer (for a balancer that polls /ready; nginx is told by the restart itself).
      SHUTDOWN_DRAIN_SECONDS: '2',
    },
  });
}, 90_000);

afterAll(async () => {
  try {
    await cluster?.stop();
  } finally {
    await database?.drop();
    storefront.remove();
    dataDir.remove();
  }
});

// ---------------------------------------------------------------------------------------------
// Clients

/** nginx, where customers go. */
const shop = () => cluster!.url;
/** Server process `index` directly, past nginx (its port stays the same across restarts). */
const processAt = (index: number) => `http://127.0.0.1:${cluster!.serverPorts[index]}`;

let lastAddress = 1;
/** An address of 127.0.0.0/8 no other client of this file has used: to nginx, a new customer. */
function newClientAddress(): string {
  lastAddress += 1;
  return `127.0.${Math.floor(lastAddress / 250)}.${(lastAddress % 250) + 2}`;
}

/**
 * A direct request to a process comes from 127.0.0.1, the proxy the processes trust: it counts as
 * coming from the client its X-Forwarded-For names, as if nginx had passed it on.
 */
const asClient = (client: string) => ({ 'x-forwarded-for': client });

interface Account {
  id: number;
  email: string;
}

interface Buyer extends Account {
  /** Its address towards nginx. */
  from: string;
  headers: { authorization: string };
}

interface Session {
  token: string;
  /** The refresh cookie, as `refresh_token=…` for a Cookie header. */
  cookie: string;
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

function signIn(base: string, email: string, password: string, options: RequestOptions = {}): Promise<Answer> {
  return request(base, '/api/v1/auth/token', { ...options, method: 'POST', form: { username: email, password } });
}

function sessionOf(answer: Answer): Session {
  expect(answer.status).toBe(200);
  const cookie = (answer.headers['set-cookie'] ?? []).find((line) => line.startsWith('refresh_token='));
  expect(cookie).toBeDefined();
  return { token: answer.json<{ access_token: string }>().access_token, cookie: cookie!.split(';')[0]! };
}

/** Signs up and in through nginx from an address of its own, as the storefront does. */
async function signUp(label: string): Promise<Buyer> {
  const from = newClientAddress();
  const email = `cluster-${label}-${randomUUID()}@example.com`;
  const registered = await request(
    shop(),
    `/api/v1/auth/register?${new URLSearchParams({ email, password: TEST_PASSWORD, consent: 'true' })}`,
    { method: 'POST', from },
  );
  if (registered.status !== 201) throw new Error(`register: ${registered.status} ${registered.text}`);
  const session = sessionOf(await signIn(shop(), email, TEST_PASSWORD, { from }));
  return { id: registered.json<{ id: number }>().id, email, from, headers: bearer(session.token) };
}

async function signUpMany(count: number, label: string, parallel = 6): Promise<Buyer[]> {
  const buyers: Buyer[] = [];
  for (let start = 0; start < count; start += parallel) {
    const batch = Array.from({ length: Math.min(parallel, count - start) }, () => signUp(label));
    buyers.push(...(await Promise.all(batch)));
  }
  return buyers;
}

/** A multipart/form-data body with one file in its `file` field, as the back office's upload sends it. */
function oneFileForm(file: Buffer, filename: string, type: string): { headers: Record<string, string>; body: Buffer } {
  const boundary = `cluster-${randomUUID()}`;
  return {
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    body: Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\n` +
          `Content-Type: ${type}\r\n\r\n`,
      ),
      file,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
  };
}

const execFileAsync = promisify(execFile);

/** Makes the account a manager with the shop's own command (`npm run users -- grant-manager`), compiled. */
async function grantManager(email: string): Promise<void> {
  const { stdout } = await execFileAsync(
    path.join(ROOT, 'node_modules/.bin/node'),
    ['build/server/cli/users.js', 'grant-manager', email],
    { cwd: ROOT, env: { ...process.env, NODE_OPTIONS: '', DATABASE_URL: database!.url } },
  );
  expect(stdout).toContain('менеджер');
}

/**
 * `explainFailure` for the cluster: on a failure, the processes' errors and last lines, and what
 * nginx said (why it answered 502/503 itself: a process refused, reset or closed a connection).
 */
async function explainClusterFailure<T>(work: () => Promise<T>, alsoServers: ServerProcess[] = []): Promise<T> {
  try {
    return await explainFailure(() => [...cluster!.servers, ...alsoServers], work);
  } catch (error) {
    if (error instanceof Error) error.message += `\n--- nginx ---\n${cluster!.nginx.output().slice(-4000)}`;
    throw error;
  }
}

/** Polls `check` every 10 ms; the milliseconds until it held, or throws after `timeoutMs`. */
const settled = (what: string, check: () => Promise<boolean>, timeoutMs = 1000) =>
  waitUntil(what, check, timeoutMs, 10);

// ---------------------------------------------------------------------------------------------

describe('the catalogue', () => {
  const productPath = (product: Product) => `/api/v1/products/${encodeURIComponent(product.art)}`;
  const FIRST_PAGE = '/api/v1/products/?limit=100';
  /** The shopper who keeps looking (newClientAddress never gives it out). */
  const reader = '127.0.0.2';

  const productAt = async (base: string, product: Product): Promise<Product | null> => {
    const answer = await request(base, productPath(product), { from: reader });
    if (answer.status === 404) return null;
    expect(answer.status).toBe(200);
    return answer.json<Product>();
  };
  const firstPageAt = async (base: string): Promise<Product[]> => {
    const answer = await request(base, FIRST_PAGE, { from: reader });
    expect(answer.status).toBe(200);
    return answer.json<Product[]>();
  };
  /** A new account, made a manager, signed in at `base`: its Authorization header. */
  const managerSignedInAt = async (base: string) => {
    const manager = await signUp('manager');
    await grantManager(manager.email);
    return bearer(sessionOf(await signIn(base, manager.email, TEST_PASSWORD)).token);
  };

  it("a manager's changes through one process are served at once by the others and through nginx", async () => {
    const managerHeaders = await managerSignedInAt(processAt(0));

    const catalogue = await firstPageAt(shop());
    const [renamed, hidden] = catalogue.filter((product) => product.variants.length > 0) as [Product, Product];
    const repriced = renamed.variants[0]!;

    // Every process has the two products and the first page in its cache ...
    const readers = [processAt(1), processAt(2), shop()];
    for (const base of [processAt(0), processAt(1), processAt(2), shop(), shop(), shop()]) {
      expect((await productAt(base, renamed))?.name).toBe(renamed.name);
      expect(await productAt(base, hidden)).not.toBeNull();
      await firstPageAt(base);
    }
    // ... and answers from it: a change made behind the shop's back (no announcement) is not seen.
    await database!.query('update products set name = $1 where id = $2', [`${renamed.name} (unseen)`, renamed.id]);
    for (const base of [processAt(1), processAt(2)]) expect((await productAt(base, renamed))?.name).toBe(renamed.name);

    // Through process 1: a new name, a new price, a product taken off the shop.
    const newName = `${renamed.name} — новинка`;
    const newPrice = repriced.price! + 111;
    const rename = await request(processAt(0), `/api/v1/admin/products/${renamed.id}`, {
      method: 'PATCH',
      headers: managerHeaders,
      body: { name: newName },
    });
    expect(rename.status).toBe(200);
    const renamedAt = Date.now();
    const renamedSeenMs: number[] = [];
    for (const base of readers) {
      renamedSeenMs.push(
        await settled(`the new name through ${base}`, async () => (await productAt(base, renamed))?.name === newName),
      );
    }

    const reprice = await request(processAt(0), `/api/v1/admin/variants/${repriced.id}`, {
      method: 'PATCH',
      headers: managerHeaders,
      body: { price: newPrice },
    });
    expect(reprice.status).toBe(200);
    const hide = await request(processAt(0), `/api/v1/admin/products/${hidden.id}`, {
      method: 'DELETE',
      headers: managerHeaders,
    });
    expect(hide.status).toBe(200);
    const changedSeenMs: number[] = [];
    for (const base of readers) {
      changedSeenMs.push(
        await settled(`the new price and the hidden product through ${base}`, async () => {
          const page = await firstPageAt(base);
          const shown = page.find((product) => product.id === renamed.id);
          return (
            shown?.variants.find((variant) => variant.id === repriced.id)?.price === newPrice &&
            shown.name === newName &&
            !page.some((product) => product.id === hidden.id) &&
            (await productAt(base, hidden)) === null
          );
        }),
      );
    }
    report('cluster: catalogue changes through process 1', {
      renamedSeenByOthersMs: renamedSeenMs,
      repricedAndHiddenSeenMs: changedSeenMs,
      sinceRenameMs: Date.now() - renamedAt,
    });
  });

  it('a picture a manager uploads through one process is served by the others and through nginx, from PostgreSQL; a product shows it everywhere at once', async () => {
    const managerHeaders = await managerSignedInAt(processAt(0));
    // Pink on the left, blue on the right: what comes back can be told from any other picture.
    const PINK = { r: 232, g: 51, b: 111 };
    const BLUE = { r: 47, g: 111, b: 223 };
    const original = await sharp({ create: { width: 240, height: 160, channels: 3, background: PINK } })
      .composite([{ input: { create: { width: 120, height: 160, channels: 3, background: BLUE } }, left: 120, top: 0 }])
      .png()
      .toBuffer();
    /** What a served picture is: its format, size, and the colour in the middle of each half. */
    const look = async (bytes: Buffer) => {
      const { format } = await sharp(bytes).metadata();
      const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
      const colourAt = (x: number, y: number) => {
        const at = (y * info.width + x) * info.channels;
        const [r, g, b] = [data[at]!, data[at + 1]!, data[at + 2]!];
        const near = (colour: typeof PINK) =>
          Math.max(Math.abs(r - colour.r), Math.abs(g - colour.g), Math.abs(b - colour.b)) <= 8;
        return near(PINK) ? 'pink' : near(BLUE) ? 'blue' : `rgb(${r}, ${g}, ${b})`;
      };
      return {
        format,
        width: info.width,
        height: info.height,
        left: colourAt(info.width >> 2, info.height >> 1),
        right: colourAt((info.width * 3) >> 2, info.height >> 1),
      };
    };

    // Uploaded through process 1, as the back office sends it.
    const form = oneFileForm(original, 'bear.png', 'image/png');
    const uploaded = await request(processAt(0), '/api/v1/admin/images', {
      method: 'POST',
      headers: { ...managerHeaders, ...form.headers },
      raw: form.body,
      agent: false,
    });
    const answered = uploaded.text;
    // The whole answer shown should it not be 201.
    expect({ status: uploaded.status, answered }).toMatchObject({ status: 201 });
    const { name, width, height } = JSON.parse(answered) as {
      name: string;
      width: number;
      height: number;
    };
    expect({ name, width, height }).toEqual({
      name: expect.stringMatching(/^u-[0-9a-f]{32}\.webp$/),
      width: 240,
      height: 160,
    });
    const [stored] = await database!.query<{ content_type: string; data: Buffer; width: number; height: number }>(
      'select content_type, data, width, height from images where name = $1',
      [name],
    );
    expect(stored).toEqual({ content_type: 'image/webp', data: expect.any(Buffer), width: 240, height: 160 });

    const picturePath = `/api/v1/image/${name}`;
    const servedAt = async (base: string) => {
      const answer = await request(base, picturePath, { from: reader, agent: false });
      return {
        base,
        status: answer.status,
        type: answer.headers['content-type'],
        cache: answer.headers['cache-control'],
        sameBytesAsStored: answer.bytes.equals(stored!.data),
        picture: answer.status === 200 ? await look(answer.bytes) : answer.text,
      };
    };
    const asUploaded = (base: string) => ({
      base,
      status: 200,
      type: 'image/webp',
      cache: 'public, max-age=31536000, immutable',
      sameBytesAsStored: true,
      picture: { format: 'webp', width: 240, height: 160, left: 'pink', right: 'blue' },
    });
    // Processes 2 and 3, which never saw the upload, serve it at once, and so does nginx.
    const accessLogLength = cluster!.nginx.accessLog().length;
    for (const base of [processAt(1), processAt(2), shop()]) expect(await servedAt(base)).toEqual(asUploaded(base));
    // nginx had it from a process (not from a cache of its own).
    const upstreamPorts = cluster!.nginx
      .accessLog()
      .slice(accessLogLength)
      .split('\n')
      .filter((line) => line.includes(`"GET ${picturePath} HTTP/`))
      .map((line) => Number(/upstream=127\.0\.0\.1:(\d+)$/.exec(line)?.[1]));
    expect(upstreamPorts).toHaveLength(1);
    expect(cluster!.serverPorts).toContain(upstreamPorts[0]);

    // Put on a product through process 1: the others show it on the product at once, its page too.
    const product = (await firstPageAt(shop())).filter((shown) => shown.variants.length > 0)[2]!;
    expect(product.image).not.toBe(name);
    const readers = [processAt(1), processAt(2), shop()];
    for (const base of readers) expect((await productAt(base, product))?.image).toBe(product.image);
    const attach = await request(processAt(0), `/api/v1/admin/products/${product.id}`, {
      method: 'PATCH',
      headers: managerHeaders,
      body: { image: name },
    });
    expect(attach.status).toBe(200);
    const attachedSeenMs: number[] = [];
    for (const base of readers) {
      attachedSeenMs.push(
        await settled(
          `the product with the picture through ${base}`,
          async () => (await productAt(base, product))?.image === name,
        ),
      );
    }
    const page = await request(processAt(2), `/product/${encodeURIComponent(product.art)}`, {
      headers: { accept: 'text/html' },
      from: reader,
    });
    expect(page.status).toBe(200);
    // Absolute addresses are the shop's (PUBLIC_URL, nginx's), whichever process wrote the page.
    expect(page.text).toContain(`<meta property="og:image" content="${cluster!.url}${picturePath}"`);

    // Nowhere but in PostgreSQL: with its row gone no process has it, not even the one it was
    // uploaded to; put back, every one serves it again.
    await database!.query('delete from images where name = $1', [name]);
    for (const base of [processAt(0), processAt(1), processAt(2)]) {
      expect(await servedAt(base)).toMatchObject({ base, status: 404 });
    }
    await database!.query('insert into images (name, content_type, data, width, height) values ($1, $2, $3, $4, $5)', [
      name,
      stored!.content_type,
      stored!.data,
      stored!.width,
      stored!.height,
    ]);
    for (const base of [processAt(0), processAt(1), processAt(2)])
      expect(await servedAt(base)).toEqual(asUploaded(base));

    report('cluster: a picture uploaded through process 1', {
      uploadedBytes: original.length,
      storedBytes: stored!.data.length,
      productWithPictureSeenMs: attachedSeenMs,
    });
  });
});

describe('sign-in limits, counted in PostgreSQL for every process', () => {
  const attemptAt = (index: number, client: string, email: string, password: string) =>
    signIn(processAt(index), email, password, { headers: asClient(client) });

  it("failures at one account spread over the three processes hold back, on every process, every client without a device cookie; the owner's device signs in", async () => {
    const owner = await signUp('owner');
    const signedIn = await attemptAt(2, '198.51.100.7', owner.email, TEST_PASSWORD);
    expect(signedIn.status).toBe(200);
    const device = (signedIn.headers['set-cookie'] ?? []).find((line) => line.startsWith(`${DEVICE_COOKIE}=`));
    expect(device).toBeDefined();
    const withDevice = { cookie: device!.split(';')[0]! };
    const statuses: number[] = [];
    for (let guess = 0; guess < LOGIN_LIMIT_PER_ACCOUNT; guess += 1) {
      const guesser = `203.0.113.${guess + 10}`;
      statuses.push((await attemptAt(guess % PROCESSES, guesser, owner.email, `wrong password ${guess}`)).status);
    }
    expect(statuses).toEqual(Array(LOGIN_LIMIT_PER_ACCOUNT).fill(401));
    // The next attempt without the device cookie, from any client on any process, even with the right password: refused, with the wait.
    for (let index = 0; index < PROCESSES; index += 1) {
      const refused = await attemptAt(index, `203.0.113.${index + 100}`, owner.email, TEST_PASSWORD);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    }
    // The owner's device, directly and through nginx, from any address.
    for (let index = 0; index < PROCESSES; index += 1) {
      const owners = await signIn(processAt(index), owner.email, TEST_PASSWORD, {
        headers: { ...asClient(`198.51.100.${index + 20}`), ...withDevice },
      });
      expect(owners.status).toBe(200);
    }
    const throughNginx = await signIn(shop(), owner.email, TEST_PASSWORD, {
      from: newClientAddress(),
      headers: withDevice,
    });
    expect(throughNginx.status).toBe(200);
  });

  it(`one client's ${LOGIN_LIMIT_PER_CLIENT + 10} attempts sent at once to the three processes: exactly ${LOGIN_LIMIT_PER_CLIENT} are let through`, async () => {
    const sprayer = '203.0.113.8';
    const answers = await Promise.all(
      Array.from({ length: LOGIN_LIMIT_PER_CLIENT + 10 }, (_, i) =>
        attemptAt(i % PROCESSES, sprayer, `sprayed-${i}-${randomUUID()}@example.com`, 'some password'),
      ),
    );
    report('cluster: one client sign-in attempts at once over 3 processes', { statuses: tally(answers) });
    expect(tally(answers)).toEqual({ 401: LOGIN_LIMIT_PER_CLIENT, 429: 10 });
    for (let index = 0; index < PROCESSES; index += 1) {
      expect((await attemptAt(index, sprayer, `late-${randomUUID()}@example.com`, 'some password')).status).toBe(429);
    }
    // Another client is counted on its own.
    expect((await attemptAt(0, '203.0.113.9', `other-${randomUUID()}@example.com`, 'some password')).status).toBe(401);
  });
});

describe('the end of a session', () => {
  const userAt = (index: number, session: Session) =>
    request(processAt(index), '/api/v1/auth/user', { headers: bearer(session.token) });
  /** A sign-in straight to process `index`, from a client of its own (the per-client limit is small here). */
  const signInAt = (index: number, user: Account) =>
    signIn(processAt(index), user.email, TEST_PASSWORD, { headers: asClient(newClientAddress()) });

  /**
   * How long after `since` process `index` refused the token: 0 when its first answer already did.
   * The revocation reaches the other processes as a notification from PostgreSQL, which travels.
   */
  async function refusedAfterMs(index: number, session: Session, since: number): Promise<number> {
    if ((await userAt(index, session)).status === 401) return 0;
    await waitUntil(
      `process ${index + 1} refusing the ended session`,
      async () => (await userAt(index, session)).status === 401,
      1000,
      2,
    );
    return Date.now() - since;
  }

  const ROUNDS = 12;

  it(`a logout through one process: the access token is refused by it at once, by the others within the notification's travel (${ROUNDS} rounds)`, async () => {
    const user = await signUp('logout');
    const refusals: number[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      // Signed in through A, logged out through B, and asked of C, A and B right after.
      const [a, b, c] = [round % PROCESSES, (round + 1) % PROCESSES, (round + 2) % PROCESSES];
      const session = sessionOf(await signInAt(a, user));
      // Valid everywhere; and every process has just looked at its list of revoked sessions, so
      // only the notification can tell them.
      for (let index = 0; index < PROCESSES; index += 1) expect((await userAt(index, session)).status).toBe(200);

      const logout = await request(processAt(b), '/api/v1/auth/logout', {
        method: 'POST',
        headers: { cookie: session.cookie },
      });
      expect(logout.status).toBe(204);
      const loggedOutAt = Date.now();
      // The process that ended it knows before it answers.
      expect((await userAt(b, session)).status).toBe(401);
      refusals.push(...(await Promise.all([c, a].map((index) => refusedAfterMs(index, session, loggedOutAt)))));
      const refresh = await request(processAt(c), '/api/v1/auth/refresh', {
        method: 'POST',
        headers: { cookie: session.cookie },
      });
      expect(refresh.status).toBe(401);
    }
    // Every process refused it within a second (refusedAfterMs throws otherwise); how soon, the report says.
    report('cluster: logout through another process', {
      checks: refusals.length,
      refusedAtOnce: refusals.filter((ms) => ms === 0).length,
      refusedLaterMs: refusals.filter((ms) => ms > 0),
    });
  });

  it("a password change through one process ends the account's other sessions on every process, not its own", async () => {
    const user = await signUp('password');
    const other = sessionOf(await signInAt(0, user));
    const current = sessionOf(await signInAt(0, user));
    for (let index = 0; index < PROCESSES; index += 1) expect((await userAt(index, other)).status).toBe(200);

    const changed = await request(processAt(1), '/api/v1/auth/password', {
      method: 'POST',
      headers: { ...bearer(current.token), cookie: current.cookie },
      body: { current_password: TEST_PASSWORD, new_password: 'another horse staple' },
    });
    expect(changed.status).toBe(204);
    const changedAt = Date.now();
    expect((await userAt(1, other)).status).toBe(401);
    const refusals = await Promise.all([2, 0].map((index) => refusedAfterMs(index, other, changedAt)));
    report('cluster: password change through another process', { refusedAfterMs: refusals });
    for (let index = 0; index < PROCESSES; index += 1) expect((await userAt(index, current)).status).toBe(200);
  });
});

// ---------------------------------------------------------------------------------------------

describe('an order storm through nginx, one process killed with kill -9 in the middle', () => {
  const BUYERS = 30;
  const KILLED = 1;
  const KILL_AFTER_PLACED = 60;
  /** How long the storm goes on after the kill, on the two processes left. */
  const AFTER_KILL_MS = 3000;
  const ADDRESS = 'г. Казань, ул. Баумана, д. 1';

  interface Placed {
    buyer: Buyer;
    key: string;
    items: OrderItemPayload[];
    /** The answer that ended the retries: 201 or 409. */
    answer: Answer;
    tries: number;
  }

  /** An order sent until it has an answer that says what became of it, always with its key. */
  async function placeUntilAnswered(buyer: Buyer, key: string, items: OrderItemPayload[]): Promise<Placed> {
    for (let tries = 1; ; tries += 1) {
      const outcome = await attempt(shop(), '/api/v1/order/', {
        method: 'POST',
        headers: { ...buyer.headers, 'idempotency-key': key },
        body: { user_id: buyer.id, address: ADDRESS, items },
        from: buyer.from,
        timeoutMs: 30_000,
      });
      // No answer, or nginx's own when the process it had passed the order to died: the order may
      // or may not have been placed; the key tells the shop which.
      const unknown = outcome instanceof TransportError || [502, 503, 504].includes(outcome.status);
      if (!unknown) return { buyer, key, items, answer: outcome, tries };
      if (tries === 20) throw new Error(`order ${key}: no answer after 20 tries: ${JSON.stringify(outcome)}`);
      await sleep(50 * tries);
    }
  }

  it('every order answered 201 is in the database once, under its key; stock + ordered = stock before, never below 0', async () => {
    const buyers = await signUpMany(BUYERS, 'storm');
    // Four variants of four products: three plentiful, one scarce (sold out during the storm).
    const catalogue = (await request(shop(), '/api/v1/products/?limit=100')).json<Product[]>();
    const picked = catalogue
      .filter((product) => product.variants.length > 0)
      .slice(10, 14)
      .map((product) => ({ product_id: product.id, variant_id: product.variants[0]!.id }));
    const [scarce, ...plentiful] = picked as [(typeof picked)[number], ...typeof picked];
    const stockBefore = new Map(picked.map((line, i) => [line.variant_id, i === 0 ? 30 : 300]));
    for (const [variantId, stock] of stockBefore) {
      await database!.query('update variants set stock = $1 where id = $2', [stock, variantId]);
    }
    await database!.query("select pg_notify('catalogue_changed', '')");

    let counter = 0;
    const itemsOfNext = (): OrderItemPayload[] => {
      counter += 1;
      const lines = Array.from({ length: 1 + (counter % 2) }, (_, i) => ({
        ...plentiful[(counter + i) % plentiful.length]!,
        quantity: 1 + ((counter + i) % 3),
      }));
      if (counter % 5 === 0) lines.push({ ...scarce, quantity: 2 });
      return lines;
    };

    const placed: Placed[] = [];
    let confirmed = 0;
    let stopAt = Number.POSITIVE_INFINITY;
    const victim = cluster!.servers[KILLED]!;
    const victimPort = cluster!.serverPorts[KILLED]!;
    const buyerLoop = async (buyer: Buyer) => {
      while (Date.now() < stopAt) {
        const result = await placeUntilAnswered(buyer, randomUUID(), itemsOfNext());
        placed.push(result);
        if (result.answer.status === 201) confirmed += 1;
      }
    };

    await explainClusterFailure(async () => {
      const stormStarted = Date.now();
      const loops = buyers.map(buyerLoop);
      await waitUntil('orders placed before the kill', async () => confirmed >= KILL_AFTER_PLACED, 60_000, 5);
      // At a moment that differs from run to run.
      await sleep(Math.floor(Math.random() * 100));
      const placedBeforeKill = confirmed;
      const killedAt = Date.now();
      await victim.kill9();
      stopAt = Date.now() + AFTER_KILL_MS;
      await Promise.all(loops);
      const stormMs = Date.now() - stormStarted;

      const statuses = tally(placed.map((entry) => entry.answer));
      expect(
        placed
          .filter((entry) => ![201, 409].includes(entry.answer.status))
          .map((entry) => `${entry.answer.status} ${entry.answer.text}`),
      ).toEqual([]);
      const retried = placed.filter((entry) => entry.tries > 1);
      // The kill really hit orders in flight, and nginx sent the rest elsewhere.
      expect(retried.length).toBeGreaterThan(0);
      const ordersServedBy = (port: number) =>
        cluster!.nginx
          .accessLog()
          .split('\n')
          .filter((line) => line.includes('"POST /api/v1/order/ HTTP') && line.endsWith(`upstream=127.0.0.1:${port}`))
          .length;
      expect(ordersServedBy(victimPort)).toBeGreaterThan(0);

      // What the database holds: exactly the orders answered 201, each under its key, once.
      const confirmedOrders = placed.filter((entry) => entry.answer.status === 201);
      const orders = await database!.query<{ id: number; user_id: number; key: string | null; total: string }>(
        'select id, user_id, idempotency_key as key, total_price::text as total from orders where user_id = any($1)',
        [buyers.map((buyer) => buyer.id)],
      );
      expect(orders).toHaveLength(confirmedOrders.length);
      expect(new Set(orders.map((order) => order.key)).size).toBe(orders.length);
      const byKey = new Map(orders.map((order) => [order.key, order]));
      for (const entry of confirmedOrders) {
        const answered = entry.answer.json<OrderSummary>();
        const stored = byKey.get(entry.key);
        expect({ key: entry.key, id: stored?.id, buyer: stored?.user_id, total: Number(stored?.total) }).toEqual({
          key: entry.key,
          id: answered.id,
          buyer: entry.buyer.id,
          total: answered.total_price,
        });
      }

      // Stock: never below 0, and what is left plus what the live orders hold is what there was.
      const stock = await database!.query<{ id: number; stock: number; units: number }>(
        `select v.id, v.stock, coalesce((select sum(l.quantity)::int from order_lines l join orders o on o.id = l.order_id
             where l.variant_id = v.id and o.status <> 'Отменён'), 0) as units
           from variants v where v.id = any($1)`,
        [[...stockBefore.keys()]],
      );
      const unitsAnswered = new Map<number, number>();
      for (const entry of confirmedOrders) {
        for (const item of entry.items) {
          unitsAnswered.set(item.variant_id, (unitsAnswered.get(item.variant_id) ?? 0) + item.quantity);
        }
      }
      expect(stock).toHaveLength(stockBefore.size);
      for (const row of stock) {
        expect(row.stock).toBeGreaterThanOrEqual(0);
        expect({ variant: row.id, total: row.stock + row.units, units: row.units }).toEqual({
          variant: row.id,
          total: stockBefore.get(row.id),
          units: unitsAnswered.get(row.id) ?? 0,
        });
      }
      // The scarce one ran out: the refusals were real.
      expect(stock.find((row) => row.id === scarce.variant_id)!.stock).toBeLessThan(2);

      // The killed process comes back on its port and serves the orders as they are.
      const restartStarted = Date.now();
      const back = await cluster!.restartServer(KILLED);
      const restartMs = Date.now() - restartStarted;
      expect((await request(back.url, '/api/health/ready')).status).toBe(200);
      const someone = confirmedOrders[0]!;
      const listed = await request(back.url, `/api/v1/order/${someone.buyer.id}`, { headers: someone.buyer.headers });
      expect(listed.json<OrderSummary[]>().map((order) => order.id)).toContain(someone.answer.json<OrderSummary>().id);

      report('cluster: order storm, kill -9 of one of 3 processes', {
        buyers: buyers.length,
        stormMs,
        confirmedBeforeKill: placedBeforeKill,
        killedAfterMs: killedAt - stormStarted,
        orders: placed.length,
        answers: statuses,
        retriedAfterNoAnswer: retried.length,
        retriedAndReplayed: retried.filter((entry) => entry.answer.headers['idempotent-replayed'] === 'true').length,
        ordersServedByKilledProcess: ordersServedBy(victimPort),
        ordersInDatabase: orders.length,
        restartMs,
      });
    }, [victim]);
  });
});

describe('a rolling restart of all three processes under load, each taken out of nginx first', () => {
  it('no request fails: catalogue reads, carts read and written, orders placed', async () => {
    const buyers = await signUpMany(6, 'restart');
    const catalogue = (await request(shop(), '/api/v1/products/?limit=100')).json<Product[]>();
    const products = catalogue.filter((product) => product.variants.length > 0).slice(20, 30);
    const plenty = products[0]!;
    await database!.query('update variants set stock = 100000 where product_id = $1', [plenty.id]);
    await database!.query("select pg_notify('catalogue_changed', '')");
    const line = { product_id: plenty.id, variant_id: plenty.variants[0]!.id };

    const failures: string[] = [];
    const counts: Record<string, number> = {};
    let running = true;
    // Each request on a connection of its own. nginx's reload closes the connections kept alive
    // with it that are idle, and a request already on its way on one is reset; a browser sends it
    // again by itself (the connection was a reused one and no answer had begun), Node's client does not.
    const send = async (label: string, from: string, pathname: string, options: RequestOptions, ok: number[]) => {
      const outcome = await attempt(shop(), pathname, { ...options, from, agent: false, timeoutMs: 30_000 });
      counts[label] = (counts[label] ?? 0) + 1;
      if (outcome instanceof TransportError) failures.push(`${label}: ${outcome.code} ${outcome.message}`);
      else if (!ok.includes(outcome.status)) failures.push(`${label}: ${outcome.status} ${outcome.text.slice(0, 200)}`);
      return outcome;
    };

    const reader = async () => {
      const from = newClientAddress();
      for (let turn = 0; running; turn += 1) {
        const product = products[turn % products.length]!;
        const pathname = [
          '/api/v1/products/?limit=20',
          `/api/v1/products/${encodeURIComponent(product.art)}`,
          '/api/v1/products/categories/all',
          '/api/v1/products/popular',
        ][turn % 4]!;
        await send('catalogue read', from, pathname, {}, [200]);
        await sleep(20);
      }
    };
    const cartKeeper = async (buyer: Buyer) => {
      const added = await request(shop(), '/api/v1/cart/add', {
        method: 'POST',
        headers: buyer.headers,
        body: { user_id: buyer.id, ...line, count: 1 },
        from: buyer.from,
      });
      expect(added.status).toBe(201);
      const itemId = added.json<{ id: number }>().id;
      for (let turn = 0; running; turn += 1) {
        if (turn % 3 === 0) {
          await send('cart read', buyer.from, `/api/v1/cart/${buyer.id}`, { headers: buyer.headers }, [200]);
        } else if (turn % 3 === 1) {
          await send(
            'cart count set (PUT)',
            buyer.from,
            `/api/v1/cart/count?item_id=${itemId}&count=${1 + (turn % 7)}`,
            { method: 'PUT', headers: buyer.headers },
            [200],
          );
        } else {
          await send(
            'cart add (POST)',
            buyer.from,
            '/api/v1/cart/add',
            { method: 'POST', headers: buyer.headers, body: { user_id: buyer.id, ...line, count: 1 } },
            [201],
          );
        }
        await sleep(20);
      }
    };
    const orderer = async (buyer: Buyer) => {
      while (running) {
        await send(
          'order (POST)',
          buyer.from,
          '/api/v1/order/',
          {
            method: 'POST',
            headers: { ...buyer.headers, 'idempotency-key': randomUUID() },
            body: { user_id: buyer.id, address: 'г. Казань, ул. Баумана, д. 1', items: [{ ...line, quantity: 1 }] },
          },
          [201],
        );
        await sleep(50);
      }
    };
    const [first, second, third, fourth, fifth, sixth] = buyers as [Buyer, Buyer, Buyer, Buyer, Buyer, Buyer];
    const load = Promise.all([
      reader(),
      reader(),
      reader(),
      reader(),
      cartKeeper(first),
      cartKeeper(second),
      cartKeeper(third),
      cartKeeper(fourth),
      orderer(fifth),
      orderer(sixth),
    ]);

    const nginxOutputBefore = cluster!.nginx.output().length;
    const requestsLogged = (output: string) => output.split('"msg":"request"').length - 1;
    const steps: { process: number; restartMs: number; servedWhileStopping: number; servingAgainAfterMs: number }[] =
      [];
    await explainClusterFailure(async () => {
      try {
        await sleep(1000);
        for (let index = 0; index < PROCESSES; index += 1) {
          const old = cluster!.servers[index]!;
          const started = Date.now();
          // Out of nginx's rotation first (`down`, a graceful reload), SIGTERM, a new process, back in.
          const fresh = await cluster!.restartServer(index, { outOfRotation: true });
          const restartMs = Date.now() - started;
          expect((await old.exited).code).toBe(0);
          const oldOutput = old.output();
          const servedWhileStopping = requestsLogged(oldOutput.slice(oldOutput.indexOf('"msg":"shutting down"')));
          // The next one stops only once this one has its share of the load again.
          const servingAgainAfterMs = await waitUntil(
            `process ${index + 1} serving again`,
            async () => requestsLogged(fresh.output()) >= 20,
            30_000,
            20,
          );
          steps.push({ process: index + 1, restartMs, servedWhileStopping, servingAgainAfterMs });
        }
      } finally {
        running = false;
        await load;
      }
      // What nginx met on its side: connections refused (sent on to another process), or anything else.
      const nginxErrors: Record<string, number> = {};
      for (const line of cluster!.nginx.output().slice(nginxOutputBefore).split('\n')) {
        const error = /\[error\] \d+#\d+: \*\d+ (.+?) while /.exec(line)?.[1];
        if (error) nginxErrors[error] = (nginxErrors[error] ?? 0) + 1;
      }
      report('cluster: rolling restart of 3 processes under load', {
        requests: counts,
        failures: failures.length,
        steps,
        nginxErrors,
      });
      expect(failures.slice(0, 10)).toEqual([]);
      // nginx sent a stopping process nothing, so it never met a refused or reset connection.
      expect(nginxErrors).toEqual({});
      expect(steps.map((step) => step.servedWhileStopping)).toEqual([0, 0, 0]);
      expect(counts['catalogue read']).toBeGreaterThan(200);
      expect(counts['order (POST)']).toBeGreaterThan(20);
    });
  });
});
