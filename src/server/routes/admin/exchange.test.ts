/**
 * The back office's «Обмен с 1С»: the accounts that may exchange (granted and taken away as 1С
 * then finds them), the exchanges as a manager reads them after 1С sent a catalogue, their files
 * downloaded for support, the mapping of 1С's price types and warehouses, the settings, and orders
 * sent again — every change in the journal, every id checked.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import type {
  ExchangeAccount,
  ExchangeOverview,
  ExchangePriceType,
  ExchangeResendResult,
  ExchangeRunList,
  ExchangeWarehouse,
  PriceType,
} from '../../../shared/api';
import { EXCHANGE_PATH } from '../../../shared/exchange';
import { exchangeRuns, orders } from '../../db/schema';
import { loadConfig } from '../../config';
import { expectManagersOnly, latestAudit, newManager } from '../../../../test/server/helpers/back-office';
import { commerceMlFixture } from '../../../../test/server/helpers/commerceml';
import { placeOrderOf } from '../../../../test/server/helpers/order-workflow';
import { TEST_PASSWORD } from '../../../../test/server/helpers/shop-data';
import {
  allProducts,
  createTestApp,
  json,
  quickShoppers,
  STARTUP_TIMEOUT,
  type Shopper,
  type TestApp,
} from '../../../../test/server/helpers/test-app';

let shop: TestApp;
let dir: string;
let manager: Shopper;
let buyer: Shopper;
let operator: Shopper;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'myagkiy-opt-exchange-admin-'));
  shop = await createTestApp({ exchange: { ...loadConfig({}).exchange, dir } });
  [buyer, operator] = (await quickShoppers(shop.app, 2)) as [Shopper, Shopper];
  manager = await newManager(shop.app);
}, STARTUP_TIMEOUT);
afterAll(async () => {
  await shop.close();
  await rm(dir, { recursive: true, force: true });
});

const admin = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
  shop.app.inject({
    method,
    url: `/api/v1/admin/exchange${url}`,
    headers: manager.headers,
    payload: payload as object,
  });

const overview = async () => json<ExchangeOverview>(await admin('GET', ''));

/** 1С's calls with the session cookie of its checkauth. */
async function oneC(email: string) {
  const authorization = `Basic ${Buffer.from(`${email}:${TEST_PASSWORD}`).toString('base64')}`;
  const signIn = await shop.app.inject({
    url: `${EXCHANGE_PATH}?type=catalog&mode=checkauth`,
    headers: { authorization },
  });
  const [status, name, value] = signIn.body.split('\n');
  const cookie = `${name}=${value}`;
  return {
    status,
    call: (query: string, payload?: Buffer) =>
      shop.app.inject({
        method: payload ? 'POST' : 'GET',
        url: `${EXCHANGE_PATH}?type=catalog&${query}`,
        headers: { cookie },
        ...(payload && { payload }),
      }),
  };
}

it('is for managers only', async () => {
  await expectManagersOnly(shop.app, buyer, [
    ['GET', '/api/v1/admin/exchange'],
    ['PUT', '/api/v1/admin/exchange/settings', { color_characteristic: 'Цвет', size_characteristic: 'Размер' }],
    ['POST', '/api/v1/admin/exchange/accounts', { email: buyer.email }],
    ['DELETE', '/api/v1/admin/exchange/accounts/1'],
    ['PUT', '/api/v1/admin/exchange/price-types/x', { price_type_id: null }],
    ['PUT', '/api/v1/admin/exchange/warehouses/x', { used: false }],
    ['GET', '/api/v1/admin/exchange/runs'],
    ['GET', '/api/v1/admin/exchange/runs/00000000-0000-4000-8000-000000000000/files/import.xml'],
    ['POST', '/api/v1/admin/exchange/resend', { order_ids: [1] }],
  ]);
});

it('says what to type into 1С: the address under the shop, the file limit, who may exchange', async () => {
  const seen = await overview();
  expect(seen).toMatchObject({
    url: `http://localhost:80${EXCHANGE_PATH}`,
    file_limit: loadConfig({}).exchange.fileLimitBytes,
    files_keep_days: 30,
    allowed_ips: [],
    accounts: [],
    settings: { color_characteristic: 'Цвет', size_characteristic: 'Размер', missing_products: 'leave' },
  });
});

