import { and, asc, eq, gt, inArray, isNull, lt, max, ne, or, sql } from 'drizzle-orm';
import type { Database, Queryable, Transaction } from '../db/database';
import { categories, priceListPreviewRows, priceListPreviews, products, variants } from '../db/schema';
import { brokenUniqueConstraint } from '../db/unique-violation';
import { decimalToKopecks, kopecksToDecimal } from '../../shared/money';
import {
  variantKey,
  type NumberedRow,
  type PreviewedRow as PreviewRow,
  type PriceListRow,
  type ImportOutcome,
} from '../domain/price-list-rows';
import { announceCatalogueChange } from '../db/notifications';
import {
  auditedImport,
  newProductsOf,
  planImport,
  previewRowsOf,
  samePreview,
  type ExistingProduct,
  type ExistingVariant,
  type ImportPlan,
  type ShopState,
} from '../domain/price-list-plan';
import { createAuditRepository } from './audit';
import { variantColumns } from './products';

// Any constant shared by all processes of this shop; pg_advisory_xact_lock keys are bigints.
const IMPORT_LOCK_KEY = 7_130_512_018;
/** Rows per statement: well under PostgreSQL's 65 535 bind parameters. */
const CHUNK = 1000;
/** How long a dry run's preview can be read and applied: long enough to look through a big file. */
const PREVIEW_HOURS = 4;
const PREVIEW_ROWS_PER_STATEMENT = 10_000;

export interface ImportOptions {
  dryRun: boolean;
  byUserId: number;
  /** A dry run of a file without errors of its own keeps what it found as a preview. */
  keepPreview?: boolean;
  /** The picture of a product the import creates (services/catalogue-images.ts). */
  newProductImage: string;
}

/**
 * Why an import or a preview's application wrote nothing, for the service to say: the preview is
 * not the manager's or has expired; the catalogue now differs from what the preview showed; a
 * product with one of the new articles was added while the import ran.
 */
export type ImportRefusal = 'preview-not-found' | 'changed-since-preview' | 'changed-during-import';

function chunks<T>(items: T[]): T[][] {
  const result: T[][] = [];
  for (let start = 0; start < items.length; start += CHUNK) result.push(items.slice(start, start + CHUNK));
  return result;
}

async function findProducts(tx: Transaction, arts: string[]): Promise<Map<string, ExistingProduct>> {
  const found = new Map<string, ExistingProduct>();
  for (const part of chunks(arts)) {
    const rows = await tx
      .select({
        id: products.id,
        art: products.art,
        name: products.name,
        categoryId: products.categoryId,
        category: categories.name,
        hiddenAt: products.hiddenAt,
      })
      .from(products)
      .innerJoin(categories, eq(categories.id, products.categoryId))
      .where(inArray(products.art, part));
    for (const { art, hiddenAt, ...product } of rows) found.set(art, { ...product, hidden: hiddenAt !== null });
  }
  return found;
}

/** The variants of these products by article, colour and size; locked when the import will write. */
async function findVariants(
  tx: Transaction,
  productsByArt: Map<string, ExistingProduct>,
  lock: boolean,
): Promise<Map<string, ExistingVariant>> {
  const artById = new Map([...productsByArt].map(([art, product]) => [product.id, art]));
  const found = new Map<string, ExistingVariant>();
  for (const part of chunks([...artById.keys()])) {
    const query = tx
      .select(variantColumns)
      .from(variants)
      .where(inArray(variants.productId, part))
      // Id order, as the order transaction locks them, so the two cannot deadlock.
      .orderBy(asc(variants.id));
    for (const variant of lock ? await query.for('update') : await query) {
      const art = artById.get(variant.productId)!;
      found.set(variantKey({ art, color: variant.color, size: variant.size }), {
        id: variant.id,
        priceKopecks: decimalToKopecks(variant.price),
        stock: variant.stock,
      });
    }
  }
  return found;
}

/** Sets price and stock of many variants, a thousand per statement. */
async function updateVariants(tx: Transaction, changed: { id: number; priceKopecks: number; stock: number }[]) {
  for (const part of chunks(changed)) {
    const values = sql.join(
      part.map(
        (variant) =>
          sql`(${variant.id}::int, ${kopecksToDecimal(variant.priceKopecks)}::numeric, ${variant.stock}::int)`,
      ),
      sql`, `,
    );
    await tx.execute(
      sql`update ${variants} set price = given.price, stock = given.stock
          from (values ${values}) as given(id, price, stock) where ${variants.id} = given.id`,
    );
  }
}

