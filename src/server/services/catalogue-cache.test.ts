import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import {
  CatalogueCache,
  ENCODING_OVERHEAD_BYTES,
  entryCost,
  type CachedAnswer,
  type CatalogueCacheLimits,
  type Loaded,
} from './catalogue-cache';

/** Answers kept and what they cost, as the limits count them. */
function usage(cache: CatalogueCache) {
  const { entries, bytes } = cache.stats();
  return { entries, bytes };
}

const text = (answer: CachedAnswer | null) => answer!.body.toString('utf8');
const kept = (body: string): Loaded => ({ body, keep: 'yes' });
const MB = 1024 * 1024;
const roomy = (): CatalogueCacheLimits => ({ maxEntries: 2000, maxBytes: 16 * MB });

/** A cache whose loads answer `body(key)` and are counted per key. */
function counted(limits: CatalogueCacheLimits, body: (key: string) => Loaded = (key) => kept(`"${key}"`)) {
  const cache = new CatalogueCache(limits);
  const loads = new Map<string, number>();
  const read = (key: string) =>
    cache.get(key, async () => {
      loads.set(key, (loads.get(key) ?? 0) + 1);
      return body(key);
    });
  return { cache, read, loadsOf: (key: string) => loads.get(key) ?? 0 };
}

describe('CatalogueCache', () => {
  it('loads once for concurrent and later requests, and again after invalidation', async () => {
    const cache = new CatalogueCache(roomy());
    let loads = 0;
    const load = async () => kept(`{"n":${++loads}}`);
    const [first, second] = await Promise.all([cache.get('k', load), cache.get('k', load)]);
    expect(first).toBe(second);
    expect(text(await cache.get('k', load))).toBe('{"n":1}');
    cache.invalidate();
    expect(text(await cache.get('k', load))).toBe('{"n":2}');
    expect(loads).toBe(2);
  });

  it('tags equal bodies equally and different bodies differently', async () => {
    const one = await new CatalogueCache(roomy()).get('a', async () => kept('[1]'));
    const same = await new CatalogueCache(roomy()).get('b', async () => kept('[1]'));
    const other = await new CatalogueCache(roomy()).get('c', async () => kept('[2]'));
    expect(one!.etag).toBe(same!.etag);
    expect(one!.etag).not.toBe(other!.etag);
  });

  it('keeps each encoding of an answer once, and every one decodes to the same JSON', async () => {
    const body = JSON.stringify(Array.from({ length: 50 }, (_, id) => ({ id, name: 'Мишка Тедди с бантом' })));
    const answer = (await new CatalogueCache(roomy()).get('k', async () => kept(body)))!;
    const brotli = await answer.compressed('br');
    expect(brotliDecompressSync(brotli).toString('utf8')).toBe(body);
    expect(gunzipSync(await answer.compressed('gzip')).toString('utf8')).toBe(body);
    expect(brotli.length).toBeLessThan(answer.body.length / 4);
    expect(await answer.compressed('br')).toBe(brotli);
  });

  it('hands a kept answer and its made encodings over at once, counting the hit', async () => {
    const cache = new CatalogueCache(roomy());
    expect(cache.peek('k')).toBeUndefined();
    const answer = (await cache.get('k', async () => kept('{"n":1}')))!;
    expect(cache.peek('k')).toBe(answer);
    expect(cache.stats()).toMatchObject({ hits: 1, misses: 1 });
    expect(answer.compressedNow('gzip')).toBeUndefined();
    const gzipped = answer.compressed('gzip');
    expect(answer.compressedNow('gzip')).toBeUndefined();
    const bytes = await gzipped;
    expect(answer.compressedNow('gzip')).toBe(bytes);
    expect(answer.compressedNow('br')).toBeUndefined();
    cache.invalidate();
    expect(cache.peek('k')).toBeUndefined();
  });

  it('keeps short bodies out of Node’s shared Buffer pool, so that a kept answer holds only its own bytes', async () => {
    const answer = (await new CatalogueCache(roomy()).get('k', async () => kept('[]')))!;
    expect(answer.body.buffer.byteLength).toBe(2);
    expect((await answer.compressed('gzip')).buffer.byteLength).toBeLessThan(100);
  });
});

