// The product feeds in YML (docs/decisions.md, «Фиды товаров»): files under FEED_DIR, one per
// kind (the visitors' view, or a price type with the stock for the companies buying at it), built
// by reading the catalogue a batch of products at a time and written to a temporary file renamed
// into place, so that no feed, however large, is ever whole in memory. feed_files names the newest
// file of each kind for every process; a process builds one only while it holds its lease, so at
// most one build of a kind runs at a time across processes. A catalogue change marks every feed
// out of date; each is rebuilt FEED_REFRESH_SECONDS after its last build at the soonest, the
// file built before being served meanwhile.
import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, rename, rm, stat, utimes, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { SHOP_NAME } from '../../shared/page-titles';
import { FEED_OWNER_ONLY, mayManageFeed } from '../../shared/feeds';
import type { Database } from '../db/database';
import { CompanyRoleError } from '../domain/domain-errors';
import type { Member } from '../domain/company-member';
import { HIDDEN_PRICES, type PriceView } from '../domain/wholesale-price';
import { createAuditRepository } from '../repositories/audit';
import { createFeedsRepository, type FeedFileRow, type FeedVariantRow } from '../repositories/feeds';
import { photoSetsOf, type PhotoSet } from '../repositories/product-photos';
import { createPriceTypesRepository } from '../repositories/price-types';
import { createSettingsRepository } from '../repositories/settings';
import { createSupplierRequisitesRepository } from '../repositories/supplier-requisites';
import { PRICES_FOR_VISITORS_SETTING } from './price-views';
import { hashRandomToken, newRandomToken } from './tokens';
import { productOffers, YML_CLOSING, ymlOpening } from './yml';

/** Products read per query: a few megabytes of feed text at most. */
export const FEED_BATCH_PRODUCTS = 500;
/** A build's lease, renewed as it goes: a process that died holding it blocks the kind this long at most. */
const LEASE_SECONDS = 60;
const RENEW_AFTER_MS = 20_000;
/** A file replaced this long ago is no longer streamed by anyone (a feed of hundreds of MB goes out in minutes). */
const KEEP_REPLACED_MS = 30 * 60 * 1000;
/** A temporary file this old was left by a build that died. */
const KEEP_UNFINISHED_MS = 6 * 60 * 60 * 1000;
/** How often a request waiting for another process's first build looks whether it is done. */
const WAIT_POLL_MS = 250;
/** After a failed build none starts for this long, doubled at each failure in a row up to the most. */
const FIRST_BACKOFF_SECONDS = 60;
const MOST_BACKOFF_SECONDS = 60 * 60;
/** When a request that waited in vain for a first build is told to come back. */
const RETRY_AFTER_SECONDS = 60;

/**
 * Which feed: the visitors' (their view's prices, none while prices are shown only after sign-in)
 * or a price type's for the companies buying at it, with the stock. Its key names its file's row.
 */
export interface FeedKind {
  key: string;
  /** The price type of its prices; null: none. */
  typeId: number | null;
  count: boolean;
}

export const visitorsFeed = (view: PriceView): FeedKind =>
  view.types === null
    ? { key: 'visitors-hidden', typeId: null, count: false }
    : { key: `visitors-t${view.types.typeId}`, typeId: view.types.typeId, count: false };

export const companyTypeFeed = (typeId: number): FeedKind => ({ key: `company-t${typeId}`, typeId, count: true });

function kindOf(key: string): FeedKind | null {
  if (key === 'visitors-hidden') return visitorsFeed(HIDDEN_PRICES);
  const match = /^(visitors|company)-t(\d+)$/.exec(key);
  if (!match) return null;
  const typeId = Number(match[2]);
  return match[1] === 'company' ? companyTypeFeed(typeId) : { key, typeId, count: false };
}

/** A built feed to send: its file, opened (it stays readable even once swept), and when the catalogue was read for it. */
export interface FeedFile {
  ready: true;
  handle: FileHandle;
  name: string;
  builtAt: Date;
}

