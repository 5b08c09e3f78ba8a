// The 1С exchange at scale (issue 40): a catalogue of BENCH_EXCHANGE_PRODUCTS products (100 000 by
// default) with 7 variants each, sent to /1c_exchange over HTTP as 1С sends it (checkauth, init,
// the files in chunks of the shop's file_limit, then `import` until `success`), while a storefront
// reads category pages. Measured per database:
//   - the server's resident memory during the import, against before it (target: < 200 MB growth);
//   - the longest single request of the exchange (each `import` must end well within 1С's and
//     nginx's 60 s: the work goes on between calls);
//   - catalogue reads during the import (target on PostgreSQL: p99 < 100 ms; the embedded database
//     runs inside the server's own thread, so its figures are stated apart);
//   - the same exchange sent again (nothing changes; how long it takes).
// Not in the default `npm run bench` (it writes about 1 GB of XML and takes minutes):
//   npm run bench -- exchange
//   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench -- exchange
//   BENCH_EXCHANGE_PRODUCTS=10000 npm run bench -- exchange          (a quick try)
//   BENCH_EXCHANGE_EMBEDDED=0 BENCH_DATABASE_URL=… npm run bench -- exchange   (PostgreSQL alone)
import { execFileSync } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdtemp, open, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { request as httpRequest } from 'node:http';
import { createFreshDatabase } from '../test/server/helpers/fresh-database';
import { machine, percentile, residentMb, root, startProcess, tenths } from './lib';

const VARIANTS_PER_PRODUCT = 7;
const COLOURS = ['Белый', 'Бежевый', 'Розовый', 'Серый', 'Голубой', 'Коричневый', 'Мятный'];
const GROUPS = 40;
const PASSWORD = 'bench-exchange-123';
const ACCOUNT = 'bench-1c@example.com';
const SHOP_SERVER = 'src/server/server.ts';
const READY = '/api/health/ready';

