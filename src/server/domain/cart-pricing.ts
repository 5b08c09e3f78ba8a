// The cart as the buyer sees it, priced in their company's price type: each line's piece price
// with the tier its count reaches (a product's tiers count its lines in the cart together), what
// the next tier needs, whether the count fits the product's packaging, and how far the cart is from
// the type's minimum order sum. Pure: the cart service reads the rows.
import type { Cart, CartItem } from '../../shared/api';
import { decimalToKopecks, kopecksToRubles, rublesToKopecks } from '../../shared/money';
import { fitWithinStock, nextTier, packagingProblem } from '../../shared/pricing';
import {
  linePrice,
  priceSetOf,
  quantitiesByProduct,
  tierQuantity,
  type PriceTypes,
  type TierIndex,
} from './wholesale-price';

/** A cart line as read, with its variant's prices and its product's packaging. */
export interface CartLineRow {
  id: number;
  count: number;
  variantId: number;
  /** Decimal rubles, as stored. */
  priceWhenAdded: string;
  /** Decimal rubles: the default type's price. */
  price: string;
  /** Decimal rubles: the buyer's type's own price, or null. */
  typePrice: string | null;
  color: string;
  size: number;
  stock: number;
  unprovenHeld: number;
  productId: number;
  art: string;
  name: string;
  description: string | null;
  image: string;
  hidden: boolean;
  multiple: number;
  minQuantity: number;
}

export interface CartPricing {
  types: PriceTypes;
  tiers: TierIndex;
  /** Decimal rubles: the buyer's type's minimum order sum ('0.00': none). */
  minOrderSum: string;
}

export function priceCart(rows: readonly CartLineRow[], pricing: CartPricing, version: number): Cart {
  // A line taken off sale cannot be ordered: it counts towards no tier and no total.
  const byProduct = quantitiesByProduct(
    rows.filter((row) => !row.hidden).map((row) => ({ productId: row.productId, quantity: row.count })),
  );
  let totalKopecks = 0;
  const items = rows.map((row): CartItem => {
    const set = priceSetOf(
      { id: row.variantId, productId: row.productId, price: row.price, typePrice: row.typePrice },
      pricing.types,
      pricing.tiers,
    );
    const counted = tierQuantity(set, row.count, byProduct.get(row.productId) ?? row.count);
    const { unit, tier } = linePrice(set, counted);
    const lineKopecks = rublesToKopecks(unit) * row.count;
    if (!row.hidden) totalKopecks += lineKopecks;
    const packaging = { multiple: row.multiple, min_quantity: row.minQuantity };
    const problem = packagingProblem(row.count, packaging, row.stock);
    return {
      id: row.id,
      count: row.count,
      item_total: kopecksToRubles(lineKopecks),
      product: {
        id: row.productId,
        art: row.art,
        name: row.name,
        description: row.description,
        image: row.image,
        ...packaging,
      },
      variant: {
        price: set.onePiece,
        color: row.color,
        size: row.size,
        stock: row.stock,
        unproven_held: row.unprovenHeld,
      },
      variant_id: row.variantId,
      price_when_added: Number(row.priceWhenAdded),
      unit_price: unit,
      tier,
      next_tier: nextTier(set.onePiece, set.tiers, counted),
      tiers_scope: set.scope,
      packaging_problem: problem,
      fit_count: problem === null ? null : fitWithinStock(row.count, packaging, row.stock),
      available: !row.hidden,
    };
  });
  const minimum = decimalToKopecks(pricing.minOrderSum);
  return {
    items,
    total_price: kopecksToRubles(totalKopecks),
    min_order_sum: kopecksToRubles(minimum),
    missing_sum: kopecksToRubles(Math.max(0, minimum - totalKopecks)),
    version,
  };
}
