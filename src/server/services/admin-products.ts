// The back office's changes to products and variants: each audited and announced in its own
// transaction (services/catalogue-change.ts), with the rules that refuse them (an unknown category,
// an article or a variant taken, the last variant, an ordered one).
import type {
  AdminProduct,
  AdminVariant,
  PhotosChange,
  ProductCreate,
  ProductPatch,
  VariantFields,
  VariantPatch,
} from '../../shared/api';
import type { Database, Transaction } from '../db/database';
import {
  ArtTakenError,
  BarcodeTakenError,
  CatalogueItemNotFoundError,
  LastVariantError,
  PhotoColorError,
  PricingRefusedError,
  UnknownCategoryError,
  UnknownConformityDocumentError,
  VariantOrderedError,
  VariantTakenError,
} from '../domain/domain-errors';
import {
  createAdminProductsRepository,
  type AdminProductsRepository,
  type AuditedVariant,
} from '../repositories/admin-products';
import { createAuditRepository } from '../repositories/audit';
import { changeCatalogue } from './catalogue-change';
import { packagingSettingsProblem } from '../../shared/pricing';

/** A new product as it is written: its picture chosen (the placeholder when none was sent). */
export type NewProduct = ProductCreate & { image: string };

async function lockedProduct(products: AdminProductsRepository, id: number): Promise<AdminProduct> {
  const product = await products.lock(id);
  if (!product) throw new CatalogueItemNotFoundError('Товар не найден');
  return product;
}

async function lockedVariant(products: AdminProductsRepository, id: number): Promise<AuditedVariant> {
  const variant = await products.lockVariant(id);
  if (!variant) throw new CatalogueItemNotFoundError('Вариант не найден');
  return variant;
}

async function categoryIdOf(products: AdminProductsRepository, name: string): Promise<number> {
  const id = await products.categoryId(name);
  if (id === null) throw new UnknownCategoryError(name);
  return id;
}

/** A document a product is to point at must exist (null unsets it, undefined leaves it). */
async function checkConformityDocument(products: AdminProductsRepository, id: number | null | undefined) {
  if (id != null && !(await products.conformityDocumentExists(id))) throw new UnknownConformityDocumentError();
}

/**
 * Typed barcodes are unique (the input checks ones typed twice in one request): checked under a
 * lock every such check takes, so two managers cannot both find a code free and both take it.
 * `variantId` is the variant being changed, whose own barcode is no conflict.
 */
async function checkBarcodesFree(
  products: AdminProductsRepository,
  barcodes: readonly (string | null | undefined)[],
  variantId: number | null = null,
) {
  const typed = barcodes.filter((barcode): barcode is string => typeof barcode === 'string');
  if (typed.length === 0) return;
  await products.lockBarcodes();
  for (const barcode of typed) {
    const holder = await products.barcodeHolder(barcode, variantId);
    if (holder !== null) throw new BarcodeTakenError(barcode, holder);
  }
}

function withoutProduct({ product_id: _productId, ...variant }: AuditedVariant): AdminVariant {
  return variant;
}