/** No file to send yet: the first build is under way, or failed (`failed`); ask again after that many seconds. */
export interface FeedPending {
  ready: false;
  failed: boolean;
  retryAfterSeconds: number;
}

/** A build that failed: none starts for `retryAfterSeconds`. */
class FeedBuildError extends Error {
  constructor(
    readonly retryAfterSeconds: number,
    options: ErrorOptions,
  ) {
    super('feed not built', options);
  }
}

/** Another process took the build's lease (this one's lapsed): the build stops, its work dropped. */
class LeaseLostError extends Error {
  constructor() {
    super('feed build lease lost');
  }
}

export interface FeedOptions {
  dir: string;
  refreshSeconds: number;
  log: FastifyBaseLogger;
}

/** Feed files of a kind are named `<key>-<time>-<random>.yml`; a build in progress writes `.<same>.tmp`. */
const FEED_FILE = /^(?:\.)?([a-z]+-(?:t\d+|hidden))-\d+-[\w-]+\.yml(?:\.tmp)?$/;

export class FeedFiles {
  private readonly feeds;
  private readonly building = new Map<string, Promise<boolean>>();
  private timer: NodeJS.Timeout | null = null;
  private timerAt = Infinity;
  private marking: Promise<void> | null = null;
  private markAgain = false;
  private stopped = false;

  constructor(
    private readonly db: Database,
    private readonly options: FeedOptions,
  ) {
    this.feeds = createFeedsRepository(db);
  }

  /**
   * The newest file of the kind, opened; built now if there is none yet (or waited for while
   * another process builds it), for `waitMs` at most. An out-of-date one is served, and its
   * rebuild scheduled. Pending when the first build takes longer or failed.
   */
  async file(kind: FeedKind, origin: string, waitMs: number): Promise<FeedFile | FeedPending> {
    const deadline = Date.now() + waitMs;
    for (;;) {
      let row = await this.feeds.file(kind.key);
      if (!row) {
        await this.feeds.ensureFile(kind.key, origin);
        row = await this.feeds.file(kind.key);
      }
      // Opened, not just looked for: a sweep between a look and the read would fail the request.
      const handle = row?.file && row.builtAt ? await openIfThere(this.pathOf(row.file)) : null;
      if (handle && row?.file && row.builtAt) {
        if (row.changedAt > row.builtAt) this.schedule();
        return { ready: true, handle, name: row.file, builtAt: row.builtAt };
      }
      if (row && backingOff(row))
        return { ready: false, failed: true, retryAfterSeconds: secondsUntil(row.leaseUntil!) };
      const remaining = deadline - Date.now();
      if (remaining <= 0) return { ready: false, failed: false, retryAfterSeconds: RETRY_AFTER_SECONDS };
      let built: boolean | typeof TIMED_OUT;
      try {
        // Waited for until the deadline at most; the build goes on past it, for the next request.
        built = await withinMs(this.refresh(kind.key), remaining);
      } catch (error) {
        if (error instanceof FeedBuildError)
          return { ready: false, failed: true, retryAfterSeconds: error.retryAfterSeconds };
        throw error;
      }
      if (built === TIMED_OUT) return { ready: false, failed: false, retryAfterSeconds: RETRY_AFTER_SECONDS };
      // Another process holds the build: its end is looked for now and then.
      if (!built) await delay(Math.min(WAIT_POLL_MS, remaining));
    }
  }

  /** A catalogue change: every feed is out of date; rebuilds follow as the refresh interval allows. */
  catalogueChanged(): void {
    if (this.stopped) return;
    if (this.marking) {
      this.markAgain = true;
      return;
    }
    this.marking = this.feeds
      .markChanged()
      .then(() => this.schedule())
      .catch((error: unknown) => this.options.log.warn({ err: error }, 'feeds not marked out of date'))
      .finally(() => {
        this.marking = null;
        if (this.markAgain) {
          this.markAgain = false;
          this.catalogueChanged();
        }
      });
  }

