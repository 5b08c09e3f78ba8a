import { and, asc, desc, eq, exists, gt, gte, inArray, isNull, lte, min, sql, type SQL } from 'drizzle-orm';
import type { CatalogueFilters, Product, Variant } from '../../shared/api';
import type { Queryable } from '../db/database';
import { escapeLike } from '../db/like';
import { articleKey } from '../../shared/article-key';
import { articleNumber } from '../domain/search-query';
import {
  articleKeySql,
  articleNumberSql,
  categories,
  nameVocabulary,
  productNameSortKey,
  products,
  typoKeySql,
  variantPrices,
  variants,
} from '../db/schema';
import { priceSetOf, TierIndex } from '../domain/wholesale-price';
import { createPriceTypesRepository } from './price-types';
import type { PriceView } from '../domain/wholesale-price';

export interface Page {
  skip: number;
  limit: number;
}

/** A product as the storefront shows it, without its variants. */
export const productColumns = {
  id: products.id,
  art: products.art,
  name: products.name,
  description: products.description,
  big_description: products.bigDescription,
  image: products.image,
  multiple: products.multiple,
  min_quantity: products.minQuantity,
};

/** A variant row as both the catalogue and the order transaction read it. */
export const variantColumns = {
  id: variants.id,
  productId: variants.productId,
  color: variants.color,
  size: variants.size,
  price: variants.price,
  stock: variants.stock,
};

/** A variant with what a purchase checks of its product (domain/on-sale.ts): the order's and the cart's. */
export const stockedVariantColumns = {
  ...variantColumns,
  productName: products.name,
  productHidden: sql<boolean>`${products.hiddenAt} is not null`,
  multiple: products.multiple,
  minQuantity: products.minQuantity,
};

/** A variant as stored, with the default type's price (the back office's and the storefront's). */
export interface StoredVariant {
  id: number;
  productId: number;
  color: string;
  size: number;
  /** Decimal rubles, as stored: the default type's price. */
  price: string;
  stock: number;
  unproven_held: number;
}

/** The variants of these products, smallest first. */
export function variantsOfProducts(db: Queryable, productIds: readonly number[]): Promise<StoredVariant[]> {
  if (productIds.length === 0) return Promise.resolve([]);
  return db
    .select({ ...variantColumns, unproven_held: variants.unprovenHeld })
    .from(variants)
    .where(inArray(variants.productId, [...productIds]))
    .orderBy(asc(variants.size), asc(variants.id));
}

/** A variant's price in a type other than the default, as a scalar subquery (null: it has none). */
export const priceInType = (typeId: number) =>
  sql<string | null>`(select ${variantPrices.price} from ${variantPrices}
    where ${variantPrices.variantId} = ${variants.id} and ${variantPrices.priceTypeId} = ${typeId})`;

/**
 * A variant's price for a buyer of `view`'s type, as SQL: the type's own, else the default type's
 * (variants.price). Null when the view shows no prices.
 */
function effectivePrice(view: PriceView): SQL | null {
  if (view.types === null) return null;
  const { typeId, defaultTypeId } = view.types;
  return typeId === defaultTypeId ? sql`${variants.price}` : sql`coalesce(${priceInType(typeId)}, ${variants.price})`;
}

/**
 * The rows with their products' variants, smallest first, priced for `view`: each variant's price
 * and tiers in the buyer's type (the default type's where it has none of its own), its recommended
 * retail price, or no prices at all for a visitor while the shop shows them only after sign-in.
 */
export async function withVariants<Row extends { id: number }>(
  db: Queryable,
  rows: Row[],
  view: PriceView,
): Promise<(Row & { variants: Variant[] })[]> {
  if (rows.length === 0) return [];
  const productIds = rows.map((row) => row.id);
  const types = view.types;
  const typeId = types && types.typeId !== types.defaultTypeId ? types.typeId : null;
  const variantRows = await db
    .select({
      ...variantColumns,
      unproven_held: variants.unprovenHeld,
      typePrice: typeId === null ? sql<string | null>`null` : priceInType(typeId),
      rrp: view.rrpTypeId === null || types === null ? sql<string | null>`null` : priceInType(view.rrpTypeId),
    })
    .from(variants)
    .where(inArray(variants.productId, productIds))
    .orderBy(asc(variants.size), asc(variants.id));
  const tiers = new TierIndex(
    types === null
      ? []
      : await createPriceTypesRepository(db).tiersOfProducts(productIds, [types.typeId, types.defaultTypeId]),
  );
  const byProduct = new Map<number, Variant[]>(rows.map((row) => [row.id, []]));
  for (const { productId, price, typePrice, rrp, ...variant } of variantRows) {
    const set = types && priceSetOf({ id: variant.id, productId, price, typePrice }, types, tiers);
    byProduct.get(productId)?.push({
      ...variant,
      price: set ? set.onePiece : null,
      tiers: set ? set.tiers : [],
      tiers_scope: set?.scope ?? 'variant',
      rrp: rrp === null ? null : Number(rrp),
    });
  }
  return rows.map((row) => ({ ...row, variants: byProduct.get(row.id) ?? [] }));
}

