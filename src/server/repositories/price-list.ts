import { asc, eq, inArray, isNull, max, sql } from 'drizzle-orm';
import type { Database, Transaction } from '../db/database';
import { categories, products, variants } from '../db/schema';
import { CatalogueChangedDuringImportError } from '../domain/errors';
import { brokenUniqueConstraint } from '../db/unique-violation';
import { kopecksToDecimal, kopecksToRubles, toKopecks } from '../money';
import {
  describeVariant,
  variantKey,
  type NumberedRow,
  type PriceListRow,
  type RowError,
} from '../services/price-list';
import { announceCatalogueChange } from '../services/catalogue-cache';
import { NEW_PRODUCT_IMAGE } from '../services/catalogue-images';
import { createAuditRepository } from './audit';
import { variantColumns } from './products';

// Any constant shared by all processes of this shop; pg_advisory_xact_lock keys are bigints.
const IMPORT_LOCK_KEY = 7_130_512_018;
/** Rows per statement: well under PostgreSQL's 65 535 bind parameters. */
const CHUNK = 1000;
/** Changes written into one audit entry at most; the counts are always there. */
const MAX_AUDITED_CHANGES = 1000;

export interface ImportOptions {
  dryRun: boolean;
  byUserId: number;
}

export interface ImportOutcome {
  created: number;
  updated: number;
  unchanged: number;
  errors: RowError[];
}

interface ExistingProduct {
  id: number;
  name: string;
  categoryId: number;
  category: string;
  hidden: boolean;
}

interface ExistingVariant {
  id: number;
  priceKopecks: number;
  stock: number;
}

function chunks<T>(items: T[]): T[][] {
  const result: T[][] = [];
  for (let start = 0; start < items.length; start += CHUNK) result.push(items.slice(start, start + CHUNK));
  return result;
}

/** What changed in a row, field by field, for the audit log. */
type Change = Partial<Pick<PriceListRow, 'name' | 'category' | 'stock'>> & { price?: number };

