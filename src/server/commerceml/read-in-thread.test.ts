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

  test('a 50 MB import.xml is streamed with the heap bounded; leaving the loop ends the thread and closes the file', async () => {
    const file = path.join(temporary.folder, 'import.xml');
    const size = 50 * 1024 * 1024;
    const products = await writeLargeImport(file, size);

    // A first thread costs the process its loader and isolate (some 40 MB, once): started before measuring.
    await allRecords(readInThread('import', commerceMlFixture('import.xml'), 'import.xml'));
    const threadsBefore = await threadCount();
    const before = process.memoryUsage();
    let peakHeap = before.heapUsed;
    let peakRss = before.rss;
    let read = 0;
    for await (const batch of readInThread('import', file, 'import.xml')) {
      read += batch.filter((record) => record.kind === 'product').length;
      const now = process.memoryUsage();
      peakHeap = Math.max(peakHeap, now.heapUsed);
      peakRss = Math.max(peakRss, now.rss);
    }
    expect(read).toBe(products);
    // This thread holds a batch or two at a time (measured: 2–11 MB alone, 24 MB under a full CI
    // run's load, when collections come later), the process as a whole adds the reading thread's
    // chunk and batch to it (measured: 5–25 MB), whatever the file's size.
    expect(peakHeap - before.heapUsed).toBeLessThan(32 * 1024 * 1024);
    expect(peakRss - before.rss).toBeLessThan(40 * 1024 * 1024);

    for await (const batch of readInThread('import', file, 'import.xml')) {
      expect(batch.length).toBeGreaterThan(0);
      expect(await isOpen(file)).toBe(true);
      break;
    }
    expect(await isOpen(file)).toBe(false);
    expect(await threadCount()).toBeLessThanOrEqual(threadsBefore);
  });
});
