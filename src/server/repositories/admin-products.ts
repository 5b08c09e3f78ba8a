import { and, asc, count, desc, eq, ilike, inArray, ne, or, sql } from 'drizzle-orm';
import type {
  AdminProduct,
  AdminProductList,
  AdminVariant,
  PhotoSet,
  ProductCreate,
  ProductPatch,
  VariantFields,
  VariantPatch,
} from '../../shared/api';
import { barcodeKind, isSmallForMarketplace, packageInCentimetres } from '../../shared/product-card';
import { lockTypedBarcodes } from './barcode-lock';
import type { Queryable } from '../db/database';
import { escapeLike } from '../db/like';
import {
  categories,
  conformityDocuments,
  imageMasters,
  images,
  orderLines,
  productPhotos,
  products,
  variants,
} from '../db/schema';
import { rublesToDecimal } from '../../shared/money';
import { afterLast } from './catalogue-change';
import { productColumns, variantsOfProducts, type Page } from './products';
import { createPriceTypesRepository } from './price-types';

export interface AdminProductFilter extends Page {
  /** The start of an article (any case) or part of a name. */
  q?: string;
  category?: string;
}

/** A variant as the audit log keeps it: with its product, which its own row does not say. */
export type AuditedVariant = AdminVariant & { product_id: number };

/** The storefront's columns, and what only managers see. */
const adminProductColumns = {
  ...productColumns,
  category: categories.name,
  popular: products.popular,
  hiddenAt: products.hiddenAt,
  brand: products.brand,
  material: products.material,
  filler: products.filler,
  age_from: products.ageFrom,
  country_of_origin: products.countryOfOrigin,
  tnved: products.tnved,
  conformity_document_id: products.conformityDocumentId,
};

const variantColumns = {
  id: variants.id,
  product_id: variants.productId,
  color: variants.color,
  size: variants.size,
  price: variants.price,
  stock: variants.stock,
};

/** A variant's card data as stored: the package in millimetres. */
const variantCardColumns = {
  id: variants.id,
  barcode: variants.barcode,
  marked: variants.marked,
  lengthMm: variants.packageLengthMm,
  widthMm: variants.packageWidthMm,
  heightMm: variants.packageHeightMm,
  weight_g: variants.weightG,
};
interface VariantCardRow {
  id: number;
  barcode: string | null;
  marked: boolean;
  lengthMm: number | null;
  widthMm: number | null;
  heightMm: number | null;
  weight_g: number | null;
}

/** A variant's card data as the API reads it: the package in centimetres, the barcode's kind. */
function toVariantCard({ id: _, lengthMm, widthMm, heightMm, ...row }: VariantCardRow) {
  return {
    ...row,
    barcode_kind: row.barcode === null ? null : barcodeKind(row.barcode),
    package: packageInCentimetres(lengthMm, widthMm, heightMm),
  };
}

/** The package in whole millimetres (the API's centimetres have one decimal at most). */
const packageMm = (pack: VariantFields['package']) => ({
  packageLengthMm: pack === undefined ? undefined : pack && Math.round(pack.length_cm * 10),
  packageWidthMm: pack === undefined ? undefined : pack && Math.round(pack.width_cm * 10),
  packageHeightMm: pack === undefined ? undefined : pack && Math.round(pack.height_cm * 10),
});

/** A variant's card fields as columns; what a change leaves out stays undefined (unchanged). */
const variantCardValues = ({ barcode, marked, package: pack, weight_g }: Partial<VariantFields>) => ({
  barcode,
  marked,
  ...packageMm(pack),
  weightG: weight_g,
});

/** A product's card fields as columns; what a change leaves out stays undefined (unchanged). */
const productCardValues = (product: ProductPatch) => ({
  brand: product.brand,
  material: product.material,
  filler: product.filler,
  ageFrom: product.age_from,
  countryOfOrigin: product.country_of_origin,
  tnved: product.tnved,
  conformityDocumentId: product.conformity_document_id,
});