function differences(row: PriceListRow, product: ExistingProduct, variant: ExistingVariant) {
  const before: Change = {};
  const after: Change = {};
  if (product.name !== row.name) [before.name, after.name] = [product.name, row.name];
  if (product.category !== row.category) [before.category, after.category] = [product.category, row.category];
  if (variant.priceKopecks !== row.priceKopecks) {
    [before.price, after.price] = [kopecksToRubles(variant.priceKopecks), kopecksToRubles(row.priceKopecks)];
  }
  if (variant.stock !== row.stock) [before.stock, after.stock] = [variant.stock, row.stock];
  return Object.keys(after).length === 0 ? null : { before, after };
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
        priceKopecks: toKopecks(variant.price),
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

interface ShopState {
  categoryIds: Map<string, number>;
  productsByArt: Map<string, ExistingProduct>;
  variantsByKey: Map<string, ExistingVariant>;
}

interface UpdatedRow {
  row: NumberedRow;
  variant: ExistingVariant;
  before: Change;
  after: Change;
}

/** What the rows would do to the shop as it is: errors, or the variants to create and update. */
interface ImportPlan {
  errors: RowError[];
  created: NumberedRow[];
  updated: UpdatedRow[];
  unchanged: number;
}

function planImport(rows: NumberedRow[], { categoryIds, productsByArt, variantsByKey }: ShopState): ImportPlan {
  const plan: ImportPlan = { errors: [], created: [], updated: [], unchanged: 0 };
  for (const row of rows) {
    const product = productsByArt.get(row.art);
    if (!categoryIds.has(row.category)) {
      plan.errors.push({
        row: row.row,
        detail: `Столбец «Категория»: категории «${row.category}» нет; создайте её в разделе «Категории» или исправьте название`,
      });
      continue;
    }
    if (product?.hidden) {
      plan.errors.push({
        row: row.row,
        detail: `Столбец «Артикул»: товар «${row.art}» удалён из витрины; его артикул занят, выберите другой`,
      });
      continue;
    }
    const variant = variantsByKey.get(variantKey(row));
    if (!product || !variant) {
      plan.created.push(row);
      continue;
    }
    const changes = differences(row, product, variant);
    if (changes) plan.updated.push({ row, variant, ...changes });
    else plan.unchanged += 1;
  }
  return plan;
}

/** Writes a plan without errors; answers the articles of the products it made. */
async function writePlan(
  tx: Transaction,
  { created, updated }: ImportPlan,
  { categoryIds, productsByArt }: ShopState,
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
          image: NEW_PRODUCT_IMAGE,
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

/** The audit entry of an applied import: the counts, and each changed variant's fields before and after. */
function auditedImport({ created, updated, unchanged }: ImportPlan, newArticles: string[]) {
  const firstOnes = <T>(entries: [string, T][]) => Object.fromEntries(entries.slice(0, MAX_AUDITED_CHANGES));
  return {
    before: firstOnes(updated.map(({ row, before }) => [describeVariant(row), before])),
    after: {
      created: created.length,
      updated: updated.length,
      unchanged,
      new_products: newArticles.slice(0, MAX_AUDITED_CHANGES),
      changes: firstOnes<Change>([
        ...created.map((row): [string, Change] => [
          describeVariant(row),
          { price: kopecksToRubles(row.priceKopecks), stock: row.stock },
        ]),
        ...updated.map(({ row, after }): [string, Change] => [describeVariant(row), after]),
      ]),
      ...(created.length + updated.length > MAX_AUDITED_CHANGES && { changes_truncated: true }),
    },
  };
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
      return rows.map(({ price, ...row }) => ({ ...row, priceKopecks: toKopecks(price) }));
    },

    /**
     * Applies checked rows keyed by article, colour and size: a known variant takes the row's
     * price and stock (and its product the row's name and category), an unknown variant of a known
     * article is added to it, an unknown article becomes a new product with the placeholder
     * picture. Variants the file does not list are left as they are. Any error (an unknown
     * category, an article of a deleted product) and nothing is written; a dry run writes nothing
     * either and counts the same.
     */
    async importRows(rows: NumberedRow[], { dryRun, byUserId }: ImportOptions): Promise<ImportOutcome> {
      try {
        return await db.transaction(async (tx) => {
          // One import at a time: two at once could both create the same new article.
          if (!dryRun) await tx.execute(sql`select pg_advisory_xact_lock(${IMPORT_LOCK_KEY})`);
          const categoryRows = await tx.select({ id: categories.id, name: categories.name }).from(categories);
          const productsByArt = await findProducts(tx, [...new Set(rows.map((row) => row.art))]);
          const shop: ShopState = {
            categoryIds: new Map(categoryRows.map((category) => [category.name, category.id])),
            productsByArt,
            variantsByKey: await findVariants(tx, productsByArt, !dryRun),
          };
          const plan = planImport(rows, shop);
          if (plan.errors.length > 0) return { created: 0, updated: 0, unchanged: 0, errors: plan.errors };
          const outcome = { created: plan.created.length, updated: plan.updated.length, unchanged: plan.unchanged };
          if (dryRun || outcome.created + outcome.updated === 0) return { ...outcome, errors: [] };

          const newArticles = await writePlan(tx, plan, shop);
          await createAuditRepository(tx).record({
            byUserId,
            action: 'catalogue.import',
            entity: 'catalogue',
            entityId: null,
            ...auditedImport(plan, newArticles),
          });
          await announceCatalogueChange(tx);
          return { ...outcome, errors: [] };
        });
      } catch (error) {
        // A product added in the back office with the same article while the import ran.
        if (brokenUniqueConstraint(error) !== null) throw new CatalogueChangedDuringImportError();
        throw error;
      }
    },
  };
}

export type PriceListRepository = ReturnType<typeof createPriceListRepository>;