/** The variant filters of `filters` as conditions on `variants`: none when only the order is asked for. */
function variantConditions(filters: CatalogueFilters, view: PriceView): SQL[] {
  const conditions: SQL[] = [];
  // Hidden prices are neither filtered nor sorted by: a visitor narrowing a price range would read them.
  const price = effectivePrice(view);
  if (filters.color !== undefined) conditions.push(eq(variants.color, filters.color));
  if (filters.size_min !== undefined) conditions.push(gte(variants.size, filters.size_min));
  if (filters.size_max !== undefined) conditions.push(lte(variants.size, filters.size_max));
  // numeric compared with numeric: the price as text, never a binary float.
  if (price && filters.price_min !== undefined) conditions.push(sql`${price} >= ${String(filters.price_min)}::numeric`);
  if (price && filters.price_max !== undefined) conditions.push(sql`${price} <= ${String(filters.price_max)}::numeric`);
  if (filters.in_stock) conditions.push(gt(variants.stock, 0));
  return conditions;
}

/**
 * How close (pg_trgm's word_similarity) a word of a query must come to a word of the names to be
 * taken for it, and a query to a name for the name to rank as a typo match. The extension's
 * default, 0.6, misses «медвдь» for «медведь» (0.57); at 0.5 «медведь большой», compared with whole
 * names, found every «медведь …» (0.5), one word being enough.
 */
const TYPO_SIMILARITY = 0.55;

/** A page of a search, and how many matches the query ranks in all (0: it finds nothing). */
export interface SearchPage {
  products: Product[];
  ranked: number;
}

/** The most matches of each kind (article, name, any words, typo) that a search ranks. */
export const SEARCH_CANDIDATES = 200;