describe('CatalogueCache bounds', () => {
  /** 1 MB pages, under keys of one length, and a budget of exactly 16 of them. */
  const pageKey = (page: number) => `page-${String(page).padStart(2, '0')}`;
  const pageBody = (key: string) => kept(key.padEnd(MB, '.'));
  const sixteenPages = () =>
    counted(
      { maxEntries: 2000, maxBytes: 16 * entryCost(pageKey(0), Buffer.from(pageBody(pageKey(0)).body)) },
      pageBody,
    );

  it('counts an answer as its key, body and a measured overhead, not its body alone', async () => {
    const { cache, read } = counted(roomy(), () => kept('[]'));
    await read('list:1000:10');
    expect(usage(cache)).toEqual({ entries: 1, bytes: entryCost('list:1000:10', Buffer.from('[]')) });
    expect(usage(cache).bytes).toBeGreaterThan(1000);
  });

  it('keeps at most its byte budget, dropping first the oldest not read again', async () => {
    const { cache, read, loadsOf } = sixteenPages();
    for (let page = 0; page < 16; page += 1) await read(pageKey(page));
    expect(usage(cache).entries).toBe(16);
    await read(pageKey(0)); // read again: spared
    await read(pageKey(16)); // one page over: one must go
    expect(usage(cache).entries).toBe(16);
    await read(pageKey(0));
    await read(pageKey(1));
    expect(loadsOf(pageKey(0))).toBe(1);
    expect(loadsOf(pageKey(1))).toBe(2);
  });

  it('stays within its byte budget when every answer kept was read again', async () => {
    const { read, loadsOf } = sixteenPages();
    for (let page = 0; page < 16; page += 1) await read(pageKey(page));
    for (let page = 0; page < 16; page += 1) await read(pageKey(page));
    await read(pageKey(16)); // all are spared once, then the oldest goes
    await read(pageKey(0));
    await read(pageKey(1));
    expect(loadsOf(pageKey(0))).toBe(2);
    expect(loadsOf(pageKey(1))).toBe(1);
  });

  it('keeps at most its number of answers, however small, in least-recently-read order', async () => {
    const { cache, read, loadsOf } = counted({ maxEntries: 3, maxBytes: 16 * MB });
    for (const key of ['a', 'b', 'c']) await read(key);
    await read('a'); // read again: spared once
    await read('d'); // a fourth: b, the oldest not read again, goes
    expect(usage(cache).entries).toBe(3);
    for (const key of ['a', 'c', 'd']) await read(key);
    expect([loadsOf('a'), loadsOf('c'), loadsOf('d')]).toEqual([1, 1, 1]);
    await read('b');
    expect(loadsOf('b')).toBe(2);
  });

  it('counts each encoding as it is made, and drops older answers when that goes over the budget', async () => {
    const body = JSON.stringify(Array.from({ length: 200 }, (_, id) => ({ id, note: `${id}`.repeat(id % 7) })));
    const budget = 2 * entryCost('a', Buffer.from(body));
    const { cache, read, loadsOf } = counted({ maxEntries: 10, maxBytes: budget + 100 }, () => kept(body));
    await read('a');
    const second = (await read('b'))!;
    expect(usage(cache)).toEqual({ entries: 2, bytes: budget });
    const gzipped = await second.compressed('gzip');
    expect(usage(cache)).toEqual({
      entries: 1,
      bytes: entryCost('b', Buffer.from(body)) + ENCODING_OVERHEAD_BYTES + gzipped.length,
    });
    await read('a');
    expect(loadsOf('a')).toBe(2);
  });

  it('does not keep an answer that alone costs more than the whole budget', async () => {
    const { cache, read, loadsOf } = counted({ maxEntries: 10, maxBytes: 4096 }, (key) =>
      kept(key === 'big' ? 'x'.repeat(4096) : '[]'),
    );
    await read('small');
    await read('big');
    await read('big');
    expect(loadsOf('big')).toBe(2);
    expect(usage(cache).entries).toBe(1);
  });

  it('after 100 000 distinct answers, holds no more than its limits', async () => {
    const limits = { maxEntries: 500, maxBytes: 600 * 1024 };
    const { cache, read } = counted(limits, (key) => kept(`[${'1,'.repeat(key.length * 20)}1]`));
    for (let index = 0; index < 100_000; index += 1) {
      await read(`list:${index}:${index % 100}`);
      if (index % 10_000 === 0) {
        expect(usage(cache).entries).toBeLessThanOrEqual(limits.maxEntries);
        expect(usage(cache).bytes).toBeLessThanOrEqual(limits.maxBytes);
      }
    }
    expect(usage(cache).entries).toBeLessThanOrEqual(limits.maxEntries);
    expect(usage(cache).bytes).toBeLessThanOrEqual(limits.maxBytes);
    expect(usage(cache).entries).toBeGreaterThan(0);
  });
});

