import { and, eq, gt, lt, or, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../db/database';
import { signInAttempts } from '../db/schema';
import { since } from '../db/since';

/** An attempt at an account (`account`: its normalised e-mail) or, with `account` null, counted per client only. */
export interface Attempt {
  client: string;
  account: string | null;
}

/** The counts an attempt is judged by, as the database has them; times in epoch milliseconds, by its clock. */
export interface AttemptStanding {
  now: number;
  /** The client's attempts of the client window, of any kind, and when the oldest of them was made. */
  clientAttempts: number;
  clientOldestAt: number | null;
  /** Failures at the account from any client in the account window, and when the latest was made. */
  accountFailures: number;
  accountLastFailureAt: number | null;
  /** Failures at the account from this client in the account window. */
  ownFailures: number;
}

export interface AttemptWindows {
  clientMs: number;
  accountMs: number;
}

const epochMs = (time: SQL) => sql<number | null>`(extract(epoch from ${time}) * 1000)::float8`;
const counted = (condition: SQL | undefined) => sql<number>`(count(*) filter (where ${condition}))::int`;

export function createSignInAttemptsRepository(db: Database) {
  return {
    /**
     * Records the attempt unless `refusal` (given its standing) refuses it; answers the refusal, or
     * null once recorded. The client's attempts and the account's are held meanwhile (advisory
     * locks, always the client's first), so that of two attempts from one client, or at one
     * account, the second is judged with the first counted, in every process. Without the client's,
     * attempts from one client at different accounts sent at once were each judged without the
     * others and together passed the per-client limit.
     */
    async record<Refusal>(
      attempt: Attempt,
      windows: AttemptWindows,
      refusal: (standing: AttemptStanding) => Refusal | null,
    ): Promise<Refusal | null> {
      const { client, account } = attempt;
      return db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`sign-in-client:${client}`}, 0))`);
        if (account !== null) {
          await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`sign-in:${account}`}, 0))`);
        }
        const ofClient = and(
          eq(signInAttempts.client, client),
          gt(signInAttempts.attemptedAt, since(windows.clientMs)),
        );
        const accountFailure =
          account === null
            ? sql`false`
            : and(
                eq(signInAttempts.account, account),
                signInAttempts.failed,
                gt(signInAttempts.attemptedAt, since(windows.accountMs)),
              );
        const [standing] = await tx
          .select({
            now: sql<number>`(extract(epoch from now()) * 1000)::float8`,
            clientAttempts: counted(ofClient),
            clientOldestAt: epochMs(sql`min(${signInAttempts.attemptedAt}) filter (where ${ofClient})`),
            accountFailures: counted(accountFailure),
            accountLastFailureAt: epochMs(sql`max(${signInAttempts.attemptedAt}) filter (where ${accountFailure})`),
            ownFailures: counted(and(accountFailure, eq(signInAttempts.client, client))),
          })
          .from(signInAttempts)
          .where(or(ofClient, accountFailure));
        const refused = refusal(standing!);
        if (refused === null) await tx.insert(signInAttempts).values({ client, account });
        return refused;
      });
    },

    /** The client proved the account's password: neither this attempt nor its earlier ones at the account are failures. */
    async succeeded(client: string, account: string): Promise<void> {
      await db
        .update(signInAttempts)
        .set({ failed: false })
        .where(and(eq(signInAttempts.account, account), eq(signInAttempts.client, client), signInAttempts.failed));
    },

    /** Deletes the attempts older than `ms`, which no window counts any more. */
    async purge(ms: number): Promise<void> {
      await db.delete(signInAttempts).where(lt(signInAttempts.attemptedAt, since(ms)));
    },
  };
}

export type SignInAttemptsRepository = ReturnType<typeof createSignInAttemptsRepository>;
