import type { RevokedSessionsRepository } from '../repositories/revoked-sessions';

/**
 * The list of revoked sessions is read again once it is older than this, so a revocation whose
 * notification was lost without the connection saying so (a silently dead LISTEN connection)
 * reaches this process within it all the same.
 */
export const REVOCATIONS_MAX_AGE_MS = 30_000;

/** The clocks of the shop's processes and of its database may differ a little: revocations are kept this much longer. */
const CLOCK_MARGIN_SECONDS = 60;

/**
 * The sessions revoked in the last access-token lifetime, kept in memory so that checking a token
 * costs no query: this process adds the ones it revokes as it commits them, and those of every
 * other process as their notifications arrive (plugins/authentication.ts). A revocation is never
 * undone, so what is kept is never wrong, only possibly incomplete: hence the reading again
 * after REVOCATIONS_MAX_AGE_MS, and the lookups while notifications may be lost.
 */
export class SessionRevocations {
  /** Revoked session → when this process learnt of it (ms). */
  private readonly revoked = new Map<string, number>();
  private readonly keepMs: number;
  private loadedAt = Number.NEGATIVE_INFINITY;
  private loading: Promise<void> | null = null;
  /** Raised when listening resumes: a reading begun before then may lack what was missed. */
  private generation = 0;
  private suspended = false;

  constructor(
    private readonly store: Pick<RevokedSessionsRepository, 'revokedWithin' | 'isRevoked'>,
    accessTokenTtlSeconds: number,
    private readonly clock: () => number = Date.now,
  ) {
    this.keepMs = (accessTokenTtlSeconds + CLOCK_MARGIN_SECONDS) * 1000;
  }

  /** How long a revocation must be kept in the database too: no access token issued before it lives longer. */
  get keepSeconds(): number {
    return this.keepMs / 1000;
  }

  /** Sessions revoked here (after their transaction commits) or announced by another process. */
  remember(sessionIds: Iterable<string>): void {
    const now = this.clock();
    for (const sessionId of sessionIds) {
      if (!this.revoked.has(sessionId)) this.revoked.set(sessionId, now);
    }
  }

  async isRevoked(sessionId: string): Promise<boolean> {
    const known = this.revokedNow(sessionId);
    if (known !== undefined) return known;
    if (this.suspended) return this.store.isRevoked(sessionId);
    await this.reload();
    return this.revoked.has(sessionId);
  }

  /**
   * `isRevoked` without a promise when the answer is known here (the list is fresh and the
   * notifications arrive); undefined when it is not, and `isRevoked` must be asked.
   */
  revokedNow(sessionId: string): boolean | undefined {
    if (this.revoked.has(sessionId)) return true;
    if (this.suspended || this.clock() - this.loadedAt > REVOCATIONS_MAX_AGE_MS) return undefined;
    return false;
  }

  /** The connection that listens is lost: notifications may be missed, so every unknown session is looked up. */
  suspend(): void {
    this.suspended = true;
  }

  /** Listening again: what was revoked meanwhile is read before the next check answers. */
  resume(): void {
    this.suspended = false;
    this.generation += 1;
    this.loadedAt = Number.NEGATIVE_INFINITY;
    this.loading = null;
  }

  /** Concurrent checks share one reading. */
  private reload(): Promise<void> {
    if (!this.loading) {
      const loading = this.read(this.generation).finally(() => {
        if (this.loading === loading) this.loading = null;
      });
      this.loading = loading;
    }
    return this.loading;
  }

  private async read(generation: number): Promise<void> {
    const startedAt = this.clock();
    const sessionIds = await this.store.revokedWithin(this.keepSeconds);
    for (const [sessionId, learntAt] of this.revoked) {
      if (startedAt - learntAt > this.keepMs) this.revoked.delete(sessionId);
    }
    this.remember(sessionIds);
    if (generation === this.generation) this.loadedAt = startedAt;
  }
}