describe('CatalogueCache: answers not worth keeping', () => {
  it('does not keep a load that was overtaken by an invalidation, a miss, or a failure', async () => {
    const cache = new CatalogueCache(roomy());
    let release!: () => void;
    const slow = cache.get('k', () => new Promise<Loaded>((resolve) => (release = () => resolve(kept('old')))));
    cache.invalidate();
    release();
    await slow;
    expect(text(await cache.get('k', async () => kept('new')))).toBe('new');

    expect(await cache.get('missing', async () => null)).toBeNull();
    expect(text(await cache.get('missing', async () => kept('found')))).toBe('found');

    await expect(cache.get('broken', async () => Promise.reject(new Error('db down')))).rejects.toThrow('db down');
    expect(text(await cache.get('broken', async () => kept('recovered')))).toBe('recovered');
  });

  it('does not keep an answer its route says is not worth it (an empty page past the end), but shares its load', async () => {
    const { cache, read, loadsOf } = counted(roomy(), () => ({ body: '[]', keep: 'no' }));
    const [first, second] = await Promise.all([read('list:5000:10'), read('list:5000:10')]);
    expect(first).toBe(second);
    await read('list:5000:10');
    expect(loadsOf('list:5000:10')).toBe(2);
    expect(usage(cache)).toEqual({ entries: 0, bytes: 0 });
  });

  it('keeps a rare answer only when its key is asked for again, and still after an invalidation', async () => {
    const { cache, read, loadsOf } = counted(roomy(), (key) => ({ body: `"${key}"`, keep: 'asked-again' }));
    await read('search:мишка');
    expect(usage(cache).entries).toBe(0);
    await read('search:мишка'); // asked again: kept
    await read('search:мишка');
    expect(loadsOf('search:мишка')).toBe(2);

    cache.invalidate();
    await read('search:мишка'); // known: kept at once
    await read('search:мишка');
    expect(loadsOf('search:мишка')).toBe(3);
  });

  it('remembers only as many rare keys as it keeps answers', async () => {
    const { cache, read, loadsOf } = counted({ maxEntries: 100, maxBytes: 16 * MB }, (key) => ({
      body: `"${key}"`,
      keep: 'asked-again',
    }));
    await read('first');
    for (let index = 0; index < 100; index += 1) await read(`other-${index}`);
    await read('first'); // forgotten meanwhile: asked once again
    await read('first');
    expect(loadsOf('first')).toBe(3);
    expect(usage(cache).entries).toBe(1);
  });

  it('a storm of 100 000 queries each asked once keeps nothing and drops nothing that was kept', async () => {
    const { cache, read, loadsOf } = counted({ maxEntries: 100, maxBytes: 16 * MB }, (key) =>
      key === 'popular' ? kept('[1]') : { body: '[]', keep: key.startsWith('search') ? 'asked-again' : 'no' },
    );
    await read('popular');
    for (let index = 0; index < 50_000; index += 1) {
      await read(`search:${index}`);
      await read(`list:${1000 + index}:10`);
    }
    await read('popular');
    expect(loadsOf('popular')).toBe(1);
    expect(usage(cache).entries).toBe(1);
  });
});

describe('CatalogueCache while suspended', () => {
  it('answers fresh every time and keeps nothing, until resumed', async () => {
    const cache = new CatalogueCache(roomy());
    let loads = 0;
    const load = async () => kept(`${++loads}`);
    await cache.get('k', load);
    cache.suspend();
    expect(text(await cache.get('k', load))).toBe('2');
    expect(text(await cache.get('k', load))).toBe('3');
    cache.resume();
    expect(text(await cache.get('k', load))).toBe('4');
    expect(text(await cache.get('k', load))).toBe('4');
  });
});
