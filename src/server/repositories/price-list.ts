import { and, asc, eq, gt, inArray, isNull, lt, max, ne, or, sql } from 'drizzle-orm';
import { lockTypedBarcodes } from './barcode-lock';
import type { Database, Queryable, Transaction } from '../db/database';
import {
  categories,
  priceListPreviewRows,
  priceListPreviews,
  priceTiers,
  priceTypes,
  products,
  variantPrices,
  variants,
} from '../db/schema';
import { brokenUniqueConstraint } from '../db/unique-violation';
import { decimalToKopecks, kopecksToDecimal } from '../../shared/money';
import type { ProductCardFields, VariantCardFields } from '../../shared/product-card';
import {
  changedFields,
  variantKey,
  type NumberedRow,
  type PreviewedRow as PreviewRow,
  type PriceListRow,
  type PriceListType,
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

/** The columns of a preview beyond the fixed ones (repositories' `previewLayout`). */
export interface PreviewLayout {
  priceTypes: { code: string; name: string }[];
  packaging: boolean;
  /** The file has one or more of the marketplace card's columns. */
  card: boolean;
}

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

/** A product's card fields as the API names them, from its row. */
const productCardSelection = {
  brand: products.brand,
  material: products.material,
  filler: products.filler,
  age_from: products.ageFrom,
  country_of_origin: products.countryOfOrigin,
  tnved: products.tnved,
};

const variantCardSelection = {
  barcode: variants.barcode,
  marked: variants.marked,
  package_length_mm: variants.packageLengthMm,
  package_width_mm: variants.packageWidthMm,
  package_height_mm: variants.packageHeightMm,
  weight_g: variants.weightG,
};

/** The card fields a file gives as the products table's columns (a field it has no column for: left out, so left as it is). */
const productCardColumns = (card: Partial<ProductCardFields>) => ({
  brand: card.brand,
  material: card.material,
  filler: card.filler,
  ageFrom: card.age_from,
  countryOfOrigin: card.country_of_origin,
  tnved: card.tnved,
});

const variantCardColumns = (card: Partial<VariantCardFields>) => ({
  barcode: card.barcode,
  marked: card.marked,
  packageLengthMm: card.package_length_mm,
  packageWidthMm: card.package_width_mm,
  packageHeightMm: card.package_height_mm,
  weightG: card.weight_g,
});

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
        multiple: products.multiple,
        minQuantity: products.minQuantity,
        card: productCardSelection,
      })
      .from(products)
      .innerJoin(categories, eq(categories.id, products.categoryId))
      .where(inArray(products.art, part));
    for (const { art, hiddenAt, multiple, minQuantity, ...product } of rows) {
      found.set(art, { ...product, hidden: hiddenAt !== null, packaging: { multiple, min_quantity: minQuantity } });
    }
  }
  return found;
}

/**
 * The variants of these products by article, colour and size, with their own prices in the other
 * price types; locked when the import will write (the back office's price routes lock the variant
 * too before they change its prices).
 */
async function findVariants(
  tx: Transaction,
  productsByArt: Map<string, ExistingProduct>,
  lock: boolean,
): Promise<Map<string, ExistingVariant>> {
  const artById = new Map([...productsByArt].map(([art, product]) => [product.id, art]));
  const found = new Map<string, ExistingVariant>();
  for (const part of chunks([...artById.keys()])) {
    const query = tx
      .select({ ...variantColumns, card: variantCardSelection })
      .from(variants)
      .where(inArray(variants.productId, part))
      // Id order, as the order transaction locks them, so the two cannot deadlock.
      .orderBy(asc(variants.id));
    const rows = lock ? await query.for('update') : await query;
    const typePrices = await ownTypePrices(tx, part);
    for (const variant of rows) {
      const art = artById.get(variant.productId)!;
      found.set(variantKey({ art, color: variant.color, size: variant.size }), {
        id: variant.id,
        priceKopecks: decimalToKopecks(variant.price),
        stock: variant.stock,
        typePrices: typePrices.get(variant.id) ?? new Map(),
        card: variant.card,
      });
    }
  }
  return found;
}

