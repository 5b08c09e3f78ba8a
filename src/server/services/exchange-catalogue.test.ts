import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { sql } from 'drizzle-orm';
import { createTestApp, STARTUP_TIMEOUT, type TestApp } from '../../../test/server/helpers/test-app';
import { commerceMl, commerceMlFixture } from '../../../test/server/helpers/commerceml';
import { CATALOGUE_CHANNEL } from '../db/notifications';
import { CommerceMlError } from '../commerceml/records';
import { ExchangeImportError } from '../domain/domain-errors';
import { createExchangeCatalogueRepository } from '../repositories/exchange-catalogue';
import { createExchangeCatalogue } from './exchange-catalogue';
import { createExchangeSettings } from './exchange-settings';

const TEDDY = 'd1a5e6f0-9c20-11ee-8c2a-005056b6f1a3';
const BEIGE = `${TEDDY}#e4b1c7d0-9c21-11ee-8c2a-005056b6f1a3`;

let testApp: TestApp;
let folder: string;
let notices = 0;
let byUserId: number;
let stopListening: () => Promise<void>;

const db = () => testApp.app.database.db;
const rows = async <T>(query: ReturnType<typeof sql>) => ((await db().execute(query)) as unknown as { rows: T[] }).rows;

async function newRun(): Promise<string> {
  const [run] = await rows<{ id: string }>(sql`insert into exchange_runs (kind) values ('catalog') returning id`);
  return run!.id;
}

/** importStep called as 1С calls `import`: again while it answers progress. */
async function importFile(runId: string, name: string): Promise<void> {
  const catalogue = createExchangeCatalogue(db(), { budgetMs: 50, heartbeatMs: 100 });
  for (let call = 0; call < 200; call += 1) {
    if ((await catalogue.importStep(runId, name, folder, byUserId)) === 'success') return;
  }
  throw new Error(`${name} never finished`);
}

const catalogueRows = () =>
  rows(sql`select p.art, p.name, p.description, p.image, p.hidden_at is not null as hidden, p.multiple, p.min_quantity,
                  p.external_id, c.name as category, v.external_id as variant, v.color, v.size, v.price, v.stock, v.barcode
           from products p join categories c on c.id = p.category_id left join variants v on v.product_id = p.id
           order by p.id, v.id`);

beforeAll(async () => {
  testApp = await createTestApp();
  stopListening = await testApp.app.database.listen(CATALOGUE_CHANNEL, {
    onNotify: () => (notices += 1),
    onLost: () => undefined,
    onRestored: () => undefined,
  });
  folder = await mkdtemp(path.join(tmpdir(), 'exchange-catalogue-'));
  for (const name of [
    'import.xml',
    'offers.xml',
    'offers_changes.xml',
    'prices_1.xml',
    'rests_1.xml',
    'import_cp1251.xml',
  ]) {
    await copyFile(commerceMlFixture(name), path.join(folder, name));
  }
  // 1С names its files import*.xml: the broken one as a second catalogue file.
  await copyFile(commerceMlFixture('broken.xml'), path.join(folder, 'import_broken.xml'));
  await mkdir(path.join(folder, 'import_files/d1'), { recursive: true });
  await sharp({ create: { width: 40, height: 30, channels: 3, background: '#c96' } })
    .jpeg()
    .toFile(path.join(folder, 'import_files/d1/d1a5e6f09c2011ee8c2a005056b6f1a3_a7c3e2b09c2111ee8c2a005056b6f1a3.jpg'));
  byUserId = (await rows<{ id: number }>(sql`select min(id) as id from users`))[0]!.id;
  await createExchangeSettings(db()).write({
    colorCharacteristic: 'Цвет игрушки',
    sizeCharacteristic: 'Рост, см',
    missingProducts: 'leave',
  });
  await db().execute(sql`update price_types set name = 'Розничная' where is_default`);
  await db().execute(sql`insert into price_types (code, name) values ('wholesale-1c', 'Оптовая')`);
}, STARTUP_TIMEOUT);