/** The shop's categories, and its products and variants the rows name; the variants locked when the import will write. */
async function readShop(tx: Transaction, rows: NumberedRow[], lock: boolean): Promise<ShopState> {
  const categoryRows = await tx.select({ id: categories.id, name: categories.name }).from(categories);
  const productsByArt = await findProducts(tx, [...new Set(rows.map((row) => row.art))]);
  return {
    categoryIds: new Map(categoryRows.map((category) => [category.name, category.id])),
    productsByArt,
    variantsByKey: await findVariants(tx, productsByArt, lock),
  };
}

const previewRowColumns = {
  row: priceListPreviewRows.row,
  kind: priceListPreviewRows.kind,
  newProduct: priceListPreviewRows.newProduct,
  art: priceListPreviewRows.art,
  name: priceListPreviewRows.name,
  category: priceListPreviewRows.category,
  color: priceListPreviewRows.color,
  size: priceListPreviewRows.size,
  price: priceListPreviewRows.price,
  stock: priceListPreviewRows.stock,
  oldName: priceListPreviewRows.oldName,
  oldCategory: priceListPreviewRows.oldCategory,
  oldPrice: priceListPreviewRows.oldPrice,
  oldStock: priceListPreviewRows.oldStock,
};

type StoredPreviewRow = { price: string; oldPrice: string | null } & Omit<
  PreviewRow,
  'priceKopecks' | 'oldPriceKopecks'
>;

// The key order of PreviewRow as previewRowsOf builds it, so the two compare as JSON.
const previewRowOfStored = ({ price, oldPrice, ...stored }: StoredPreviewRow): PreviewRow => ({
  art: stored.art,
  name: stored.name,
  category: stored.category,
  color: stored.color,
  size: stored.size,
  priceKopecks: decimalToKopecks(price),
  stock: stored.stock,
  row: stored.row,
  kind: stored.kind,
  newProduct: stored.newProduct,
  oldName: stored.oldName,
  oldCategory: stored.oldCategory,
  oldPriceKopecks: oldPrice === null ? null : decimalToKopecks(oldPrice),
  oldStock: stored.oldStock,
});

/** Keeps a dry run's rows for a manager: his earlier preview and everyone's expired ones go. */
async function keepPreview(tx: Transaction, userId: number, plan: ImportPlan, shop: ShopState) {
  await tx
    .delete(priceListPreviews)
    .where(or(eq(priceListPreviews.userId, userId), lt(priceListPreviews.expiresAt, sql`now()`)));
  const [preview] = await tx
    .insert(priceListPreviews)
    .values({
      userId,
      created: plan.created.length,
      updated: plan.updated.length,
      unchanged: plan.unchanged.length,
      newProducts: newProductsOf(plan, shop),
      expiresAt: sql`now() + make_interval(hours => ${PREVIEW_HOURS})`,
    })
    .returning({ id: priceListPreviews.id, expiresAt: priceListPreviews.expiresAt });
  // Each row as one JSON document, ten thousand to a statement: bound one by one (15 parameters a
  // row) the 50 000 rows of a big file took 22–33 s to write on PGlite, as JSON 2–3 s.
  const rows = previewRowsOf(plan, shop);
  for (let start = 0; start < rows.length; start += PREVIEW_ROWS_PER_STATEMENT) {
    const part = rows.slice(start, start + PREVIEW_ROWS_PER_STATEMENT).map((row) => ({
      row: row.row,
      kind: row.kind,
      new_product: row.newProduct,
      art: row.art,
      name: row.name,
      category: row.category,
      color: row.color,
      size: row.size,
      price: kopecksToDecimal(row.priceKopecks),
      stock: row.stock,
      old_name: row.oldName,
      old_category: row.oldCategory,
      old_price: row.oldPriceKopecks === null ? null : kopecksToDecimal(row.oldPriceKopecks),
      old_stock: row.oldStock,
    }));
    await tx.execute(sql`
      insert into ${priceListPreviewRows}
        (preview_id, row, kind, new_product, art, name, category, color, size, price, stock,
         old_name, old_category, old_price, old_stock)
      select ${preview!.id}::uuid, row, kind, new_product, art, name, category, color, size, price, stock,
             old_name, old_category, old_price, old_stock
      from jsonb_to_recordset(${JSON.stringify(part)}::jsonb) as given(
        row int, kind text, new_product boolean, art text, name text, category text, color text, size int,
        price numeric(12, 2), stock int, old_name text, old_category text, old_price numeric(12, 2), old_stock int
      )`);
  }
  return preview!;
}

