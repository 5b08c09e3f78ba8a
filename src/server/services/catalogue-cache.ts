import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

export type ContentEncoding = 'br' | 'gzip';

const compressors: Record<ContentEncoding, (body: Buffer) => Promise<Buffer>> = {
  // Made on the first read of each answer, which waits for it: after every order, and for every
  // search asked once. On a 19.6 KB search page, quality 9 took 4.5 ms for 2 842 bytes, quality 5
  // 0.24 ms for 2 890 (11: 24 ms, 2 500), docs/performance.md.
  br: (body) =>
    promisify(brotliCompress)(body, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
    }),
  gzip: (body) => promisify(gzip)(body, { level: 9 }),
};

/**
 * `text` as UTF-8 in memory of its own. Buffer.from would cut a short one out of Node's shared 8 KB
 * pool, and a kept slice keeps the whole pool alive: what the cache counts would not be what it holds.
 */
function ownBytes(text: string): Buffer {
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
  bytes.write(text);
  return bytes;
}

/** A copy of `bytes` in memory of its own (zlib concatenates a short result in the shared pool too). */
function ownCopy(bytes: Buffer): Buffer {
  const copy = Buffer.allocUnsafeSlow(bytes.length);
  bytes.copy(copy);
  return copy;
}

export class CachedAnswer {
  /** A digest of the body: equal bodies have equal tags in every process of the shop. */
  readonly etag: string;
  /** Told the size of each encoding as it is made, so that the cache counts what a kept answer holds. */
  onEncoded: ((bytes: number) => void) | null = null;
  private readonly encoded: Partial<Record<ContentEncoding, Promise<Buffer>>> = {};
  /** The encodings already made, for sending without waiting on a promise (compressedNow). */
  private readonly encodedNow: Partial<Record<ContentEncoding, Buffer>> = {};
  readonly body: Buffer;

  /**
   * `body` is the answer already serialised by the route's response schema; `headers`, what the
   * few answers that say more than their body send with it (the search's reading in the other layout).
   */
  constructor(
    body: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    this.body = ownBytes(body);
    // Weak: the same answer is sent in several encodings, whose bytes differ (RFC 9110 §8.8.3).
    this.etag = `W/"${createHash('sha1').update(this.body).digest('base64url')}"`;
  }

  /** The body compressed with `encoding`, made on first use and kept with the answer. */
  compressed(encoding: ContentEncoding): Promise<Buffer> {
    let made = this.encoded[encoding];
    if (!made) {
      made = compressors[encoding](this.body).then((bytes) => {
        const own = ownCopy(bytes);
        this.encodedNow[encoding] = own;
        this.onEncoded?.(own.length);
        return own;
      });
      this.encoded[encoding] = made;
    }
    return made;
  }

  /** The body compressed with `encoding` if it has been made, so a cache hit can be answered at once. */
  compressedNow(encoding: ContentEncoding): Buffer | undefined {
    return this.encodedNow[encoding];
  }
}

export interface CatalogueCacheLimits {
  /** Answers kept at most (CATALOGUE_CACHE_MAX_ENTRIES). */
  maxEntries: number;
  /** What the kept answers may cost together, in bytes, counted as `entryCost` does (CATALOGUE_CACHE_MAX_MB). */
  maxBytes: number;
}

/**
 * What keeping one answer costs besides its key and its bytes: the entry, the answer with its ETag,
 * its promise, the Map's slot, and the body's own ArrayBuffer with the native store behind it.
 * Measured by `node scripts/build-server.js && node --expose-gc scripts/measure-catalogue-cache.js`
 * (100 000 empty pages kept; V8's heap and ArrayBuffers grew 679 B an answer beyond its key and
 * body, and each ArrayBuffer holds ~210 B of native memory V8 does not count: ~890 B), rounded up.
 */
export const ENTRY_OVERHEAD_BYTES = 1024;
/** The same for each compressed encoding kept with an answer, its Buffer and promise (measured ~500 B). */
export const ENCODING_OVERHEAD_BYTES = 640;

/** A key costs two bytes a character: V8 keeps a string with any Cyrillic letter in UTF-16. */
export const entryCost = (key: string, body: Buffer, headers: Readonly<Record<string, string>> = {}) =>
  ENTRY_OVERHEAD_BYTES +
  2 * key.length +
  body.length +
  Object.entries(headers).reduce((sum, [name, value]) => sum + 2 * (name.length + value.length), 0);

/** What a load made, and whether it is worth keeping. */
export interface Loaded {
  /** The answer serialised by the route's response schema. */
  body: string;
  /** Headers sent with the body whenever it is. */
  headers?: Record<string, string>;
  /**
   * `yes`; `no` (an empty page past the end: any offset would be a new one); `asked-again`: kept only
   * when its key is asked for a second time while it is among the last `maxEntries` keys asked
   * (free-text searches and filter values, most of which are asked once).
   */
  keep: 'yes' | 'no' | 'asked-again';
}

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
  answer: CachedAnswer;
  bytes: number;
  /** Read since it was kept or last spared: spared once when it is next in line to go. */
  readAgain: boolean;
}

