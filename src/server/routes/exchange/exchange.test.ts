/**
 * /1c_exchange as 1С calls it: sign-in and its throttling, the session cookie, init, files in chunks
 * and their names, zips unpacked at the first import (and the bad ones refused), the modes answered
 * `success`, and the sweep of old runs' files. The catalogue's and the orders' own steps are tested
 * with their services.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { crc32, deflateRawSync } from 'node:zlib';
import { eq, sql } from 'drizzle-orm';
import { exchangeFiles, exchangeRuns, exchangeSessions, users } from '../../db/schema';
import { loadConfig } from '../../config';
import { createExchangeSettings } from '../../services/exchange-settings';
import { EXCHANGE_PATH } from '../../../shared/exchange';
import {
  createTestApp,
  signUp,
  STARTUP_TIMEOUT,
  type Shopper,
  type TestApp,
} from '../../../../test/server/helpers/test-app';
import { TEST_PASSWORD } from '../../../../test/server/helpers/shop-data';
import { deflatedZeros, zipOf } from '../../../../test/server/helpers/zip';

const FILE_LIMIT = 64 * 1024;
const MAX_UNPACKED = 2 * 1024 * 1024;
const CLIENT_ATTEMPTS = 5;

let shop: TestApp;
let dir: string;
let operator: Shopper;
let buyer: Shopper;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'myagkiy-opt-exchange-'));
  const defaults = loadConfig({}).exchange;
  shop = await createTestApp({
    exchange: {
      ...defaults,
      dir,
      fileLimitBytes: FILE_LIMIT,
      maxUnpackedBytes: MAX_UNPACKED,
      allowedIps: ['10.1.0.0/16', '127.0.0.1'],
    },
    loginRateLimitPerClient: { max: CLIENT_ATTEMPTS, windowMs: 60_000 },
  });
  [operator, buyer] = [await signUp(shop.app), await signUp(shop.app)];
  await shop.app.database.db.update(users).set({ exchangeAccess: true }).where(eq(users.id, operator.id));
}, STARTUP_TIMEOUT);
afterAll(async () => {
  await shop.close();
  await rm(dir, { recursive: true, force: true });
});

let clients = 0;
/** An address of its own for each test's calls: sign-ins are counted per client. */
const newClient = () => `10.1.${Math.floor(++clients / 250)}.${(clients % 250) + 1}`;

const basic = (email: string, password: string) => `Basic ${Buffer.from(`${email}:${password}`).toString('base64')}`;

interface Call {
  ip?: string;
  cookie?: string;
  authorization?: string;
  body?: Buffer;
  contentType?: string;
}

function call(
  query: Record<string, string>,
  { ip = '10.1.200.1', cookie, authorization, body, contentType }: Call = {},
) {
  return shop.app.inject({
    method: body ? 'POST' : 'GET',
    url: EXCHANGE_PATH,
    query,
    remoteAddress: ip,
    headers: {
      ...(cookie && { cookie }),
      ...(authorization && { authorization }),
      ...(contentType && { 'content-type': contentType }),
    },
    ...(body && { payload: body }),
  });
}

async function checkauth(type: string, ip: string): Promise<{ cookie: string; lines: string[] }> {
  const response = await call({ type, mode: 'checkauth' }, { ip, authorization: basic(operator.email, TEST_PASSWORD) });
  expect(response.statusCode).toBe(200);
  const lines = response.body.split('\n');
  return { cookie: `${lines[1]}=${lines[2]}`, lines };
}

/** checkauth and init from a new address: the session's cookie and its run's folder. */
async function begin(type: 'catalog' | 'sale') {
  const ip = newClient();
  const { cookie } = await checkauth(type, ip);
  const init = await call({ type, mode: 'init' }, { ip, cookie });
  expect(init.statusCode).toBe(200);
  const [session] = await shop.app.database.db
    .select({ runId: exchangeSessions.runId })
    .from(exchangeSessions)
    .where(eq(exchangeSessions.cookieHash, createHash('sha256').update(cookie.split('=')[1]!).digest('hex')));
  const runId = session!.runId!;
  return { ip, cookie, runId, folder: path.join(dir, runId) };
}

const filesOf = (runId: string) =>
  shop.app.database.db
    .select({ name: exchangeFiles.name, bytes: exchangeFiles.bytes, stage: exchangeFiles.stage })
    .from(exchangeFiles)
    .where(eq(exchangeFiles.runId, runId))
    .orderBy(exchangeFiles.name);