/** Writes a plan without errors; answers the articles of the products it made. */
async function writePlan(
  tx: Transaction,
  { created, updated }: ImportPlan,
  { categoryIds, productsByArt }: ShopState,
  newProductImage: string,
): Promise<string[]> {
  // A product takes the name and category of its rows (the file was checked: they all agree).
  const productChanges = new Map<number, { name: string; categoryId: number }>();
  for (const { row, before } of updated) {
    if (before.name !== undefined || before.category !== undefined) {
      productChanges.set(productsByArt.get(row.art)!.id, {
        name: row.name,
        categoryId: categoryIds.get(row.category)!,
      });
    }
  }
  for (const [id, values] of productChanges) await tx.update(products).set(values).where(eq(products.id, id));

  // New products come last in the shop's curated order, in the order of the file.
  const newProducts = [
    ...new Map(created.filter((row) => !productsByArt.has(row.art)).map((row) => [row.art, row])).values(),
  ];
  const [ranked] = await tx.select({ last: max(products.curatedRank) }).from(products);
  let rank = ranked?.last ?? 0;
  const productIds = new Map([...productsByArt].map(([art, product]) => [art, product.id]));
  for (const part of chunks(newProducts)) {
    const inserted = await tx
      .insert(products)
      .values(
        part.map((row) => ({
          art: row.art,
          name: row.name,
          categoryId: categoryIds.get(row.category)!,
          image: newProductImage,
          curatedRank: (rank += 1),
        })),
      )
      .returning({ id: products.id, art: products.art });
    for (const { id, art } of inserted) productIds.set(art, id);
  }
  for (const part of chunks(created)) {
    await tx.insert(variants).values(
      part.map((row) => ({
        productId: productIds.get(row.art)!,
        color: row.color,
        size: row.size,
        price: kopecksToDecimal(row.priceKopecks),
        stock: row.stock,
      })),
    );
  }
  await updateVariants(
    tx,
    updated
      .filter(({ after }) => after.price !== undefined || after.stock !== undefined)
      .map(({ row, variant }) => ({ id: variant.id, priceKopecks: row.priceKopecks, stock: row.stock })),
  );
  return newProducts.map((row) => row.art);
}

/**
 * The price list's SQL: the export's rows, and the import that applies a checked file in one
 * transaction, all of it or nothing.
 */
