import { createTestApp, STARTUP_TIMEOUT, usesPostgres, type TestApp } from '../../../test/server/helpers/test-app';

// A new PostgreSQL connection's first search loads the Russian dictionary and pg_trgm: the server
// opens its whole pool at start, warming each connection, and keeps it open. The embedded database
// is one connection inside the process, warmed the same way, with no pool.
describe('the database connections at start', () => {
  let shop: TestApp;
  beforeAll(async () => {
    shop = await createTestApp();
  }, STARTUP_TIMEOUT);
  afterAll(() => shop.close());

  it(usesPostgres ? 'PostgreSQL: every pooled connection open' : 'embedded: no pool to open', () => {
    const use = shop.app.database.poolUse();
    if (!usesPostgres) {
      expect(use).toBeNull();
      return;
    }
    // Not all idle: the outbox sender's first look may hold one at this moment.
    expect(use).toMatchObject({ total: use!.max, waiting: 0 });
    expect(use!.max).toBeGreaterThan(1);
  });
});
