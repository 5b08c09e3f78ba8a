import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { sql } from 'drizzle-orm';
import type { Queryable } from '../db/database';

export type ContentEncoding = 'br' | 'gzip';

const compressors: Record<ContentEncoding, (body: Buffer) => Promise<Buffer>> = {
  // Made once per answer and then sent many times, so a slower, tighter setting pays.
  br: (body) =>
    promisify(brotliCompress)(body, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
    }),
  gzip: (body) => promisify(gzip)(body, { level: 9 }),
};

export class CachedAnswer {
  /** A digest of the body: equal bodies have equal tags in every process of the shop. */
  readonly etag: string;
  private readonly encoded = new Map<ContentEncoding, Promise<Buffer>>();

  /** `body` is the answer already serialised by the route's response schema, as UTF-8 bytes. */
  constructor(readonly body: Buffer) {
    // Weak: the same answer is sent in several encodings, whose bytes differ (RFC 9110 §8.8.3).
    this.etag = `W/"${createHash('sha1').update(body).digest('base64url')}"`;
  }

  /** The body compressed with `encoding`, made on first use and kept with the answer. */
  compressed(encoding: ContentEncoding): Promise<Buffer> {
    let made = this.encoded.get(encoding);
    if (!made) {
      made = compressors[encoding](this.body);
      this.encoded.set(encoding, made);
    }
    return made;
  }
}

/**
 * The channel on which a transaction that changes the catalogue (an order taking stock, a manager's
 * edit) announces, at commit, that every process must drop its cached answers.
 */
export const CATALOGUE_CHANNEL = 'catalogue_changed';

/** Call it inside the changing transaction: PostgreSQL delivers the notice only if it commits. */
export async function announceCatalogueChange(tx: Queryable): Promise<void> {
  await tx.execute(sql`select pg_notify(${CATALOGUE_CHANNEL}, '')`);
}

/**
 * Bodies kept, in bytes: bounded by size, not count, because one page of 100 products weighs as
 * much as a hundred product pages. A large catalogue keeps its most used answers.
 */
const MAX_BYTES = 16 * 1024 * 1024;

/** What the cache has done since the process started, and holds now: for the metrics (plugins/metrics.ts). */
export interface CatalogueCacheStats {
  hits: number;
  /** Answers made by their load, kept or not (while suspended, every read is one). */
  misses: number;
  /** Answers dropped to stay within the size, not by invalidate(). */
  evictions: number;
  invalidations: number;
  entries: number;
  bytes: number;
}

interface Entry {
  answer: Promise<CachedAnswer | null>;
  bytes: number;
  /** Read since it was kept or last spared: spared once when it is next in line to go. */
  readAgain: boolean;
}

/**
 * Serialised catalogue answers (products, popular, categories), kept until the catalogue or any
 * stock changes. `invalidate()` is called in the process that placed or cancelled an order before
 * it answers, and in every other process when the database tells it (see plugins/catalogue-cache),
 * so the stock a buyer sees is never older than the last order.
 */
export class CatalogueCache {
  private generation = 0;
  private suspended = false;
  private bytes = 0;
  private readonly entries = new Map<string, Entry>();
  private hits = 0;
  private misses = 0;
  private evictions = 0;
  private invalidations = 0;

  stats(): CatalogueCacheStats {
    const { hits, misses, evictions, invalidations, bytes } = this;
    return { hits, misses, evictions, invalidations, entries: this.entries.size, bytes };
  }

  invalidate(): void {
    this.invalidations += 1;
    this.generation += 1;
    this.entries.clear();
    this.bytes = 0;
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
    if (this.suspended) return this.fresh(load);
    const hit = this.entries.get(key);
    if (hit) {
      this.hits += 1;
      // Marked, not moved to the back of the Map: a delete and a set on every read made V8
      // reallocate the Map's table, garbage that outlived the young generation and filled the old
      // one under load (docs/performance.md). Eviction spares marked entries once instead: the
      // "second chance" approximation of least recently used.
      hit.readAgain = true;
      return hit.answer;
    }
    const generation = this.generation;
    const entry: Entry = { answer: this.fresh(load), bytes: 0, readAgain: false };
    this.entries.set(key, entry);
    entry.answer.then(
      (answer) => {
        if (answer === null || generation !== this.generation) this.forget(key, entry);
        else this.account(entry, answer.body.length);
      },
      () => this.forget(key, entry),
    );
    return entry.answer;
  }

  /** A method, not a closure made on every read: the server runs under tsx, which names each closure as it is made. */
  private fresh(load: () => Promise<string | null>): Promise<CachedAnswer | null> {
    this.misses += 1;
    return load().then((body) => (body === null ? null : new CachedAnswer(Buffer.from(body))));
  }

  private account(entry: Entry, bytes: number): void {
    entry.bytes = bytes;
    this.bytes += bytes;
    // The Map's order is the order of keeping; a spared entry goes to the back, where this same
    // loop meets it again, unmarked, if the others were not enough.
    for (const [oldestKey, oldest] of this.entries) {
      if (this.bytes <= MAX_BYTES) break;
      if (oldest === entry) continue;
      if (oldest.readAgain) {
        oldest.readAgain = false;
        this.entries.delete(oldestKey);
        this.entries.set(oldestKey, oldest);
      } else {
        this.forget(oldestKey, oldest);
        this.evictions += 1;
      }
    }
  }

  private forget(key: string, entry: Entry): void {
    if (this.entries.get(key) !== entry) return;
    this.entries.delete(key);
    this.bytes -= entry.bytes;
  }
}