/** Everything under the exchange folder, as paths relative to it. */
const everything = async () => (await readdir(dir, { recursive: true })).sort();

describe('checkauth', () => {
  it('answers success, the cookie name and value, and sessid; only the hash of the cookie is kept', async () => {
    const { cookie, lines } = await checkauth('catalog', newClient());
    expect(lines).toEqual([
      'success',
      'myagkiy_1c',
      expect.stringMatching(/^[\w-]{43}$/),
      expect.stringMatching(/^sessid=/),
      '',
    ]);
    const value = cookie.split('=')[1]!;
    const stored = await shop.app.database.db.select({ hash: exchangeSessions.cookieHash }).from(exchangeSessions);
    expect(stored.map((row) => row.hash)).toContain(createHash('sha256').update(value).digest('hex'));
    expect(stored.map((row) => row.hash)).not.toContain(value);
  });

  it('answers in text/plain, UTF-8', async () => {
    const response = await call(
      { type: 'catalog', mode: 'checkauth' },
      { ip: newClient(), authorization: basic(operator.email, TEST_PASSWORD) },
    );
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
  });

  it('a wrong password, an account without the exchange access, or no Basic header → 401 failure', async () => {
    const ip = newClient();
    for (const authorization of [
      basic(operator.email, 'wrong password'),
      basic(buyer.email, TEST_PASSWORD),
      basic('nobody@example.com', TEST_PASSWORD),
      undefined,
      'Bearer abc',
    ]) {
      const response = await call({ type: 'catalog', mode: 'checkauth' }, { ip, authorization });
      expect([authorization, response.statusCode, response.body]).toEqual([
        authorization,
        401,
        'failure\nНеверный логин или пароль\n',
      ]);
    }
  });

  it('repeated failures from one address → 429; the account is not locked: the right password works from another', async () => {
    const ip = newClient();
    for (let attempt = 0; attempt < CLIENT_ATTEMPTS; attempt += 1) {
      const response = await call(
        { type: 'catalog', mode: 'checkauth' },
        { ip, authorization: basic(operator.email, 'guess') },
      );
      expect(response.statusCode).toBe(401);
    }
    const throttled = await call(
      { type: 'catalog', mode: 'checkauth' },
      { ip, authorization: basic(operator.email, TEST_PASSWORD) },
    );
    expect(throttled.statusCode).toBe(429);
    expect(throttled.body).toMatch(/^failure\nСлишком много попыток входа, повторите через \d+ с\n$/);
    expect(throttled.headers['retry-after']).toMatch(/^\d+$/);
    expect((await checkauth('catalog', newClient())).lines[0]).toBe('success');
  });

  it('from an address outside EXCHANGE_ALLOWED_IPS → 403 failure, on every call', async () => {
    const { cookie } = await checkauth('catalog', newClient());
    for (const options of [{ authorization: basic(operator.email, TEST_PASSWORD) }, { cookie }]) {
      const mode = options.cookie ? 'init' : 'checkauth';
      const response = await call({ type: 'catalog', mode }, { ip: '192.0.2.1', ...options });
      expect([mode, response.statusCode, response.body]).toEqual([
        mode,
        403,
        'failure\nОбмен с этого адреса не разрешён\n',
      ]);
    }
  });
});

describe('the session', () => {
  it('a call without the cookie, with a wrong one, or after the access was taken away → 401 failure', async () => {
    const { cookie, ip } = await begin('catalog');
    for (const sent of [undefined, 'myagkiy_1c=forged', 'other=1']) {
      const response = await call({ type: 'catalog', mode: 'init' }, { ip, cookie: sent });
      expect([sent, response.statusCode]).toEqual([sent, 401]);
      expect(response.body).toMatch(/^failure\nСессия обмена не найдена или истекла/);
    }
    const { cookie: other } = await checkauth('catalog', newClient());
    const access = (exchangeAccess: boolean) =>
      shop.app.database.db.update(users).set({ exchangeAccess }).where(eq(users.id, operator.id));
    await access(false);
    try {
      expect((await call({ type: 'catalog', mode: 'init' }, { ip, cookie: other })).statusCode).toBe(401);
    } finally {
      await access(true);
    }
    expect((await call({ type: 'catalog', mode: 'complete' }, { ip, cookie })).body).toBe('success\n');
  });
});