describe('accounts', () => {
  it('granted by e-mail, 1С signs in with them; taken away, it cannot; both in the journal', async () => {
    expect((await oneC(operator.email)).status).toBe('failure');
    const granted = await admin('POST', '/accounts', { email: `  ${operator.email.toUpperCase()} ` });
    expect(granted.statusCode).toBe(201);
    expect(json<ExchangeAccount>(granted)).toEqual({
      id: operator.id,
      email: operator.email,
      name: null,
      is_manager: false,
    });
    expect((await overview()).accounts.map((account) => account.email)).toEqual([operator.email]);
    expect((await oneC(operator.email)).status).toBe('success');
    expect((await latestAudit(shop.app, manager))[0]).toMatchObject({
      action: 'user.exchange',
      after: { email: operator.email, exchange: true },
    });

    const revoked = await admin('DELETE', `/accounts/${operator.id}`);
    expect(revoked.statusCode).toBe(204);
    expect((await overview()).accounts).toEqual([]);
    expect((await oneC(operator.email)).status).toBe('failure');
    expect((await latestAudit(shop.app, manager))[0]).toMatchObject({
      action: 'user.exchange',
      after: { exchange: false },
    });
  });

  it('an unknown e-mail or account is 404 with what is wrong; a malformed body 4xx', async () => {
    const unknown = await admin('POST', '/accounts', { email: 'nobody@example.com' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ detail: 'Пользователь с e-mail «nobody@example.com» не найден' });
    const gone = await admin('DELETE', '/accounts/2000000000');
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toEqual({ detail: 'Учётная запись не найдена' });
    const bad = await admin('POST', '/accounts', {});
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toEqual({ detail: expect.any(String) });
  });
});