/** A GUID-shaped Ид that stays the same for the same number: the second exchange names the same goods. */
const guid = (kind: number, n: number) =>
  `${kind.toString(16).padStart(8, '0')}-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');

/** Writes `text` to `stream`, waiting when its buffer is full: the files never sit whole in memory. */
async function write(stream: NodeJS.WritableStream, text: string): Promise<void> {
  if (!stream.write(text)) await once(stream, 'drain');
}

async function finish(stream: NodeJS.WritableStream & { close?: unknown }): Promise<void> {
  stream.end();
  await once(stream, 'finish');
}

/** import.xml and offers.xml of `products` products as 1С:УТ 11 writes them (CommerceML 2.10). */
export async function writeCatalogueFiles(folder: string, products: number): Promise<{ files: string[] }> {
  const header = `<?xml version="1.0" encoding="UTF-8"?>\n<КоммерческаяИнформация xmlns="urn:1C.ru:commerceml_2" ВерсияСхемы="2.10" ДатаФормирования="2026-11-28T12:00:00">\n`;
  const importXml = createWriteStream(path.join(folder, 'import.xml'));
  await write(
    importXml,
    `${header}<Классификатор><Ид>${guid(1, 0)}</Ид><Наименование>Классификатор (Основной каталог товаров)</Наименование><Группы>`,
  );
  await write(importXml, `<Группа><Ид>${guid(2, 0)}</Ид><Наименование>Мягкие игрушки</Наименование><Группы>`);
  for (let group = 1; group <= GROUPS; group += 1) {
    await write(importXml, `<Группа><Ид>${guid(2, group)}</Ид><Наименование>Серия ${group}</Наименование></Группа>`);
  }
  await write(importXml, `</Группы></Группа></Группы></Классификатор>\n`);
  await write(
    importXml,
    `<Каталог СодержитТолькоИзменения="false"><Ид>${guid(3, 0)}</Ид><ИдКлассификатора>${guid(1, 0)}</ИдКлассификатора><Наименование>Основной каталог товаров</Наименование><Товары>\n`,
  );
  for (let n = 1; n <= products; n += 1) {
    await write(
      importXml,
      `<Товар><Ид>${guid(4, n)}</Ид><Артикул>BX-${n}</Артикул><Наименование>${escape(`Мишка «Бенч» №${n}`)}</Наименование><БазоваяЕдиница Код="796" НаименованиеПолное="Штука" МеждународноеСокращение="PCE">шт</БазоваяЕдиница><Группы><Ид>${guid(2, 1 + (n % GROUPS))}</Ид></Группы><Описание>Мягкая игрушка из плюша с наполнителем из холлофайбера, модель ${n}. Подходит детям с трёх лет; гипоаллергенные материалы, сертификат соответствия ТР ТС 008/2011.</Описание><ЗначенияРеквизитов><ЗначениеРеквизита><Наименование>ВидНоменклатуры</Наименование><Значение>Товар</Значение></ЗначениеРеквизита></ЗначенияРеквизитов></Товар>\n`,
    );
  }
  await write(importXml, `</Товары></Каталог>\n</КоммерческаяИнформация>\n`);
  await finish(importXml);

  const offersXml = createWriteStream(path.join(folder, 'offers.xml'));
  await write(
    offersXml,
    `${header}<ПакетПредложений СодержитТолькоИзменения="false"><Ид>${guid(3, 0)}#</Ид><Наименование>Пакет предложений</Наименование><ИдКаталога>${guid(3, 0)}</ИдКаталога><ИдКлассификатора>${guid(1, 0)}</ИдКлассификатора><ТипыЦен><ТипЦены><Ид>${guid(5, 1)}</Ид><Наименование>Опт</Наименование><Валюта>RUB</Валюта><Налог><Наименование>НДС</Наименование><УчтеноВСумме>true</УчтеноВСумме></Налог></ТипЦены><ТипЦены><Ид>${guid(5, 2)}</Ид><Наименование>Закупочная</Наименование><Валюта>RUB</Валюта></ТипЦены></ТипыЦен><Склады><Склад><Ид>${guid(6, 1)}</Ид><Наименование>Основной склад</Наименование></Склад></Склады><Предложения>\n`,
  );
  for (let n = 1; n <= products; n += 1) {
    for (let v = 0; v < VARIANTS_PER_PRODUCT; v += 1) {
      const price = 300 + ((n * 7 + v * 13) % 900);
      const stock = (n + v) % 50;
      await write(
        offersXml,
        `<Предложение><Ид>${guid(4, n)}#${guid(7, n * VARIANTS_PER_PRODUCT + v)}</Ид><Артикул>BX-${n}</Артикул><Наименование>${escape(`Мишка «Бенч» №${n} (${COLOURS[v]}, ${20 + v * 5} см)`)}</Наименование><БазоваяЕдиница Код="796" НаименованиеПолное="Штука" МеждународноеСокращение="PCE">шт</БазоваяЕдиница><ХарактеристикиТовара><ХарактеристикаТовара><Наименование>Цвет</Наименование><Значение>${COLOURS[v]}</Значение></ХарактеристикаТовара><ХарактеристикаТовара><Наименование>Размер</Наименование><Значение>${20 + v * 5}</Значение></ХарактеристикаТовара></ХарактеристикиТовара><Цены><Цена><Представление>${price} RUB за шт</Представление><ИдТипаЦены>${guid(5, 1)}</ИдТипаЦены><ЦенаЗаЕдиницу>${price}</ЦенаЗаЕдиницу><Валюта>RUB</Валюта><Единица>шт</Единица><Коэффициент>1</Коэффициент></Цена><Цена><Представление>${price / 2} RUB за шт</Представление><ИдТипаЦены>${guid(5, 2)}</ИдТипаЦены><ЦенаЗаЕдиницу>${price / 2}</ЦенаЗаЕдиницу><Валюта>RUB</Валюта><Единица>шт</Единица><Коэффициент>1</Коэффициент></Цена></Цены><Количество>${stock}</Количество><Остатки><Остаток><Склад><Ид>${guid(6, 1)}</Ид><Количество>${stock}</Количество></Склад></Остаток></Остатки></Предложение>\n`,
      );
    }
  }
  await write(offersXml, `</Предложения></ПакетПредложений>\n</КоммерческаяИнформация>\n`);
  await finish(offersXml);
  return { files: ['import.xml', 'offers.xml'] };
}

/** One HTTP call of the exchange, timed; its answer's lines. */
interface Call {
  lines: string[];
  ms: number;
}

/**
 * One request without a client-side timeout (fetch gives up after 300 s without headers): on the
 * embedded database a long apply holds the server's only thread, and the bench measures how long.
 */
function exchangeRequest(
  url: string,
  { body, headers }: { body?: Buffer; headers: Record<string, string> },
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method: body ? 'POST' : 'GET', headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
      );
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(body);
  });
}

class ExchangeClient {
  private cookie = '';
  readonly calls: { mode: string; ms: number }[] = [];

  constructor(private readonly url: string) {}