export function createProductsRepository(db: Queryable) {
  /** The product's own variants (by the variants_product_* indexes) that pass `conditions`. */
  const matchingVariants = (conditions: SQL[]) => and(eq(variants.productId, products.id), ...conditions);

  /**
   * A category page's order: SPEC's by id when none is asked for. By price, each product counts at
   * the lowest price among its variants that pass the filters (the price the buyer is looking for),
   * products without such a price last; ties go by id, so pages never overlap.
   */
  function categoryOrder(sort: CatalogueFilters['sort'], conditions: SQL[], view: PriceView): SQL[] {
    const price = effectivePrice(view);
    // Unfiltered and in the default type, the lowest of all the variants' prices: kept in
    // products.min_price, whose indexes give a page without pricing the whole category. Another
    // type's prices are priced here (its answers are kept in the cache per type).
    const lowestPrice = () =>
      conditions.length === 0 && view.types?.typeId === view.types?.defaultTypeId
        ? sql`${products.minPrice}`
        : sql`(${db
            .select({ price: min(price!) })
            .from(variants)
            .where(matchingVariants(conditions))})`;
    switch (price === null && (sort === 'price_asc' || sort === 'price_desc') ? undefined : sort) {
      case 'price_asc':
        return [sql`${lowestPrice()} asc nulls last`, asc(products.id)];
      case 'price_desc':
        return [sql`${lowestPrice()} desc nulls last`, asc(products.id)];
      // Case-insensitive, and ё with е as dictionaries have it, the same under any database collation.
      case 'name':
        return [productNameSortKey(products.name), asc(products.id)];
      case 'new':
        return [desc(products.createdAt), desc(products.id)];
      default:
        return [asc(products.id)];
    }
  }

  async function categoryIdOf(name: string): Promise<number | null> {
    const [found] = await db.select({ id: categories.id }).from(categories).where(eq(categories.name, name));
    return found?.id ?? null;
  }

  /**
   * One page of products in `order`. The page's ids are found first, from the ordering index
   * alone (an index-only scan once the table has been vacuumed), then only those rows are read.
   * Read in the same scan, every skipped product was fetched too: page 1001 of a category of
   * 12 500 products took 63 ms on PostgreSQL, 1.3 ms this way (bench/growth.ts).
   */
  async function page(
    where: SQL | undefined,
    order: SQL[],
    { skip, limit }: Page,
    view: PriceView,
  ): Promise<Product[]> {
    const pageIds = db
      .select({ id: products.id })
      .from(products)
      // Hidden products are not in the storefront's partial indexes, nor on its pages.
      .where(and(isNull(products.hiddenAt), where))
      .orderBy(...order)
      .limit(limit)
      .offset(skip);
    const rows = await db
      .select(productColumns)
      .from(products)
      .where(inArray(products.id, pageIds))
      .orderBy(...order);
    return withVariants(db, rows, view);
  }

  return {
    list(paging: Page, view: PriceView): Promise<Product[]> {
      return page(undefined, [asc(products.id)], paging, view);
    },

    /** The managers' picks first, then most units ordered, then the shop's curated rank; documented in README. */
    listPopular(paging: Page, view: PriceView): Promise<Product[]> {
      return page(
        undefined,
        [desc(products.popular), desc(products.unitsOrdered), asc(products.curatedRank), asc(products.id)],
        paging,
        view,
      );
    },

    /**
     * `null` when there is no such category, an empty list when the page is past its end. With
     * variant filters, a product is listed when at least one of its variants passes them all; its
     * answer still carries every variant, as its own page does.
     */
    async listByCategory(category: string, query: Page & CatalogueFilters, view: PriceView): Promise<Product[] | null> {
      const categoryId = await categoryIdOf(category);
      if (categoryId === null) return null;
      const conditions = variantConditions(query, view);
      // With the category named, PostgreSQL can read this category's variants alone, in product
      // order, and merge them with its products (variants_category_color_product_idx for a colour,
      // variants_category_product_idx for sizes and prices) instead of looking into each product's
      // variants in turn: page 30 by colour read the colour's variants of every category (9 000
      // for 270 products). Stock is in no index (an order's stock change would have to write it):
      // by stock alone, each product's own variants are read.
      const byIndexedValue = [query.color, query.size_min, query.size_max, query.price_min, query.price_max].some(
        (value) => value !== undefined,
      );
      const ofCategory = byIndexedValue ? [eq(variants.categoryId, categoryId)] : [];
      const matching =
        conditions.length > 0
          ? exists(
              db
                .select({ one: sql`1` })
                .from(variants)
                .where(matchingVariants([...ofCategory, ...conditions])),
            )
          : undefined;
      return page(
        and(eq(products.categoryId, categoryId), matching),
        categoryOrder(query.sort, conditions, view),
        query,
        view,
      );
    },

    /** The colours of the category's visible products, for its colour filter; `null` when there is no such category. */
    async categoryColors(category: string): Promise<string[] | null> {
      const categoryId = await categoryIdOf(category);
      if (categoryId === null) return null;
      const rows = await db
        .selectDistinct({ color: variants.color })
        .from(variants)
        .innerJoin(products, eq(products.id, variants.productId))
        .where(and(eq(products.categoryId, categoryId), isNull(products.hiddenAt)))
        .orderBy(asc(variants.color));
      return rows.map((row) => row.color);
    },

    /**
     * Products whose article is `query` or begins with it (folded: case, spaces, hyphens and
     * Cyrillic look-alikes aside; a number alone as the article's number), whose name or description
     * has its words in any form (`forms`, every dictionary form of each word, services/word-forms.ts;
     * without them the Russian stemmer alone: «мишки» finds «Мишка»), whose category's name has
     * them, or whose name has them with a typo (the closest words of the names' vocabulary, by
     * trigrams). Article matches come first (the exact one before the prefixed), then name
     * matches, then the category's, then names with a typo, then description-only ones; within
     * each, the closer match first. Each kind of match is found by its own index (migrations 0008,
     * 0010, 0020, 0026), at most SEARCH_CANDIDATES of it. With the page, how many matches it
     * ranks in all, so that a page past the end tells a query that finds nothing.
     */
    search(query: string, forms: string[] | null, { skip, limit }: Page, view: PriceView): Promise<SearchPage> {
      // The query's words as a tsquery, made by the transaction's first statement (below). Each
      // word as any of its forms' stems, every word required: `('мишк' | 'мишек') & (…)`. The
      // forms are stemmed here, so the query names each stem once (ten forms of a noun are two or
      // three stems): a stem more is a posting list more for the index and an operand more for
      // every candidate's ts_rank, and the forms unstemmed made a word search 2–3 times slower. A
      // word of stop words only gives no group.
      const anyStem = (text: string) =>
        sql`'(' || nullif(array_to_string(array(select quote_literal(stem) from
          unnest(tsvector_to_array(to_tsvector('russian', ${text}))) as stem), ' | '), '') || ')'`;
      const queryWords =
        forms === null
          ? sql`websearch_to_tsquery('russian', ${query})`
          : sql`to_tsquery('simple', array_to_string(array_remove(array[${sql.join(forms.map(anyStem), sql`, `)}], null), ' & '))`;
      const key = articleKey(query);
      const number = articleNumber(query);
      const artKey = articleKeySql(products.art);
      const artNumber = articleNumberSql(products.art);
      // A ranked candidate's article folded once (`folded` below), not once per comparison: the
      // regular expressions were compared up to five times a candidate.
      const foldedArticle = sql`(select ${artKey} as key${number === null ? sql`` : sql`, ${artNumber} as number`}
        offset 0) as folded`;
      // LIKE's own wildcards in the query are literal: «mo_1» is not a pattern. A query with no
      // letter or digit is no article.
      const artPrefix = key
        ? number === null
          ? sql`folded.key like ${escapeLike(key)} || '%'`
          : sql`(folded.key like ${escapeLike(key)} || '%' or folded.number like ${number} || '%')`
        : sql`false`;
      const artExact =
        number === null ? sql`folded.key = ${key}` : sql`(folded.key = ${key} or folded.number = ${number})`;
      // The ranking below reads every candidate's words and trigrams (a word in 100 000 names took
      // 1.7 s), so each kind of match brings at most SEARCH_CANDIDATES, found by its index: the
      // first articles in order, the others in the order the planner reads them (the table's, or
      // for a word in most names an index's: products_popular_idx's on the grown shop; the same
      // for every page of a query). Description-only and typo matches rank after name matches:
      // when those fill the candidates, they are not looked for (a scan of either index for a
      // word in every name costs 20 ms). A query with fewer matches of each kind ranks them all.
      const candidates = (condition: SQL, order?: SQL) =>
        sql`(select ${products.id} from ${products} where ${products.hiddenAt} is null and ${condition}
          ${order ? sql`order by ${order}` : sql``} limit ${SEARCH_CANDIDATES})`;
      const articleCandidates = key
        ? sql`${candidates(sql`${artKey} like ${escapeLike(key)} || '%'`, sql`${artKey} using ~<~`)}
          ${number === null ? sql`` : sql`union ${candidates(sql`${artNumber} like ${number} || '%'`, sql`${artNumber} using ~<~`)}`}`
        : sql`(select null::integer where false)`;
      // The categories whose name has the words (a few dozen names, stemmed as they are read).
      const inCategoryOf = (words: SQL) => sql`${products.categoryId} in (select ${categories.id} from ${categories}
        where to_tsvector('russian', ${categories.name}) @@ ${words})`;
      // A typo: each word of the query as written, replaced by the word of the names' vocabulary
      // closest to it (word_similarity at least the threshold, as `<%` tests, both with «ё», «э» as
      // «е» and «о» as «а»: typoKeySql; the commoner word on a tie; the word itself when it is
      // there), or kept when none is; the names with all of those words, in any form, are typo
      // matches: «медвдь» means «медведь», and finds «Медведь» and «медведя».
      const typed = typoKeySql(sql`typed.word`);
      const known = typoKeySql(nameVocabulary.word);
      const meant = sql`(select string_agg(coalesce((
          select ${nameVocabulary.word} from ${nameVocabulary} where ${typed} <% ${known}
          order by word_similarity(${typed}, ${known}) desc, ${nameVocabulary.products} desc,
            ${nameVocabulary.word}
          limit 1), typed.word), ' ')
        from unnest(tsvector_to_array(to_tsvector('simple', ${query}))) as typed(word))`;
      // Materialized: counted without a second scan of the names' index.
      const fewNameMatches = sql`(select count(*) from name_matches) < ${SEARCH_CANDIDATES}`;
      // Article matches first (the exact one before the prefixed), then name matches, then typos
      // (`<%`: word_similarity at least the threshold), then description-only ones; within each,
      // the closer match first; the article last, unique, so that the pages of a query never
      // overlap («mo-10» lists MO-10, MO-100, MO-1008 in order). `scored` is materialized so that
      // each candidate's trigrams are compared once, for its kind and its order alike (twice was a
      // quarter of a typo search on the embedded database). An article match's name is not compared
      // (its kind decides, and the article orders it; the comparison was half of its ranking);
      // pg_trgm folds case itself. The page's products are read in the same statement, in order.
      // The columns every catalogue read returns, under the names it returns them by.
      const pageColumns = sql.join(
        Object.entries(productColumns).map(([key, column]) => sql`${column} as ${sql.identifier(key)}`),
        sql`, `,
      );
      const rankedBy = (words: SQL) => {
        const inCategory = inCategoryOf(words);
        return sql`
        with name_matches as materialized ${candidates(sql`${products.nameVector} @@ ${words}`)},
        found as (
          ${articleCandidates}
          union select id from name_matches
          union ${candidates(inCategory)}
          union ${candidates(sql`${products.searchVector} @@ ${words} and ${fewNameMatches}`)}
          union ${candidates(sql`${products.nameVector} @@ plainto_tsquery('russian', ${meant}) and ${fewNameMatches}`)}),
        scored as materialized (
          select ${products.id} as id, ${products.art} as art,
            case when ${artExact} then 0
                 when ${artPrefix} then 1
                 when ${products.nameVector} @@ ${words} then 2
                 when ${inCategory} then 3 end as kind,
            ts_rank(${products.searchVector}, ${words}) as rank,
            case when ${artPrefix} then 0
                 else word_similarity(${typoKeySql(sql`${query}`)}, ${typoKeySql(sql`lower(${products.name})`)}) end as closeness
          from ${products} cross join lateral ${foldedArticle}
          where ${products.id} in (select id from found)),
        page as (
          select id, row_number() over (
              order by coalesce(kind, case when closeness >= ${TYPO_SIMILARITY}::float8 then 4 else 5 end),
                rank desc, closeness desc, art) as position
          from scored order by position limit ${limit} offset ${skip})
        select ${pageColumns}, ranked.count as ranked
        from (select count(*)::integer as count from scored) as ranked
          left join (page join ${products} using (id)) on true
        order by page.position`;
      };
      return db.transaction(async (tx) => {
        // `<%` reads its threshold from this setting; `true` keeps each to this transaction. The
        // candidates found as the index finds them must be the same for every page of a query:
        // a bitmap scan visits the table in its order, a sequential scan may start where another
        // one is (synchronized scans), a parallel one in any order. (Forbidding them costs every
        // plan 10^10: the pool's connections never JIT-compile, db/postgres-database.ts.)
        //
        // The query's tsquery is made by this first statement, and the ranking gets it as a
        // constant. Made in the ranking itself, from the forms' stems (a subquery), it was a value
        // PostgreSQL learns only while running the statement: it was made again for every
        // candidate ranked (its `@@` and its ts_rank), and the planner, blind to how many names
        // have the words, read the names' whole index for a word in every name (100 000 of them:
        // 25 ms on PostgreSQL) where, knowing it, it reads names in an index's order until it has
        // the candidates (2.5 ms). docs/performance.md, «Search, the sixth pass».
        const {
          rows: [made],
        } = (await tx.execute(
          sql`select set_config('pg_trgm.word_similarity_threshold', ${String(TYPO_SIMILARITY)}, true),
                     set_config('enable_seqscan', 'off', true),
                     set_config('max_parallel_workers_per_gather', '0', true),
                     (${queryWords})::text as words`,
        )) as unknown as { rows: { words: string }[] };
        const { rows } = (await tx.execute(rankedBy(sql`${made!.words}::tsquery`))) as unknown as {
          rows: ((Omit<Product, 'variants'> & { ranked: number }) | { id: null; ranked: number })[];
        };
        const pageRows = rows.flatMap(({ ranked: _, ...row }) =>
          row.id === null ? [] : [row as Omit<Product, 'variants'>],
        );
        return { products: await withVariants(tx, pageRows, view), ranked: rows[0]?.ranked ?? 0 };
      });
    },

    /** The products on sale among these articles, in one read (an article not on sale is left out). */
    async findByArts(arts: readonly string[], view: PriceView): Promise<Product[]> {
      const rows = await db
        .select(productColumns)
        .from(products)
        .where(and(inArray(products.art, [...new Set(arts)]), isNull(products.hiddenAt)))
        .orderBy(asc(products.id));
      return withVariants(db, rows, view);
    },

    async findByArt(art: string, view: PriceView): Promise<Product | null> {
      const rows = await db
        .select(productColumns)
        .from(products)
        .where(and(eq(products.art, art), isNull(products.hiddenAt)));
      const [product] = await withVariants(db, rows, view);
      return product ?? null;
    },

    async categoryNames(): Promise<string[]> {
      const rows = await db
        .select({ name: categories.name })
        .from(categories)
        .orderBy(asc(categories.position), asc(categories.id));
      return rows.map((row) => row.name);
    },
  };
}

export type ProductsRepository = ReturnType<typeof createProductsRepository>;
