import { DomainError, ProductHiddenError, ProductNotFoundError } from './domain-errors';

/** A variant as read from the database when it is ordered (then locked) or put in the cart. */
export interface StockedVariant {
  id: number;
  productId: number;
  productName: string;
  /** Taken off sale by a manager: it stays in carts but cannot be ordered. */
  productHidden: boolean;
  color: string;
  size: number;
  /** Decimal rubles, as stored: the default price type's. */
  price: string;
  /** The buyer's price type's own price (decimal rubles), or null: the default type's applies. */
  typePrice: string | null;
  stock: number;
  /** The product's кратность and minimum per line (src/shared/pricing.ts). */
  multiple: number;
  minQuantity: number;
}

/**
 * The variant, if it can be bought as a line of that product; otherwise why not: it is not that
 * product's (or not there at all), or a manager has taken the product off sale. To a buyer adding
 * it to the cart a product off sale is no product at all, answered as an unknown variant is:
 * whoever names its ids learns neither its name nor that it exists. An order is told it is off sale
 * only when the buyer has it in the cart, whose line still shows the product: the caller leaves
 * other hidden variants out of what it passes here, so they are unknown (repositories/orders.ts).
 */
export function onSale(
  variant: StockedVariant | undefined,
  line: { variantId: number; productId: number },
  purpose: 'cart' | 'order',
): StockedVariant | DomainError {
  const unknown = !variant || variant.productId !== line.productId || (variant.productHidden && purpose === 'cart');
  if (unknown) return new ProductNotFoundError(line.variantId, line.productId);
  if (variant.productHidden) return new ProductHiddenError();
  return variant;
}