/** The photo sets of these products: the product's own first, then by colour, each in order. */
async function photosOfProducts(db: Queryable, productIds: readonly number[]): Promise<Map<number, PhotoSet[]>> {
  const byProduct = new Map<number, PhotoSet[]>();
  if (productIds.length === 0) return byProduct;
  const rows = await db
    .select({
      productId: productPhotos.productId,
      color: productPhotos.color,
      name: productPhotos.image,
      width: images.width,
      height: images.height,
      master_width: imageMasters.width,
      master_height: imageMasters.height,
    })
    .from(productPhotos)
    .leftJoin(images, eq(images.name, productPhotos.image))
    .leftJoin(imageMasters, eq(imageMasters.name, productPhotos.image))
    .where(inArray(productPhotos.productId, [...productIds]))
    .orderBy(sql`${productPhotos.color} nulls first`, asc(productPhotos.position));
  for (const { productId, color, ...photo } of rows) {
    const sets = byProduct.get(productId) ?? [];
    let set = sets.find((candidate) => candidate.color === color);
    if (!set) sets.push((set = { color, images: [] }));
    set.images.push({
      ...photo,
      // Without a master (the shop's own files) there is nothing a kit could be made from.
      small_for_marketplace:
        photo.master_width === null || isSmallForMarketplace(photo.master_width, photo.master_height!),
    });
    byProduct.set(productId, sets);
  }
  return byProduct;
}

interface ProductRow {
  id: number;
  art: string;
  name: string;
  description: string | null;
  big_description: string | null;
  category: string;
  popular: boolean;
  image: string;
  multiple: number;
  min_quantity: number;
  hiddenAt: Date | null;
  brand: string | null;
  material: string | null;
  filler: string | null;
  age_from: number | null;
  country_of_origin: string | null;
  tnved: string | null;
  conformity_document_id: number | null;
}

type VariantRow = { id: number; product_id: number; color: string; size: number; price: string; stock: number };

/** A variant row as managers read it: with its prices in every type, as its product's page has them. */
async function toVariant(db: Queryable, row: VariantRow): Promise<AuditedVariant> {
  const product = await findProduct(db, row.product_id);
  const { prices, ...card } = product!.variants.find((variant) => variant.id === row.id)!;
  return {
    ...row,
    price: Number(row.price),
    prices,
    barcode: card.barcode,
    barcode_kind: card.barcode_kind,
    marked: card.marked,
    package: card.package,
    weight_g: card.weight_g,
  };
}

type Tiers = { from: number; price: number }[];

/** Tiers by owner and type, ascending, from the stored rows. */
function tiersByOwner(
  rows: { priceTypeId: number; productId: number | null; variantId: number | null; from: number; price: string }[],
) {
  const byOwner = new Map<string, Map<number, Tiers>>();
  for (const row of [...rows].sort((a, b) => a.from - b.from)) {
    const owner = row.variantId !== null ? `v${row.variantId}` : `p${row.productId}`;
    const ofOwner = byOwner.get(owner) ?? new Map<number, Tiers>();
    ofOwner.set(row.priceTypeId, [
      ...(ofOwner.get(row.priceTypeId) ?? []),
      { from: row.from, price: Number(row.price) },
    ]);
    byOwner.set(owner, ofOwner);
  }
  return (owner: string) => byOwner.get(owner) ?? new Map<number, Tiers>();
}

/**
 * Product rows as managers see them: with their variants, and whether each is hidden. What new
 * buyers hold is the storefront's (and it changes with every order): not in the answer, nor in the
 * journal's copies of it.
 */
