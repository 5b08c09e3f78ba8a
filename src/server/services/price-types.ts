// The back office's wholesale prices: the price types, a variant's prices and tiers per type, a
// product's tiers, and the storefront's «цены только после входа». Each change is audited and
// announced to every process in its own transaction (services/catalogue-change.ts).
import type {
  PriceType,
  PriceTypeFields,
  PriceTypePatch,
  ProductPrices,
  StorefrontSettings,
  VariantPrices,
} from '../../shared/api';
import { rublesToDecimal } from '../../shared/money';
import { priceProblem } from '../../shared/catalogue';
import { tiersProblem, type PriceTier } from '../../shared/pricing';
import type { Database, Queryable, Transaction } from '../db/database';
import {
  CatalogueItemNotFoundError,
  PriceTypeConflictError,
  PriceTypeNotFoundError,
  PricingRefusedError,
} from '../domain/domain-errors';
import { priceTypeCode } from '../domain/price-type-code';
import { createAdminProductsRepository } from '../repositories/admin-products';
import { createAuditRepository } from '../repositories/audit';
import { createPriceTypesRepository, type PriceTypeRow, type PriceTypesRepository } from '../repositories/price-types';
import { createSettingsRepository } from '../repositories/settings';
import { changeCatalogue } from './catalogue-change';
import { PRICES_FOR_VISITORS_SETTING } from './price-views';

const toPriceType = (row: PriceTypeRow): PriceType => ({
  id: row.id,
  code: row.code,
  name: row.name,
  is_default: row.isDefault,
  is_rrp: row.isRrp,
  min_order_sum: Number(row.minOrderSum),
  companies_count: row.companiesCount,
});

const NAME_TAKEN = () => new PriceTypeConflictError('Тип цен с таким названием уже есть');
const RRP_TAKEN = () => new PriceTypeConflictError('Рекомендованная розничная цена уже есть: она бывает одна');

/** Named unique constraints of price_types, as the manager reads them. */
// Two types of names that make the same code, created at once: the second is told as a name taken.
const UNIQUE_RULES = {
  price_types_name_unique: NAME_TAKEN,
  price_types_code_unique: NAME_TAKEN,
  price_types_one_rrp_idx: RRP_TAKEN,
};

function refusedIf(problem: string | null): void {
  if (problem) throw new PricingRefusedError(problem);
}

/** The name as kept: trimmed, and never blank (the schema's minLength counts spaces). */
function nameOf(name: string): string {
  const trimmed = name.trim();
  if (!trimmed) throw new PricingRefusedError('Укажите название типа цен');
  return trimmed;
}

function minOrderSumOf(rubles: number): string {
  refusedIf(rubles === 0 ? null : priceProblem(rubles));
  return rublesToDecimal(rubles);
}

const decimalTiers = (tiers: readonly PriceTier[]) =>
  tiers.map((tier) => ({ from: tier.from, price: rublesToDecimal(tier.price) }));

/**
 * Each entry of a prices body with its price type, in order: every type named once (else 422) and
 * known (else 404); an RRP type's entry with tiers refused (it is never sold, by any quantity).
 */
async function typedEntries<Entry extends { price_type_id: number; tiers?: readonly PriceTier[] }>(
  priceTypes: PriceTypesRepository,
  entries: readonly Entry[],
): Promise<[Entry, PriceTypeRow][]> {
  const typed: [Entry, PriceTypeRow][] = [];
  for (const entry of entries) {
    if (typed.some(([earlier]) => earlier.price_type_id === entry.price_type_id)) {
      throw new PricingRefusedError('Каждый тип цен указывается один раз');
    }
    const type = await priceTypes.find(entry.price_type_id);
    if (!type) throw new PriceTypeNotFoundError();
    if (type.isRrp && (entry.tiers?.length ?? 0) > 0) {
      throw new PricingRefusedError('У рекомендованной розничной цены нет цен по количеству');
    }
    typed.push([entry, type]);
  }
  return typed;
}