export function createPriceListRepository(db: Database) {
  return {
    /** One row per variant of every product the storefront shows, by category, product and size. */
    async rows(): Promise<PriceListRow[]> {
      const rows = await db
        .select({
          art: products.art,
          name: products.name,
          category: categories.name,
          color: variants.color,
          size: variants.size,
          price: variants.price,
          stock: variants.stock,
        })
        .from(variants)
        .innerJoin(products, eq(products.id, variants.productId))
        .innerJoin(categories, eq(categories.id, products.categoryId))
        .where(isNull(products.hiddenAt))
        .orderBy(asc(categories.position), asc(categories.id), asc(products.id), asc(variants.size), asc(variants.id));
      return rows.map(({ price, ...row }) => ({ ...row, priceKopecks: decimalToKopecks(price) }));
    },

    /**
     * Applies checked rows keyed by article, colour and size: a known variant takes the row's
     * price and stock (and its product the row's name and category), an unknown variant of a known
     * article is added to it, an unknown article becomes a new product with the placeholder
     * picture. Variants the file does not list are left as they are. Any error (an unknown
     * category, an article of a deleted product) and nothing is written; a dry run writes nothing
     * to the catalogue either and counts the same, keeping its rows as a preview when asked.
     */
    async importRows(
      rows: NumberedRow[],
      { dryRun, byUserId, keepPreview: keep = false, newProductImage }: ImportOptions,
    ): Promise<ImportOutcome | ImportRefusal> {
      return guarded(() =>
        db.transaction(async (tx) => {
          // One import at a time: two at once could both create the same new article.
          if (!dryRun) await tx.execute(sql`select pg_advisory_xact_lock(${IMPORT_LOCK_KEY})`);
          const shop = await readShop(tx, rows, !dryRun);
          const plan = planImport(rows, shop);
          if (plan.errors.length > 0) {
            return { created: 0, updated: 0, unchanged: 0, newProducts: 0, errors: plan.errors, preview: null };
          }
          const outcome = {
            created: plan.created.length,
            updated: plan.updated.length,
            unchanged: plan.unchanged.length,
            newProducts: newProductsOf(plan, shop),
            errors: [],
          };
          const changes = outcome.created + outcome.updated > 0;
          if (dryRun) {
            return { ...outcome, preview: keep && changes ? await keepPreview(tx, byUserId, plan, shop) : null };
          }
          if (changes) await applyPlan(tx, plan, shop, byUserId, newProductImage);
          return { ...outcome, preview: null };
        }),
      );
    },

    /**
     * Applies a manager's preview as it was checked: the catalogue is read again under the import's
     * lock, and if any row would now do anything else (a price or stock edited meanwhile, a variant
     * added, a category gone) nothing is written and the manager checks the file again.
     */
    async applyPreview(id: string, userId: number, newProductImage: string): Promise<ImportOutcome | ImportRefusal> {
      return guarded(() =>
        db.transaction(async (tx) => {
          await tx.execute(sql`select pg_advisory_xact_lock(${IMPORT_LOCK_KEY})`);
          // Read under the lock: a second «Применить» of the same preview finds it gone.
          if (!(await ownPreview(tx, id, userId))) return 'preview-not-found';
          const stored = (
            await tx
              .select(previewRowColumns)
              .from(priceListPreviewRows)
              .where(eq(priceListPreviewRows.previewId, id))
              .orderBy(asc(priceListPreviewRows.row))
          ).map(previewRowOfStored);
          const rows = stored.map(({ art, name, category, color, size, priceKopecks, stock, row }) => ({
            art,
            name,
            category,
            color,
            size,
            priceKopecks,
            stock,
            row,
          }));
          const shop = await readShop(tx, rows, true);
          const plan = planImport(rows, shop);
          if (plan.errors.length > 0 || !samePreview(previewRowsOf(plan, shop), stored)) return 'changed-since-preview';
          await applyPlan(tx, plan, shop, userId, newProductImage);
          await tx.delete(priceListPreviews).where(eq(priceListPreviews.id, id));
          return {
            created: plan.created.length,
            updated: plan.updated.length,
            unchanged: plan.unchanged.length,
            newProducts: newProductsOf(plan, shop),
            errors: [],
            preview: null,
          };
        }),
      );
    },

    /** The counts of a manager's own preview that has not expired; null for anyone else's, or none. */
    async preview(id: string, userId: number) {
      return ownPreview(db, id, userId);
    },

    /** One page of a preview's changed and new rows, in the file's order; null as for `preview`. */
    async previewChanges(id: string, userId: number, skip: number, limit: number): Promise<PreviewRow[] | null> {
      if (!(await ownPreview(db, id, userId))) return null;
      const rows = await db
        .select(previewRowColumns)
        .from(priceListPreviewRows)
        .where(and(eq(priceListPreviewRows.previewId, id), ne(priceListPreviewRows.kind, 'unchanged')))
        .orderBy(asc(priceListPreviewRows.row))
        .offset(skip)
        .limit(limit);
      return rows.map(previewRowOfStored);
    },

    /**
     * Every changed and new row of a preview, a thousand at a time by row number, for a file written
     * as it is read. The caller has checked the preview is theirs.
     */
    async *allPreviewChanges(id: string): AsyncGenerator<PreviewRow[]> {
      for (let after = 0; ;) {
        const rows = await db
          .select(previewRowColumns)
          .from(priceListPreviewRows)
          .where(
            and(
              eq(priceListPreviewRows.previewId, id),
              ne(priceListPreviewRows.kind, 'unchanged'),
              gt(priceListPreviewRows.row, after),
            ),
          )
          .orderBy(asc(priceListPreviewRows.row))
          .limit(CHUNK);
        if (rows.length === 0) return;
        yield rows.map(previewRowOfStored);
        after = rows.at(-1)!.row;
      }
    },
  };
}

/** A manager's own preview that has not expired; anyone else's, or none, is null. */
async function ownPreview(db: Queryable, id: string, userId: number) {
  const [preview] = await db
    .select({
      id: priceListPreviews.id,
      created: priceListPreviews.created,
      updated: priceListPreviews.updated,
      unchanged: priceListPreviews.unchanged,
      newProducts: priceListPreviews.newProducts,
      expiresAt: priceListPreviews.expiresAt,
    })
    .from(priceListPreviews)
    .where(
      and(
        eq(priceListPreviews.id, id),
        eq(priceListPreviews.userId, userId),
        gt(priceListPreviews.expiresAt, sql`now()`),
      ),
    );
  return preview ?? null;
}

/** Writes a plan without errors, with its audit entry and the notice to every process's cache. */
async function applyPlan(tx: Transaction, plan: ImportPlan, shop: ShopState, byUserId: number, image: string) {
  const newArticles = await writePlan(tx, plan, shop, image);
  await createAuditRepository(tx).record({
    byUserId,
    action: 'catalogue.import',
    entity: 'catalogue',
    entityId: null,
    ...auditedImport(plan, newArticles),
  });
  await announceCatalogueChange(tx);
}

async function guarded<T>(run: () => Promise<T>): Promise<T | ImportRefusal> {
  try {
    return await run();
  } catch (error) {
    // A product added in the back office with the same article while the import ran.
    if (brokenUniqueConstraint(error) !== null) return 'changed-during-import';
    throw error;
  }
}

export type PriceListRepository = ReturnType<typeof createPriceListRepository>;