/**
 * Serialised catalogue answers (products, popular, categories), kept until the catalogue or any
 * stock changes. `invalidate()` is called in the process that placed or cancelled an order before
 * it answers, and in every other process when the database tells it (see plugins/catalogue-cache),
 * so the stock a buyer sees is never older than the last order.
 *
 * Bounded twice (docs/decisions.md): by the number of answers and by what they cost in memory,
 * key, body, encodings and the objects around them, not the body alone: an empty page is 2 bytes
 * of body in some 900 bytes of memory.
 */
export class CatalogueCache {
  private generation = 0;
  private suspended = false;
  private bytes = 0;
  private readonly entries = new Map<string, Entry>();
  /** Loads under way, shared by the requests for the same key that arrive meanwhile. */
  private readonly loading = new Map<string, Promise<CachedAnswer | null>>();
  /**
   * The keys of the last answers that were worth keeping only if asked again, oldest first: the
   * "doorkeeper" of an admission policy. Not cleared by `invalidate`, so that a query asked again
   * after an order is kept at once.
   */
  private readonly asked = new Set<string>();

  private hits = 0;
  private misses = 0;
  private evictions = 0;
  private invalidations = 0;

  constructor(private readonly limits: CatalogueCacheLimits) {}

  stats(): CatalogueCacheStats {
    const { hits, misses, evictions, invalidations, bytes } = this;
    return { hits, misses, evictions, invalidations, entries: this.entries.size, bytes };
  }

  invalidate(): void {
    this.invalidations += 1;
    this.generation += 1;
    this.entries.clear();
    this.loading.clear();
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
   * `null` (not found) is not kept, so unknown names cannot fill the cache; nor is a failed load.
   */
  get(key: string, load: () => Promise<Loaded | null>): Promise<CachedAnswer | null> {
    if (this.suspended) {
      this.misses += 1;
      return load().then((made) => made && new CachedAnswer(made.body, made.headers));
    }
    const kept = this.peek(key);
    if (kept) return Promise.resolve(kept);
    const loading = this.loading.get(key);
    if (loading) return loading;
    this.misses += 1;
    const generation = this.generation;
    // Kept (or not) in the same step that makes the answer, before any request sees it: the
    // encodings its first request makes are counted.
    const answer: Promise<CachedAnswer | null> = load().then(
      (made) => {
        if (this.loading.get(key) === answer) this.loading.delete(key);
        if (made === null) return null;
        const fresh = new CachedAnswer(made.body, made.headers);
        if (generation === this.generation && this.worthKeeping(key, made)) {
          this.keep(key, fresh);
        }
        return fresh;
      },
      (error: unknown) => {
        if (this.loading.get(key) === answer) this.loading.delete(key);
        throw error;
      },
    );
    this.loading.set(key, answer);
    return answer;
  }

  /**
   * The kept answer for `key`, counted as a hit, or undefined (then `get` makes it): a read answered
   * from the cache without a promise in between, which the catalogue's reads measurably pay for.
   */
  peek(key: string): CachedAnswer | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    this.hits += 1;
    // Marked, not moved to the back of the Map: a delete and a set on every read made V8
    // reallocate the Map's table, garbage that outlived the young generation and filled the old
    // one under load (docs/performance.md). Eviction spares marked entries once instead: the
    // "second chance" approximation of least recently used.
    hit.readAgain = true;
    return hit.answer;
  }

  private worthKeeping(key: string, made: Loaded): boolean {
    if (made.keep !== 'asked-again') return made.keep === 'yes';
    if (this.asked.delete(key)) {
      this.asked.add(key);
      return true;
    }
    this.asked.add(key);
    if (this.asked.size > this.limits.maxEntries) this.asked.delete(this.asked.values().next().value!);
    return false;
  }

  private keep(key: string, answer: CachedAnswer): void {
    const entry: Entry = { answer, bytes: entryCost(key, answer.body, answer.headers), readAgain: false };
    // One answer beyond the whole budget would only empty the cache to no avail.
    if (entry.bytes > this.limits.maxBytes) return;
    this.entries.set(key, entry);
    this.bytes += entry.bytes;
    answer.onEncoded = (bytes) => {
      if (this.entries.get(key) !== entry) return;
      entry.bytes += ENCODING_OVERHEAD_BYTES + bytes;
      this.bytes += ENCODING_OVERHEAD_BYTES + bytes;
      this.evict(entry);
    };
    this.evict(entry);
  }

  /** Drops answers until both limits hold, the oldest first, sparing once each that was read again. */
  private evict(newest: Entry): void {
    // The Map's order is the order of keeping; a spared entry goes to the back, where this same
    // loop meets it again, unmarked, if the others were not enough.
    for (const [oldestKey, oldest] of this.entries) {
      if (this.entries.size <= this.limits.maxEntries && this.bytes <= this.limits.maxBytes) break;
      if (oldest === newest) continue;
      this.entries.delete(oldestKey);
      if (oldest.readAgain) {
        oldest.readAgain = false;
        this.entries.set(oldestKey, oldest);
      } else {
        this.bytes -= oldest.bytes;
        this.evictions += 1;
      }
    }
  }
}