describe('init', () => {
  it('catalog: zip=yes, file_limit, sessid; a new empty folder and a run of its kind', async () => {
    const ip = newClient();
    const { cookie } = await checkauth('catalog', ip);
    const response = await call({ type: 'catalog', mode: 'init', version: '3.1', sessid: 'x' }, { ip, cookie });
    expect(response.statusCode).toBe(200);
    expect(response.body).toMatch(new RegExp(`^zip=yes\\nfile_limit=${FILE_LIMIT}\\nsessid=[0-9a-f-]{36}\\n$`));
    const { runId, folder } = await begin('catalog');
    expect(await readdir(folder)).toEqual([]);
    const [run] = await shop.app.database.db.select().from(exchangeRuns).where(eq(exchangeRuns.id, runId));
    expect(run).toMatchObject({ kind: 'catalog', status: 'receiving', byUserId: operator.id });
  });

  it('sale: zip=no', async () => {
    const ip = newClient();
    const { cookie } = await checkauth('sale', ip);
    const response = await call({ type: 'sale', mode: 'init' }, { ip, cookie });
    expect(response.body).toMatch(new RegExp(`^zip=no\\nfile_limit=${FILE_LIMIT}\\nsessid=`));
  });
});

describe('file', () => {
  it('chunks are appended: two chunks make one file, its row counting the bytes', async () => {
    const { ip, cookie, runId, folder } = await begin('catalog');
    const first = Buffer.from('<?xml version="1.0" encoding="UTF-8"?>\n<КоммерческаяИнформация>');
    const second = Buffer.from('</КоммерческаяИнформация>\n');
    const sent = [
      await call(
        { type: 'catalog', mode: 'file', filename: 'import.xml' },
        { ip, cookie, body: first, contentType: 'application/octet-stream' },
      ),
      await call({ type: 'catalog', mode: 'file', filename: 'import.xml' }, { ip, cookie, body: second }),
    ];
    expect(sent.map((response) => [response.statusCode, response.body])).toEqual([
      [200, 'success\n'],
      [200, 'success\n'],
    ]);
    expect(await readFile(path.join(folder, 'import.xml'))).toEqual(Buffer.concat([first, second]));
    expect(await filesOf(runId)).toEqual([
      { name: 'import.xml', bytes: first.length + second.length, stage: 'received' },
    ]);
  });

  it('a picture under import_files/ goes into its folders; a Cyrillic name is taken', async () => {
    const { ip, cookie, folder } = await begin('catalog');
    for (const filename of ['import_files/ab/abc.jpg', 'Цены_1.xml']) {
      const response = await call({ type: 'catalog', mode: 'file', filename }, { ip, cookie, body: Buffer.from('x') });
      expect([filename, response.body]).toEqual([filename, 'success\n']);
    }
    expect(await readFile(path.join(folder, 'import_files/ab/abc.jpg'), 'utf8')).toBe('x');
    expect(await readFile(path.join(folder, 'Цены_1.xml'), 'utf8')).toBe('x');
  });

  it('a name with a path out of the folder is refused (400) and nothing is written anywhere', async () => {
    const { ip, cookie, folder } = await begin('catalog');
    const before = await everything();
    for (const filename of [
      '../x',
      '/etc/passwd',
      'C:\\x',
      'C:x',
      'a/../../b',
      '..',
      'a\\..\\b',
      'a\0b',
      './a',
      'a//b',
      '',
    ]) {
      const response = await call(
        { type: 'catalog', mode: 'file', filename },
        { ip, cookie, body: Buffer.from('evil') },
      );
      expect([filename, response.statusCode]).toEqual([filename, 400]);
      // A NUL is refused by the parameters' own check, in its words.
      expect(response.body).toMatch(/^failure\n.+\n$/);
    }
    expect(await everything()).toEqual(before);
    expect(await readdir(folder)).toEqual([]);
    await expect(stat(path.join(dir, '..', 'x'))).rejects.toThrow();
  });

  it('a chunk over file_limit → 413 failure, and the file keeps what it had', async () => {
    const { ip, cookie, folder } = await begin('catalog');
    await call({ type: 'catalog', mode: 'file', filename: 'offers.xml' }, { ip, cookie, body: Buffer.from('kept') });
    const response = await call(
      { type: 'catalog', mode: 'file', filename: 'offers.xml' },
      { ip, cookie, body: Buffer.alloc(FILE_LIMIT + 1, 1) },
    );
    expect(response.statusCode).toBe(413);
    expect(response.body).toBe(`failure\nЧасть файла больше ${FILE_LIMIT} байт (file_limit)\n`);
    expect(await readFile(path.join(folder, 'offers.xml'), 'utf8')).toBe('kept');
  });

  it('before init → 401 failure', async () => {
    const ip = newClient();
    const { cookie } = await checkauth('catalog', ip);
    const response = await call(
      { type: 'catalog', mode: 'file', filename: 'import.xml' },
      { ip, cookie, body: Buffer.from('x') },
    );
    expect([response.statusCode, response.body]).toEqual([401, 'failure\nОбмен не начат: сначала нужен запрос init\n']);
  });
});

