import { eq } from 'drizzle-orm';
import type { ProductPage } from '../../shared/api';
import { cardBarcode, packageInCentimetres } from '../../shared/product-card';
import type { Queryable } from '../db/database';
import { conformityDocuments, products, variants } from '../db/schema';
import type { PriceView } from '../domain/wholesale-price';
import { photoSetsOf } from './product-photos';
import { createProductsRepository } from './products';

/**
 * The product page's answer: the catalogue's product (prices in the caller's view) with its photos
 * per colour and what a marketplace card needs. A 1С internal or carton code is not shown as the
 * variant's barcode: a reseller would print it on a marketplace card, which refuses it.
 */
async function findProductPage(db: Queryable, art: string, view: PriceView): Promise<ProductPage | null> {
  const product = await createProductsRepository(db).findByArt(art, view);
  if (!product) return null;
  const [[card], variantCards, photoSets] = await Promise.all([
    db
      .select({
        brand: products.brand,
        material: products.material,
        filler: products.filler,
        age_from: products.ageFrom,
        country_of_origin: products.countryOfOrigin,
        tnved: products.tnved,
        documentKind: conformityDocuments.kind,
        regulation: conformityDocuments.regulation,
        number: conformityDocuments.number,
        valid_from: conformityDocuments.validFrom,
        valid_to: conformityDocuments.validTo,
      })
      .from(products)
      .leftJoin(conformityDocuments, eq(conformityDocuments.id, products.conformityDocumentId))
      .where(eq(products.id, product.id)),
    db
      .select({
        id: variants.id,
        barcode: variants.barcode,
        marked: variants.marked,
        length: variants.packageLengthMm,
        width: variants.packageWidthMm,
        height: variants.packageHeightMm,
        weight_g: variants.weightG,
      })
      .from(variants)
      .where(eq(variants.productId, product.id)),
    photoSetsOf(db, [product.id]),
  ]);
  const cards = new Map(variantCards.map((row) => [row.id, row]));
  const { documentKind, regulation, number, valid_from, valid_to, ...characteristics } = card!;
  const photos = photoSets.map(({ color, images }) => ({ color, images }));
  // The cover alone when the product has no own set: the page always has a picture to show first.
  if (photos[0]?.color !== null) photos.unshift({ color: null, images: [product.image] });
  return {
    ...product,
    ...characteristics,
    conformity_document:
      documentKind === null
        ? null
        : {
            kind: documentKind,
            regulation: regulation!,
            number: number!,
            valid_from: valid_from!,
            valid_to: valid_to!,
          },
    photos,
    variants: product.variants.map((variant) => {
      const { barcode, marked, length, width, height, weight_g } = cards.get(variant.id)!;
      return {
        ...variant,
        barcode: cardBarcode(barcode),
        marked,
        package: packageInCentimetres(length, width, height),
        weight_g,
      };
    }),
  };
}

export function createProductPageRepository(db: Queryable) {
  return { find: (art: string, view: PriceView) => findProductPage(db, art, view) };
}
