import type { Database } from '../db/database';
import { CatalogueChangedDuringImportError } from '../domain/domain-errors';
import { statusOfDomainError } from '../plugins/error-handler';
import { createPriceListImportService } from './price-list-import';

/** A database whose transaction fails as drizzle fails a statement: the driver's error is its cause. */
const failingWith = (cause: object) =>
  ({ transaction: () => Promise.reject(new Error('Failed query', { cause })) }) as unknown as Database;

const importNothing = (db: Database) => createPriceListImportService(db).importRows([], { dryRun: false, byUserId: 1 });

// The race itself (an article made in the back office between the import's read and its insert)
// cannot be timed from a test; what the import makes of the database's answer can.
it('a unique index broken under the import → 409 «повторите импорт», not a 500', async () => {
  const outcome = importNothing(failingWith({ code: '23505', constraint: 'products_art_unique' }));
  await expect(outcome).rejects.toThrow(CatalogueChangedDuringImportError);
  await expect(outcome).rejects.toThrow('Каталог изменился во время импорта: повторите импорт');
  expect(statusOfDomainError.get(CatalogueChangedDuringImportError)).toBe(409);
});

it('any other failure comes out as it was', async () => {
  await expect(importNothing(failingWith({ code: '40P01' }))).rejects.toThrow('Failed query');
});
