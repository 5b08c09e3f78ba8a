import { DomainError, ProductHiddenError, ProductNotFoundError } from './errors';

/** A variant as read from the database when it is ordered (then locked) or put in the cart. */
export interface StockedVariant {
  id: number;
  productId: number;
  productName: string;
  /** Taken off sale by a manager: it stays in carts but cannot be ordered. */
  productHidden: boolean;
  color: string;
  size: number;
  /** Decimal rubles, as stored. */
  price: string;
  stock: number;
}

/**
 * The variant, if it can be bought as a line of that product; otherwise why not: it is not that
 * product's (or not there at all), or a manager has taken the product off sale. Orders and the
 * cart ask alike.
 */
export function onSale(
  variant: StockedVariant | undefined,
  line: { variantId: number; productId: number },
): StockedVariant | DomainError {
  if (!variant || variant.productId !== line.productId) return new ProductNotFoundError(line.variantId, line.productId);
  if (variant.productHidden) return new ProductHiddenError(variant.productName);
  return variant;
}