async function lockedType(tx: Queryable, id: number): Promise<PriceTypeRow> {
  const type = await createPriceTypesRepository(tx).lock(id);
  if (!type) throw new PriceTypeNotFoundError();
  return type;
}

export function createPriceTypeService(db: Database) {
  const audit = (tx: Transaction) => createAuditRepository(tx);

  return {
    async list(): Promise<PriceType[]> {
      return (await createPriceTypesRepository(db).list()).map(toPriceType);
    },

    create(fields: PriceTypeFields, byUserId: number): Promise<PriceType> {
      if (fields.is_default && fields.is_rrp) {
        throw new PricingRefusedError('Рекомендованная розничная цена не может быть типом по умолчанию');
      }
      return changeCatalogue(
        db,
        async (tx) => {
          const priceTypes = createPriceTypesRepository(tx);
          const id = await priceTypes.insert({
            code: priceTypeCode(nameOf(fields.name), await priceTypes.codesInUse()),
            name: nameOf(fields.name),
            isRrp: fields.is_rrp ?? false,
            minOrderSum: minOrderSumOf(fields.min_order_sum ?? 0),
          });
          if (fields.is_default) await priceTypes.moveDefault((await priceTypes.catalogueTypes()).defaultTypeId, id);
          const created = toPriceType((await priceTypes.find(id))!);
          await audit(tx).record({
            byUserId,
            action: 'price_type.create',
            entity: 'price_type',
            entityId: id,
            after: created,
          });
          return created;
        },
        UNIQUE_RULES,
      );
    },

    /**
     * Renames a type, sets its minimum order sum, makes it the default (the former default keeps its
     * prices as its own) or the RRP. The default stops being one only by another taking its place.
     */
    update(id: number, patch: PriceTypePatch, byUserId: number): Promise<PriceType> {
      return changeCatalogue(
        db,
        async (tx) => {
          const priceTypes = createPriceTypesRepository(tx);
          const before = await lockedType(tx, id);
          if (patch.is_default === false && before.isDefault) {
            throw new PriceTypeConflictError('Тип по умолчанию меняется, когда им делают другой тип');
          }
          const rrp = patch.is_rrp ?? before.isRrp;
          const makesDefault = patch.is_default === true && !before.isDefault;
          if (rrp && (before.isDefault || makesDefault)) {
            throw new PricingRefusedError('Рекомендованная розничная цена не может быть типом по умолчанию');
          }
          if (rrp && !before.isRrp && before.companiesCount > 0) {
            throw new PriceTypeConflictError(
              `По этому типу покупают компании (${before.companiesCount}): рекомендованная розничная цена им не назначается`,
            );
          }
          await priceTypes.update(id, {
            ...(patch.name !== undefined && { name: nameOf(patch.name) }),
            ...(patch.is_rrp !== undefined && { isRrp: patch.is_rrp }),
            ...(patch.min_order_sum !== undefined && { minOrderSum: minOrderSumOf(patch.min_order_sum) }),
          });
          if (makesDefault) await priceTypes.moveDefault((await priceTypes.catalogueTypes()).defaultTypeId, id);
          const after = toPriceType((await priceTypes.find(id))!);
          await audit(tx).record({
            byUserId,
            action: 'price_type.update',
            entity: 'price_type',
            entityId: id,
            before: toPriceType(before),
            after,
          });
          return after;
        },
        UNIQUE_RULES,
      );
    },

    /** Deletes a type with its prices and tiers; refused for the default and while a company buys by it. */
    remove(id: number, byUserId: number): Promise<void> {
      return changeCatalogue(db, async (tx) => {
        const before = await lockedType(tx, id);
        if (before.isDefault) {
          throw new PriceTypeConflictError('Тип цен по умолчанию не удаляется: сначала сделайте другой тип основным');
        }
        if (before.companiesCount > 0) {
          throw new PriceTypeConflictError(
            `Тип цен назначен компаниям (${before.companiesCount}): назначьте им другой тип, затем удалите`,
          );
        }
        await createPriceTypesRepository(tx).remove(id);
        await audit(tx).record({
          byUserId,
          action: 'price_type.delete',
          entity: 'price_type',
          entityId: id,
          before: toPriceType(before),
        });
      });
    },

    /**
     * Sets the variant's price and tiers in each type named (the others as they were): the default
     * type's price is variants.price; another type's null price removes it (its buyers pay the
     * default type's) with its tiers; the RRP type has a price and no tiers.
     */
    setVariantPrices(variantId: number, entries: VariantPrices, byUserId: number) {
      return changeCatalogue(db, async (tx) => {
        const products = createAdminProductsRepository(tx);
        const priceTypes = createPriceTypesRepository(tx);
        const variant = await products.lockVariant(variantId);
        if (!variant) throw new CatalogueItemNotFoundError('Вариант не найден');
        const before = await products.find(variant.product_id);
        for (const [entry, type] of await typedEntries(priceTypes, entries)) {
          const tiers = entry.tiers ?? [];
          if (entry.price === null) {
            if (type.isDefault) throw new PricingRefusedError(`У типа «${type.name}» (по умолчанию) цена есть всегда`);
            if (tiers.length > 0) throw new PricingRefusedError('Цены по количеству задаются вместе с ценой типа');
          } else {
            refusedIf(priceProblem(entry.price));
          }
          refusedIf(tiersProblem(tiers, entry.price ?? Number(variant.price)));
          if (type.isDefault) await products.updateVariant(variantId, { price: entry.price! });
          else
            await priceTypes.setVariantPrice(
              variantId,
              type.id,
              entry.price === null ? null : rublesToDecimal(entry.price),
            );
          if (entry.tiers !== undefined || entry.price === null) {
            await priceTypes.replaceTiers({ variantId }, type.id, decimalTiers(tiers));
          }
        }
        const product = (await products.find(variant.product_id))!;
        const after = product.variants.find((row) => row.id === variantId)!;
        await audit(tx).record({
          byUserId,
          action: 'variant.prices',
          entity: 'variant',
          entityId: variantId,
          before: before?.variants.find((row) => row.id === variantId)?.prices,
          after: after.prices,
        });
        return after;
      });
    },

    /** Replaces the product's tiers in each type named: counted over all its variants in the cart. */
    setProductTiers(productId: number, entries: ProductPrices, byUserId: number) {
      return changeCatalogue(db, async (tx) => {
        const products = createAdminProductsRepository(tx);
        const priceTypes = createPriceTypesRepository(tx);
        const before = await products.lock(productId);
        if (!before) throw new CatalogueItemNotFoundError('Товар не найден');
        for (const [entry, type] of await typedEntries(priceTypes, entries)) {
          refusedIf(tiersProblem(entry.tiers, null));
          await priceTypes.replaceTiers({ productId }, type.id, decimalTiers(entry.tiers));
        }
        const after = (await products.find(productId))!;
        await audit(tx).record({
          byUserId,
          action: 'product.prices',
          entity: 'product',
          entityId: productId,
          before: before.tiers,
          after: after.tiers,
        });
        return after;
      });
    },

    async storefrontSettings(): Promise<StorefrontSettings> {
      const value = await createSettingsRepository(db).get(PRICES_FOR_VISITORS_SETTING);
      return { prices_for_visitors: value !== 'false' };
    },

    /** Sets «цены только после входа»: every process forgets the visitors' answers at commit. */
    setStorefrontSettings(settings: StorefrontSettings, byUserId: number): Promise<StorefrontSettings> {
      return changeCatalogue(db, async (tx) => {
        const store = createSettingsRepository(tx);
        const before = (await store.get(PRICES_FOR_VISITORS_SETTING)) !== 'false';
        await store.set(PRICES_FOR_VISITORS_SETTING, String(settings.prices_for_visitors));
        await audit(tx).record({
          byUserId,
          action: 'settings.storefront',
          entity: 'settings',
          entityId: null,
          before: { prices_for_visitors: before },
          after: settings,
        });
        return settings;
      });
    },
  };
}

export type PriceTypeService = ReturnType<typeof createPriceTypeService>;
