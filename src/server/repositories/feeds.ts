// The product feeds' SQL: the companies' secret addresses (company_feeds), the built files every
// process serves (feed_files), and the catalogue as a feed reads it, a batch of products at a time.
// Rows or null only; the rules are services/feeds.ts's.
import { and, asc, eq, exists, gt, inArray, isNull, or, lt, sql } from 'drizzle-orm';
import { alias, type AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Queryable } from '../db/database';
import { categories, companies, companyFeeds, feedFiles, products, variantPrices, variants } from '../db/schema';

/** The company a secret feed address belongs to, as its feed needs it. */
export interface FeedCompanyRow {
  companyId: number;
  blocked: boolean;
  /** null: the default type. */
  priceTypeId: number | null;
}

export interface FeedFileRow {
  key: string;
  file: string | null;
  builtAt: Date | null;
  changedAt: Date;
  origin: string;
  leaseUntil: Date | null;
  /** A build holds the feed now (its lease id is set). */
  building: boolean;
  /** The failed builds in a row since the last one that ended. */
  failures: number;
}

export interface FeedProductRow {
  id: number;
  art: string;
  name: string;
  description: string | null;
  image: string;
  categoryId: number;
  brand: string | null;
  material: string | null;
  filler: string | null;
  ageFrom: number | null;
  countryOfOrigin: string | null;
}

export interface FeedVariantRow {
  id: number;
  productId: number;
  color: string;
  size: number;
  stock: number;
  /** The feed's type's price (the default type's where it has none); decimal rubles. */
  price: string;
  /** The recommended retail price, or null. */
  rrp: string | null;
  barcode: string | null;
  packageLengthMm: number | null;
  packageWidthMm: number | null;
  packageHeightMm: number | null;
  weightG: number | null;
}

const fileColumns = {
  key: feedFiles.key,
  file: feedFiles.file,
  builtAt: feedFiles.builtAt,
  changedAt: feedFiles.changedAt,
  origin: feedFiles.origin,
  leaseUntil: feedFiles.leaseUntil,
  building: sql<boolean>`${feedFiles.leaseId} is not null`,
  failures: feedFiles.failures,
};

/** A join of a variant's price in the type; with no type, none. */
const pricesIn = (prices: { variantId: AnyPgColumn; priceTypeId: AnyPgColumn }, typeId: number | null) =>
  typeId === null ? sql`false` : and(eq(prices.variantId, variants.id), eq(prices.priceTypeId, typeId));

const leaseEnd = (seconds: number) => sql`now() + ${seconds}::float8 * interval '1 second'`;