  async call(
    query: Record<string, string>,
    init: { headers?: Record<string, string>; body?: Buffer } = {},
  ): Promise<Call> {
    const started = performance.now();
    const { status, text } = await exchangeRequest(`${this.url}/1c_exchange?${new URLSearchParams(query)}`, {
      body: init.body,
      headers: { ...init.headers, ...(this.cookie ? { cookie: this.cookie } : {}) },
    });
    const ms = performance.now() - started;
    this.calls.push({ mode: query.mode!, ms });
    const lines = text.split('\n');
    if (lines[0] === 'failure' || status >= 400) {
      throw new Error(`${query.mode} ${query.filename ?? ''}: ${status} ${text}`);
    }
    return { lines, ms };
  }

  async signIn(email: string, password: string): Promise<void> {
    const { lines } = await this.call(
      { type: 'catalog', mode: 'checkauth' },
      { headers: { authorization: `Basic ${Buffer.from(`${email}:${password}`).toString('base64')}` } },
    );
    this.cookie = `${lines[1]}=${lines[2]}`;
  }

  /** init, then each file in chunks of the shop's file_limit, then import each until success. */
  async sendCatalogue(folder: string, files: string[]): Promise<void> {
    const { lines } = await this.call({ type: 'catalog', mode: 'init' });
    const limit = Number(lines.find((line) => line.startsWith('file_limit='))?.slice('file_limit='.length));
    const chunkBytes = Math.min(limit, 32 * 2 ** 20);
    for (const file of files) {
      const handle = await open(path.join(folder, file));
      try {
        const chunk = Buffer.alloc(chunkBytes);
        for (;;) {
          const { bytesRead } = await handle.read(chunk, 0, chunkBytes);
          if (bytesRead === 0) break;
          await this.call({ type: 'catalog', mode: 'file', filename: file }, { body: chunk.subarray(0, bytesRead) });
        }
      } finally {
        await handle.close();
      }
    }
    for (const file of files) {
      for (;;) {
        const { lines: answer } = await this.call({ type: 'catalog', mode: 'import', filename: file });
        if (answer[0] === 'success') break;
      }
    }
  }
}

/** Category pages read in a loop by `readers` at once until `stop` says so: each read's ms, and failures. */
async function readWhile(url: string, readers: number, stop: () => boolean) {
  const times: number[] = [];
  let failed = 0;
  await Promise.all(
    Array.from({ length: readers }, async (_, reader) => {
      for (let page = reader; !stop(); page += readers) {
        const started = performance.now();
        const response = await fetch(
          `${url}/api/v1/products/categories/${encodeURIComponent(`Серия ${1 + (page % GROUPS)}`)}?skip=0&limit=9`,
          { headers: { 'accept-encoding': 'gzip, br' } },
        ).catch(() => null);
        if (response) await response.arrayBuffer();
        // A category not made yet is a 404: the import has not reached it; it still measures the wait.
        if (!response || response.status >= 500) failed += 1;
        times.push(performance.now() - started);
      }
    }),
  );
  return { times, failed };
}

export interface ExchangeRow {
  database: string;
  products: number;
  bytes: number;
  /** The first exchange and the same one sent again. */
  seconds: [number, number];
  longestCallMs: number;
  rssBeforeMb: number;
  rssMaxMb: number;
  reads: { count: number; p50: number; p99: number; failed: number };
}

async function measureOn(
  database: string,
  env: Record<string, string>,
  products: number,
  folder: string,
  bytes: number,
): Promise<ExchangeRow> {
  // The account signs up as anyone does, then gets the exchange's access from the command line,
  // between two starts: the embedded database belongs to one process at a time.
  const first = await startProcess(SHOP_SERVER, env, READY);
  try {
    const response = await fetch(`${first.url}/api/v1/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: ACCOUNT, password: PASSWORD, consent: true }),
    });
    if (response.status !== 201) throw new Error(`register: ${response.status} ${await response.text()}`);
  } finally {
    await first.stop();
  }
  execFileSync('npm', ['run', '--silent', 'users', '--', 'grant-exchange', ACCOUNT], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: 'pipe',
  });
  const shop = await startProcess(SHOP_SERVER, env, READY);
  try {
    const rssBeforeMb = await residentMb(shop.pid);
    let rssMaxMb = rssBeforeMb;
    let importing = true;
    const sampler = (async () => {
      while (importing) {
        rssMaxMb = Math.max(rssMaxMb, await residentMb(shop.pid));
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    })();
    const reads = readWhile(shop.url, 4, () => !importing);
    const client = new ExchangeClient(shop.url);
    await client.signIn(ACCOUNT, PASSWORD);
    const started = performance.now();
    try {
      await client.sendCatalogue(folder, ['import.xml', 'offers.xml']);
    } catch (error) {
      throw new Error(`${(error as Error).message}\nThe server's log:\n${shop.output().slice(0, 8000)}`, {
        cause: error,
      });
    } finally {
      importing = false;
    }
    const firstSeconds = (performance.now() - started) / 1000;
    await sampler;
    const { times, failed } = await reads;
    const again = performance.now();
    await client.sendCatalogue(folder, ['import.xml', 'offers.xml']);
    const secondSeconds = (performance.now() - again) / 1000;
    return {
      database,
      products,
      bytes,
      seconds: [firstSeconds, secondSeconds],
      longestCallMs: Math.max(...client.calls.map((call) => call.ms)),
      rssBeforeMb,
      rssMaxMb,
      reads: { count: times.length, p50: percentile(times, 50), p99: percentile(times, 99), failed },
    };
  } finally {
    await shop.stop();
  }
}