afterAll(async () => {
  await stopListening?.();
  await testApp?.close();
  await rm(folder, { recursive: true, force: true });
});

it('imports import.xml then offers.xml: categories, products, variants, prices, stock, row errors', async () => {
  const runId = await newRun();
  const before = notices;
  await importFile(runId, 'import.xml');
  await importFile(runId, 'offers.xml');

  const products = await rows<{ art: string; external_id: string; hidden: boolean; image: string; multiple: number }>(
    sql`select art, external_id, hidden_at is not null as hidden, image, multiple from products where external_id is not null order by art`,
  );
  // MO-2004, marked deleted, is the seed's product linked by its article, and hidden.
  expect(products.map((row) => [row.art, row.hidden])).toEqual([
    ['MO-2001', false],
    ['MO-2002', false],
    ['MO-2004', true],
  ]);
  const teddy = products.find((row) => row.art === 'MO-2001')!;
  expect(teddy.external_id).toBe(TEDDY);
  expect(teddy.image).toMatch(/^u-[0-9a-f]{32}\.webp$/);
  expect(teddy.hidden).toBe(false);

  const variants = await rows<{ external_id: string; color: string; size: number; price: string; stock: number }>(
    sql`select external_id, color, size, price, stock from variants where external_id is not null order by external_id`,
  );
  // Stock: the sum over the used warehouses (8 + 4), no order of the seed holding it.
  expect(variants.find((row) => row.external_id === BEIGE)).toMatchObject({ color: 'Бежевый', size: 30, stock: 12 });
  // MO-2002's unit is a carton of 6: its multiple (and minimum) follow.
  expect(products.find((row) => row.art === 'MO-2002')!.multiple).toBe(6);

  const wholesale = await rows<{ n: string }>(
    sql`select count(*) as n from variant_prices vp join price_types pt on pt.id = vp.price_type_id where pt.name = 'Оптовая'`,
  );
  expect(Number(wholesale[0]!.n)).toBeGreaterThan(0);
  const types = await rows<{ name: string; price_type_id: number | null }>(
    sql`select name, price_type_id from exchange_price_types order by name`,
  );
  expect(types.find((type) => type.name === 'Закупочная')!.price_type_id).toBeNull();
  expect(types.find((type) => type.name === 'Оптовая')!.price_type_id).not.toBeNull();

  const [run] = await rows<{ stats: { errors: string[]; productsCreated: number; productsLinkedByArticle: string[] } }>(
    sql`select stats from exchange_runs where id = ${runId}`,
  );
  expect(run!.stats.productsCreated + run!.stats.productsLinkedByArticle.length).toBe(3);
  expect(run!.stats.errors).toEqual(
    expect.arrayContaining([
      'import.xml: пустой артикул',
      'import.xml: артикул «MO-2001» повторяется в файле',
      expect.stringMatching(/^import\.xml: картинка «import_files\/d1\/.*\.png» не найдена$/),
    ]),
  );
  expect(run!.stats.errors.some((error) => error.includes('«MO-2001» повторяется'))).toBe(true);
  // Each file's apply announced the change once.
  await new Promise((resolve) => setTimeout(resolve, 100));
  expect(notices - before).toBe(2);

  // The same exchange again changes nothing.
  const first = await catalogueRows();
  const again = await newRun();
  await importFile(again, 'import.xml');
  await importFile(again, 'offers.xml');
  expect(await catalogueRows()).toEqual(first);
  const [second] = await rows<{ stats: { productsUpdated: number; variantsUpdated: number } }>(
    sql`select stats from exchange_runs where id = ${again}`,
  );
  expect(second!.stats).toMatchObject({
    productsCreated: 0,
    productsUpdated: 0,
    variantsCreated: 0,
    variantsUpdated: 0,
  });
});

it('an applied file answers success again without applying it twice', async () => {
  const runId = await newRun();
  await importFile(runId, 'import.xml');
  const catalogue = createExchangeCatalogue(db(), { budgetMs: 50 });
  await expect(catalogue.importStep(runId, 'import.xml', folder, byUserId)).resolves.toBe('success');
});

