import { readdir, readlink } from 'node:fs/promises';
import path from 'node:path';
import {
  allRecords,
  commerceMlFixture,
  temporaryFolder,
  writeLargeImport,
} from '../../../test/server/helpers/commerceml';
import { readImportFile } from './read-import';
import { readInThread } from './read-in-thread';
import { readOffersFile } from './read-offers';
import { readOrdersFile } from './read-orders';
import { CommerceMlError } from './records';

// A thread starts tsx's loader from the sources (a second or two); the large file takes longer.
jest.setTimeout(180_000);

/** Whether this process holds the file at `file` open (Linux's /proc lists each descriptor). */
async function isOpen(file: string): Promise<boolean> {
  const descriptors = await readdir('/proc/self/fd');
  const targets = await Promise.all(descriptors.map((fd) => readlink(`/proc/self/fd/${fd}`).catch(() => '')));
  return targets.includes(file);
}

/** The threads this process runs now (Linux's /proc). */
const threadCount = async () => (await readdir('/proc/self/task')).length;

let temporary: Awaited<ReturnType<typeof temporaryFolder>>;
beforeAll(async () => {
  temporary = await temporaryFolder();
});
afterAll(() => temporary.remove());

describe('readInThread', () => {
  test('each kind yields, from its thread, what its reader yields in this one', async () => {
    const cases = [
      ['import', 'import.xml', readImportFile],
      ['import', 'import_cp1251.xml', readImportFile],
      ['offers', 'offers.xml', readOffersFile],
      ['orders', 'orders_from_1c.xml', readOrdersFile],
    ] as const;
    for (const [kind, name, reader] of cases) {
      const inThread = await allRecords<unknown>(readInThread(kind, commerceMlFixture(name), name));
      expect(inThread.length).toBeGreaterThan(0);
      expect(inThread).toEqual(await allRecords<unknown>(reader(commerceMlFixture(name), name)));
    }
  });

  test('a refused file arrives as a CommerceMlError with its file and line', async () => {
    const error = await allRecords(readInThread('import', commerceMlFixture('broken.xml'), 'broken.xml')).catch(
      (e) => e,
    );
    expect(error).toBeInstanceOf(CommerceMlError);
    expect(error).toMatchObject({ file: 'broken.xml', line: 11, reason: expect.stringMatching(/^XML не разобран/) });
  });

  test('a 50 MB import.xml is streamed by a thread whose heap is a fraction of it; leaving the loop ends the thread and closes the file', async () => {
    const file = path.join(temporary.folder, 'import.xml');
    const size = 50 * 1024 * 1024;
    const products = await writeLargeImport(file, size);
    const threadsBefore = await threadCount();

    // The file as a string would be some 100 MB of UTF-16: a thread that held it, or its records,
    // would die out of memory in 32 MB. The process's own heap is the bench's to measure
    // (`npm run bench -- exchange`): here it would follow the garbage collector's timing.
    let read = 0;
    for await (const batch of readInThread('import', file, 'import.xml', 32)) {
      read += batch.filter((record) => record.kind === 'product').length;
    }
    expect(read).toBe(products);

    for await (const batch of readInThread('import', file, 'import.xml')) {
      expect(batch.length).toBeGreaterThan(0);
      expect(await isOpen(file)).toBe(true);
      break;
    }
    expect(await isOpen(file)).toBe(false);
    expect(await threadCount()).toBeLessThanOrEqual(threadsBefore);
  });
});
