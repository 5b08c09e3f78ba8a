// Wholesale pricing as both wings apply it: the price breaks by quantity (tiers) and the carton
// rules (кратность, minimum per line). The server decides with these what a line costs and which
// counts it accepts; the storefront says the same beforehand, in the same words.
import { priceProblem } from './catalogue';
import { formatRubles } from './money';

/** A price break: from `from` pieces, `price` ₽ a piece. */
export interface PriceTier {
  from: number;
  price: number;
}

/** How a product is sold: in multiples of `multiple` pieces, at least `min_quantity` in a line. */
export interface Packaging {
  multiple: number;
  min_quantity: number;
}

export const NO_PACKAGING: Packaging = { multiple: 1, min_quantity: 1 };

/** Price breaks a variant or a product may have in one price type. */
export const MAX_TIERS = 10;

/** The largest кратность and minimum a manager may set: a carton bigger than this is no carton. */
export const MAX_MULTIPLE = 10_000;

/** The tier `quantity` pieces reach (tiers in ascending `from`), or null below the first. */
export function tierReached(tiers: readonly PriceTier[], quantity: number): PriceTier | null {
  let reached: PriceTier | null = null;
  for (const tier of tiers) {
    if (tier.from <= quantity) reached = tier;
    else break;
  }
  return reached;
}

/**
 * A piece's price at `quantity` pieces: the reached tier's, but never above the one-piece price
 * (a product's tier is one price for all its variants, and a dearer size keeps its own below it).
 */
export function unitPrice(onePiece: number, tiers: readonly PriceTier[], quantity: number): number {
  const reached = tierReached(tiers, quantity);
  return reached && reached.price < onePiece ? reached.price : onePiece;
}

/** The next tier beyond `quantity` that lowers the price, with how many pieces more reach it. */
export function nextTier(
  onePiece: number,
  tiers: readonly PriceTier[],
  quantity: number,
): (PriceTier & { missing: number }) | null {
  const now = unitPrice(onePiece, tiers, quantity);
  const next = tiers.find((tier) => tier.from > quantity && tier.price < now);
  return next ? { ...next, missing: next.from - quantity } : null;
}

/** The tiers that lower a variant's price below its one-piece price (what the buyer is shown). */
export const tiersBelow = (onePiece: number, tiers: readonly PriceTier[]): PriceTier[] =>
  tiers.filter((tier) => tier.price < onePiece);

/** «по 6 шт.» and «от 12 шт.»: the words of the rules below. */
const pieces = (count: number) => `${count.toLocaleString('ru-RU')} шт.`;

/** The smallest count at or above `count` the packaging allows (the minimum, else the next multiple). */
export function fitToPackaging(count: number, { multiple, min_quantity }: Packaging): number {
  return Math.max(min_quantity, Math.ceil(count / multiple) * multiple);
}

/**
 * The count a line breaking the packaging is rounded to («Округлить до N»): up to the packaging,
 * or the whole stock left when that is less (sold whole, packagingProblem allows it).
 */
export function fitWithinStock(count: number, packaging: Packaging, stock: number): number {
  const up = fitToPackaging(count, packaging);
  return stock > 0 && up > stock ? stock : up;
}

/** A cap (a share of the stock, the cart's maximum) in whole cartons: the largest multiple not above it. */
export const roundDownToMultiple = (cap: number, multiple: number): number => Math.floor(cap / multiple) * multiple;

/**
 * Why a line of `count` pieces breaks the packaging, or null when it may be ordered: a multiple of
 * the кратность and at least the minimum, or the whole stock left (a remainder of stock below the
 * multiple or the minimum is sold whole rather than never).
 */
export function packagingProblem(count: number, { multiple, min_quantity }: Packaging, stock: number): string | null {
  if (count === stock && stock > 0) return null;
  if (count % multiple !== 0) {
    return `Товар продаётся упаковками по ${pieces(multiple)}: количество должно быть кратно ${multiple}`;
  }
  if (count < min_quantity) return `Минимальный заказ этого товара — ${pieces(min_quantity)} в строке`;
  return null;
}

/** Why a manager's кратность and minimum cannot be kept, or null. */
export function packagingSettingsProblem({ multiple, min_quantity }: Packaging): string | null {
  if (!Number.isInteger(multiple) || multiple < 1 || multiple > MAX_MULTIPLE) {
    return `Кратность — целое число штук от 1 до ${MAX_MULTIPLE.toLocaleString('ru-RU')}`;
  }
  if (!Number.isInteger(min_quantity) || min_quantity < 1 || min_quantity > MAX_MULTIPLE) {
    return `Минимальное количество — целое число штук от 1 до ${MAX_MULTIPLE.toLocaleString('ru-RU')}`;
  }
  if (min_quantity % multiple !== 0) {
    return `Минимальное количество (${pieces(min_quantity)}) должно быть кратно кратности (${multiple})`;
  }
  return null;
}

/**
 * Why a set of tiers cannot be kept, or null: each from 2 pieces up, quantities increasing, prices
 * falling as the quantity grows (and, with the one-piece price known, below it).
 */
export function tiersProblem(tiers: readonly PriceTier[], onePiece: number | null): string | null {
  if (tiers.length > MAX_TIERS) return `Не больше ${MAX_TIERS} цен по количеству`;
  let previous: PriceTier | null = null;
  for (const tier of tiers) {
    if (!Number.isInteger(tier.from) || tier.from < 2) return 'Цена по количеству начинается от 2 шт. и более';
    const badPrice = priceProblem(tier.price);
    if (badPrice) return `Цена от ${pieces(tier.from)}: ${badPrice.toLowerCase()}`;
    if (previous && tier.from <= previous.from) return 'Количества в ценах по количеству должны возрастать';
    if ((previous && tier.price >= previous.price) || (onePiece !== null && tier.price >= onePiece)) {
      return `Цена от ${pieces(tier.from)} (${formatRubles(tier.price)}) должна быть ниже цены за меньшее количество`;
    }
    previous = tier;
  }
  return null;
}

/** What the storefront and a letter say of a reached tier: «от 12 шт. — 450,00 ₽». */
export const tierLabel = (tier: PriceTier) => `от ${pieces(tier.from)} — ${formatRubles(tier.price)}`;

/** The cart's line under a tier counted over the product: all its colours and sizes count together. */
export const PRODUCT_TIER_NOTE = 'цвета и размеры модели считаются вместе';

/** The checkout's refusal below the price type's minimum order sum. */
export const minOrderSumMessage = (minimum: number, missing: number) =>
  `Минимальная сумма заказа — ${formatRubles(minimum)}: добавьте товаров ещё на ${formatRubles(missing)}`;