it('broken.xml fails with its file and line, and the catalogue stays as it was', async () => {
  const before = await catalogueRows();
  const runId = await newRun();
  const catalogue = createExchangeCatalogue(db(), { budgetMs: 5_000 });
  const failure = catalogue.importStep(runId, 'import_broken.xml', folder, byUserId);
  await expect(failure).rejects.toThrow(CommerceMlError);
  await expect(failure).rejects.toThrow(/import_broken\.xml, строка \d+/);
  await expect(catalogue.importStep(runId, 'import_broken.xml', folder, byUserId)).rejects.toThrow(ExchangeImportError);
  expect(await catalogueRows()).toEqual(before);
});

it('a changes-only offers file changes only the offers it names', async () => {
  const before = await rows<{ external_id: string; price: string; stock: number }>(
    sql`select external_id, price, stock from variants where external_id is not null order by external_id`,
  );
  const runId = await newRun();
  await copyFile(path.join(folder, 'offers_changes.xml'), path.join(folder, 'offers0_2.xml'));
  await importFile(runId, 'offers0_2.xml');
  const after = await rows<{ external_id: string; price: string; stock: number }>(
    sql`select external_id, price, stock from variants where external_id is not null order by external_id`,
  );
  const changed = after.filter((row, i) => JSON.stringify(row) !== JSON.stringify(before[i]));
  expect(changed.length).toBeGreaterThan(0);
  expect(changed.length).toBeLessThanOrEqual(2);
  expect(after.map((row) => row.external_id)).toEqual(before.map((row) => row.external_id));
});

it('an apply that breaks a rule of the catalogue leaves everything as it was and fails the file', async () => {
  await db().execute(sql`update variants set stock = 1 where external_id = ${BEIGE}`);
  const changedBefore = await catalogueRows();
  await db().execute(sql`alter table variants add constraint exchange_test_small_stock check (stock < 2) not valid`);
  try {
    const runId = await newRun();
    const catalogue = createExchangeCatalogue(db(), { budgetMs: 5_000 });
    await expect(catalogue.importStep(runId, 'offers.xml', folder, byUserId)).rejects.toThrow(ExchangeImportError);
    expect(await catalogueRows()).toEqual(changedBefore);
    const [file] = await rows<{ stage: string; failure: string }>(
      sql`select stage, failure from exchange_files where run_id = ${runId}`,
    );
    expect(file!.stage).toBe('failed');
    expect(file!.failure).toContain('offers.xml');
    // The back office's log says the exchange failed, and why.
    const [run] = await rows<{ status: string; failure: string }>(
      sql`select status, failure from exchange_runs where id = ${runId}`,
    );
    expect(run).toEqual({ status: 'failed', failure: file!.failure });
  } finally {
    await db().execute(sql`alter table variants drop constraint exchange_test_small_stock`);
  }
});

it('a file another process is working on answers progress; one whose heartbeat went stale is taken over', async () => {
  const runId = await newRun();
  await db().execute(
    sql`insert into exchange_files (run_id, name, stage, heartbeat_at) values (${runId}, 'import.xml', 'staging', now())`,
  );
  const catalogue = createExchangeCatalogue(db(), { budgetMs: 50 });
  await expect(catalogue.importStep(runId, 'import.xml', folder, byUserId)).resolves.toBe('progress');
  const [untouched] = await rows<{ stage: string }>(sql`select stage from exchange_files where run_id = ${runId}`);
  expect(untouched!.stage).toBe('staging');

  await db().execute(
    sql`update exchange_files set heartbeat_at = now() - interval '2 minutes' where run_id = ${runId}`,
  );
  await importFile(runId, 'import.xml');
  const [applied] = await rows<{ stage: string }>(sql`select stage from exchange_files where run_id = ${runId}`);
  expect(applied!.stage).toBe('applied');
});