export function createAdminProductService(db: Database) {
  const repositories = (tx: Transaction) => ({
    products: createAdminProductsRepository(tx),
    audit: createAuditRepository(tx),
  });

  return {
    create(product: NewProduct, byUserId: number): Promise<AdminProduct> {
      return changeCatalogue(
        db,
        async (tx) => {
          const { products, audit } = repositories(tx);
          const { image, ...fields } = product;
          await checkConformityDocument(products, product.conformity_document_id);
          await checkBarcodesFree(
            products,
            product.variants.map((variant) => variant.barcode),
          );
          const id = await products.insert(fields, image, await categoryIdOf(products, product.category));
          const after = (await products.find(id))!;
          await audit.record({ byUserId, action: 'product.create', entity: 'product', entityId: after.id, after });
          return after;
        },
        { products_art_unique: () => new ArtTakenError(product.art) },
      );
    },

    /** `hidden: false` puts a hidden product back on the storefront; true hides it, like `hide`. */
    update(id: number, patch: ProductPatch, byUserId: number): Promise<AdminProduct> {
      return changeCatalogue(
        db,
        async (tx) => {
          const { products, audit } = repositories(tx);
          const before = await lockedProduct(products, id);
          const packaging = {
            multiple: patch.multiple ?? before.multiple,
            min_quantity: patch.min_quantity ?? before.min_quantity,
          };
          const packagingRefusal = packagingSettingsProblem(packaging);
          if (packagingRefusal) throw new PricingRefusedError(packagingRefusal);
          await checkConformityDocument(products, patch.conformity_document_id);
          const { category, ...fields } = patch;
          await products.update(
            id,
            fields,
            category === undefined ? undefined : await categoryIdOf(products, category),
          );
          const after = (await products.find(id))!;
          await audit.record({ byUserId, action: 'product.update', entity: 'product', entityId: id, before, after });
          return after;
        },
        { products_art_unique: () => new ArtTakenError(patch.art ?? '') },
      );
    },

    /**
     * Takes the product off the storefront. Its rows stay: orders keep their lines and carts show
     * the line as no longer on sale. Hiding a hidden product changes nothing and logs nothing.
     */
    hide(id: number, byUserId: number): Promise<AdminProduct> {
      return changeCatalogue(db, async (tx) => {
        const { products, audit } = repositories(tx);
        const before = await lockedProduct(products, id);
        if (before.hidden) return before;
        await products.update(id, { hidden: true }, undefined);
        const after = (await products.find(id))!;
        await audit.record({ byUserId, action: 'product.hide', entity: 'product', entityId: id, before, after });
        return after;
      });
    },

    addVariant(productId: number, variant: VariantFields, byUserId: number): Promise<AdminVariant> {
      return changeCatalogue(
        db,
        async (tx) => {
          const { products, audit } = repositories(tx);
          await lockedProduct(products, productId);
          await checkBarcodesFree(products, [variant.barcode]);
          const after = await products.insertVariant(productId, variant);
          await audit.record({ byUserId, action: 'variant.create', entity: 'variant', entityId: after.id, after });
          return withoutProduct(after);
        },
        { variants_product_color_size_idx: () => new VariantTakenError(variant.color, variant.size) },
      );
    },

    updateVariant(id: number, patch: VariantPatch, byUserId: number): Promise<AdminVariant> {
      let taken = { color: '', size: 0 };
      return changeCatalogue(
        db,
        async (tx) => {
          const { products, audit } = repositories(tx);
          const before = await lockedVariant(products, id);
          taken = { color: patch.color ?? before.color, size: patch.size ?? before.size };
          await checkBarcodesFree(products, [patch.barcode], id);
          const after = await products.updateVariant(id, patch);
          await audit.record({ byUserId, action: 'variant.update', entity: 'variant', entityId: id, before, after });
          return withoutProduct(after);
        },
        { variants_product_color_size_idx: () => new VariantTakenError(taken.color, taken.size) },
      );
    },

    /**
     * Replaces all the product's photos: the sets sent, each in its order (the first its cover);
     * a set left out is deleted. The product's picture becomes its own set's cover, when it has one.
     * The input has checked the images exist; the colours are checked here, against the variants
     * the locked product has now.
     */
    setPhotos(productId: number, sets: PhotosChange, byUserId: number): Promise<AdminProduct> {
      return changeCatalogue(db, async (tx) => {
        const { products, audit } = repositories(tx);
        const before = await lockedProduct(products, productId);
        const colors = new Set(before.variants.map((variant) => variant.color));
        const stranger = sets.find(({ color }) => color !== null && !colors.has(color));
        if (stranger) throw new PhotoColorError(stranger.color!);
        const kept = sets.filter((set) => set.images.length > 0);
        await products.replacePhotos(productId, kept);
        const cover = kept.find((set) => set.color === null)?.images[0];
        if (cover !== undefined) await products.update(productId, { image: cover }, undefined);
        const after = (await products.find(productId))!;
        await audit.record({
          byUserId,
          action: 'product.photos',
          entity: 'product',
          entityId: productId,
          before: { image: before.image, photos: before.photos },
          after: { image: after.image, photos: after.photos },
        });
        return after;
      });
    },

    /**
     * Deletes a variant nobody has ordered (order lines point at their variant; stock 0 takes an
     * ordered one off sale instead). It leaves the carts that held it. A product keeps one variant.
     */
    async removeVariant(id: number, byUserId: number): Promise<void> {
      await changeCatalogue(db, async (tx) => {
        const { products, audit } = repositories(tx);
        const before = await lockedVariant(products, id);
        // The product's row lock queues concurrent deletions of its variants, so two cannot each
        // leave the other as the last one and both go.
        await lockedProduct(products, before.product_id);
        const orders = await products.ordersOfVariant(id);
        if (orders > 0) throw new VariantOrderedError(before.color, before.size, orders);
        if ((await products.variantCount(before.product_id)) <= 1) throw new LastVariantError();
        await products.removeVariant(id);
        await audit.record({ byUserId, action: 'variant.delete', entity: 'variant', entityId: id, before });
      });
    },
  };
}
