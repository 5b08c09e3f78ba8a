import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { CatalogueCache, type CachedAnswer } from './catalogue-cache';

const text = (answer: CachedAnswer | null) => answer!.body.toString('utf8');

describe('CatalogueCache', () => {
  it('loads once for concurrent and later requests, and again after invalidation', async () => {
    const cache = new CatalogueCache();
    let loads = 0;
    const load = async () => `{"n":${++loads}}`;
    const [first, second] = await Promise.all([cache.get('k', load), cache.get('k', load)]);
    expect(first).toEqual(second);
    expect(text(await cache.get('k', load))).toBe('{"n":1}');
    cache.invalidate();
    expect(text(await cache.get('k', load))).toBe('{"n":2}');
    expect(loads).toBe(2);
  });

  it('tags equal bodies equally and different bodies differently', async () => {
    const one = await new CatalogueCache().get('a', async () => '[1]');
    const same = await new CatalogueCache().get('b', async () => '[1]');
    const other = await new CatalogueCache().get('c', async () => '[2]');
    expect(one!.etag).toBe(same!.etag);
    expect(one!.etag).not.toBe(other!.etag);
  });

  it('keeps each encoding of an answer once, and every one decodes to the same JSON', async () => {
    const body = JSON.stringify(Array.from({ length: 50 }, (_, id) => ({ id, name: 'Мишка Тедди с бантом' })));
    const answer = (await new CatalogueCache().get('k', async () => body))!;
    const brotli = await answer.compressed('br');
    expect(brotliDecompressSync(brotli).toString('utf8')).toBe(body);
    expect(gunzipSync(await answer.compressed('gzip')).toString('utf8')).toBe(body);
    expect(brotli.length).toBeLessThan(answer.body.length / 4);
    expect(await answer.compressed('br')).toBe(brotli);
  });

  /** A cache of 1 MB pages, counting how often each page was loaded. */
  function megabytePages() {
    const cache = new CatalogueCache();
    const loads = new Map<string, number>();
    const read = (page: number) =>
      cache.get(`page-${page}`, async () => {
        loads.set(`page-${page}`, (loads.get(`page-${page}`) ?? 0) + 1);
        return `page-${page}`.padEnd(1024 * 1024, '.');
      });
    const loadsOf = (page: number) => loads.get(`page-${page}`);
    return { read, loadsOf };
  }

  it('keeps at most 16 MB of bodies, dropping first the oldest not read again', async () => {
    const { read, loadsOf } = megabytePages();
    for (let page = 0; page < 16; page += 1) await read(page);
    await read(0); // read again: spared
    await read(16); // 17 MB: one page must go
    await read(0);
    await read(1);
    expect(loadsOf(0)).toBe(1);
    expect(loadsOf(1)).toBe(2);
  });

  it('stays within 16 MB when every body kept was read again', async () => {
    const { read, loadsOf } = megabytePages();
    for (let page = 0; page < 16; page += 1) await read(page);
    for (let page = 0; page < 16; page += 1) await read(page);
    await read(16); // 17 MB: all are spared once, then the oldest goes
    await read(0);
    await read(1);
    expect(loadsOf(0)).toBe(2);
    expect(loadsOf(1)).toBe(1);
  });

  it('does not keep a load that was overtaken by an invalidation, a miss, or a failure', async () => {
    const cache = new CatalogueCache();
    let release!: () => void;
    const slow = cache.get('k', () => new Promise<string>((resolve) => (release = () => resolve('old'))));
    cache.invalidate();
    release();
    await slow;
    expect(text(await cache.get('k', async () => 'new'))).toBe('new');

    expect(await cache.get('missing', async () => null)).toBeNull();
    expect(text(await cache.get('missing', async () => 'found'))).toBe('found');

    await expect(cache.get('broken', async () => Promise.reject(new Error('db down')))).rejects.toThrow('db down');
    expect(text(await cache.get('broken', async () => 'recovered'))).toBe('recovered');
  });
});

describe('CatalogueCache while suspended', () => {
  it('answers fresh every time and keeps nothing, until resumed', async () => {
    const cache = new CatalogueCache();
    let loads = 0;
    const load = async () => `${++loads}`;
    await cache.get('k', load);
    cache.suspend();
    expect(text(await cache.get('k', load))).toBe('2');
    expect(text(await cache.get('k', load))).toBe('3');
    cache.resume();
    expect(text(await cache.get('k', load))).toBe('4');
    expect(text(await cache.get('k', load))).toBe('4');
  });
});
