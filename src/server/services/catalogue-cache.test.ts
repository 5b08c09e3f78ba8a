import { CatalogueCache } from './catalogue-cache';

describe('CatalogueCache', () => {
  it('loads once for concurrent and later requests, and again after invalidation', async () => {
    const cache = new CatalogueCache();
    let loads = 0;
    const load = async () => `{"n":${++loads}}`;
    const [first, second] = await Promise.all([cache.get('k', load), cache.get('k', load)]);
    expect(first).toEqual(second);
    expect((await cache.get('k', load))!.body).toBe('{"n":1}');
    cache.invalidate();
    expect((await cache.get('k', load))!.body).toBe('{"n":2}');
    expect(loads).toBe(2);
  });

  it('tags equal bodies equally and different bodies differently', async () => {
    const one = await new CatalogueCache().get('a', async () => '[1]');
    const same = await new CatalogueCache().get('b', async () => '[1]');
    const other = await new CatalogueCache().get('c', async () => '[2]');
    expect(one!.etag).toBe(same!.etag);
    expect(one!.etag).not.toBe(other!.etag);
  });

  it('does not keep a load that was overtaken by an invalidation, a miss, or a failure', async () => {
    const cache = new CatalogueCache();
    let release!: () => void;
    const slow = cache.get('k', () => new Promise<string>((resolve) => (release = () => resolve('old'))));
    cache.invalidate();
    release();
    await slow;
    expect((await cache.get('k', async () => 'new'))!.body).toBe('new');

    expect(await cache.get('missing', async () => null)).toBeNull();
    expect((await cache.get('missing', async () => 'found'))!.body).toBe('found');

    await expect(cache.get('broken', async () => Promise.reject(new Error('db down')))).rejects.toThrow('db down');
    expect((await cache.get('broken', async () => 'recovered'))!.body).toBe('recovered');
  });
});

describe('CatalogueCache while suspended', () => {
  it('answers fresh every time and keeps nothing, until resumed', async () => {
    const cache = new CatalogueCache();
    let loads = 0;
    const load = async () => `${++loads}`;
    await cache.get('k', load);
    cache.suspend();
    expect((await cache.get('k', load))!.body).toBe('2');
    expect((await cache.get('k', load))!.body).toBe('3');
    cache.resume();
    expect((await cache.get('k', load))!.body).toBe('4');
    expect((await cache.get('k', load))!.body).toBe('4');
  });
});