  /** Sets the timer for the soonest rebuild due of the feeds out of date. */
  schedule(): void {
    if (this.stopped) return;
    this.feeds
      .outdated()
      .then((rows) => {
        const soonest = Math.min(...rows.map((row) => this.dueAt(row)));
        // Stopped meanwhile: no timer is set any more.
        if (this.stopped || soonest === Infinity || soonest >= this.timerAt) return;
        if (this.timer) clearTimeout(this.timer);
        this.timerAt = soonest;
        this.timer = setTimeout(() => void this.refreshDue(), Math.max(0, soonest - Date.now()));
        this.timer.unref();
      })
      .catch((error: unknown) => this.options.log.warn({ err: error }, 'feed rebuilds not scheduled'));
  }

  /** Stops the timers; a build under way finishes (awaited), its file kept. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await Promise.allSettled([this.marking, ...this.building.values()]);
  }

  /** When the feed may be rebuilt: its last build plus the interval, or when another's lease lapses. */
  private dueAt(row: FeedFileRow): number {
    const afterBuild = row.builtAt ? row.builtAt.getTime() + this.options.refreshSeconds * 1000 : 0;
    const afterLease = row.leaseUntil ? row.leaseUntil.getTime() : 0;
    return Math.max(afterBuild, afterLease);
  }

  private async refreshDue(): Promise<void> {
    this.timer = null;
    this.timerAt = Infinity;
    try {
      const now = Date.now();
      const due = (await this.feeds.outdated()).filter((row) => this.dueAt(row) <= now);
      const live = due.length > 0 ? await this.liveKeys() : new Set<string>();
      for (const row of due) {
        // A kind nobody can be served any more (a type no company with an address buys at, the
        // visitors' view before the setting or the default type changed) is forgotten, not rebuilt
        // at every change; its file goes with the next sweep, and a request makes it again.
        if (live.has(row.key)) await this.refresh(row.key).catch(ignoreFailedBuild);
        else {
          const file = await this.feeds.forget(row.key);
          // Readers may still be streaming it: the sweep's grace counts from now.
          if (file) await touch(this.pathOf(file));
        }
      }
    } catch (error) {
      this.options.log.warn({ err: error }, 'feeds not rebuilt');
    }
    this.schedule();
  }

  /** The kinds a request can be served now: the visitors' view, and the types of the companies with an address. */
  private async liveKeys(): Promise<Set<string>> {
    const [types, shown, companyTypes] = await Promise.all([
      createPriceTypesRepository(this.db).catalogueTypes(),
      createSettingsRepository(this.db).get(PRICES_FOR_VISITORS_SETTING),
      this.feeds.companyFeedTypes(),
    ]);
    const visitors =
      shown === 'false'
        ? visitorsFeed(HIDDEN_PRICES)
        : visitorsFeed({
            key: '',
            types: { typeId: types.defaultTypeId, defaultTypeId: types.defaultTypeId },
            rrpTypeId: types.rrpTypeId,
          });
    return new Set([visitors.key, ...companyTypes.map((typeId) => companyTypeFeed(typeId ?? types.defaultTypeId).key)]);
  }

  /**
   * Builds the kind's feed if no process is building it; this process's build under way is joined.
   * Whether this process built it (false: another holds it, or it is backing off after a failure).
   */
  private refresh(key: string): Promise<boolean> {
    let work = this.building.get(key);
    if (!work) {
      work = this.claimAndBuild(key).finally(() => this.building.delete(key));
      this.building.set(key, work);
    }
    return work;
  }