const entry = (name: string, content: Buffer) => ({
  name,
  deflated: deflateRawSync(content),
  declaredSize: content.length,
  crc: crc32(content),
});

async function sendZip(exchange: { ip: string; cookie: string }, zip: Buffer, filename = 'import.zip') {
  // In two chunks, as 1С cuts a file larger than file_limit.
  const middle = Math.floor(zip.length / 2);
  for (const chunk of [zip.subarray(0, middle), zip.subarray(middle)]) {
    const response = await call({ type: 'catalog', mode: 'file', filename }, { ...exchange, body: chunk });
    expect(response.body).toBe('success\n');
  }
}

const importCall = (exchange: { ip: string; cookie: string }, filename = 'import.xml') =>
  call({ type: 'catalog', mode: 'import', filename }, exchange);

describe('a zip', () => {
  it('is unpacked into the run folder at the first import, its files received, the zip marked done', async () => {
    const exchange = await begin('catalog');
    const xml = Buffer.from('<?xml version="1.0" encoding="UTF-8"?>\n<КоммерческаяИнформация/>\n');
    const picture = Buffer.alloc(3000, 7);
    await sendZip(exchange, zipOf([entry('import.xml', xml), entry('import_files/ab/abc.jpg', picture)]));
    expect(await readdir(exchange.folder)).toEqual(['import.zip']);
    await importCall(exchange);
    expect(await readFile(path.join(exchange.folder, 'import.xml'))).toEqual(xml);
    expect(await readFile(path.join(exchange.folder, 'import_files/ab/abc.jpg'))).toEqual(picture);
    expect(await filesOf(exchange.runId)).toEqual([
      { name: 'import.xml', bytes: xml.length, stage: expect.any(String) },
      { name: 'import.zip', bytes: expect.any(Number), stage: 'applied' },
    ]);
  });

  it('with an entry named ../evil is refused (400 failure), nothing written outside, and stays refused', async () => {
    const exchange = await begin('catalog');
    await sendZip(exchange, zipOf([entry('import.xml', Buffer.from('<a/>')), entry('../evil', Buffer.from('evil'))]));
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const response = await importCall(exchange);
      expect(response.statusCode).toBe(400);
      expect(response.body).toMatch(/^failure\nАрхив «import\.zip» не распакован: .+\n$/);
    }
    expect((await everything()).filter((name) => name.includes('evil'))).toEqual([]);
    await expect(stat(path.join(dir, 'evil'))).rejects.toThrow();
    const [run] = await shop.app.database.db.select().from(exchangeRuns).where(eq(exchangeRuns.id, exchange.runId));
    expect(run).toMatchObject({ status: 'failed', failure: expect.stringContaining('import.zip') });
  });

  it.each([
    ['declaring a small size but inflating past the cap', 100],
    ['declaring its true size, past the cap', MAX_UNPACKED + 1024 * 1024],
  ])('a bomb %s is refused by the bytes inflated', async (_case, declaredSize) => {
    const exchange = await begin('catalog');
    const zeros = await deflatedZeros(MAX_UNPACKED + 1024 * 1024);
    await sendZip(exchange, zipOf([{ name: 'import.xml', deflated: zeros, declaredSize }]));
    const response = await importCall(exchange);
    expect(response.statusCode).toBe(400);
    expect(response.body).toMatch(/^failure\nАрхив «import\.zip» не распакован: /);
    const written = await stat(path.join(exchange.folder, 'import.xml')).then(
      (file) => file.size,
      () => 0,
    );
    expect(written).toBeLessThanOrEqual(MAX_UNPACKED);
  });

  it('that is not a zip is refused', async () => {
    const exchange = await begin('catalog');
    await sendZip(exchange, Buffer.from('not a zip at all, just text'.repeat(10)));
    const response = await importCall(exchange);
    expect([response.statusCode, response.body]).toEqual([
      400,
      expect.stringMatching(/^failure\nАрхив «import\.zip» не распакован: это не zip-архив или он повреждён/),
    ]);
  });
});

