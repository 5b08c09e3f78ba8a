// Which price a variant sells at to a buyer of a price type: the type's own price and tiers, or —
// where the type has no price for the variant — the default type's (variants.price and its tiers).
// A variant's own tiers count its line; without them, its product's tiers count all the product's
// lines together. Pure: the repositories read the rows, the catalogue, the cart and the order
// transaction price with this, so the three always agree.
import type { PriceTier } from '../../shared/pricing';
import { tierReached, unitPrice } from '../../shared/pricing';

/** The price types a read is priced in: the buyer's (the default one for a visitor) and the default. */
export interface PriceTypes {
  /** The buyer's company's type (the default type's id when it has none, or for a visitor). */
  typeId: number;
  defaultTypeId: number;
}

/**
 * What prices a catalogue read shows: in which price types (null: none, a visitor while the shop
 * shows prices only after sign-in) and the recommended retail type. `key` names it in the catalogue
 * cache: answers are kept per price type, never per buyer.
 */
export interface PriceView {
  key: string;
  types: PriceTypes | null;
  rrpTypeId: number | null;
}

/** No prices: a visitor's while the shop shows them only after sign-in. */
export const HIDDEN_PRICES: PriceView = { key: 'hidden', types: null, rrpTypeId: null };

/** One stored tier: a variant's or a product's, in a type. Prices as the database gives them. */
export interface TierRow {
  priceTypeId: number;
  productId: number | null;
  variantId: number | null;
  from: number;
  price: string;
}

/** Tiers by owner and type, ascending `from`: read once for a page, a cart or an order. */
export class TierIndex {
  private readonly byKey = new Map<string, PriceTier[]>();

  constructor(rows: readonly TierRow[]) {
    for (const row of rows) {
      const key =
        row.variantId !== null
          ? variantKey(row.priceTypeId, row.variantId)
          : productKey(row.priceTypeId, row.productId!);
      const list = this.byKey.get(key) ?? [];
      list.push({ from: row.from, price: Number(row.price) });
      this.byKey.set(key, list);
    }
    for (const list of this.byKey.values()) list.sort((a, b) => a.from - b.from);
  }

  ofVariant(typeId: number, variantId: number): readonly PriceTier[] | undefined {
    return this.byKey.get(variantKey(typeId, variantId));
  }

  ofProduct(typeId: number, productId: number): readonly PriceTier[] | undefined {
    return this.byKey.get(productKey(typeId, productId));
  }
}

const variantKey = (typeId: number, variantId: number) => `${typeId}:v${variantId}`;
const productKey = (typeId: number, productId: number) => `${typeId}:p${productId}`;

/** A variant's prices as read: the default type's (variants.price) and the buyer's type's, if it has one. */
export interface VariantPrices {
  id: number;
  productId: number;
  /** Decimal rubles, as stored: the default type's price. */
  price: string;
  /** The buyer's type's price, or null (the default type's applies). */
  typePrice: string | null;
}

/** What a variant sells at to the buyer: one piece's price, the tiers that apply and what they count. */
export interface VariantPriceSet {
  /** The type whose price applies: the buyer's, or the default where the buyer's has none. */
  typeId: number;
  onePiece: number;
  /** Ascending `from`, each below the one-piece price. */
  tiers: PriceTier[];
  /** 'product': the tiers count all the product's lines together; 'variant': this line alone. */
  scope: 'product' | 'variant';
}

export function priceSetOf(variant: VariantPrices, types: PriceTypes, tiers: TierIndex): VariantPriceSet {
  const typeId = variant.typePrice === null ? types.defaultTypeId : types.typeId;
  const onePiece = Number(variant.typePrice ?? variant.price);
  const own = tiers.ofVariant(typeId, variant.id);
  const scope = own ? 'variant' : 'product';
  const applying = own ?? tiers.ofProduct(typeId, variant.productId) ?? [];
  return { typeId, onePiece, tiers: applying.filter((tier) => tier.price < onePiece), scope };
}

/** The quantity a line's tiers are reached by: the line's own, or all the product's lines' together. */
export function tierQuantity(
  set: Pick<VariantPriceSet, 'scope'>,
  lineQuantity: number,
  productQuantity: number,
): number {
  return set.scope === 'variant' ? lineQuantity : productQuantity;
}

/** The price applied to a line, with the tier reached (null: none). */
export function linePrice(set: VariantPriceSet, quantity: number): { unit: number; tier: PriceTier | null } {
  const unit = unitPrice(set.onePiece, set.tiers, quantity);
  return { unit, tier: unit < set.onePiece ? tierReached(set.tiers, quantity) : null };
}

/** Pieces per product over lines (for the tiers counted over a product). */
export function quantitiesByProduct(lines: readonly { productId: number; quantity: number }[]): Map<number, number> {
  const sums = new Map<number, number>();
  for (const line of lines) sums.set(line.productId, (sums.get(line.productId) ?? 0) + line.quantity);
  return sums;
}