it('stock is 1С’s less the pieces of site orders 1С has not confirmed (a cancelled or confirmed one not counted)', async () => {
  const [variant] = await rows<{ id: number; product_id: number }>(
    sql`select id, product_id from variants where external_id = ${BEIGE}`,
  );
  const order = async (status: string, confirmed: boolean, quantity: number) => {
    const [placed] = await rows<{ id: number }>(
      sql`insert into orders (status, address, total_price, exchange_confirmed_at)
          values (${status}, 'Москва', 0, ${confirmed ? sql`now()` : sql`null`}) returning id`,
    );
    await db()
      .execute(sql`insert into order_lines (order_id, product_id, variant_id, product_name, color, size, price, quantity)
                           values (${placed!.id}, ${variant!.product_id}, ${variant!.id}, 'Мишка', 'Бежевый', 30, 100, ${quantity})`);
  };
  await order('Создан', false, 3);
  await order('Отменён', false, 4);
  await order('Создан', true, 5);
  await importFile(await newRun(), 'offers.xml');
  const [after] = await rows<{ stock: number }>(sql`select stock from variants where id = ${variant!.id}`);
  expect(after!.stock).toBe(12 - 3);
});

it('the split prices*.xml and rests*.xml of newer 1С set the prices per type and the stock over the used warehouses', async () => {
  // No site order holds stock here: every order is known to 1С.
  await db().execute(sql`update orders set exchange_confirmed_at = exchange_changed_at`);
  const runId = await newRun();
  await importFile(runId, 'prices_1.xml');
  await importFile(runId, 'rests_1.xml');
  const [beige] = await rows<{ price: string; wholesale: string; stock: number }>(
    sql`select v.price, vp.price as wholesale, v.stock from variants v
        join variant_prices vp on vp.variant_id = v.id
        join price_types pt on pt.id = vp.price_type_id and pt.name = 'Оптовая'
        where v.external_id = ${BEIGE}`,
  );
  // «Розничная» fills the shop's default type (named so here), «Оптовая» its namesake; 7 + 3 pieces.
  expect(beige).toEqual({ price: '699.00', wholesale: '455.00', stock: 10 });
});

it('a warehouse a manager left out no longer counts in the stock from the next rests file', async () => {
  await db().execute(sql`update exchange_warehouses set used = false where name = 'Склад Подольск'`);
  try {
    await importFile(await newRun(), 'rests_1.xml');
    const [beige] = await rows<{ stock: number }>(sql`select stock from variants where external_id = ${BEIGE}`);
    expect(beige!.stock).toBe(7);
  } finally {
    await db().execute(sql`update exchange_warehouses set used = true`);
  }
});

it('a windows-1251 changes-only import.xml: its Cyrillic read right, nothing else touched', async () => {
  const before = await catalogueRows();
  await importFile(await newRun(), 'import_cp1251.xml');
  const [hedgehog] = await rows<{ art: string; name: string; description: string; category: string }>(
    sql`select p.art, p.name, p.description, c.name as category from products p join categories c on c.id = p.category_id
        where p.external_id = '8e0a2c41-1a3d-11eb-9f2e-00155d0a1b2c'`,
  );
  expect(hedgehog).toEqual({
    art: 'МО-Ёж-01',
    name: 'Ёжик «Колючка» — 15 см',
    description: 'Щётка-ёжик из мягкого плюша; №1 в подарок',
    category: 'Ёлочные игрушки',
  });
  const after = await catalogueRows();
  expect(after.filter((row) => (row as { art: string }).art !== 'МО-Ёж-01')).toEqual(before);
});