describe('the other modes', () => {
  it('complete, deactivate and unknown modes → success; an unknown type → 400 failure', async () => {
    const { ip, cookie } = await begin('catalog');
    for (const mode of ['complete', 'deactivate', 'something-new']) {
      const response = await call({ type: 'catalog', mode }, { ip, cookie });
      expect([mode, response.statusCode, response.body]).toEqual([mode, 200, 'success\n']);
    }
    const unknown = await call({ type: 'reference', mode: 'init' }, { ip, cookie });
    expect([unknown.statusCode, unknown.body]).toEqual([400, 'failure\nНеизвестный тип обмена «reference»\n']);
    const missing = await call({ mode: 'init' }, { ip, cookie });
    expect(missing.statusCode).toBe(400);
    expect(missing.body).toMatch(/^failure\n.+\n$/);
  });

  it('is not in the OpenAPI document', async () => {
    const document = (await shop.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as { paths: object };
    expect(Object.keys(document.paths)).not.toContain(EXCHANGE_PATH);
  });
});

describe('the sweep', () => {
  it('deletes the files of runs older than EXCHANGE_FILES_KEEP_DAYS and says so on the run; newer ones stay', async () => {
    const old = await begin('catalog');
    const recent = await begin('catalog');
    for (const exchange of [old, recent]) {
      await call({ type: 'catalog', mode: 'file', filename: 'import.xml' }, { ...exchange, body: Buffer.from('x') });
    }
    await shop.app.database.db
      .update(exchangeRuns)
      .set({ startedAt: sql`now() - interval '31 days'` })
      .where(eq(exchangeRuns.id, old.runId));
    await shop.app.services.exchangeEndpoint.sweep();
    await expect(stat(old.folder)).rejects.toThrow();
    expect(await readdir(recent.folder)).toEqual(['import.xml']);
    const runs = await shop.app.database.db
      .select({ id: exchangeRuns.id, removed: exchangeRuns.filesRemovedAt })
      .from(exchangeRuns)
      .where(sql`${exchangeRuns.id} in (${old.runId}, ${recent.runId})`);
    expect(Object.fromEntries(runs.map((run) => [run.id, run.removed !== null]))).toEqual({
      [old.runId]: true,
      [recent.runId]: false,
    });
  });
});

describe('a whole catalogue exchange', () => {
  it('checkauth → init → a zip in chunks → import answered progress until success, then offers.xml', async () => {
    // The fixtures' characteristics are named as УТ 11's usually are, as a manager sets them in «Обмен с 1С».
    await createExchangeSettings(shop.app.database.db).write({
      colorCharacteristic: 'Цвет игрушки',
      sizeCharacteristic: 'Рост, см',
      missingProducts: 'leave',
    });
    const exchange = await begin('catalog');
    const fixture = (name: string) => readFile(path.join(__dirname, '../../../../test/fixtures/commerceml', name));
    await sendZip(
      exchange,
      zipOf([entry('import.xml', await fixture('import.xml')), entry('offers.xml', await fixture('offers.xml'))]),
    );
    for (const filename of ['import.xml', 'offers.xml']) {
      const answers: string[] = [];
      for (let call = 0; call < 50 && answers.at(-1) !== 'success\n'; call += 1)
        answers.push((await importCall(exchange, filename)).body);
      expect(answers.at(-1)).toBe('success\n');
      for (const answer of answers.slice(0, -1)) expect(answer).toMatch(/^progress\n/);
    }
    expect((await filesOf(exchange.runId)).map((file) => [file.name, file.stage])).toEqual([
      ['import.xml', 'applied'],
      ['import.zip', 'applied'],
      ['offers.xml', 'applied'],
    ]);
    const [run] = await shop.app.database.db.select().from(exchangeRuns).where(eq(exchangeRuns.id, exchange.runId));
    expect(run!.status).toBe('done');
    expect(run!.finishedAt).not.toBeNull();
    expect(run!.stats.categoriesCreated).toBeGreaterThan(0);
    expect(run!.stats.variantsCreated).toBeGreaterThan(0);
  });
});