async function toAdminProducts(db: Queryable, rows: ProductRow[]): Promise<AdminProduct[]> {
  const productIds = rows.map((row) => row.id);
  const pricing = createPriceTypesRepository(db);
  const [variantRows, { defaultTypeId }, typePrices, tierRows, cardRows, photos] = await Promise.all([
    variantsOfProducts(db, productIds),
    pricing.catalogueTypes(),
    pricing.variantPricesOfProducts(productIds),
    pricing.tiersOfProducts(productIds),
    productIds.length === 0
      ? Promise.resolve([])
      : db.select(variantCardColumns).from(variants).where(inArray(variants.productId, productIds)),
    photosOfProducts(db, productIds),
  ]);
  const cardOf = new Map(cardRows.map((row) => [row.id, toVariantCard(row)]));
  const tiersOf = tiersByOwner(tierRows);
  const pricesOf = new Map<number, Map<number, string>>();
  for (const row of typePrices) {
    pricesOf.set(
      row.variantId,
      (pricesOf.get(row.variantId) ?? new Map<number, string>()).set(row.priceTypeId, row.price),
    );
  }
  return rows.map(({ hiddenAt, ...row }) => {
    const variantsOfRow = variantRows.filter((variant) => variant.productId === row.id);
    return {
      ...row,
      hidden: hiddenAt !== null,
      tiers: [...tiersOf(`p${row.id}`)].map(([typeId, tiers]) => ({ price_type_id: typeId, tiers })),
      photos: photos.get(row.id) ?? [],
      variants: variantsOfRow.map(({ productId: _, unproven_held: __, price, ...variant }) => {
        const own = tiersOf(`v${variant.id}`);
        const prices = new Map(pricesOf.get(variant.id) ?? []).set(defaultTypeId, price);
        return {
          ...variant,
          ...cardOf.get(variant.id)!,
          price: Number(price),
          prices: [...prices]
            .sort(([a], [b]) => a - b)
            .map(([typeId, typePrice]) => ({
              price_type_id: typeId,
              price: Number(typePrice),
              tiers: own.get(typeId) ?? [],
            })),
        };
      }),
    };
  });
}

/** The product with its variants; locked for the rest of the transaction when it is about to change. */
async function findProduct(db: Queryable, id: number, lock = false): Promise<AdminProduct | null> {
  const query = db
    .select(adminProductColumns)
    .from(products)
    .innerJoin(categories, eq(categories.id, products.categoryId))
    .where(eq(products.id, id));
  const [product] = await toAdminProducts(db, lock ? await query.for('update', { of: products }) : await query);
  return product ?? null;
}

/**
 * The back office's products and variants, read and written in the caller's transaction; the
 * changes' rules and audit are the service's (services/admin-products.ts).
 */