export async function benchExchange(adminUrl: string | undefined): Promise<ExchangeRow[]> {
  const products = Number(process.env.BENCH_EXCHANGE_PRODUCTS ?? 100_000);
  const folder = await mkdtemp(path.join(tmpdir(), 'bench-1c-files-'));
  const rows: ExchangeRow[] = [];
  try {
    const { files } = await writeCatalogueFiles(folder, products);
    let bytes = 0;
    for (const file of files) bytes += (await stat(path.join(folder, file))).size;
    // PostgreSQL first: the figures the issue's targets are for; the embedded database's after.
    if (adminUrl) {
      const database = await createFreshDatabase(adminUrl, 'shop_bench_exchange');
      const exchangeDir = await mkdtemp(path.join(tmpdir(), 'bench-1c-exchange-'));
      try {
        rows.push(
          await measureOn(
            'PostgreSQL',
            { DATABASE_URL: database.url, EXCHANGE_DIR: exchangeDir },
            products,
            folder,
            bytes,
          ),
        );
      } finally {
        await database.drop();
        await rm(exchangeDir, { recursive: true, force: true });
      }
    }
    // BENCH_EXCHANGE_EMBEDDED=0: PostgreSQL alone (the embedded database takes far longer at 100 000).
    if (process.env.BENCH_EXCHANGE_EMBEDDED !== '0') {
      const dataDir = await mkdtemp(path.join(tmpdir(), 'bench-1c-shop-'));
      try {
        rows.push(await measureOn('embedded (PGlite)', { DATA_DIR: dataDir }, products, folder, bytes));
      } finally {
        await rm(dataDir, { recursive: true, force: true });
      }
    }
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
  return rows;
}

export function exchangeSection(rows: ExchangeRow[]): string {
  const products = rows[0]?.products ?? 0;
  const table = [
    '| database | files | first exchange s | sent again s | longest call ms (target ≪ 60 000) | server RSS before → max MB (growth target < 200) | catalogue reads during it: count, p50 / p99 ms (PostgreSQL target p99 < 100), failed |',
    '|---|---|---|---|---|---|---|',
    ...rows.map(
      (row) =>
        `| ${row.database} | ${Math.round(row.bytes / 2 ** 20)} MB | ${tenths(row.seconds[0])} | ${tenths(row.seconds[1])} | ${Math.round(row.longestCallMs)} | ${row.rssBeforeMb} → ${row.rssMaxMb} (+${row.rssMaxMb - row.rssBeforeMb}) ${row.rssMaxMb - row.rssBeforeMb < 200 ? '✓' : '✗'} | ${row.reads.count}, ${tenths(row.reads.p50)} / ${tenths(row.reads.p99)}${row.database === 'PostgreSQL' ? (row.reads.p99 < 100 ? ' ✓' : ' ✗') : ''}, ${row.reads.failed} |`,
    ),
  ].join('\n');
  return `## The 1С exchange: ${products.toLocaleString('ru-RU')} products × ${VARIANTS_PER_PRODUCT} variants\n\n\`BENCH_DATABASE_URL=… npm run bench -- exchange\` (${machine()}). import.xml and offers.xml as 1С:УТ 11 writes them, sent over HTTP as 1С sends them (checkauth, init, the files in chunks of the shop's file_limit, \`import\` until \`success\`), four readers reading category pages throughout; then the same exchange sent again.\n\n${table}`;
}
