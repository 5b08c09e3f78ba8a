import { and, count, desc, eq, ilike, or, sql } from 'drizzle-orm';
import type {
  AdminProduct,
  AdminProductList,
  AdminVariant,
  ProductCreate,
  ProductPatch,
  VariantFields,
  VariantPatch,
} from '../../shared/api';
import type { Database, Queryable, Transaction } from '../db/database';
import { escapeLike } from '../db/like';
import { categories, orderLines, products, variants } from '../db/schema';
import {
  ArtTakenError,
  CatalogueItemNotFoundError,
  LastVariantError,
  UnknownCategoryError,
  VariantOrderedError,
  VariantTakenError,
} from '../domain/domain-errors';
import { rublesToDecimal } from '../../shared/money';
import { createAuditRepository } from './audit';
import { afterLast, changeCatalogue } from './catalogue-change';
import { productColumns, withVariants, type Page } from './products';

/** A new product as it is written: its picture chosen (the placeholder when none was sent). */
export type NewProduct = ProductCreate & { image: string };

export interface AdminProductFilter extends Page {
  /** The start of an article (any case) or part of a name. */
  q?: string;
  category?: string;
}

/** A variant as the audit log keeps it: with its product, which its own row does not say. */
type AuditedVariant = AdminVariant & { product_id: number };

const PRODUCT_NOT_FOUND = 'Товар не найден';
const VARIANT_NOT_FOUND = 'Вариант не найден';

/** The storefront's columns, and what only managers see. */
const adminProductColumns = {
  ...productColumns,
  category: categories.name,
  popular: products.popular,
  hiddenAt: products.hiddenAt,
};

const variantColumns = {
  id: variants.id,
  product_id: variants.productId,
  color: variants.color,
  size: variants.size,
  price: variants.price,
  stock: variants.stock,
};

interface ProductRow {
  id: number;
  art: string;
  name: string;
  description: string | null;
  big_description: string | null;
  category: string;
  popular: boolean;
  image: string;
  hiddenAt: Date | null;
}

type VariantRow = { id: number; product_id: number; color: string; size: number; price: string; stock: number };

const toVariant = ({ price, ...row }: VariantRow): AuditedVariant => ({ ...row, price: Number(price) });

/**
 * Product rows as managers see them: with their variants, and whether each is hidden. What new
 * buyers hold is the storefront's (and it changes with every order): not in the answer, nor in the
 * journal's copies of it.
 */
