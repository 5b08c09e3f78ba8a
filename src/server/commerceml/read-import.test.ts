import {
  allRecords,
  commerceMl,
  commerceMlFixture,
  generatedProductId,
  temporaryFolder,
} from '../../../test/server/helpers/commerceml';
import { readImportFile } from './read-import';
import { CommerceMlError, type ImportRecord, type ProductRecord } from './records';
import { BATCH_RECORDS, MAX_DEPTH, MAX_TEXT_CHARS } from './xml-reader';

const readImport = (name: string) => allRecords(readImportFile(commerceMlFixture(name), name));

let temporary: Awaited<ReturnType<typeof temporaryFolder>>;
beforeAll(async () => {
  temporary = await temporaryFolder();
});
afterAll(() => temporary.remove());

/** The error reading `contents` as an import.xml ends with (null: none). */
async function refusalOf(contents: string | Buffer): Promise<CommerceMlError | null> {
  const file = await temporary.file('import.xml', contents);
  try {
    await allRecords(readImportFile(file, 'import.xml'));
    return null;
  } catch (error) {
    if (error instanceof CommerceMlError) return error;
    throw error;
  }
}

const product = (overrides: Partial<ProductRecord>): ProductRecord => ({
  kind: 'product',
  id: '',
  article: '',
  name: '',
  description: '',
  descriptionIsHtml: false,
  groupIds: [],
  pictures: [],
  barcode: '',
  characteristics: [],
  requisites: [],
  properties: [],
  unitCoefficient: null,
  deleted: false,
  ...overrides,
});

const TOYS = '3a8f0d52-9c1e-11ee-8c2a-005056b6f1a3';
const BEARS = '3a8f0d53-9c1e-11ee-8c2a-005056b6f1a3';
const HARES = '3a8f0d54-9c1e-11ee-8c2a-005056b6f1a3';
const PILLOWS = '3a8f0d55-9c1e-11ee-8c2a-005056b6f1a3';