it('with «hide», a full exchange hides 1С’s products it leaves out, never the site’s own; the site’s packaging and tiers survive', async () => {
  const MO_2002 = 'd1a5e6f1-9c20-11ee-8c2a-005056b6f1a3';
  // A manager's packaging and tiers on a product 1С sends without a unit coefficient.
  await db().execute(sql`update products set multiple = 4, min_quantity = 8 where external_id = ${TEDDY}`);
  await db().execute(sql`insert into price_tiers (price_type_id, product_id, from_quantity, price)
                         select pt.id, p.id, 24, 400 from price_types pt, products p
                         where pt.is_default and p.external_id = ${TEDDY}`);
  const [siteOwn] = await rows<{ n: string }>(
    sql`select count(*) as n from products where external_id is null and hidden_at is null`,
  );
  await createExchangeSettings(db()).write({
    colorCharacteristic: 'Цвет игрушки',
    sizeCharacteristic: 'Рост, см',
    missingProducts: 'hide',
  });
  try {
    // import.xml as 1С would send it once MO-2002 is no longer published.
    const full = await readFile(path.join(folder, 'import.xml'), 'utf8');
    const without = full.replace(
      /<Товар>(?:(?!<\/Товар>)[\s\S])*?<Ид>d1a5e6f1-9c20-11ee-8c2a-005056b6f1a3<\/Ид>[\s\S]*?<\/Товар>/,
      '',
    );
    expect(without.length).toBeLessThan(full.length);
    await writeFile(path.join(folder, 'import_without.xml'), without);
    await importFile(await newRun(), 'import_without.xml');

    const products = await rows<{ external_id: string; hidden: boolean; multiple: number; min_quantity: number }>(
      sql`select external_id, hidden_at is not null as hidden, multiple, min_quantity from products where external_id in (${TEDDY}, ${MO_2002})`,
    );
    expect(products.find((row) => row.external_id === MO_2002)!.hidden).toBe(true);
    expect(products.find((row) => row.external_id === TEDDY)).toMatchObject({
      hidden: false,
      multiple: 4,
      min_quantity: 8,
    });
    const [afterOwn] = await rows<{ n: string }>(
      sql`select count(*) as n from products where external_id is null and hidden_at is null`,
    );
    expect(afterOwn!.n).toBe(siteOwn!.n);
    await importFile(await newRun(), 'offers.xml');
    const tiers = await rows<{ from_quantity: number; price: string }>(
      sql`select t.from_quantity, t.price from price_tiers t join products p on p.id = t.product_id where p.external_id = ${TEDDY}`,
    );
    expect(tiers).toEqual([{ from_quantity: 24, price: '400.00' }]);
  } finally {
    await createExchangeSettings(db()).write({
      colorCharacteristic: 'Цвет игрушки',
      sizeCharacteristic: 'Рост, см',
      missingProducts: 'leave',
    });
  }
});