/** The own prices of these products' variants in the types other than the default: kopecks by type id, by variant id. */
async function ownTypePrices(db: Queryable, productIds: number[]): Promise<Map<number, Map<number, number>>> {
  const found = new Map<number, Map<number, number>>();
  const rows = await db
    .select({ variantId: variantPrices.variantId, typeId: variantPrices.priceTypeId, price: variantPrices.price })
    .from(variantPrices)
    .innerJoin(variants, eq(variants.id, variantPrices.variantId))
    .where(inArray(variants.productId, productIds));
  for (const { variantId, typeId, price } of rows) {
    const prices = found.get(variantId) ?? new Map<number, number>();
    prices.set(typeId, decimalToKopecks(price));
    found.set(variantId, prices);
  }
  return found;
}

/** The shop's price types, by id (the export's column order). */
const readPriceTypes = (db: Queryable): Promise<PriceListType[]> =>
  db
    .select({ id: priceTypes.id, code: priceTypes.code, name: priceTypes.name, isDefault: priceTypes.isDefault })
    .from(priceTypes)
    .orderBy(asc(priceTypes.id));

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

/**
 * One import at a time (two at once could both create the same new article), and none while a
 * manager's edit checks a typed barcode: the barcodes the import finds free stay free until it commits.
 */
async function lockForImport(tx: Transaction): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${IMPORT_LOCK_KEY})`);
  await lockTypedBarcodes(tx);
}

/** The variants holding each of `barcodes`, by id. */
async function barcodeHolders(tx: Transaction, barcodes: string[]): Promise<Map<string, number[]>> {
  const holders = new Map<string, number[]>();
  for (const part of chunks(barcodes)) {
    const rows = await tx
      .select({ id: variants.id, barcode: variants.barcode })
      .from(variants)
      .where(inArray(variants.barcode, part));
    for (const { id, barcode } of rows) holders.set(barcode!, [...(holders.get(barcode!) ?? []), id]);
  }
  return holders;
}

/** Sets the card fields of many variants, a thousand per statement. */
async function updateVariantCards(tx: Transaction, changed: { id: number; card: VariantCardFields }[]) {
  for (const part of chunks(changed)) {
    const values = sql.join(
      part.map(
        ({ id, card }) =>
          sql`(${id}::int, ${card.barcode}::text, ${card.marked}::boolean, ${card.package_length_mm}::int,
               ${card.package_width_mm}::int, ${card.package_height_mm}::int, ${card.weight_g}::int)`,
      ),
      sql`, `,
    );
    await tx.execute(
      sql`update ${variants} set barcode = given.barcode, marked = given.marked,
            package_length_mm = given.length, package_width_mm = given.width, package_height_mm = given.height,
            weight_g = given.weight
          from (values ${values}) as given(id, barcode, marked, length, width, height, weight)
          where ${variants.id} = given.id`,
    );
  }
}

/**
 * The shop's categories and price types, its products and variants the rows name, and the holders
 * of the barcodes they give; the variants locked when the import will write.
 */
async function readShop(tx: Transaction, rows: NumberedRow[], lock: boolean): Promise<ShopState> {
  const categoryRows = await tx.select({ id: categories.id, name: categories.name }).from(categories);
  const types = await readPriceTypes(tx);
  const productsByArt = await findProducts(tx, [...new Set(rows.map((row) => row.art))]);
  return {
    categoryIds: new Map(categoryRows.map((category) => [category.name, category.id])),
    typeIds: new Map(types.filter((type) => !type.isDefault).map((type) => [type.code, type.id])),
    productsByArt,
    variantsByKey: await findVariants(tx, productsByArt, lock),
    barcodeHolders: await barcodeHolders(tx, [
      ...new Set(rows.flatMap((row) => (row.variantCard.barcode ? [row.variantCard.barcode] : []))),
    ]),
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
  wholesale: priceListPreviewRows.wholesale,
};

type StoredPreviewRow = {
  price: string;
  oldPrice: string | null;
  wholesale: (typeof priceListPreviewRows.$inferSelect)['wholesale'];
} & Omit<
  PreviewRow,
  | 'priceKopecks'
  | 'oldPriceKopecks'
  | 'typePrices'
  | 'oldTypePrices'
  | 'packaging'
  | 'oldPackaging'
  | 'productCard'
  | 'variantCard'
  | 'oldProductCard'
  | 'oldVariantCard'
>;

const previewRowOfStored = ({ price, oldPrice, wholesale, ...stored }: StoredPreviewRow): PreviewRow => ({
  art: stored.art,
  name: stored.name,
  category: stored.category,
  color: stored.color,
  size: stored.size,
  priceKopecks: decimalToKopecks(price),
  typePrices: wholesale.typePrices,
  stock: stored.stock,
  packaging: wholesale.packaging,
  row: stored.row,
  kind: stored.kind,
  newProduct: stored.newProduct,
  oldName: stored.oldName,
  oldCategory: stored.oldCategory,
  oldPriceKopecks: oldPrice === null ? null : decimalToKopecks(oldPrice),
  oldStock: stored.oldStock,
  oldTypePrices: wholesale.oldTypePrices,
  oldPackaging: wholesale.oldPackaging,
  productCard: wholesale.productCard ?? {},
  variantCard: wholesale.variantCard ?? {},
  oldProductCard: wholesale.oldProductCard ?? null,
  oldVariantCard: wholesale.oldVariantCard ?? null,
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
      wholesale: {
        typePrices: row.typePrices,
        oldTypePrices: row.oldTypePrices,
        packaging: row.packaging,
        oldPackaging: row.oldPackaging,
        productCard: row.productCard,
        variantCard: row.variantCard,
        oldProductCard: row.oldProductCard,
        oldVariantCard: row.oldVariantCard,
      },
    }));
    await tx.execute(sql`
      insert into ${priceListPreviewRows}
        (preview_id, row, kind, new_product, art, name, category, color, size, price, stock,
         old_name, old_category, old_price, old_stock, wholesale)
      select ${preview!.id}::uuid, row, kind, new_product, art, name, category, color, size, price, stock,
             old_name, old_category, old_price, old_stock, wholesale
      from jsonb_to_recordset(${JSON.stringify(part)}::jsonb) as given(
        row int, kind text, new_product boolean, art text, name text, category text, color text, size int,
        price numeric(12, 2), stock int, old_name text, old_category text, old_price numeric(12, 2), old_stock int,
        wholesale jsonb
      )`);
  }
  return preview!;
}

/** A variant's own price in a price type: kopecks, or null to remove it. */
interface TypePriceWrite {
  variantId: number;
  typeId: number;
  priceKopecks: number | null;
}

/**
 * Sets and removes variants' own prices in the other price types, a thousand per statement. A
 * removed price takes the variant's tiers in that type with it, as the back office's price form
 * does: without a price of its own the variant sells at the default type's price and tiers.
 */
async function writeTypePrices(tx: Transaction, writes: TypePriceWrite[]) {
  const set = writes.filter((write) => write.priceKopecks !== null);
  for (const part of chunks(set)) {
    await tx
      .insert(variantPrices)
      .values(
        part.map((write) => ({
          variantId: write.variantId,
          priceTypeId: write.typeId,
          price: kopecksToDecimal(write.priceKopecks!),
        })),
      )
      .onConflictDoUpdate({
        target: [variantPrices.variantId, variantPrices.priceTypeId],
        set: { price: sql`excluded.price` },
      });
  }
  for (const part of chunks(writes.filter((write) => write.priceKopecks === null))) {
    const gone = sql.join(
      part.map((write) => sql`(${write.variantId}::int, ${write.typeId}::int)`),
      sql`, `,
    );
    await tx.execute(sql`delete from ${variantPrices} where (variant_id, price_type_id) in (values ${gone})`);
    await tx.execute(sql`delete from ${priceTiers} where (variant_id, price_type_id) in (values ${gone})`);
  }
}

/** Writes a plan without errors; answers the articles of the products it made. */
async function writePlan(
  tx: Transaction,
  { created, updated, packaging, productCards }: ImportPlan,
  { categoryIds, typeIds, productsByArt }: ShopState,
  newProductImage: string,
): Promise<string[]> {
  // A product takes the name and category of its rows (the file was checked: they all agree), and
  // their packaging.
  const productChanges = new Map<number, Partial<typeof products.$inferInsert>>();
  for (const { row, before } of updated) {
    if (before.name !== undefined || before.category !== undefined) {
      productChanges.set(productsByArt.get(row.art)!.id, {
        name: row.name,
        categoryId: categoryIds.get(row.category)!,
      });
    }
  }
  for (const [id, { multiple, min_quantity: minQuantity }] of packaging) {
    productChanges.set(id, { ...productChanges.get(id), multiple, minQuantity });
  }
  for (const [id, card] of productCards)
    productChanges.set(id, { ...productChanges.get(id), ...productCardColumns(card) });
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
          ...(row.packaging && { multiple: row.packaging.multiple, minQuantity: row.packaging.min_quantity }),
          ...productCardColumns(row.productCard),
        })),
      )
      .returning({ id: products.id, art: products.art });
    for (const { id, art } of inserted) productIds.set(art, id);
  }

  const typePriceWrites: TypePriceWrite[] = [];
  for (const part of chunks(created)) {
    const inserted = await tx
      .insert(variants)
      .values(
        part.map((row) => ({
          productId: productIds.get(row.art)!,
          color: row.color,
          size: row.size,
          price: kopecksToDecimal(row.priceKopecks),
          stock: row.stock,
          ...variantCardColumns(row.variantCard),
        })),
      )
      .returning({ id: variants.id, productId: variants.productId, color: variants.color, size: variants.size });
    // Product, colour and size are unique among variants: each row finds its new variant's id.
    const idOf = new Map(
      inserted.map((variant) => [`${variant.productId}\u0000${variant.color}\u0000${variant.size}`, variant.id]),
    );
    for (const row of part) {
      const variantId = idOf.get(`${productIds.get(row.art)!}\u0000${row.color}\u0000${row.size}`)!;
      for (const { code, priceKopecks } of row.typePrices) {
        if (priceKopecks !== null) typePriceWrites.push({ variantId, typeId: typeIds.get(code)!, priceKopecks });
      }
    }
  }
  await updateVariants(
    tx,
    updated
      .filter(({ after }) => after.price !== undefined || after.stock !== undefined)
      .map(({ row, variant }) => ({ id: variant.id, priceKopecks: row.priceKopecks, stock: row.stock })),
  );
  await updateVariantCards(
    tx,
    updated
      .filter(({ row, variant }) => changedFields(variant.card, row.variantCard) !== null)
      .map(({ row, variant }) => ({ id: variant.id, card: { ...variant.card, ...row.variantCard } })),
  );
  for (const { row, variant, after } of updated) {
    if (after.prices === undefined) continue;
    for (const { code, priceKopecks } of row.typePrices) {
      if (Object.hasOwn(after.prices, code))
        typePriceWrites.push({ variantId: variant.id, typeId: typeIds.get(code)!, priceKopecks });
    }
  }
  await writeTypePrices(tx, typePriceWrites);
  return newProducts.map((row) => row.art);
}

/**
 * The price list's SQL: the export's rows, and the import that applies a checked file in one
 * transaction, all of it or nothing.
 */
export function createPriceListRepository(db: Database) {
  return {
    /** The shop's price types, by id: the price list's columns. */
    priceTypes(): Promise<PriceListType[]> {
      return readPriceTypes(db);
    },

    /**
     * One row per variant of every product the storefront shows, by category, product and size,
     * with its prices in each of `types` other than the default (null where it has none).
     */
    async rows(types: readonly PriceListType[]): Promise<PriceListRow[]> {
      const others = types.filter((type) => !type.isDefault);
      const rows = await db
        .select({
          art: products.art,
          name: products.name,
          category: categories.name,
          color: variants.color,
          size: variants.size,
          price: variants.price,
          // Type id → price as text (numeric's exact digits), or null when the variant has no own price.
          typePrices: sql<Record<string, string> | null>`(
            select jsonb_object_agg(${variantPrices.priceTypeId}, ${variantPrices.price}::text)
            from ${variantPrices} where ${variantPrices.variantId} = ${variants.id})`,
          stock: variants.stock,
          multiple: products.multiple,
          minQuantity: products.minQuantity,
          productCard: productCardSelection,
          variantCard: variantCardSelection,
        })
        .from(variants)
        .innerJoin(products, eq(products.id, variants.productId))
        .innerJoin(categories, eq(categories.id, products.categoryId))
        .where(isNull(products.hiddenAt))
        .orderBy(asc(categories.position), asc(categories.id), asc(products.id), asc(variants.size), asc(variants.id));
      return rows.map(({ price, typePrices, multiple, minQuantity, ...row }) => ({
        ...row,
        priceKopecks: decimalToKopecks(price),
        typePrices: others.map(({ id, code }) => {
          const own = typePrices?.[id];
          return { code, priceKopecks: own === undefined ? null : decimalToKopecks(own) };
        }),
        packaging: { multiple, min_quantity: minQuantity },
      }));
    },

    /**
     * Applies checked rows keyed by article, colour and size: a known variant takes the row's
     * prices (the default type's, and those of the types the file has a column for: an empty cell
     * removes the variant's own) and stock, and its product the row's name, category and packaging
     * (when the file has those columns); an unknown variant of a known article is added to it, an
     * unknown article becomes a new product with the placeholder picture. Variants the file does not list are left as they are. Any error (an unknown
     * category, an article of a deleted product) and nothing is written; a dry run writes nothing
     * to the catalogue either and counts the same, keeping its rows as a preview when asked.
     */
    async importRows(
      rows: NumberedRow[],
      { dryRun, byUserId, keepPreview: keep = false, newProductImage }: ImportOptions,
    ): Promise<ImportOutcome | ImportRefusal> {
      return guarded(() =>
        db.transaction(async (tx) => {
          if (!dryRun) await lockForImport(tx);
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
          await lockForImport(tx);
          // Read under the lock: a second «Применить» of the same preview finds it gone.
          if (!(await ownPreview(tx, id, userId))) return 'preview-not-found';
          const stored = (
            await tx
              .select(previewRowColumns)
              .from(priceListPreviewRows)
              .where(eq(priceListPreviewRows.previewId, id))
              .orderBy(asc(priceListPreviewRows.row))
          ).map(previewRowOfStored);
          const rows = stored.map(
            ({
              art,
              name,
              category,
              color,
              size,
              priceKopecks,
              typePrices,
              stock,
              packaging,
              productCard,
              variantCard,
              row,
            }) => ({
              art,
              name,
              category,
              color,
              size,
              priceKopecks,
              typePrices,
              stock,
              packaging,
              productCard,
              variantCard,
              row,
            }),
          );
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

    /**
     * The price types a preview's file has columns for, in its rows' order, by their names now (a
     * type deleted since by its code), and whether it gives the packaging and card fields: the same
     * in every row.
     */
    async previewLayout(id: string): Promise<PreviewLayout> {
      const [first] = await db
        .select({ wholesale: priceListPreviewRows.wholesale })
        .from(priceListPreviewRows)
        .where(eq(priceListPreviewRows.previewId, id))
        .orderBy(asc(priceListPreviewRows.row))
        .limit(1);
      const codes = first?.wholesale.typePrices.map((price) => price.code) ?? [];
      const named =
        codes.length === 0
          ? []
          : await db
              .select({ code: priceTypes.code, name: priceTypes.name })
              .from(priceTypes)
              .where(inArray(priceTypes.code, codes));
      const names = new Map(named.map((type) => [type.code, type.name]));
      return {
        priceTypes: codes.map((code) => ({ code, name: names.get(code) ?? code })),
        packaging: first?.wholesale.packaging != null,
        card: Object.keys({ ...first?.wholesale.productCard, ...first?.wholesale.variantCard }).length > 0,
      };
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