async function toAdminProducts(db: Queryable, rows: ProductRow[]): Promise<AdminProduct[]> {
  return (await withVariants(db, rows)).map(({ hiddenAt, variants: ofProduct, ...row }) => ({
    ...row,
    variants: ofProduct.map(({ unproven_held, ...variant }) => variant),
    hidden: hiddenAt !== null,
  }));
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
 * The category's id. Read with a key-share lock, which a category's deletion waits for (and which
 * waits for it): a product cannot land in a category being deleted.
 */
async function categoryId(tx: Transaction, name: string): Promise<number> {
  const [found] = await tx
    .select({ id: categories.id })
    .from(categories)
    .where(eq(categories.name, name))
    .for('key share');
  if (!found) throw new UnknownCategoryError(name);
  return found.id;
}

async function findVariant(tx: Transaction, id: number): Promise<AuditedVariant> {
  const [row] = await tx.select(variantColumns).from(variants).where(eq(variants.id, id)).for('update');
  if (!row) throw new CatalogueItemNotFoundError(VARIANT_NOT_FOUND);
  return toVariant(row);
}

/** The back office's products and variants; every change is audited (see changeCatalogue). */
export function createAdminProductsRepository(db: Database) {
  const audit = (tx: Transaction) => createAuditRepository(tx);

  async function lockedProduct(tx: Transaction, id: number): Promise<AdminProduct> {
    const product = await findProduct(tx, id, true);
    if (!product) throw new CatalogueItemNotFoundError(PRODUCT_NOT_FOUND);
    return product;
  }

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

    async create(product: NewProduct, byUserId: number): Promise<AdminProduct> {
      return changeCatalogue(
        db,
        async (tx) => {
          const [created] = await tx
            .insert(products)
            .values({
              art: product.art,
              name: product.name,
              description: product.description ?? null,
              bigDescription: product.big_description ?? null,
              image: product.image,
              categoryId: await categoryId(tx, product.category),
              popular: product.popular ?? false,
              // Last in the shop's curated order, until it is ordered or picked as popular.
              curatedRank: afterLast(products.curatedRank),
            })
            .returning({ id: products.id });
          await tx.insert(variants).values(
            product.variants.map((variant) => ({
              productId: created!.id,
              color: variant.color,
              size: variant.size,
              price: rublesToDecimal(variant.price),
              stock: variant.stock,
            })),
          );
          const after = (await findProduct(tx, created!.id))!;
          await audit(tx).record({ byUserId, action: 'product.create', entity: 'product', entityId: after.id, after });
          return after;
        },
        { products_art_unique: () => new ArtTakenError(product.art) },
      );
    },

    /** `hidden: false` puts a hidden product back on the storefront; true hides it, like `hide`. */
    async update(id: number, patch: ProductPatch, byUserId: number): Promise<AdminProduct> {
      return changeCatalogue(
        db,
        async (tx) => {
          const before = await lockedProduct(tx, id);
          await tx
            .update(products)
            .set({
              art: patch.art,
              name: patch.name,
              description: patch.description,
              bigDescription: patch.big_description,
              image: patch.image,
              popular: patch.popular,
              categoryId: patch.category === undefined ? undefined : await categoryId(tx, patch.category),
              // Hiding again keeps the first hiding's time.
              hiddenAt:
                patch.hidden === undefined
                  ? undefined
                  : patch.hidden
                    ? sql`coalesce(${products.hiddenAt}, now())`
                    : null,
            })
            .where(eq(products.id, id));
          const after = (await findProduct(tx, id))!;
          await audit(tx).record({
            byUserId,
            action: 'product.update',
            entity: 'product',
            entityId: id,
            before,
            after,
          });
          return after;
        },
        { products_art_unique: () => new ArtTakenError(patch.art ?? '') },
      );
    },

    /**
     * Takes the product off the storefront. Its rows stay: orders keep their lines and carts show
     * the line as no longer on sale. Hiding a hidden product changes nothing and logs nothing.
     */
    async hide(id: number, byUserId: number): Promise<AdminProduct> {
      return changeCatalogue(db, async (tx) => {
        const before = await lockedProduct(tx, id);
        if (before.hidden) return before;
        await tx
          .update(products)
          .set({ hiddenAt: sql`now()` })
          .where(eq(products.id, id));
        const after = (await findProduct(tx, id))!;
        await audit(tx).record({ byUserId, action: 'product.hide', entity: 'product', entityId: id, before, after });
        return after;
      });
    },

    async addVariant(productId: number, variant: VariantFields, byUserId: number): Promise<AdminVariant> {
      return changeCatalogue(
        db,
        async (tx) => {
          await lockedProduct(tx, productId);
          const [row] = await tx
            .insert(variants)
            .values({ productId, ...variant, price: rublesToDecimal(variant.price) })
            .returning(variantColumns);
          const after = toVariant(row!);
          await audit(tx).record({ byUserId, action: 'variant.create', entity: 'variant', entityId: after.id, after });
          return withoutProduct(after);
        },
        { variants_product_color_size_idx: () => new VariantTakenError(variant.color, variant.size) },
      );
    },

    async updateVariant(id: number, patch: VariantPatch, byUserId: number): Promise<AdminVariant> {
      let taken = { color: '', size: 0 };
      return changeCatalogue(
        db,
        async (tx) => {
          const before = await findVariant(tx, id);
          taken = { color: patch.color ?? before.color, size: patch.size ?? before.size };
          const [row] = await tx
            .update(variants)
            .set({ ...patch, price: patch.price === undefined ? undefined : rublesToDecimal(patch.price) })
            .where(eq(variants.id, id))
            .returning(variantColumns);
          const after = toVariant(row!);
          await audit(tx).record({
            byUserId,
            action: 'variant.update',
            entity: 'variant',
            entityId: id,
            before,
            after,
          });
          return withoutProduct(after);
        },
        { variants_product_color_size_idx: () => new VariantTakenError(taken.color, taken.size) },
      );
    },

    /**
     * Deletes a variant nobody has ordered (order lines point at their variant; stock 0 takes an
     * ordered one off sale instead). It leaves the carts that held it. A product keeps one variant.
     */
    async removeVariant(id: number, byUserId: number): Promise<void> {
      await changeCatalogue(db, async (tx) => {
        const before = await findVariant(tx, id);
        // The product's row lock queues concurrent deletions of its variants, so two cannot each
        // leave the other as the last one and both go.
        await lockedProduct(tx, before.product_id);
        const [ordered] = await tx
          .select({ orders: sql<number>`count(distinct ${orderLines.orderId})::int` })
          .from(orderLines)
          .where(eq(orderLines.variantId, id));
        if (ordered && ordered.orders > 0) throw new VariantOrderedError(before.color, before.size, ordered.orders);
        const [siblings] = await tx
          .select({ total: count() })
          .from(variants)
          .where(eq(variants.productId, before.product_id));
        if ((siblings?.total ?? 0) <= 1) throw new LastVariantError();
        await tx.delete(variants).where(eq(variants.id, id));
        await audit(tx).record({ byUserId, action: 'variant.delete', entity: 'variant', entityId: id, before });
      });
    },
  };
}

function withoutProduct({ product_id: _productId, ...variant }: AuditedVariant): AdminVariant {
  return variant;
}

export type AdminProductsRepository = ReturnType<typeof createAdminProductsRepository>;
