import type { Database } from '../database';
import { banners, categories, products, variants } from '../schema';
import { createSettingsRepository } from '../../repositories/settings';
import { seedBanners, seedCategories, seedProducts } from './catalogue';

const SEEDED_MARKER = 'demo_catalogue_seeded_at';

/**
 * Fills an empty shop with the demo catalogue, once in the life of the database: the marker keeps
 * a shop whose manager later removed every product from being refilled. Callers hold the
 * start-up lock, so two processes starting together cannot both seed.
 */
export async function seedDemoCatalogue(db: Database): Promise<boolean> {
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