  /** Throws FeedBuildError when the build failed (logged here, once). */
  private async claimAndBuild(key: string): Promise<boolean> {
    const kind = kindOf(key);
    if (!kind || this.stopped) return false;
    const lease = randomBytes(12).toString('base64url');
    const claim = await this.feeds.claim(key, lease, LEASE_SECONDS);
    if (!claim) return false;
    try {
      const started = Date.now();
      const name = await this.build(kind, claim.origin, lease);
      // The file replaced is counted as old from now (the sweep goes by the time it was touched),
      // so that readers streaming it have the whole grace; touched before, lest another process
      // sweep it in between.
      if (claim.file) await touch(this.pathOf(claim.file));
      if (!(await this.feeds.built(key, lease, name, claim.startedAt))) throw new LeaseLostError();
      this.options.log.info({ feed: key, file: name, ms: Date.now() - started }, 'feed built');
    } catch (error) {
      if (error instanceof LeaseLostError) {
        // Its file, if written, is nobody's: the sweep takes it. The holder now builds the feed.
        this.options.log.warn({ feed: key }, 'feed build stopped: another process took its lease');
        return false;
      }
      const seconds = await this.feeds
        .failed(key, lease, FIRST_BACKOFF_SECONDS, MOST_BACKOFF_SECONDS)
        .catch(() => FIRST_BACKOFF_SECONDS);
      this.options.log.error({ err: error, feed: key, retryAfterSeconds: seconds }, 'feed not built');
      throw new FeedBuildError(seconds ?? FIRST_BACKOFF_SECONDS, { cause: error });
    } finally {
      this.schedule();
    }
    await this.sweep().catch((error: unknown) => this.options.log.warn({ err: error }, 'old feed files not swept'));
    return true;
  }

  /** Writes the kind's feed to a new file, a batch of products at a time; its name. */
  private async build(kind: FeedKind, origin: string, lease: string): Promise<string> {
    const { dir } = this.options;
    await mkdir(dir, { recursive: true });
    const name = `${kind.key}-${Date.now()}-${randomBytes(6).toString('base64url')}.yml`;
    const temporary = path.join(dir, `.${name}.tmp`);
    const [types, requisites, categories] = await Promise.all([
      createPriceTypesRepository(this.db).catalogueTypes(),
      createSupplierRequisitesRepository(this.db).find(),
      this.feeds.categories(),
    ]);
    const prices = kind.typeId === null ? null : { ...types, typeId: kind.typeId };
    const options = { origin, prices: prices !== null, count: kind.count };
    const handle = await open(temporary, 'w');
    try {
      await handle.write(
        ymlOpening({ name: SHOP_NAME, company: requisites?.name ?? SHOP_NAME, origin }, new Date(), categories),
      );
      let renewedAt = Date.now();
      for (let after = 0; ;) {
        const products = await this.feeds.productsAfter(after, FEED_BATCH_PRODUCTS);
        if (products.length === 0) break;
        const ids = products.map((product) => product.id);
        const [variants, photos] = await Promise.all([
          this.feeds.variantsOf(ids, prices ?? { ...types, typeId: types.defaultTypeId }),
          photoSetsOf(this.db, ids),
        ]);
        const variantsBy = groupBy(variants);
        const photosBy = groupBy(photos);
        const text = products
          .map((product) =>
            productOffers(product, variantsBy.get(product.id) ?? [], photosBy.get(product.id) ?? [], options),
          )
          .join('');
        await handle.write(text);
        after = ids.at(-1)!;
        if (Date.now() - renewedAt > RENEW_AFTER_MS) {
          if (!(await this.feeds.renew(kind.key, lease, LEASE_SECONDS))) throw new LeaseLostError();
          renewedAt = Date.now();
        }
      }
      await handle.write(YML_CLOSING);
      await handle.sync();
    } catch (error) {
      await handle.close();
      await rm(temporary, { force: true });
      throw error;
    }
    await handle.close();
    await rename(temporary, path.join(dir, name));
    return name;
  }

