import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** The CommerceML fixtures (test/fixtures/commerceml/README.md says what each holds). */
export const commerceMlFixture = (name: string) => path.join(__dirname, '../../fixtures/commerceml', name);

/** Every record a reader yields, its batches joined. */
export async function allRecords<Item>(batches: AsyncIterable<Item[]>): Promise<Item[]> {
  const records: Item[] = [];
  for await (const batch of batches) records.push(...batch);
  return records;
}

/** A folder of its own in the system's temporary one, for files a test writes; `remove()` after. */
export async function temporaryFolder() {
  const folder = await mkdtemp(path.join(tmpdir(), 'commerceml-'));
  return {
    folder,
    /** Writes `contents` (text as UTF-8, or bytes) to `name` in the folder and returns its path. */
    async file(name: string, contents: string | Buffer) {
      const file = path.join(folder, name);
      await writeFile(file, contents);
      return file;
    },
    remove: () => rm(folder, { recursive: true, force: true }),
  };
}

const HEADER =
  '<?xml version="1.0" encoding="UTF-8"?>\n<КоммерческаяИнформация xmlns="urn:1C.ru:commerceml_2" ВерсияСхемы="2.10" ДатаФормирования="2026-11-27T14:05:12">\n';
const FOOTER = '</КоммерческаяИнформация>\n';

/** A CommerceML file of `body` under the root, as 1С writes its header. */
export const commerceMl = (body: string) => `${HEADER}${body}\n${FOOTER}`;

/** The Ид of the `index`th generated product (a GUID's shape, as 1С's are). */
export const generatedProductId = (index: number) =>
  `${index.toString(16).padStart(8, '0')}-9c20-11ee-8c2a-005056b6f1a3`;

/**
 * Writes an import.xml of at least `bytes` bytes to `file`, streamed (never whole in memory): a
 * Классификатор of one group, then products of about 1 KB each. Returns how many products it holds.
 */
export async function writeLargeImport(file: string, bytes: number): Promise<number> {
  const out = createWriteStream(file);
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  await write(
    `${HEADER}<Классификатор><Ид>cl</Ид><Наименование>Классификатор</Наименование><Группы><Группа><Ид>g1</Ид><Наименование>Мишки</Наименование></Группа></Группы></Классификатор>\n<Каталог СодержитТолькоИзменения="false"><Ид>cat</Ид><Наименование>Каталог</Наименование><Товары>\n`,
  );
  const description = 'Мягкая игрушка из плюша, наполнитель — холлофайбер. '.repeat(12);
  let written = 0;
  let count = 0;
  while (written < bytes) {
    const product = `<Товар><Ид>${generatedProductId(count)}</Ид><Артикул>MO-${count}</Артикул><Наименование>Мишка №${count}</Наименование><БазоваяЕдиница Код="796">шт</БазоваяЕдиница><Группы><Ид>g1</Ид></Группы><Описание>${description}</Описание><Картинка>import_files/${count}.jpg</Картинка></Товар>\n`;
    await write(product);
    written += Buffer.byteLength(product);
    count += 1;
  }
  await write(`</Товары></Каталог>\n${FOOTER}`);
  out.end();
  await once(out, 'finish');
  return count;
}
