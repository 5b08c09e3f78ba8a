import { and, eq, isNull, lt, sql } from 'drizzle-orm';
import type { Queryable } from '../db/database';
import { exchangeFiles, exchangeRuns, exchangeSessions, users } from '../db/schema';
import { createAuditRepository } from './audit';

export type ExchangeKind = 'catalog' | 'sale';

export interface ExchangeSessionRow {
  id: string;
  userId: number;
  runId: string | null;
  runKind: ExchangeKind | null;
}

export interface ExchangeFileRow {
  name: string;
  bytes: number;
  stage: (typeof exchangeFiles.$inferSelect)['stage'];
  heartbeatAt: Date | null;
  failure: string | null;
}

/** `seconds` ago by the database's clock, the one every time here is written by. */
const secondsAgo = (seconds: number) => sql`now() - make_interval(secs => ${seconds})`;

/** What /1c_exchange records as 1С calls it: its sessions, the runs they begin, the files received. */
export function createExchangeTransportRepository(db: Queryable) {
  return {
    /** The account that may sign in at /1c_exchange with this e-mail, null for an unknown one. */
    async credentials(email: string): Promise<{ id: number; passwordHash: string; exchangeAccess: boolean } | null> {
      const [row] = await db
        .select({ id: users.id, passwordHash: users.passwordHash, exchangeAccess: users.exchangeAccess })
        .from(users)
        .where(eq(users.email, email));
      return row ?? null;
    },

    async startSession(cookieHash: string, userId: number, clientIp: string): Promise<string> {
      const [row] = await db
        .insert(exchangeSessions)
        .values({ cookieHash, userId, clientIp })
        .returning({ id: exchangeSessions.id });
      return row!.id;
    },

    /**
     * The session this cookie names, used within the last `idleSeconds`, its use recorded; null
     * otherwise. An account whose exchange access was taken away has none.
     */
    async touchSession(cookieHash: string, idleSeconds: number): Promise<ExchangeSessionRow | null> {
      const [row] = await db
        .update(exchangeSessions)
        .set({ lastSeenAt: sql`now()` })
        .from(users)
        .where(
          and(
            eq(exchangeSessions.cookieHash, cookieHash),
            sql`${exchangeSessions.lastSeenAt} > ${secondsAgo(idleSeconds)}`,
            eq(users.id, exchangeSessions.userId),
            eq(users.exchangeAccess, true),
          ),
        )
        .returning({ id: exchangeSessions.id, userId: exchangeSessions.userId, runId: exchangeSessions.runId });
      if (!row) return null;
      if (row.runId === null) return { ...row, runKind: null };
      const [run] = await db
        .select({ kind: exchangeRuns.kind })
        .from(exchangeRuns)
        .where(eq(exchangeRuns.id, row.runId));
      return { ...row, runKind: run?.kind ?? null };
    },

    /** Sessions unused for `idleSeconds` are deleted. */
    async purgeSessions(idleSeconds: number): Promise<void> {
      await db.delete(exchangeSessions).where(lt(exchangeSessions.lastSeenAt, secondsAgo(idleSeconds)));
    },

    /** A new run, which the session goes on with from now on. */
    async startRun(sessionId: string, kind: ExchangeKind, byUserId: number): Promise<string> {
      return db.transaction(async (tx) => {
        const [run] = await tx.insert(exchangeRuns).values({ kind, byUserId }).returning({ id: exchangeRuns.id });
        await tx.update(exchangeSessions).set({ runId: run!.id }).where(eq(exchangeSessions.id, sessionId));
        return run!.id;
      });
    },

    async failRun(runId: string, failure: string): Promise<void> {
      await db
        .update(exchangeRuns)
        .set({ status: 'failed', failure, finishedAt: sql`now()` })
        .where(eq(exchangeRuns.id, runId));
    },

    /** The bytes all files of the run have so far. */
    async runBytes(runId: string): Promise<number> {
      const [row] = await db
        .select({ bytes: sql<string>`coalesce(sum(${exchangeFiles.bytes}), 0)` })
        .from(exchangeFiles)
        .where(eq(exchangeFiles.runId, runId));
      return Number(row!.bytes);
    },

    /** The file's row with the bytes it has now, received anew (a zip sent again is unpacked again). */
    async fileReceived(runId: string, name: string, bytes: number): Promise<void> {
      await db
        .insert(exchangeFiles)
        .values({ runId, name, bytes })
        .onConflictDoUpdate({
          target: [exchangeFiles.runId, exchangeFiles.name],
          set: { bytes, receivedAt: sql`now()`, stage: 'received', heartbeatAt: null, failure: null },
        });
    },

    async files(runId: string): Promise<ExchangeFileRow[]> {
      return db
        .select({
          name: exchangeFiles.name,
          bytes: exchangeFiles.bytes,
          stage: exchangeFiles.stage,
          heartbeatAt: exchangeFiles.heartbeatAt,
          failure: exchangeFiles.failure,
        })
        .from(exchangeFiles)
        .where(eq(exchangeFiles.runId, runId));
    },

    /**
     * Under the run's advisory lock (so two processes never both take it): the run's zips still to
     * unpack — received, or being unpacked by a process whose heartbeat is older than
     * `staleSeconds` — marked as being unpacked by the caller. `busy`: another process is unpacking
     * and alive; `failed`: a zip of the run could not be unpacked, and why.
     */
    async claimZips(
      runId: string,
      staleSeconds: number,
    ): Promise<{ claimed: string[]; busy: boolean; failed: string | null }> {
      return db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`exchange-unpack:${runId}`}, 0))`);
        const zips = await tx
          .select({
            name: exchangeFiles.name,
            stage: exchangeFiles.stage,
            failure: exchangeFiles.failure,
            stale: sql<boolean>`${exchangeFiles.heartbeatAt} is null or ${exchangeFiles.heartbeatAt} < ${secondsAgo(staleSeconds)}`,
          })
          .from(exchangeFiles)
          .where(and(eq(exchangeFiles.runId, runId), sql`lower(${exchangeFiles.name}) like '%.zip'`));
        const failed = zips.find((zip) => zip.stage === 'failed');
        if (failed) return { claimed: [], busy: false, failed: failed.failure };
        if (zips.some((zip) => zip.stage === 'applying' && !zip.stale))
          return { claimed: [], busy: true, failed: null };
        const claimed = zips.filter((zip) => zip.stage !== 'applied').map((zip) => zip.name);
        for (const name of claimed) {
          await tx
            .update(exchangeFiles)
            .set({ stage: 'applying', heartbeatAt: sql`now()` })
            .where(and(eq(exchangeFiles.runId, runId), eq(exchangeFiles.name, name)));
        }
        return { claimed, busy: false, failed: null };
      });
    },

    async zipsHeartbeat(runId: string, names: string[]): Promise<void> {
      for (const name of names) {
        await db
          .update(exchangeFiles)
          .set({ heartbeatAt: sql`now()` })
          .where(
            and(eq(exchangeFiles.runId, runId), eq(exchangeFiles.name, name), eq(exchangeFiles.stage, 'applying')),
          );
      }
    },

    /** The zips are unpacked; the files that came out of them are received files of the run. */
    async zipsUnpacked(runId: string, names: string[], unpacked: { name: string; bytes: number }[]): Promise<void> {
      await db.transaction(async (tx) => {
        for (const name of names) {
          await tx
            .update(exchangeFiles)
            .set({ stage: 'applied', heartbeatAt: null })
            .where(and(eq(exchangeFiles.runId, runId), eq(exchangeFiles.name, name)));
        }
        for (const file of unpacked) {
          await createExchangeTransportRepository(tx).fileReceived(runId, file.name, file.bytes);
        }
      });
    },

    async zipsFailed(runId: string, names: string[], failure: string): Promise<void> {
      for (const name of names) {
        await db
          .update(exchangeFiles)
          .set({ stage: 'failed', heartbeatAt: null, failure })
          .where(and(eq(exchangeFiles.runId, runId), eq(exchangeFiles.name, name)));
      }
    },

    /** Runs begun `days` ago or earlier whose files are still on disk. */
    async runsToClear(days: number): Promise<string[]> {
      const rows = await db
        .select({ id: exchangeRuns.id })
        .from(exchangeRuns)
        .where(and(isNull(exchangeRuns.filesRemovedAt), lt(exchangeRuns.startedAt, secondsAgo(days * 24 * 60 * 60))));
      return rows.map((row) => row.id);
    },

    async filesRemoved(runId: string): Promise<void> {
      await db
        .update(exchangeRuns)
        .set({ filesRemovedAt: sql`now()` })
        .where(eq(exchangeRuns.id, runId));
    },

    /**
     * Grants or takes away the exchange access; taking it away ends the account's exchange sessions.
     * A change is in the audit log (`user.exchange`), by `byUserId` (null: the command line).
     */
    async setExchangeAccess(
      email: string,
      granted: boolean,
      byUserId: number | null = null,
    ): Promise<{ email: string } | null> {
      return db.transaction(async (tx) => {
        const [before] = await tx
          .select({ id: users.id, email: users.email, exchangeAccess: users.exchangeAccess })
          .from(users)
          .where(eq(users.email, email.trim().toLowerCase()))
          .for('update');
        if (!before) return null;
        if (before.exchangeAccess !== granted) {
          await tx.update(users).set({ exchangeAccess: granted }).where(eq(users.id, before.id));
          await createAuditRepository(tx).record({
            byUserId,
            action: 'user.exchange',
            entity: 'user',
            entityId: before.id,
            before: { email: before.email, exchange: before.exchangeAccess },
            after: { email: before.email, exchange: granted },
          });
        }
        if (!granted) await tx.delete(exchangeSessions).where(eq(exchangeSessions.userId, before.id));
        return { email: before.email };
      });
    },
  };
}

export type ExchangeTransportRepository = ReturnType<typeof createExchangeTransportRepository>;