  /**
   * Deletes the files no row names any more, once nobody can still be streaming them (a file is
   * touched when replaced), and dead builds' leftovers.
   */
  private async sweep(): Promise<void> {
    const current = await this.feeds.currentFiles();
    const now = Date.now();
    for (const entry of await readdir(this.options.dir)) {
      if (!FEED_FILE.test(entry) || current.has(entry)) continue;
      const file = path.join(this.options.dir, entry);
      const modified = (await stat(file).catch(() => null))?.mtimeMs;
      if (modified === undefined) continue;
      const keep = entry.endsWith('.tmp') ? KEEP_UNFINISHED_MS : KEEP_REPLACED_MS;
      if (now - modified > keep) await rm(file, { force: true });
    }
  }

  private pathOf(name: string): string {
    return path.join(this.options.dir, name);
  }
}

function groupBy<Row extends FeedVariantRow | PhotoSet>(rows: readonly Row[]): Map<number, Row[]> {
  const groups = new Map<number, Row[]>();
  for (const row of rows) {
    const group = groups.get(row.productId);
    if (group) group.push(row);
    else groups.set(row.productId, [row]);
  }
  return groups;
}

/** The file opened for reading; null if it is not there (swept, or lost). */
const openIfThere = (file: string): Promise<FileHandle | null> =>
  open(file, 'r').catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  });

/** Sets the file's times to now; one already gone is left so. */
const touch = async (file: string) => {
  const now = new Date();
  await utimes(file, now, now).catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  });
};

/** After a failed build, no other starts until its backoff ends; a build holding the lease is not one. */
const backingOff = (row: FeedFileRow) =>
  !row.building && row.failures > 0 && row.leaseUntil !== null && row.leaseUntil.getTime() > Date.now();

const secondsUntil = (time: Date) => Math.max(1, Math.ceil((time.getTime() - Date.now()) / 1000));

/** A failed build was logged where it failed. */
const ignoreFailedBuild = (error: unknown) => {
  if (!(error instanceof FeedBuildError)) throw error;
  return false;
};

const TIMED_OUT = Symbol('timed out');

/** The promise's value, or TIMED_OUT if it takes longer than `ms`. */
async function withinMs<T>(promise: Promise<T>, ms: number): Promise<T | typeof TIMED_OUT> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The state of a company's secret feed address, as its owner sees it. */
export interface CompanyFeedState {
  active: boolean;
  created_at: string | null;
}

/**
 * A company's secret feed address: made or replaced (the old one stops at once) and turned off
 * by its owner only, each change in the company's journal. Only the token's hash is kept.
 */
export function createCompanyFeedService(db: Database) {
  const ownerOnly = (member: Member) => {
    if (!mayManageFeed(member.role)) throw new CompanyRoleError(FEED_OWNER_ONLY);
  };
  const record = (
    tx: Parameters<Parameters<Database['transaction']>[0]>[0],
    member: Member,
    action: 'company.feed.issue' | 'company.feed.revoke',
  ) =>
    createAuditRepository(tx).record({
      byUserId: member.userId,
      action,
      entity: 'company',
      entityId: member.companyId,
    });

  return {
    async state(member: Member): Promise<CompanyFeedState> {
      ownerOnly(member);
      const createdAt = await createFeedsRepository(db).createdAt(member.companyId);
      return { active: createdAt !== null, created_at: createdAt?.toISOString() ?? null };
    },

    /** A new token (shown this once); the company's former address stops. */
    issue(member: Member): Promise<{ token: string; createdAt: Date }> {
      ownerOnly(member);
      const { token, hash } = newRandomToken();
      return db.transaction(async (tx) => {
        const createdAt = await createFeedsRepository(tx).setToken(member.companyId, hash);
        await record(tx, member, 'company.feed.issue');
        return { token, createdAt };
      });
    },

    revoke(member: Member): Promise<void> {
      ownerOnly(member);
      return db.transaction(async (tx) => {
        if (await createFeedsRepository(tx).revoke(member.companyId)) await record(tx, member, 'company.feed.revoke');
      });
    },

    /** The company whose address the token is, or null (unknown, replaced or revoked). */
    companyOf(token: string) {
      return createFeedsRepository(db).companyByToken(hashRandomToken(token));
    },
  };
}
