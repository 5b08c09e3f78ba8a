// The price types' SQL: the types themselves, a variant's prices in the types other than the
// default (variant_prices) and the tiers (price_tiers). Rows or null only; the rules are the
// pricing service's (services/price-types.ts) and src/shared/pricing.ts's.
import { and, asc, eq, inArray, isNotNull, or, sql, type SQL } from 'drizzle-orm';
import type { Queryable } from '../db/database';
import { companies, priceTiers, priceTypes, variantPrices, variants } from '../db/schema';
import type { TierRow } from '../domain/wholesale-price';

/** A price type as the back office lists it. */
export interface PriceTypeRow {
  id: number;
  code: string;
  name: string;
  isDefault: boolean;
  isRrp: boolean;
  /** Decimal rubles, as stored. */
  minOrderSum: string;
  companiesCount: number;
}

/** The types every priced read needs: the default one and the recommended retail one (if kept). */
export interface CatalogueTypes {
  defaultTypeId: number;
  rrpTypeId: number | null;
}

export interface NewPriceType {
  code: string;
  name: string;
  isRrp: boolean;
  minOrderSum: string;
}

const typeColumns = {
  id: priceTypes.id,
  code: priceTypes.code,
  name: priceTypes.name,
  isDefault: priceTypes.isDefault,
  isRrp: priceTypes.isRrp,
  minOrderSum: priceTypes.minOrderSum,
  companiesCount: sql<number>`(select count(*)::int from ${companies} where ${companies.priceTypeId} = ${priceTypes}.id)`,
};

