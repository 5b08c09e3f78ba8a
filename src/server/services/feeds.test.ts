// The feeds' files as several server processes share them: two FeedFiles over one database and
// one FEED_DIR stand for two processes.
import { readdir } from 'node:fs/promises';
import { eq, sql } from 'drizzle-orm';
import { feedFiles } from '../db/schema';
import { createFeedsRepository } from '../repositories/feeds';
import { createTestApp, STARTUP_TIMEOUT, type TestApp } from '../../../test/server/helpers/test-app';
import { companyTypeFeed, FeedFiles, visitorsFeed } from './feeds';

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
  const [first, second] = await Promise.all(processes.map((feeds) => feeds.file(kind, ORIGIN, 30_000)));
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
  const before = (await one.file(kind, ORIGIN, 30_000))!;
  const feeds = createFeedsRepository(shop.app.database.db);
  one.catalogueChanged();
  const row = await until(
    () => feeds.file(kind.key),
    (current) => current !== null && current.changedAt > current.builtAt!,
  );
  expect(row!.changedAt.getTime()).toBeGreaterThan(row!.builtAt!.getTime());
  // Out of date, but built less than FEED_REFRESH_SECONDS ago: both processes serve the old file.
  expect((await other.file(kind, ORIGIN, 30_000))!.name).toBe(before.name);
  expect((await one.file(kind, ORIGIN, 30_000))!.name).toBe(before.name);

  await builtLongAgo(kind.key);
  other.schedule();
  const after = await until(
    () => other.file(kind, ORIGIN, 30_000),
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