describe('after 1С sent its catalogue', () => {
  let runId: string;
  let shopTypes: PriceType[];

  beforeAll(async () => {
    await admin('PUT', '/settings', {
      color_characteristic: 'Цвет игрушки',
      size_characteristic: 'Рост, см',
      missing_products: 'leave',
    });
    await admin('POST', '/accounts', { email: operator.email });
    const exchange = await oneC(operator.email);
    await exchange.call('mode=init');
    for (const name of ['import.xml', 'offers.xml']) {
      const received = await exchange.call(`mode=file&filename=${name}`, await readFile(commerceMlFixture(name)));
      expect(received.body).toBe('success\n');
      let answer = '';
      for (let step = 0; step < 50 && answer !== 'success\n'; step += 1)
        answer = (await exchange.call(`mode=import&filename=${name}`)).body;
      expect(answer).toBe('success\n');
    }
    const { items } = json<ExchangeRunList>(await admin('GET', '/runs'));
    runId = items[0]!.id;
    shopTypes = json<PriceType[]>(
      await shop.app.inject({ url: '/api/v1/admin/price-types', headers: manager.headers }),
    );
  }, STARTUP_TIMEOUT);

  it('lists the exchange: when, by whom, its files, what it created', async () => {
    const list = json<ExchangeRunList>(await admin('GET', '/runs?limit=5'));
    expect(list.total).toBeGreaterThanOrEqual(1);
    const run = list.items[0]!;
    expect(run).toMatchObject({
      id: runId,
      kind: 'catalog',
      status: 'done',
      failure: null,
      by_email: operator.email,
      files_kept: true,
    });
    expect(run.files.map((file) => [file.name, file.stage])).toEqual([
      ['import.xml', 'applied'],
      ['offers.xml', 'applied'],
    ]);
    expect(run.files[0]!.bytes).toBe((await readFile(commerceMlFixture('import.xml'))).length);
    expect(run.categories_created).toBeGreaterThan(0);
    // The seed's products of the same articles were linked, once, and listed.
    expect(run.products_updated).toBe(3);
    expect(run.products_linked_by_article).toEqual([
      expect.stringMatching(/^MO-2001 → /),
      expect.stringMatching(/^MO-2002 → /),
      expect.stringMatching(/^MO-2004 → /),
    ]);
    expect(run.variants_created).toBeGreaterThan(0);
    // Row errors are the log's, not a failed exchange.
    expect(run.errors).toEqual(expect.arrayContaining(['import.xml: пустой артикул']));
    expect(run.errors_count).toBe(run.errors.length);
    expect(run.finished_at).not.toBeNull();
  });

  it('shows the first 50 row errors of a run and counts them all', async () => {
    const [before] = await shop.app.database.db.select().from(exchangeRuns).where(eq(exchangeRuns.id, runId));
    const errors = Array.from({ length: 60 }, (_, index) => `offers.xml: ошибка ${index + 1}`);
    await shop.app.database.db
      .update(exchangeRuns)
      .set({ stats: { ...before!.stats, errors } })
      .where(eq(exchangeRuns.id, runId));
    try {
      const run = json<ExchangeRunList>(await admin('GET', '/runs')).items.find((item) => item.id === runId)!;
      expect(run.errors).toEqual(errors.slice(0, 50));
      expect(run.errors_count).toBe(60);
    } finally {
      await shop.app.database.db.update(exchangeRuns).set({ stats: before!.stats }).where(eq(exchangeRuns.id, runId));
    }
  });

  it('gives a kept file back as 1С sent it; names it did not receive, or once removed, are 404', async () => {
    const file = await admin('GET', `/runs/${runId}/files/import.xml`);
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload).toEqual(await readFile(commerceMlFixture('import.xml')));
    expect(file.headers['content-disposition']).toContain('filename="import.xml"');
    expect(file.headers['cache-control']).toBe('private, no-store');
    for (const name of ['rests_1.xml', encodeURIComponent('../import.xml'), encodeURIComponent('/etc/passwd')]) {
      const missing = await admin('GET', `/runs/${runId}/files/${name}`);
      expect([name, missing.statusCode]).toEqual([name, 404]);
      expect(missing.json()).toEqual({ detail: 'Файла этого обмена нет (или он уже удалён)' });
    }
    const otherRun = await admin('GET', '/runs/00000000-0000-4000-8000-000000000000/files/import.xml');
    expect(otherRun.statusCode).toBe(404);
    expect((await admin('GET', '/runs/not-a-uuid/files/import.xml')).statusCode).toBe(422);
    await shop.app.database.db
      .update(exchangeRuns)
      .set({ filesRemovedAt: new Date() })
      .where(eq(exchangeRuns.id, runId));
    try {
      expect((await admin('GET', `/runs/${runId}/files/import.xml`)).statusCode).toBe(404);
      expect(json<ExchangeRunList>(await admin('GET', '/runs')).items[0]!.files_kept).toBe(false);
    } finally {
      await shop.app.database.db.update(exchangeRuns).set({ filesRemovedAt: null }).where(eq(exchangeRuns.id, runId));
    }
  });

  it('a kept file is saved by the browser itself through a signed link: the manager’s opens it, a buyer’s is refused', async () => {
    const path = `/api/v1/admin/exchange/runs/${runId}/files/import.xml`;
    const linkFor = async (headers: Record<string, string>) => {
      const made = await shop.app.inject({ method: 'POST', url: '/api/v1/download-links', headers, payload: { path } });
      expect(made.statusCode).toBe(200);
      return json<{ url: string }>(made).url;
    };
    const url = await linkFor(manager.headers);
    const file = await shop.app.inject({ method: 'GET', url });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload).toEqual(await readFile(commerceMlFixture('import.xml')));

    // Signed for one file only: another name under the same link is refused.
    const other = await shop.app.inject({ method: 'GET', url: url.replace('import.xml', 'offers.xml') });
    expect(other.statusCode).toBe(403);
    // A buyer may ask for the link (the path is a download's) but not get the file with it.
    const buyers = await shop.app.inject({ method: 'GET', url: await linkFor(buyer.headers) });
    expect(buyers.statusCode).toBe(403);
    expect(buyers.json()).toEqual({ detail: 'Раздел доступен только менеджерам магазина' });
    // Any other back-office route still takes a token, never a link.
    const linkedList = await shop.app.inject({
      method: 'GET',
      url: `/api/v1/admin/exchange/runs${url.slice(url.indexOf('?'))}`,
    });
    expect(linkedList.statusCode).toBe(403);
  });

  it('shows 1С’s price types, mapped by name until a manager maps one; an unknown type or target is 404', async () => {
    const types = (await overview()).price_types;
    expect(types.map((type) => [type.name, type.price_type_id, type.mapped_by_manager])).toEqual([
      ['Закупочная', null, false],
      ['Оптовая', null, false],
      ['Розничная', null, false],
    ]);
    const opt = shopTypes.find((type) => type.is_default)!;
    const wholesale = types.find((type) => type.name === 'Оптовая')!;
    const mapped = await admin('PUT', `/price-types/${encodeURIComponent(wholesale.external_id)}`, {
      price_type_id: opt.id,
    });
    expect(json<ExchangePriceType>(mapped)).toMatchObject({ price_type_id: opt.id, mapped_by_manager: true });
    expect((await latestAudit(shop.app, manager))[0]).toMatchObject({
      action: 'exchange.price_type',
      before: { name: 'Оптовая', price_type_id: null },
      after: { name: 'Оптовая', price_type_id: opt.id },
    });
    const unknownType = await admin('PUT', '/price-types/no-such-type', { price_type_id: opt.id });
    expect(unknownType.statusCode).toBe(404);
    expect(unknownType.json()).toEqual({ detail: 'Такого типа цен 1С ещё не было в обменах' });
    const unknownTarget = await admin('PUT', `/price-types/${encodeURIComponent(wholesale.external_id)}`, {
      price_type_id: 2_000_000_000,
    });
    expect(unknownTarget.statusCode).toBe(404);
    expect(unknownTarget.json()).toEqual({ detail: 'Тип цен не найден' });
    const unmapped = await admin('PUT', `/price-types/${encodeURIComponent(wholesale.external_id)}`, {
      price_type_id: null,
    });
    expect(json<ExchangePriceType>(unmapped)).toMatchObject({ price_type_id: null, mapped_by_manager: true });
  });

  it('shows 1С’s warehouses, all counted until a manager leaves one out; audited', async () => {
    const warehouses = (await overview()).warehouses;
    expect(warehouses.map((warehouse) => [warehouse.name, warehouse.used])).toEqual([
      ['Основной склад', true],
      ['Склад Подольск', true],
    ]);
    const podolsk = warehouses[1]!;
    const changed = await admin('PUT', `/warehouses/${encodeURIComponent(podolsk.external_id)}`, { used: false });
    expect(json<ExchangeWarehouse>(changed)).toMatchObject({ name: 'Склад Подольск', used: false });
    expect((await overview()).warehouses.map((warehouse) => warehouse.used)).toEqual([true, false]);
    expect((await latestAudit(shop.app, manager))[0]).toMatchObject({
      action: 'exchange.warehouse',
      after: { name: 'Склад Подольск', used: false },
    });
    expect((await admin('PUT', '/warehouses/nowhere', { used: true })).statusCode).toBe(404);
  });
});

