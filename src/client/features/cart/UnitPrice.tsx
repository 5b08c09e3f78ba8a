import type { CartItem } from '@shared/api';
import { formatRubles } from '@shared/money';

/** A line's unit price; when it changed since the line was added, the old one struck out beside it. */
export function UnitPrice({ item }: { item: CartItem }) {
  const { price } = item.variant;
  if (item.price_when_added === price) return <p className="cart-line-price">{formatRubles(price)} / шт.</p>;
  return (
    <p
      className="cart-line-price"
      aria-label={`Цена изменилась: было ${formatRubles(item.price_when_added)}, стало ${formatRubles(price)} за шт.`}
    >
      <del>{formatRubles(item.price_when_added)}</del> <strong>{formatRubles(price)}</strong> / шт.
    </p>
  );
}
