import { sql, type SQL } from 'drizzle-orm';

/** The moment `ms` milliseconds before the transaction's `now()`, by the database's clock; parenthesised, to compose. */
export const since = (ms: number): SQL => sql`(now() - ${ms}::float8 * interval '1 millisecond')`;