describe('settings', () => {
  it('saved trimmed and audited; a blank name or an unknown policy is refused with a detail', async () => {
    const saved = await admin('PUT', '/settings', {
      color_characteristic: ' Цвет игрушки ',
      size_characteristic: 'Рост, см',
      missing_products: 'hide',
    });
    expect(saved.json()).toEqual({
      color_characteristic: 'Цвет игрушки',
      size_characteristic: 'Рост, см',
      missing_products: 'hide',
    });
    expect((await overview()).settings.missing_products).toBe('hide');
    expect((await latestAudit(shop.app, manager))[0]).toMatchObject({
      action: 'exchange.settings',
      after: { missing_products: 'hide' },
    });
    for (const body of [
      { color_characteristic: '', size_characteristic: 'Рост', missing_products: 'leave' },
      { color_characteristic: 'Цвет', size_characteristic: 'Рост', missing_products: 'delete' },
      { color_characteristic: 'Цвет', size_characteristic: 'Рост' },
    ]) {
      const refused = await admin('PUT', '/settings', body);
      expect(refused.statusCode).toBe(422);
      expect(refused.json()).toEqual({ detail: expect.any(String) });
    }
    expect((await overview()).settings).toEqual({
      color_characteristic: 'Цвет игрушки',
      size_characteristic: 'Рост, см',
      missing_products: 'hide',
    });
  });
});

describe('send again', () => {
  it('puts chosen orders back in the next query, names those that do not exist, and is audited', async () => {
    const product = (await allProducts(shop.app)).find((candidate) => candidate.variants.some((v) => v.stock > 0))!;
    const { order } = await placeOrderOf(shop.app, buyer, product, { quantity: 1, stock: 50 });
    expect((await overview()).pending_orders).toBeGreaterThanOrEqual(1);
    // Every order confirmed as 1С's success confirms one: none pending.
    await shop.app.database.db.update(orders).set({ exchangeConfirmedAt: sql`${orders.exchangeChangedAt}` });
    expect((await overview()).pending_orders).toBe(0);

    const answer = await admin('POST', '/resend', { order_ids: [order.id, order.id, 2_000_000_000] });
    expect(answer.statusCode).toBe(200);
    expect(json<ExchangeResendResult>(answer)).toEqual({ resent: 1, not_found: [2_000_000_000] });
    expect((await latestAudit(shop.app, manager))[0]).toMatchObject({
      action: 'exchange.resend',
      after: { order_ids: [order.id] },
    });
    expect((await overview()).pending_orders).toBe(1);
  });

  it('refuses an empty or oversized list with a detail', async () => {
    for (const order_ids of [[], Array.from({ length: 1001 }, (_, index) => index + 1), ['1']]) {
      const refused = await admin('POST', '/resend', { order_ids });
      expect(refused.statusCode).toBe(422);
      expect(refused.json()).toEqual({ detail: expect.any(String) });
    }
  });
});
