import type { Database } from '../database';
import { banners, categories, conformityDocuments, products, variants } from '../schema';
import { createSettingsRepository } from '../../repositories/settings';
import { seedBanners, seedCategories, seedDocuments, seedProducts } from './catalogue';
import { renderDemoDocumentPdf } from './document-pdf';

const SEEDED_MARKER = 'demo_catalogue_seeded_at';

/**
 * Fills an empty shop with the demo catalogue, once in the life of the database: the marker keeps
 * a shop whose manager later removed every product from being refilled. Callers hold the
 * start-up lock, so two processes starting together cannot both seed.
 */
export async function seedDemoCatalogue(db: Database): Promise<boolean> {
  // Made before the transaction: it holds no lock while fonts are read and pages drawn.
  const documentPdfs = await Promise.all(seedDocuments.map(renderDemoDocumentPdf));
  return db.transaction(async (tx) => {
    const settings = createSettingsRepository(tx);
    if (await settings.get(SEEDED_MARKER)) return false;
    const [anyProduct] = await tx.select({ id: products.id }).from(products).limit(1);
    if (!anyProduct) {
      const categoryRows = await tx
        .insert(categories)
        .values(seedCategories.map((name, position) => ({ name, position })))
        .returning({ id: categories.id, name: categories.name });
      const categoryIds = new Map(categoryRows.map((row) => [row.name, row.id]));
      const documentRows = await tx
        .insert(conformityDocuments)
        .values(
          seedDocuments.map(({ key: _key, covers: _covers, ...document }, index) => ({
            ...document,
            pdf: documentPdfs[index]!,
            pdfBytes: documentPdfs[index]!.length,
          })),
        )
        .returning({ id: conformityDocuments.id });
      const documentIds = new Map(seedDocuments.map((document, index) => [document.key, documentRows[index]!.id]));
      const productRows = await tx
        .insert(products)
        .values(
          seedProducts.map((product) => ({
            art: product.art,
            name: product.name,
            description: product.description,
            bigDescription: product.bigDescription,
            image: product.image,
            categoryId: categoryIds.get(product.category)!,
            curatedRank: product.curatedRank,
            brand: product.brand,
            material: product.material,
            filler: product.filler,
            ageFrom: product.ageFrom,
            countryOfOrigin: product.countryOfOrigin,
            tnved: product.tnved,
            conformityDocumentId: documentIds.get(product.document)!,
          })),
        )
        .returning({ id: products.id, art: products.art });
      const productIds = new Map(productRows.map((row) => [row.art, row.id]));
      const variantRows = seedProducts.flatMap((product) =>
        product.variants.map((variant) => ({ ...variant, productId: productIds.get(product.art)! })),
      );
      if (variantRows.length > 0) await tx.insert(variants).values(variantRows);
      await tx.insert(banners).values(seedBanners.map((banner, position) => ({ ...banner, position })));
    }
    await settings.set(SEEDED_MARKER, new Date().toISOString());
    return !anyProduct;
  });
}