export function createPriceTypesRepository(db: Queryable) {
  const tiersWhere = (where: SQL | undefined): Promise<TierRow[]> =>
    db
      .select({
        priceTypeId: priceTiers.priceTypeId,
        productId: priceTiers.productId,
        variantId: priceTiers.variantId,
        from: priceTiers.fromQuantity,
        price: priceTiers.price,
      })
      .from(priceTiers)
      .where(where);

  return {
    list(): Promise<PriceTypeRow[]> {
      return db.select(typeColumns).from(priceTypes).orderBy(asc(priceTypes.id));
    },

    async find(id: number): Promise<PriceTypeRow | null> {
      const [row] = await db.select(typeColumns).from(priceTypes).where(eq(priceTypes.id, id));
      return row ?? null;
    },

    /** The type's row locked until the transaction ends (a company assigned it meanwhile waits). */
    async lock(id: number): Promise<PriceTypeRow | null> {
      const [row] = await db.select({ id: priceTypes.id }).from(priceTypes).where(eq(priceTypes.id, id)).for('update');
      return row ? this.find(id) : null;
    },

    async catalogueTypes(): Promise<CatalogueTypes> {
      const rows = await db
        .select({ id: priceTypes.id, isDefault: priceTypes.isDefault, isRrp: priceTypes.isRrp })
        .from(priceTypes)
        .where(or(eq(priceTypes.isDefault, true), eq(priceTypes.isRrp, true)));
      return {
        defaultTypeId: rows.find((row) => row.isDefault)!.id,
        rrpTypeId: rows.find((row) => row.isRrp)?.id ?? null,
      };
    },

    async codesInUse(): Promise<Set<string>> {
      const rows = await db.select({ code: priceTypes.code }).from(priceTypes);
      return new Set(rows.map((row) => row.code));
    },

    async insert(type: NewPriceType): Promise<number> {
      const [row] = await db.insert(priceTypes).values(type).returning({ id: priceTypes.id });
      return row!.id;
    },

    async update(id: number, patch: Partial<Pick<NewPriceType, 'name' | 'isRrp' | 'minOrderSum'>>): Promise<void> {
      if (Object.keys(patch).length > 0) await db.update(priceTypes).set(patch).where(eq(priceTypes.id, id));
    },

    async remove(id: number): Promise<void> {
      await db.delete(priceTypes).where(eq(priceTypes.id, id));
    },

    /**
     * Makes `to` the default type in place of `from`, nobody's price changing: `from`'s prices
     * (variants.price) are kept as its own rows, `to`'s own prices become variants.price, and a
     * variant `to` had no price for keeps the one its buyers paid, now `to`'s own.
     */
    async moveDefault(from: number, to: number): Promise<void> {
      await db.execute(sql`insert into ${variantPrices} (price_type_id, variant_id, price)
        select ${from}::int, ${variants.id}, ${variants.price} from ${variants} where ${variants.price} > 0
        on conflict (variant_id, price_type_id) do update set price = excluded.price`);
      await db.execute(sql`update ${variants} set price = ${variantPrices.price} from ${variantPrices}
        where ${variantPrices.variantId} = ${variants.id} and ${variantPrices.priceTypeId} = ${to}`);
      await db.delete(variantPrices).where(eq(variantPrices.priceTypeId, to));
      await db.update(priceTypes).set({ isDefault: false }).where(eq(priceTypes.id, from));
      await db.update(priceTypes).set({ isDefault: true }).where(eq(priceTypes.id, to));
    },

    /** The companies assigned the type (a deleted type must have none). */
    async companiesUsing(id: number): Promise<number> {
      const [row] = await db
        .select({ count: sql<number>`count(*)::int` })
        .from(companies)
        .where(eq(companies.priceTypeId, id));
      return row!.count;
    },

    /** The tiers of these variants and products in these types, for pricing them. */
    tiers(typeIds: readonly number[], productIds: readonly number[], variantIds: readonly number[]) {
      if (productIds.length === 0 && variantIds.length === 0) return Promise.resolve([]);
      return tiersWhere(
        and(
          inArray(priceTiers.priceTypeId, [...new Set(typeIds)]),
          or(
            productIds.length > 0 ? inArray(priceTiers.productId, [...productIds]) : undefined,
            variantIds.length > 0 ? inArray(priceTiers.variantId, [...variantIds]) : undefined,
          ),
        ),
      );
    },

    /** The prices of these products' variants in the types other than the default, for the back office. */
    variantPricesOfProducts(productIds: readonly number[]) {
      if (productIds.length === 0) return Promise.resolve([]);
      return db
        .select({
          variantId: variantPrices.variantId,
          priceTypeId: variantPrices.priceTypeId,
          price: variantPrices.price,
        })
        .from(variantPrices)
        .innerJoin(variants, eq(variants.id, variantPrices.variantId))
        .where(inArray(variants.productId, [...productIds]));
    },

    /**
     * Every tier of these products and of their variants, in `typeIds` (every type when not given):
     * a page of the catalogue, or a product in the back office.
     */
    tiersOfProducts(productIds: readonly number[], typeIds?: readonly number[]): Promise<TierRow[]> {
      if (productIds.length === 0) return Promise.resolve([]);
      const ofProducts = sql.param([...productIds]);
      return tiersWhere(
        and(
          typeIds ? inArray(priceTiers.priceTypeId, [...new Set(typeIds)]) : undefined,
          or(
            sql`${priceTiers.productId} = any(${ofProducts}::int[])`,
            and(
              isNotNull(priceTiers.variantId),
              sql`${priceTiers.variantId} in (select ${variants.id} from ${variants}
                where ${variants.productId} = any(${ofProducts}::int[]))`,
            ),
          ),
        ),
      );
    },

    async setVariantPrice(variantId: number, typeId: number, price: string | null): Promise<void> {
      if (price === null) {
        await db
          .delete(variantPrices)
          .where(and(eq(variantPrices.variantId, variantId), eq(variantPrices.priceTypeId, typeId)));
        return;
      }
      await db
        .insert(variantPrices)
        .values({ variantId, priceTypeId: typeId, price })
        .onConflictDoUpdate({ target: [variantPrices.variantId, variantPrices.priceTypeId], set: { price } });
    },

    /** Replaces the tiers of a variant or a product in a type. */
    async replaceTiers(
      owner: { variantId: number } | { productId: number },
      typeId: number,
      tiers: readonly { from: number; price: string }[],
    ): Promise<void> {
      const ownerCondition =
        'variantId' in owner ? eq(priceTiers.variantId, owner.variantId) : eq(priceTiers.productId, owner.productId);
      await db.delete(priceTiers).where(and(ownerCondition, eq(priceTiers.priceTypeId, typeId)));
      if (tiers.length === 0) return;
      await db.insert(priceTiers).values(
        tiers.map((tier) => ({
          priceTypeId: typeId,
          productId: 'productId' in owner ? owner.productId : null,
          variantId: 'variantId' in owner ? owner.variantId : null,
          fromQuantity: tier.from,
          price: tier.price,
        })),
      );
    },
  };
}

export type PriceTypesRepository = ReturnType<typeof createPriceTypesRepository>;
