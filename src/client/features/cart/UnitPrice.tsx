import type { CartItem } from '@shared/api';
import { formatRubles } from '@shared/money';

/**
 * A line's price a piece as the cart applies it: at the price by quantity reached, named so;
 * otherwise the one-piece price, the old one struck out beside it when it changed since the line
 * was added.
 */
export function UnitPrice({ item }: { item: CartItem }) {
  const { price } = item.variant;
  if (item.tier) {
    return (
      <p className="cart-line-price">
        <strong>{formatRubles(item.unit_price)}</strong> / шт. ·{' '}
        <span className="cart-line-tier">Цена от {item.tier.from} шт.</span>
      </p>
    );
  }
  if (item.price_when_added === price) return <p className="cart-line-price">{formatRubles(item.unit_price)} / шт.</p>;
  return (
    <p
      className="cart-line-price"
      aria-label={`Цена изменилась: было ${formatRubles(item.price_when_added)}, стало ${formatRubles(item.unit_price)} за шт.`}
    >
      <del>{formatRubles(item.price_when_added)}</del> <strong>{formatRubles(item.unit_price)}</strong> / шт.
    </p>
  );
}