it('a site product linked by its article keeps its variants: an offer of the same colour and size takes one, once', async () => {
  const [site] = await rows<{ product_id: number; art: string; variant_id: number; color: string; size: number }>(
    sql`select p.id as product_id, p.art, v.id as variant_id, v.color, v.size from products p join variants v on v.product_id = p.id
        where p.external_id is null and p.hidden_at is null order by p.id desc, v.id limit 1`,
  );
  const [{ n: variantsBefore } = { n: '0' }] = await rows<{ n: string }>(
    sql`select count(*) as n from variants where product_id = ${site!.product_id}`,
  );
  const offer = (id: string, color: string, size: number, price: number) =>
    `<Предложение><Ид>adopt-1#${id}</Ид><Наименование>x</Наименование>
       <ХарактеристикиТовара>
         <ХарактеристикаТовара><Наименование>Цвет игрушки</Наименование><Значение>${color}</Значение></ХарактеристикаТовара>
         <ХарактеристикаТовара><Наименование>Рост, см</Наименование><Значение>${size}</Значение></ХарактеристикаТовара>
       </ХарактеристикиТовара>
       <Цены><Цена><ИдТипаЦены>c2d4f6a9-9c23-11ee-8c2a-005056b6f1a3</ИдТипаЦены><ЦенаЗаЕдиницу>${price}</ЦенаЗаЕдиницу></Цена></Цены>
       <Количество>9</Количество></Предложение>`;
  await writeFile(
    path.join(folder, 'import_adopt.xml'),
    commerceMl(`<Классификатор><Ид>cl</Ид><Наименование>К</Наименование><Группы><Группа><Ид>adopt-g</Ид><Наименование>Связанные</Наименование></Группа></Группы></Классификатор>
      <Каталог СодержитТолькоИзменения="true"><Ид>cat</Ид><Наименование>Каталог</Наименование><Товары>
        <Товар><Ид>adopt-1</Ид><Артикул>${site!.art}</Артикул><Наименование>Связанный товар</Наименование><Группы><Ид>adopt-g</Ид></Группы></Товар>
      </Товары></Каталог>`),
  );
  await writeFile(
    path.join(folder, 'offers_adopt.xml'),
    commerceMl(`<ПакетПредложений СодержитТолькоИзменения="true"><Ид>p</Ид><Наименование>П</Наименование>
      <ТипыЦен><ТипЦены><Ид>c2d4f6a9-9c23-11ee-8c2a-005056b6f1a3</Ид><Наименование>Розничная</Наименование><Валюта>RUB</Валюта></ТипЦены></ТипыЦен>
      <Предложения>${offer('c1', site!.color, site!.size, 777)}${offer('c2', 'Лиловый', 99, 555)}</Предложения></ПакетПредложений>`),
  );
  const runId = await newRun();
  await importFile(runId, 'import_adopt.xml');
  await importFile(runId, 'offers_adopt.xml');

  const variants = await rows<{
    id: number;
    external_id: string | null;
    color: string;
    size: number;
    price: string;
    stock: number;
  }>(
    sql`select id, external_id, color, size, price, stock from variants where product_id = ${site!.product_id} order by id`,
  );
  // The site's variant (and so every cart and order line naming it) now carries 1С's Ид and data.
  expect(variants.find((row) => row.id === site!.variant_id)).toMatchObject({
    external_id: 'adopt-1#c1',
    price: '777.00',
    stock: 9,
  });
  expect(variants.find((row) => row.external_id === 'adopt-1#c2')).toMatchObject({ color: 'Лиловый', size: 99 });
  expect(variants).toHaveLength(Number(variantsBefore) + 1);
  const [run] = await rows<{ stats: { variantsLinked: number; variantsCreated: number; errors: string[] } }>(
    sql`select stats from exchange_runs where id = ${runId}`,
  );
  expect(run!.stats).toMatchObject({ variantsLinked: 1, variantsCreated: 1 });

  // Matched by Ид from now on: the next exchange finds it again, links nothing, creates nothing.
  const again = await newRun();
  await importFile(again, 'offers_adopt.xml');
  const [second] = await rows<{ stats: { variantsLinked: number; variantsCreated: number } }>(
    sql`select stats from exchange_runs where id = ${again}`,
  );
  expect(second!.stats).toMatchObject({ variantsLinked: 0, variantsCreated: 0 });
});