export function createFeedsRepository(db: Queryable) {
  const visible = isNull(products.hiddenAt);
  return {
    /** Sets the company's address, replacing the one it had (whose hash no longer finds it). */
    async setToken(companyId: number, tokenHash: string): Promise<Date> {
      const [row] = await db
        .insert(companyFeeds)
        .values({ companyId, tokenHash })
        .onConflictDoUpdate({ target: companyFeeds.companyId, set: { tokenHash, createdAt: sql`now()` } })
        .returning({ createdAt: companyFeeds.createdAt });
      return row!.createdAt;
    },

    /** Whether there was an address to revoke. */
    async revoke(companyId: number): Promise<boolean> {
      const rows = await db
        .delete(companyFeeds)
        .where(eq(companyFeeds.companyId, companyId))
        .returning({ companyId: companyFeeds.companyId });
      return rows.length > 0;
    },

    async createdAt(companyId: number): Promise<Date | null> {
      const [row] = await db
        .select({ createdAt: companyFeeds.createdAt })
        .from(companyFeeds)
        .where(eq(companyFeeds.companyId, companyId));
      return row?.createdAt ?? null;
    },

    async companyByToken(tokenHash: string): Promise<FeedCompanyRow | null> {
      const [row] = await db
        .select({
          companyId: companies.id,
          blocked: sql<boolean>`${companies.blockedAt} is not null`,
          priceTypeId: companies.priceTypeId,
        })
        .from(companyFeeds)
        .innerJoin(companies, eq(companies.id, companyFeeds.companyId))
        .where(eq(companyFeeds.tokenHash, tokenHash));
      return row ?? null;
    },

    async file(key: string): Promise<FeedFileRow | null> {
      const [row] = await db.select(fileColumns).from(feedFiles).where(eq(feedFiles.key, key));
      return row ?? null;
    },

    /** The row of a feed not asked for before, its addresses at `origin`; an existing one is kept. */
    async ensureFile(key: string, origin: string): Promise<void> {
      await db.insert(feedFiles).values({ key, origin }).onConflictDoNothing();
    },

    /** Every feed is out of date from now. */
    async markChanged(): Promise<void> {
      await db.update(feedFiles).set({ changedAt: sql`now()` });
    },

    /** The feeds changed since built (or never built), oldest built first. */
    async outdated(): Promise<FeedFileRow[]> {
      return db
        .select(fileColumns)
        .from(feedFiles)
        .where(or(isNull(feedFiles.builtAt), gt(feedFiles.changedAt, feedFiles.builtAt)))
        .orderBy(asc(feedFiles.builtAt));
    },

    /**
     * Takes the feed's build for `seconds` if nobody holds it (or the holder's lease lapsed): one
     * conditional update, so of processes asking at once one gets it. The database's clock at the
     * claim, which the build's file is then as of; null when another holds it.
     */
    async claim(
      key: string,
      leaseId: string,
      seconds: number,
    ): Promise<{ startedAt: Date; origin: string; file: string | null } | null> {
      const [row] = await db
        .update(feedFiles)
        .set({ leaseUntil: sql`${leaseEnd(seconds)}`, leaseId })
        .where(and(eq(feedFiles.key, key), or(isNull(feedFiles.leaseUntil), lt(feedFiles.leaseUntil, sql`now()`))))
        .returning({
          startedAt: sql<Date>`now()`.mapWith(feedFiles.builtAt),
          origin: feedFiles.origin,
          file: feedFiles.file,
        });
      return row ?? null;
    },

    /** Whether the lease `leaseId` was still held (and is now extended). */
    async renew(key: string, leaseId: string, seconds: number): Promise<boolean> {
      const rows = await db
        .update(feedFiles)
        .set({ leaseUntil: sql`${leaseEnd(seconds)}` })
        .where(and(eq(feedFiles.key, key), eq(feedFiles.leaseId, leaseId)))
        .returning({ key: feedFiles.key });
      return rows.length > 0;
    },

    /**
     * The build is done: `file`, as of `startedAt`, is the one to serve; the lease is given up.
     * False (nothing changed) when `leaseId` no longer holds it.
     */
    async built(key: string, leaseId: string, file: string, startedAt: Date): Promise<boolean> {
      const rows = await db
        .update(feedFiles)
        .set({ file, builtAt: startedAt, leaseUntil: null, leaseId: null, failures: 0 })
        .where(and(eq(feedFiles.key, key), eq(feedFiles.leaseId, leaseId)))
        .returning({ key: feedFiles.key });
      return rows.length > 0;
    },

    /**
     * The build failed: the lease is given up, and no build may start for `firstSeconds` doubled
     * at each failure in a row, `maxSeconds` at most. Those seconds; null when `leaseId` no longer
     * held it.
     */
    async failed(key: string, leaseId: string, firstSeconds: number, maxSeconds: number): Promise<number | null> {
      const backoff = sql`least(${firstSeconds}::float8 * power(2, ${feedFiles.failures}), ${maxSeconds}::float8)`;
      const [row] = await db
        .update(feedFiles)
        .set({
          leaseUntil: sql`now() + ${backoff} * interval '1 second'`,
          leaseId: null,
          failures: sql`${feedFiles.failures} + 1`,
        })
        .where(and(eq(feedFiles.key, key), eq(feedFiles.leaseId, leaseId)))
        .returning({
          seconds:
            sql<number>`least(${firstSeconds}::float8 * power(2, ${feedFiles.failures} - 1), ${maxSeconds}::float8)`.mapWith(
              Number,
            ),
        });
      return row?.seconds ?? null;
    },

    /** The price types of the companies that have a feed address (null: the default type). */
    async companyFeedTypes(): Promise<(number | null)[]> {
      const rows = await db
        .selectDistinct({ priceTypeId: companies.priceTypeId })
        .from(companyFeeds)
        .innerJoin(companies, eq(companies.id, companyFeeds.companyId));
      return rows.map((row) => row.priceTypeId);
    },

    /** A kind no longer served: its row goes, its file with the next sweep. The file it named, if any. */
    async forget(key: string): Promise<string | null> {
      const [row] = await db.delete(feedFiles).where(eq(feedFiles.key, key)).returning({ file: feedFiles.file });
      return row?.file ?? null;
    },

    /** Every file a row names: the ones to keep when old files are swept. */
    async currentFiles(): Promise<Set<string>> {
      const rows = await db.select({ file: feedFiles.file }).from(feedFiles);
      return new Set(rows.flatMap((row) => (row.file ? [row.file] : [])));
    },

    /** The categories with a product on sale, in the catalogue's order. */
    categories(): Promise<{ id: number; name: string }[]> {
      return db
        .select({ id: categories.id, name: categories.name })
        .from(categories)
        .where(
          exists(
            db
              .select({ one: sql`1` })
              .from(products)
              .where(and(eq(products.categoryId, categories.id), visible)),
          ),
        )
        .orderBy(asc(categories.position), asc(categories.id));
    },

    /** The next `limit` products on sale after product `afterId` (keyset by id). */
    productsAfter(afterId: number, limit: number): Promise<FeedProductRow[]> {
      return db
        .select({
          id: products.id,
          art: products.art,
          name: products.name,
          description: products.description,
          image: products.image,
          categoryId: products.categoryId,
          brand: products.brand,
          material: products.material,
          filler: products.filler,
          ageFrom: products.ageFrom,
          countryOfOrigin: products.countryOfOrigin,
        })
        .from(products)
        .where(and(visible, gt(products.id, afterId)))
        .orderBy(asc(products.id))
        .limit(limit);
    },

    /** These products' variants priced in type `typeId` (the default one's price where it has none). */
    variantsOf(
      productIds: readonly number[],
      { typeId, defaultTypeId, rrpTypeId }: { typeId: number; defaultTypeId: number; rrpTypeId: number | null },
    ): Promise<FeedVariantRow[]> {
      if (productIds.length === 0) return Promise.resolve([]);
      const typePrices = alias(variantPrices, 'type_prices');
      const rrpPrices = alias(variantPrices, 'rrp_prices');
      const ownType = typeId === defaultTypeId ? null : typeId;
      return db
        .select({
          id: variants.id,
          productId: variants.productId,
          color: variants.color,
          size: variants.size,
          stock: variants.stock,
          price: sql<string>`coalesce(${typePrices.price}, ${variants.price})`,
          rrp: rrpPrices.price,
          barcode: variants.barcode,
          packageLengthMm: variants.packageLengthMm,
          packageWidthMm: variants.packageWidthMm,
          packageHeightMm: variants.packageHeightMm,
          weightG: variants.weightG,
        })
        .from(variants)
        .leftJoin(typePrices, pricesIn(typePrices, ownType))
        .leftJoin(rrpPrices, pricesIn(rrpPrices, rrpTypeId))
        .where(inArray(variants.productId, [...productIds]))
        .orderBy(asc(variants.productId), asc(variants.color), asc(variants.size), asc(variants.id));
    },
  };
}

export type FeedsRepository = ReturnType<typeof createFeedsRepository>;