export function createAdminProductsRepository(db: Queryable) {
  return {
    /** Newest first, hidden products too. */
    async list({ q, category, skip, limit }: AdminProductFilter): Promise<AdminProductList> {
      const text = q?.trim();
      const where = and(
        text
          ? or(ilike(products.art, `${escapeLike(text)}%`), ilike(products.name, `%${escapeLike(text)}%`))
          : undefined,
        category ? eq(categories.name, category) : undefined,
      );
      const [rows, [counted]] = await Promise.all([
        db
          .select(adminProductColumns)
          .from(products)
          .innerJoin(categories, eq(categories.id, products.categoryId))
          .where(where)
          .orderBy(desc(products.id))
          .limit(limit)
          .offset(skip),
        db
          .select({ total: count() })
          .from(products)
          .innerJoin(categories, eq(categories.id, products.categoryId))
          .where(where),
      ]);
      return { items: await toAdminProducts(db, rows), total: counted?.total ?? 0 };
    },

    find: (id: number) => findProduct(db, id),

    /** The product, locked for the rest of the caller's transaction; null when there is none. */
    lock: (id: number) => findProduct(db, id, true),

    /**
     * The category's id, or null when there is no such category. Read with a key-share lock,
     * which a category's deletion waits for (and which waits for it): a product cannot land in a
     * category being deleted.
     */
    async categoryId(name: string): Promise<number | null> {
      const [found] = await db
        .select({ id: categories.id })
        .from(categories)
        .where(eq(categories.name, name))
        .for('key share');
      return found?.id ?? null;
    },

    /** Writes the product with its picture and its variants; returns its id. */
    async insert(product: ProductCreate, image: string, categoryId: number): Promise<number> {
      const [created] = await db
        .insert(products)
        .values({
          art: product.art,
          name: product.name,
          description: product.description ?? null,
          bigDescription: product.big_description ?? null,
          image,
          categoryId,
          popular: product.popular ?? false,
          ...productCardValues(product),
          // Last in the shop's curated order, until it is ordered or picked as popular.
          curatedRank: afterLast(products.curatedRank),
        })
        .returning({ id: products.id });
      await db.insert(variants).values(
        product.variants.map((variant) => ({
          productId: created!.id,
          color: variant.color,
          size: variant.size,
          price: rublesToDecimal(variant.price),
          stock: variant.stock,
          ...variantCardValues(variant),
        })),
      );
      return created!.id;
    },

    /** `hidden: false` puts a hidden product back on the storefront; hiding again keeps the first hiding's time. */
    async update(id: number, patch: Omit<ProductPatch, 'category'>, categoryId: number | undefined): Promise<void> {
      await db
        .update(products)
        .set({
          art: patch.art,
          name: patch.name,
          description: patch.description,
          bigDescription: patch.big_description,
          image: patch.image,
          popular: patch.popular,
          multiple: patch.multiple,
          minQuantity: patch.min_quantity,
          ...productCardValues(patch),
          categoryId,
          hiddenAt:
            patch.hidden === undefined ? undefined : patch.hidden ? sql`coalesce(${products.hiddenAt}, now())` : null,
        })
        .where(eq(products.id, id));
    },

    /** The variant, locked for the rest of the caller's transaction; null when there is none. */
    async lockVariant(id: number): Promise<AuditedVariant | null> {
      const [row] = await db.select(variantColumns).from(variants).where(eq(variants.id, id)).for('update');
      return row ? toVariant(db, row) : null;
    },

    async insertVariant(productId: number, variant: VariantFields): Promise<AuditedVariant> {
      const [row] = await db
        .insert(variants)
        .values({
          productId,
          color: variant.color,
          size: variant.size,
          price: rublesToDecimal(variant.price),
          stock: variant.stock,
          ...variantCardValues(variant),
        })
        .returning(variantColumns);
      return toVariant(db, row!);
    },

    async updateVariant(id: number, patch: VariantPatch): Promise<AuditedVariant> {
      const [row] = await db
        .update(variants)
        .set({
          color: patch.color,
          size: patch.size,
          price: patch.price === undefined ? undefined : rublesToDecimal(patch.price),
          stock: patch.stock,
          ...variantCardValues(patch),
        })
        .where(eq(variants.id, id))
        .returning(variantColumns);
      return toVariant(db, row!);
    },

    /** How many orders have a line of the variant. */
    async ordersOfVariant(id: number): Promise<number> {
      const [ordered] = await db
        .select({ orders: sql<number>`count(distinct ${orderLines.orderId})::int` })
        .from(orderLines)
        .where(eq(orderLines.variantId, id));
      return ordered?.orders ?? 0;
    },

    async variantCount(productId: number): Promise<number> {
      const [siblings] = await db.select({ total: count() }).from(variants).where(eq(variants.productId, productId));
      return siblings?.total ?? 0;
    },

    async removeVariant(id: number): Promise<void> {
      await db.delete(variants).where(eq(variants.id, id));
    },

    /**
     * Whether the conformity document exists, read with a key-share lock that its deletion waits
     * for: a product cannot come to point at a document being deleted.
     */
    async conformityDocumentExists(id: number): Promise<boolean> {
      const [found] = await db
        .select({ id: conformityDocuments.id })
        .from(conformityDocuments)
        .where(eq(conformityDocuments.id, id))
        .for('key share');
      return found !== undefined;
    },

    /** Until the caller's transaction ends, no other checks typed barcodes (barcode-lock.ts). */
    lockBarcodes: () => lockTypedBarcodes(db),

    /** The article of a product with another variant of this barcode, or null when it is free. */
    async barcodeHolder(barcode: string, exceptVariantId: number | null): Promise<string | null> {
      const [holder] = await db
        .select({ art: products.art })
        .from(variants)
        .innerJoin(products, eq(products.id, variants.productId))
        .where(
          and(eq(variants.barcode, barcode), exceptVariantId === null ? undefined : ne(variants.id, exceptVariantId)),
        )
        .orderBy(asc(variants.id))
        .limit(1);
      return holder?.art ?? null;
    },

    /** Replaces all the product's photos by these sets, each in its order from 1. */
    async replacePhotos(productId: number, sets: readonly { color: string | null; images: readonly string[] }[]) {
      await db.delete(productPhotos).where(eq(productPhotos.productId, productId));
      const rows = sets.flatMap(({ color, images: names }) =>
        names.map((image, i) => ({ productId, color, position: i + 1, image })),
      );
      if (rows.length > 0) await db.insert(productPhotos).values(rows);
    },
  };
}

export type AdminProductsRepository = ReturnType<typeof createAdminProductsRepository>;
