import { REVOCATIONS_MAX_AGE_MS, SessionRevocations } from './session-revocations';

const TTL_SECONDS = 900;
const A = '00000000-0000-4000-8000-00000000000a';
const B = '00000000-0000-4000-8000-00000000000b';

/** The database's revoked_sessions, counting how often it is asked. */
class FakeStore {
  revoked = new Set<string>();
  reads = 0;
  lookups = 0;
  /** While set, a reading waits for it (to interleave other events with one in flight). */
  hold: Promise<void> | null = null;

  async revokedWithin(): Promise<string[]> {
    this.reads += 1;
    const snapshot = [...this.revoked];
    await this.hold;
    return snapshot;
  }

  async isRevoked(sessionId: string): Promise<boolean> {
    this.lookups += 1;
    return this.revoked.has(sessionId);
  }
}

describe('session revocations kept in memory', () => {
  let store: FakeStore;
  let now: number;
  let revocations: SessionRevocations;
  beforeEach(() => {
    store = new FakeStore();
    now = 1_000_000;
    revocations = new SessionRevocations(store, TTL_SECONDS, () => now);
  });

  it('reads the list once, then answers from memory until it is REVOCATIONS_MAX_AGE_MS old', async () => {
    store.revoked.add(A);
    expect(await revocations.isRevoked(A)).toBe(true);
    expect(await revocations.isRevoked(B)).toBe(false);
    expect(await revocations.isRevoked(B)).toBe(false);
    expect([store.reads, store.lookups]).toEqual([1, 0]);

    // Revoked elsewhere with its notification lost: unseen while the list is fresh, seen once it is not.
    store.revoked.add(B);
    now += REVOCATIONS_MAX_AGE_MS;
    expect(await revocations.isRevoked(B)).toBe(false);
    now += 1;
    expect(await revocations.isRevoked(B)).toBe(true);
    expect(store.reads).toBe(2);
  });

  it('a session remembered (revoked here, or announced) is refused at once, without asking the database', async () => {
    expect(await revocations.isRevoked(A)).toBe(false);
    revocations.remember([A]);
    expect(await revocations.isRevoked(A)).toBe(true);
    expect([store.reads, store.lookups]).toEqual([1, 0]);
  });

  it('answers without a promise only what it knows: a remembered session, or any while the list is fresh and heard', async () => {
    expect(revocations.revokedNow(B)).toBeUndefined();
    expect(await revocations.isRevoked(B)).toBe(false);
    expect(revocations.revokedNow(B)).toBe(false);
    revocations.remember([A]);
    expect(revocations.revokedNow(A)).toBe(true);

    now += REVOCATIONS_MAX_AGE_MS + 1;
    expect(revocations.revokedNow(B)).toBeUndefined();
    expect(revocations.revokedNow(A)).toBe(true);
    expect(await revocations.isRevoked(B)).toBe(false);
    revocations.suspend();
    expect(revocations.revokedNow(B)).toBeUndefined();
    expect(revocations.revokedNow(A)).toBe(true);
  });

  it('concurrent checks share one reading', async () => {
    await Promise.all([revocations.isRevoked(A), revocations.isRevoked(B), revocations.isRevoked(A)]);
    expect(store.reads).toBe(1);
  });

  it('while notifications may be lost every unknown session is looked up; listening again, the list is read anew', async () => {
    expect(await revocations.isRevoked(A)).toBe(false);
    revocations.suspend();
    store.revoked.add(A);
    expect(await revocations.isRevoked(A)).toBe(true);
    expect(await revocations.isRevoked(B)).toBe(false);
    expect(store.lookups).toBe(2);

    store.revoked.add(B);
    revocations.resume();
    expect(await revocations.isRevoked(B)).toBe(true);
    expect([store.reads, store.lookups]).toEqual([2, 2]);
  });

  it('a reading begun before listening resumed does not count as fresh', async () => {
    let release!: () => void;
    store.hold = new Promise((resolve) => (release = resolve));
    const early = revocations.isRevoked(A);
    revocations.suspend();
    // Revoked while nobody listened: that reading began before and missed it.
    store.revoked.add(B);
    revocations.resume();
    store.hold = null;
    release();
    expect(await early).toBe(false);
    expect(await revocations.isRevoked(B)).toBe(true);
    expect(store.reads).toBe(2);
  });

  it('forgets a revocation, on reading the list again, once every access token issued before it has expired', async () => {
    revocations.remember([A]);
    now += (TTL_SECONDS + 61) * 1000;
    expect(await revocations.isRevoked(B)).toBe(false);
    expect(await revocations.isRevoked(A)).toBe(false);
  });
});