describe('readImportFile', () => {
  test('import.xml: the nested groups, the catalogue’s header and every product, each field as 1С wrote it', async () => {
    const records = await readImport('import.xml');
    expect(records).toEqual<ImportRecord[]>([
      { kind: 'group', id: TOYS, name: 'Мягкие игрушки', parentId: null, path: ['Мягкие игрушки'] },
      { kind: 'group', id: BEARS, name: 'Мишки', parentId: TOYS, path: ['Мягкие игрушки', 'Мишки'] },
      { kind: 'group', id: HARES, name: 'Зайцы', parentId: TOYS, path: ['Мягкие игрушки', 'Зайцы'] },
      { kind: 'group', id: PILLOWS, name: 'Подушки', parentId: null, path: ['Подушки'] },
      { kind: 'catalogue', id: '7c5e1a2b-3f4d-11ee-9a1b-005056a1c2d3', changesOnly: false },
      product({
        id: 'd1a5e6f0-9c20-11ee-8c2a-005056b6f1a3',
        article: 'MO-2001',
        name: 'Мишка Тедди 30 см',
        description: 'Мягкий мишка с бантом, наполнитель — холлофайбер.',
        groupIds: [BEARS],
        pictures: [
          'import_files/d1/d1a5e6f09c2011ee8c2a005056b6f1a3_a7c3e2b09c2111ee8c2a005056b6f1a3.jpg',
          'import_files/d1/d1a5e6f09c2011ee8c2a005056b6f1a3_a7c3e2b19c2111ee8c2a005056b6f1a3.jpg',
        ],
        barcode: '4601234567893',
        characteristics: [{ name: 'Рост, см', value: '30' }],
        requisites: [
          { name: 'ВидНоменклатуры', value: 'Мягкая игрушка' },
          { name: 'ТипНоменклатуры', value: 'Товар' },
          { name: 'Полное наименование', value: 'Игрушка мягкая «Мишка Тедди», 30 см' },
        ],
        // «Материал» is a Справочник: its ИдЗначения resolved to the value's name.
        properties: [
          { name: 'Материал', value: 'Плюш' },
          { name: 'Страна производства', value: 'Россия' },
        ],
      }),
      product({
        id: 'd1a5e6f1-9c20-11ee-8c2a-005056b6f1a3',
        article: 'MO-2002',
        name: 'Зайка Ушастик',
        description: '<p>Зайка с <b>длинными</b> ушами & морковкой</p>',
        descriptionIsHtml: true,
        groupIds: [HARES],
        pictures: ['import_files/d1/d1a5e6f19c2011ee8c2a005056b6f1a3_a7c3e2b29c2111ee8c2a005056b6f1a3.png'],
        requisites: [{ name: 'ВидНоменклатуры', value: 'Мягкая игрушка' }],
        properties: [{ name: 'Материал', value: 'Велюр' }],
        unitCoefficient: 6,
      }),
      product({ id: 'd1a5e6f2-9c20-11ee-8c2a-005056b6f1a3', name: 'Подушка-облако', groupIds: [PILLOWS] }),
      product({
        id: 'd1a5e6f3-9c20-11ee-8c2a-005056b6f1a3',
        article: 'MO-2004',
        name: 'Мишка Бурый (снят с производства)',
        groupIds: [BEARS],
        deleted: true,
      }),
      product({
        id: 'd1a5e6f4-9c20-11ee-8c2a-005056b6f1a3',
        article: 'MO-2001',
        name: 'Мишка Тедди 30 см (дубль)',
        groupIds: [BEARS],
      }),
    ]);
  });

  test('a windows-1251 file is read in its declared encoding; the element form of СодержитТолькоИзменения counts', async () => {
    const records = await readImport('import_cp1251.xml');
    expect(records).toEqual<ImportRecord[]>([
      {
        kind: 'group',
        id: '4c6e8a01-1a3c-11eb-9f2e-00155d0a1b2c',
        name: 'Ёлочные игрушки',
        parentId: null,
        path: ['Ёлочные игрушки'],
      },
      { kind: 'catalogue', id: '2b4d6f80-1a3c-11eb-9f2e-00155d0a1b2c', changesOnly: true },
      product({
        id: '8e0a2c41-1a3d-11eb-9f2e-00155d0a1b2c',
        article: 'МО-Ёж-01',
        name: 'Ёжик «Колючка» — 15 см',
        description: 'Щётка-ёжик из мягкого плюша; №1 в подарок',
        groupIds: ['4c6e8a01-1a3c-11eb-9f2e-00155d0a1b2c'],
      }),
    ]);
  });

  test('a UTF-8 file with a byte order mark, and Статус="Удален" on a product', async () => {
    const file = await temporary.file(
      'bom.xml',
      Buffer.concat([
        Buffer.from([0xef, 0xbb, 0xbf]),
        Buffer.from(
          commerceMl(
            '<Каталог><Ид>c</Ид><Товары><Товар Статус="Удален"><Ид>p1</Ид><Наименование>Ёжик</Наименование></Товар></Товары></Каталог>',
          ),
        ),
      ]),
    );
    expect(await allRecords(readImportFile(file, 'bom.xml'))).toEqual([
      { kind: 'catalogue', id: 'c', changesOnly: false },
      product({ id: 'p1', name: 'Ёжик', deleted: true }),
    ]);
  });

  test('broken.xml is refused with its name and the line where the XML breaks', async () => {
    const error = await allRecords(readImportFile(commerceMlFixture('broken.xml'), 'broken.xml')).catch((e) => e);
    expect(error).toBeInstanceOf(CommerceMlError);
    expect(error).toMatchObject({ file: 'broken.xml', line: 11 });
    expect(error.reason).toMatch(/^XML не разобран: /);
    expect(error.message).toMatch(/^broken\.xml, строка 11: XML не разобран/);
  });

  test('a file whose root is not КоммерческаяИнформация is refused', async () => {
    const error = await refusalOf('<?xml version="1.0"?>\n<Каталог><Ид>c</Ид></Каталог>');
    expect(error).toMatchObject({ line: 2, reason: expect.stringContaining('КоммерческаяИнформация') });
  });

  test('a text field longer than the cap is refused; one at the cap is read', async () => {
    const withName = (length: number) =>
      commerceMl(
        `<Каталог><Ид>c</Ид><Товары><Товар><Ид>p</Ид><Наименование>${'я'.repeat(length)}</Наименование></Товар></Товары></Каталог>`,
      );
    expect(await refusalOf(withName(MAX_TEXT_CHARS))).toBeNull();
    const error = await refusalOf(withName(MAX_TEXT_CHARS + 1));
    expect(error).toMatchObject({ line: 3, reason: `текст длиннее ${MAX_TEXT_CHARS} символов` });
  });

  test('an attribute or comment longer than twice the cap is refused too, before it is whole', async () => {
    const error = await refusalOf(
      commerceMl(`<Каталог Описание="${'я'.repeat(3 * MAX_TEXT_CHARS)}"><Ид>c</Ид></Каталог>`),
    );
    expect(error?.reason).toBe(`текст длиннее ${MAX_TEXT_CHARS} символов`);
  });

  test('elements nested deeper than the cap are refused', async () => {
    const nested = (depth: number) => `${'<a>'.repeat(depth)}${'</a>'.repeat(depth)}`;
    // The root is one level: MAX_DEPTH - 1 more are allowed.
    expect(await refusalOf(commerceMl(nested(MAX_DEPTH - 1)))).toBeNull();
    expect(await refusalOf(commerceMl(nested(MAX_DEPTH)))).toMatchObject({
      reason: `элементы вложены глубже ${MAX_DEPTH} уровней`,
    });
  });

  test('a file that is not there is refused by name', async () => {
    const error = await allRecords(readImportFile(`${temporary.folder}/none.xml`, 'none.xml')).catch((e) => e);
    expect(error).toMatchObject({ file: 'none.xml', line: null, reason: 'файл не найден' });
  });

  test('records come in batches of at most BATCH_RECORDS, in the file’s order', async () => {
    const count = 2 * BATCH_RECORDS + 7;
    const products = Array.from(
      { length: count },
      (_, index) => `<Товар><Ид>${generatedProductId(index)}</Ид><Наименование>Мишка ${index}</Наименование></Товар>`,
    ).join('\n');
    const file = await temporary.file(
      'many.xml',
      commerceMl(`<Каталог><Ид>c</Ид><Товары>${products}</Товары></Каталог>`),
    );
    const sizes: number[] = [];
    const ids: string[] = [];
    for await (const batch of readImportFile(file, 'many.xml')) {
      sizes.push(batch.length);
      for (const record of batch) if (record.kind === 'product') ids.push(record.id);
    }
    expect(Math.max(...sizes)).toBeLessThanOrEqual(BATCH_RECORDS);
    expect(sizes.reduce((sum, size) => sum + size, 0)).toBe(count + 1);
    expect(ids).toEqual(Array.from({ length: count }, (_, index) => generatedProductId(index)));
  });
});
