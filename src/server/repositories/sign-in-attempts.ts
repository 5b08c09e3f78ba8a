import { and, eq, gt, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../db/database';
import { signInAttempts } from '../db/schema';
import { since } from '../db/since';

/**
 * An attempt at an account (`account`: its normalised e-mail) or, with `account` null, counted per
 * client only. `device`: the id of a valid device cookie for the account that came with it, else null.
 */
export interface Attempt {
  client: string;
  account: string | null;
  device: string | null;
}

/** The counts an attempt is judged by, as the database has them; times in epoch milliseconds, by its clock. */
export interface AttemptStanding {
  now: number;
  /** The client's attempts of the client window, of any kind, and when the oldest of them was made. */
  clientAttempts: number;
  clientOldestAt: number | null;
  /**
   * Failures at the account in the account window that share the attempt's lockout: those with its
   * device cookie, or, without one, all those without one, from any client; and when the oldest was made.
   */
  lockoutFailures: number;
  lockoutOldestFailureAt: number | null;
}

export interface AttemptWindows {
  clientMs: number;
  accountMs: number;
}

const epochMs = (time: SQL) => sql<number | null>`(extract(epoch from ${time}) * 1000)::float8`;
const counted = (condition: SQL | undefined) => sql<number>`(count(*) filter (where ${condition}))::int`;
/** The attempts made with this device cookie, or, null, all those made without one. */
const sameDevice = (device: string | null) =>
  device === null ? isNull(signInAttempts.device) : eq(signInAttempts.device, device);

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
      const { client, account, device } = attempt;
      return db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`sign-in-client:${client}`}, 0))`);
        if (account !== null) {
          await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`sign-in:${account}`}, 0))`);
        }
        const ofClient = and(
          eq(signInAttempts.client, client),
          gt(signInAttempts.attemptedAt, since(windows.clientMs)),
        );
        const lockoutFailure =
          account === null
            ? sql`false`
            : and(
                eq(signInAttempts.account, account),
                sameDevice(device),
                signInAttempts.failed,
                gt(signInAttempts.attemptedAt, since(windows.accountMs)),
              );
        const [standing] = await tx
          .select({
            now: sql<number>`(extract(epoch from now()) * 1000)::float8`,
            clientAttempts: counted(ofClient),
            clientOldestAt: epochMs(sql`min(${signInAttempts.attemptedAt}) filter (where ${ofClient})`),
            lockoutFailures: counted(lockoutFailure),
            lockoutOldestFailureAt: epochMs(sql`min(${signInAttempts.attemptedAt}) filter (where ${lockoutFailure})`),
          })
          .from(signInAttempts)
          .where(or(ofClient, lockoutFailure));
        const refused = refusal(standing!);
        if (refused === null) await tx.insert(signInAttempts).values({ client, account, device });
        return refused;
      });
    },

    /**
     * The account's password was proved: this attempt and the earlier failures of its lockout made
     * from the same device cookie, or, without one, from the same client, are not failures (the owner's typos).
     */
    async succeeded(attempt: Attempt & { account: string }): Promise<void> {
      const { client, account, device } = attempt;
      await db
        .update(signInAttempts)
        .set({ failed: false })
        .where(
          and(
            eq(signInAttempts.account, account),
            sameDevice(device),
            device === null ? eq(signInAttempts.client, client) : undefined,
            signInAttempts.failed,
          ),
        );
    },

    /** Deletes the attempts older than `ms`, which no window counts any more. */
    async purge(ms: number): Promise<void> {
      await db.delete(signInAttempts).where(lt(signInAttempts.attemptedAt, since(ms)));
    },
  };
}

export type SignInAttemptsRepository = ReturnType<typeof createSignInAttemptsRepository>;
