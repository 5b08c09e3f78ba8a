import { createHash } from 'node:crypto';

export interface CachedAnswer {
  /** The answer, already serialised by the route's response schema. */
  body: string;
  /** A digest of the body: equal bodies have equal tags in every process of the shop. */
  etag: string;
}

/** The channel on which an order's transaction announces, at commit, that stock has changed. */
export const CATALOGUE_CHANNEL = 'catalogue_changed';

const MAX_ENTRIES = 2000;

const answer = (body: string): CachedAnswer => ({ body, etag: `"${createHash('sha1').update(body).digest('base64url')}"` });

/**
 * Serialised catalogue answers (products, popular, categories), kept until the catalogue or any
 * stock changes. `invalidate()` is called in the process that placed or cancelled an order before
 * it answers, and in every other process when the database tells it (see plugins/catalogue-cache),
 * so the stock a buyer sees is never older than the last order.
 */
export class CatalogueCache {
  private generation = 0;
  private suspended = false;
  private readonly entries = new Map<string, Promise<CachedAnswer | null>>();

  invalidate(): void {
    this.generation += 1;
    this.entries.clear();
  }

  /** While changes made elsewhere may go unnoticed, answers are made fresh and not kept. */
  suspend(): void {
    this.suspended = true;
    this.invalidate();
  }

  resume(): void {
    this.suspended = false;
    this.invalidate();
  }

  /**
   * The cached answer for `key`, or the one `load` makes; concurrent misses share one load.
   * `null` (not found) is not kept, so unknown names cannot fill the cache.
   */
  get(key: string, load: () => Promise<string | null>): Promise<CachedAnswer | null> {
    if (this.suspended) return load().then((body) => (body === null ? null : answer(body)));
    const hit = this.entries.get(key);
    if (hit) {
      // Refresh its place: the Map's order is the eviction order.
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit;
    }
    const generation = this.generation;
    const pending = load().then(
      (body) => {
        if (body === null || generation !== this.generation) this.forget(key, pending);
        return body === null ? null : answer(body);
      },
      (error: unknown) => {
        this.forget(key, pending);
        throw error;
      },
    );
    this.entries.set(key, pending);
    if (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    return pending;
  }

  private forget(key: string, entry: Promise<CachedAnswer | null>): void {
    if (this.entries.get(key) === entry) this.entries.delete(key);
  }
}
