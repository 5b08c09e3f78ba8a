// What the marketplace kit (services/marketplace-kit.ts) reads of products: their card fields,
// variants with the recommended retail price, photos per colour and conformity documents. Rows
// only: the naming of files and the sheets' values are the kit's.
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Queryable } from '../db/database';
import type { ProductCard } from '../domain/marketplace-card';
import { cartItems, categories, conformityDocuments, images, orderLines, products, variants } from '../db/schema';
import { photoSetsOf } from './product-photos';
import { priceInType } from './products';

/** Products read per query: a kit of 300 products is read in two queries of each kind, not one. */
export const CARD_BATCH = 200;

function batchesOf(ids: readonly number[]): number[][] {
  const batches: number[][] = [];
  for (let start = 0; start < ids.length; start += CARD_BATCH) batches.push(ids.slice(start, start + CARD_BATCH));
  return batches;
}

export function createProductCardsRepository(db: Queryable) {
  async function cardsOfBatch(ids: number[], rrpTypeId: number | null): Promise<ProductCard[]> {
    const [productRows, variantRows, photoSets] = await Promise.all([
      db
        .select({
          id: products.id,
          art: products.art,
          name: products.name,
          description: products.description,
          bigDescription: products.bigDescription,
          category: categories.name,
          brand: products.brand,
          material: products.material,
          filler: products.filler,
          ageFrom: products.ageFrom,
          countryOfOrigin: products.countryOfOrigin,
          tnved: products.tnved,
          cover: products.image,
          documentId: conformityDocuments.id,
          documentKind: conformityDocuments.kind,
          regulation: conformityDocuments.regulation,
          documentNumber: conformityDocuments.number,
          validFrom: conformityDocuments.validFrom,
          validTo: conformityDocuments.validTo,
        })
        .from(products)
        .innerJoin(categories, eq(categories.id, products.categoryId))
        .leftJoin(conformityDocuments, eq(conformityDocuments.id, products.conformityDocumentId))
        .where(inArray(products.id, ids))
        .orderBy(asc(products.art)),
      db
        .select({
          id: variants.id,
          productId: variants.productId,
          color: variants.color,
          size: variants.size,
          barcode: variants.barcode,
          marked: variants.marked,
          packageLengthMm: variants.packageLengthMm,
          packageWidthMm: variants.packageWidthMm,
          packageHeightMm: variants.packageHeightMm,
          weightG: variants.weightG,
          rrp: rrpTypeId === null ? sql<string | null>`null` : priceInType(rrpTypeId),
        })
        .from(variants)
        .where(inArray(variants.productId, ids))
        .orderBy(asc(variants.color), asc(variants.size), asc(variants.id)),
      photoSetsOf(db, ids),
    ]);
    const cards = new Map<number, ProductCard>();
    for (const row of productRows) {
      cards.set(row.id, {
        id: row.id,
        art: row.art,
        name: row.name,
        // The long description is what a marketplace's «Описание» asks for; the short one else.
        description: row.bigDescription ?? row.description,
        category: row.category,
        brand: row.brand,
        material: row.material,
        filler: row.filler,
        ageFrom: row.ageFrom,
        countryOfOrigin: row.countryOfOrigin,
        tnved: row.tnved,
        cover: row.cover,
        document:
          row.documentId === null
            ? null
            : {
                id: row.documentId,
                kind: row.documentKind!,
                regulation: row.regulation!,
                number: row.documentNumber!,
                validFrom: row.validFrom!,
                validTo: row.validTo!,
              },
        variants: [],
        ownPhotos: [],
        colourPhotos: new Map(),
      });
    }
    for (const { productId, ...variant } of variantRows) cards.get(productId)?.variants.push(variant);
    for (const { productId, color, images } of photoSets) {
      const card = cards.get(productId);
      if (!card) continue;
      if (color === null) card.ownPhotos = images;
      else card.colourPhotos.set(color, images);
    }
    return [...cards.values()];
  }

  return {
    /**
     * The cards of these products, CARD_BATCH at a time, by article within a batch; ids of no
     * product are left out. The RRP is the price in `rrpTypeId` (null: the shop keeps no RRP type).
     */
    async *cardBatches(productIds: readonly number[], rrpTypeId: number | null): AsyncGenerator<ProductCard[]> {
      for (const batch of batchesOf(productIds)) yield await cardsOfBatch(batch, rrpTypeId);
    },

    /** Which of these ids are visible products (the rest are unknown or hidden). */
    async visibleIds(productIds: readonly number[]): Promise<Set<number>> {
      const found = new Set<number>();
      for (const batch of batchesOf(productIds)) {
        const rows = await db
          .select({ id: products.id })
          .from(products)
          .where(and(inArray(products.id, batch), isNull(products.hiddenAt)));
        for (const row of rows) found.add(row.id);
      }
      return found;
    },

    /** The products of an order's lines, each once: those taken off sale since too (they were bought). */
    async ofOrder(orderId: number): Promise<number[]> {
      const rows = await db
        .selectDistinct({ id: orderLines.productId })
        .from(orderLines)
        .where(eq(orderLines.orderId, orderId))
        .orderBy(asc(orderLines.productId));
      return rows.map((row) => row.id);
    },

    /** The visible products in the account's cart, each once. */
    async ofCart(userId: number): Promise<number[]> {
      const rows = await db
        .selectDistinct({ id: cartItems.productId })
        .from(cartItems)
        .innerJoin(products, eq(products.id, cartItems.productId))
        .where(and(eq(cartItems.userId, userId), isNull(products.hiddenAt)))
        .orderBy(asc(cartItems.productId));
      return rows.map((row) => row.id);
    },

    /** Which of these uploaded pictures' names are in the database (one query for a batch's photos). */
    async uploadedNames(names: readonly string[]): Promise<Set<string>> {
      if (names.length === 0) return new Set();
      const rows = await db
        .select({ name: images.name })
        .from(images)
        .where(inArray(images.name, [...names]));
      return new Set(rows.map((row) => row.name));
    },

    /** A conformity document's PDF, read when the kit comes to it (up to 20 MB, one at a time). */
    async documentPdf(documentId: number): Promise<Buffer | null> {
      const [row] = await db
        .select({ pdf: conformityDocuments.pdf })
        .from(conformityDocuments)
        .where(eq(conformityDocuments.id, documentId));
      return row?.pdf ?? null;
    },
  };
}

export type ProductCardsRepository = ReturnType<typeof createProductCardsRepository>;
