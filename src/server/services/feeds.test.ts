// The feeds' files as several server processes share them: two FeedFiles over one database and
// one FEED_DIR stand for two processes.
import { readdir, rm, utimes } from 'node:fs/promises';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { feedFiles } from '../db/schema';
import { createFeedsRepository } from '../repositories/feeds';
import { createTestApp, STARTUP_TIMEOUT, type TestApp } from '../../../test/server/helpers/test-app';
import { companyTypeFeed, FeedFiles, visitorsFeed, type FeedKind } from './feeds';

const ORIGIN = 'https://shop.example';
const HOUR_SECONDS = 3600;

let shop: TestApp;
let processes: [FeedFiles, FeedFiles];

beforeAll(async () => {
  shop = await createTestApp();
  const options = { dir: shop.config.feeds.dir, refreshSeconds: HOUR_SECONDS, log: shop.app.log };
  processes = [new FeedFiles(shop.app.database.db, options), new FeedFiles(shop.app.database.db, options)];
}, STARTUP_TIMEOUT);
afterAll(async () => {
  await Promise.all(processes.map((feeds) => feeds.stop()));
  await shop.close();
});

/** The feed's file as `feeds` serves it (closed again), or null while it is pending. */
async function servedBy(feeds: FeedFiles, kind: FeedKind, waitMs = 30_000) {
  const file = await feeds.file(kind, ORIGIN, waitMs);
  if (!file.ready) return null;
  await file.handle.close();
  return { name: file.name, builtAt: file.builtAt };
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

test('two processes asking for a feed never built at once build it once, and serve the same file', async () => {
  const kind = companyTypeFeed((await shop.app.repositories.priceTypes.catalogueTypes()).defaultTypeId);
  const [first, second] = await Promise.all(processes.map((feeds) => servedBy(feeds, kind)));
  expect(first).not.toBeNull();
  expect(second?.name).toBe(first!.name);
  const files = (await readdir(shop.config.feeds.dir)).filter((name) => name.startsWith(kind.key));
  expect(files).toEqual([first!.name]);
});

/** Moves the feed's last build two hours back: its rebuild is due. */
const builtLongAgo = (key: string) =>
  shop.app.database.db
    .update(feedFiles)
    .set({ builtAt: sql`${feedFiles.builtAt} - interval '2 hours'` })
    .where(eq(feedFiles.key, key));

test('a change within the refresh interval serves the file built before; once it has passed, a new one', async () => {
  const [one, other] = processes;
  const kind = visitorsFeed(await shop.app.priceViews.forVisitor());
  const before = (await servedBy(one, kind))!;
  const feeds = createFeedsRepository(shop.app.database.db);
  one.catalogueChanged();
  const row = await until(
    () => feeds.file(kind.key),
    (current) => current !== null && current.changedAt > current.builtAt!,
  );
  expect(row!.changedAt.getTime()).toBeGreaterThan(row!.builtAt!.getTime());
  // Out of date, but built less than FEED_REFRESH_SECONDS ago: both processes serve the old file.
  expect((await servedBy(other, kind))!.name).toBe(before.name);
  expect((await servedBy(one, kind))!.name).toBe(before.name);

  await builtLongAgo(kind.key);
  other.schedule();
  const after = await until(
    () => servedBy(other, kind),
    (file) => file !== null && file.name !== before.name,
  );
  expect(after!.name).not.toBe(before.name);
  expect(after!.builtAt.getTime()).toBeGreaterThan(row!.builtAt!.getTime() - 2 * HOUR_SECONDS * 1000);
});

test('a kind nobody can be served any more is forgotten rather than rebuilt', async () => {
  // No company has a feed address: the default type's company feed built above serves nobody.
  const [one] = processes;
  const kind = companyTypeFeed((await shop.app.repositories.priceTypes.catalogueTypes()).defaultTypeId);
  const feeds = createFeedsRepository(shop.app.database.db);
  expect(await feeds.file(kind.key)).not.toBeNull();
  one.catalogueChanged();
  await until(
    () => feeds.file(kind.key),
    (row) => row !== null && row.changedAt > row.builtAt!,
  );
  await builtLongAgo(kind.key);
  one.schedule();
  expect(
    await until(
      () => feeds.file(kind.key),
      (row) => row === null,
    ),
  ).toBeNull();
  // The visitors' feed, which is served, is still there.
  expect(await feeds.file(visitorsFeed(await shop.app.priceViews.forVisitor()).key)).not.toBeNull();
});

/** A FeedFiles like the processes above but whose builds fail: its directory cannot be made. */
const failingProcess = () =>
  new FeedFiles(shop.app.database.db, { dir: '/dev/null/feeds', refreshSeconds: HOUR_SECONDS, log: shop.app.log });

test('a failed build is tried again only after a backoff that doubles, the request answered at once', async () => {
  const failing = failingProcess();
  const kind = companyTypeFeed(900_001);
  const feeds = createFeedsRepository(shop.app.database.db);
  const errors = jest.spyOn(shop.app.log, 'error');
  try {
    expect(await failing.file(kind, ORIGIN, 30_000)).toEqual({ ready: false, failed: true, retryAfterSeconds: 60 });
    const row = (await feeds.file(kind.key))!;
    expect(row).toMatchObject({ failures: 1, building: false, file: null });
    expect(row.leaseUntil!.getTime() - Date.now()).toBeGreaterThan(50_000);
    // No build runs again meanwhile, neither scheduled nor for the next request, which is told how long to wait.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const again = await failing.file(kind, ORIGIN, 30_000);
    expect(again).toMatchObject({ ready: false, failed: true });
    expect(again.ready ? 0 : again.retryAfterSeconds).toBeLessThanOrEqual(60);
    expect((await feeds.file(kind.key))!.failures).toBe(1);
    expect(errors.mock.calls.filter(([, message]) => message === 'feed not built')).toHaveLength(1);

    // Once the backoff is over, the next failure waits twice as long.
    await shop.app.database.db
      .update(feedFiles)
      .set({ leaseUntil: sql`now() - interval '1 second'` })
      .where(eq(feedFiles.key, kind.key));
    expect(await failing.file(kind, ORIGIN, 30_000)).toEqual({ ready: false, failed: true, retryAfterSeconds: 120 });
    expect((await feeds.file(kind.key))!.failures).toBe(2);
  } finally {
    errors.mockRestore();
    await failing.stop();
    await feeds.forget(kind.key);
  }
});

test('a request for a feed never built waits until its deadline only, the build going on', async () => {
  const [one] = processes;
  const kind = companyTypeFeed(900_002);
  let finish!: () => void;
  const slow = new Promise<void>((resolve) => (finish = resolve));
  const builder = one as unknown as { build: (...args: unknown[]) => Promise<string> };
  const realBuild = builder.build.bind(one);
  const build = jest.spyOn(builder, 'build').mockImplementationOnce(async (...args) => {
    await slow;
    return realBuild(...args);
  });
  try {
    const started = Date.now();
    expect(await one.file(kind, ORIGIN, 300)).toEqual({ ready: false, failed: false, retryAfterSeconds: 60 });
    expect(Date.now() - started).toBeLessThan(5_000);
    finish();
    const file = await until(
      () => servedBy(one, kind, 0),
      (served) => served !== null,
    );
    expect(file).not.toBeNull();
    expect(build).toHaveBeenCalledTimes(1);
  } finally {
    build.mockRestore();
    finish();
    await createFeedsRepository(shop.app.database.db).forget(kind.key);
  }
});

test('a replaced file is kept for the whole grace from its replacement, and an opened one stays readable', async () => {
  const [one] = processes;
  const kind = visitorsFeed(await shop.app.priceViews.forVisitor());
  const before = (await servedBy(one, kind))!;
  // Built long ago: by its build time alone, the sweep after the next build would delete it.
  const longAgo = new Date(Date.now() - 2 * HOUR_SECONDS * 1000);
  await utimes(path.join(shop.config.feeds.dir, before.name), longAgo, longAgo);
  one.catalogueChanged();
  await until(
    () => createFeedsRepository(shop.app.database.db).file(kind.key),
    (row) => row !== null && row.changedAt > row.builtAt!,
  );
  await builtLongAgo(kind.key);
  one.schedule();
  const after = await until(
    () => servedBy(one, kind),
    (file) => file !== null && file.name !== before.name,
  );
  expect(after!.name).not.toBe(before.name);
  expect(await readdir(shop.config.feeds.dir)).toContain(before.name);

  const opened = await one.file(kind, ORIGIN, 30_000);
  if (!opened.ready) throw new Error('the feed is built');
  await rm(path.join(shop.config.feeds.dir, opened.name));
  const text = await opened.handle.readFile('utf8');
  await opened.handle.close();
  expect(text).toContain('</yml_catalog>');
});

test('only the lease’s holder renews it, ends or fails the build', async () => {
  const feeds = createFeedsRepository(shop.app.database.db);
  const key = companyTypeFeed(900_003).key;
  await feeds.ensureFile(key, ORIGIN);
  try {
    const claim = await feeds.claim(key, 'holder', 60);
    expect(claim).not.toBeNull();
    expect(await feeds.claim(key, 'other', 60)).toBeNull();
    expect(await feeds.renew(key, 'other', 60)).toBe(false);
    expect(await feeds.built(key, 'other', 'company-t900003-1-x.yml', claim!.startedAt)).toBe(false);
    expect(await feeds.failed(key, 'other', 60, 3600)).toBeNull();
    expect(await feeds.file(key)).toMatchObject({ file: null, building: true, failures: 0 });
    expect(await feeds.renew(key, 'holder', 60)).toBe(true);
    expect(await feeds.built(key, 'holder', 'company-t900003-1-x.yml', claim!.startedAt)).toBe(true);
    expect(await feeds.file(key)).toMatchObject({ file: 'company-t900003-1-x.yml', building: false, leaseUntil: null });
    // The lease is given up: whoever held it holds nothing any more.
    expect(await feeds.renew(key, 'holder', 60)).toBe(false);
  } finally {
    await feeds.forget(key);
  }
});