it('1С’s barcodes are kept as sent: an internal or carton code as it is, one EAN-13 on two variants without failing', async () => {
  const offer = (id: string, color: string, barcode: string) =>
    `<Предложение><Ид>codes-1#${id}</Ид><Наименование>x</Наименование><Штрихкод>${barcode}</Штрихкод>
       <ХарактеристикиТовара>
         <ХарактеристикаТовара><Наименование>Цвет игрушки</Наименование><Значение>${color}</Значение></ХарактеристикаТовара>
         <ХарактеристикаТовара><Наименование>Рост, см</Наименование><Значение>25</Значение></ХарактеристикаТовара>
       </ХарактеристикиТовара>
       <Цены><Цена><ИдТипаЦены>c2d4f6a9-9c23-11ee-8c2a-005056b6f1a3</ИдТипаЦены><ЦенаЗаЕдиницу>450</ЦенаЗаЕдиницу></Цена></Цены>
       <Количество>3</Количество></Предложение>`;
  await writeFile(
    path.join(folder, 'import_codes.xml'),
    commerceMl(`<Классификатор><Ид>cl</Ид><Наименование>К</Наименование><Группы><Группа><Ид>codes-g</Ид><Наименование>Коды</Наименование></Группа></Группы></Классификатор>
      <Каталог СодержитТолькоИзменения="true"><Ид>cat</Ид><Наименование>Каталог</Наименование><Товары>
        <Товар><Ид>codes-1</Ид><Артикул>MO-CODES</Артикул><Наименование>Зайка с кодами</Наименование><Группы><Ид>codes-g</Ид></Группы></Товар>
      </Товары></Каталог>`),
  );
  // 2000000012345: an in-house code of 1С (its last digit is no check digit); 4607001234562: a
  // right EAN-13 that 1С gives two characteristics of one model.
  await writeFile(
    path.join(folder, 'offers_codes.xml'),
    commerceMl(`<ПакетПредложений СодержитТолькоИзменения="true"><Ид>p</Ид><Наименование>П</Наименование>
      <ТипыЦен><ТипЦены><Ид>c2d4f6a9-9c23-11ee-8c2a-005056b6f1a3</Ид><Наименование>Розничная</Наименование><Валюта>RUB</Валюта></ТипЦены></ТипыЦен>
      <Предложения>${offer('internal', 'Белый', '2000000012345')}${offer('carton', 'Серый', 'CARTON-12')}${offer(
        'shared-1',
        'Розовый',
        '4607001234562',
      )}${offer('shared-2', 'Голубой', '4607001234562')}</Предложения></ПакетПредложений>`),
  );
  const runId = await newRun();
  await importFile(runId, 'import_codes.xml');
  await importFile(runId, 'offers_codes.xml');

  const variants = await rows<{ external_id: string; barcode: string | null }>(
    sql`select external_id, barcode from variants where external_id like 'codes-1#%' order by external_id`,
  );
  expect(variants).toEqual([
    { external_id: 'codes-1#carton', barcode: 'CARTON-12' },
    { external_id: 'codes-1#internal', barcode: '2000000012345' },
    { external_id: 'codes-1#shared-1', barcode: '4607001234562' },
    { external_id: 'codes-1#shared-2', barcode: '4607001234562' },
  ]);
  // No file failed, and no offer was refused as a row error (the stats keep errors only when there are some).
  const files = await rows<{ stage: string }>(sql`select stage from exchange_files where run_id = ${runId}`);
  expect(files.map((file) => file.stage)).not.toContain('failed');
  const [run] = await rows<{ status: string; stats: { errors?: string[]; variantsCreated: number } }>(
    sql`select status, stats from exchange_runs where id = ${runId}`,
  );
  expect(run!.status).not.toBe('failed');
  expect(run!.stats.errors ?? []).toEqual([]);
  expect(run!.stats.variantsCreated).toBe(4);
});

// Several connections only on PostgreSQL (the embedded database has one, so nothing can wait there).
(process.env.TEST_DATABASE_URL ? it : it.skip)(
  'a file’s heartbeat never waits for the apply that holds the exchange, so no beat keeps a connection',
  async () => {
    const runId = await newRun();
    await db().execute(
      sql`insert into exchange_files (run_id, name, stage, heartbeat_at) values (${runId}, 'offers.xml', 'applying', now() - interval '1 minute')`,
    );
    const repository = createExchangeCatalogueRepository(db());
    let release: () => void = () => undefined;
    const holding = new Promise<void>((resolve) => (release = resolve));
    let locked: () => void = () => undefined;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const apply = db().transaction(async (tx) => {
      expect(await createExchangeCatalogueRepository(tx).lockForApply(runId, 'offers.xml')).toBe(true);
      locked();
      await holding;
    });
    await isLocked;
    try {
      const beat = repository.heartbeat(runId, 'offers.xml').then(() => 'beat');
      const late = new Promise((resolve) => setTimeout(() => resolve('waited'), 2_000));
      expect(await Promise.race([beat, late])).toBe('beat');
      const [file] = await rows<{ fresh: boolean }>(
        sql`select heartbeat_at > now() - interval '10 seconds' as fresh from exchange_files where run_id = ${runId}`,
      );
      expect(file!.fresh).toBe(true);
    } finally {
      release();
      await apply;
    }
  },
);
