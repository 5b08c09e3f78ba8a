import { Button, Card, Typography } from 'antd';
import { useNavigate } from 'react-router';
import type { CartItem } from '@shared/api';
import { formatKopecks, formatRubles, rublesToKopecks } from '@shared/money';
import { cartCheckoutPath } from '@shared/paths';
import { goodsCount } from '@/components/format';
import { useAppSelector } from '@/hooks/reduxHooks';
import { useCompanyStanding } from '@/features/company/companyStanding';
import { linesWithEdits, selectPendingEdits } from './cartEditsSlice';

/**
 * The order the cart would make: its total, its count of goods and the way to checkout, for an
 * account that may order (the page says why another may not).
 */
export function CartSummary({ items, minOrderSum }: { items: CartItem[]; minOrderSum: number }) {
  const pending = useAppSelector(selectPendingEdits);
  const { known, orderRefusal } = useCompanyStanding();
  const navigate = useNavigate();
  // What the order would take: lines taken off sale are left out (the server refuses them).
  const lines = linesWithEdits(items, pending).filter((line) => line.item.available);
  const someOffSale = items.some((item) => !item.available);
  const units = lines.reduce((sum, line) => sum + line.count, 0);
  // At the prices a piece the server applied to the saved counts (a new count's comes with the reload).
  const totalKopecks = lines.reduce((sum, line) => sum + rublesToKopecks(line.item.unit_price) * line.count, 0);
  const shortOfStock = lines.some((line) => line.count > line.item.variant.stock);
  // The server's missing_sum, counted over the counts on screen: an edit not saved yet counts too.
  const missingKopecks = minOrderSum > 0 ? Math.max(0, rublesToKopecks(minOrderSum) - totalKopecks) : 0;
  const blocked = shortOfStock || missingKopecks > 0;

  const checkout = () => {
    navigate(
      cartCheckoutPath(lines.map(({ item, count }) => ({ art: item.product.art, variantId: item.variant_id, count }))),
    );
  };

  return (
    <Card className="cart-summary">
      {/* The page's second heading level: it comes right after the page's h1. */}
      <h2 className="cart-total">Итого: {formatKopecks(totalKopecks)}</h2>
      <span className="cart-units">{goodsCount(units)}</span>
      {known && !orderRefusal && (
        <Button
          type="primary"
          size="large"
          block
          className="cart-checkout"
          onClick={checkout}
          disabled={blocked || lines.length === 0}
          aria-describedby={
            [shortOfStock && 'cart-checkout-blocked', missingKopecks > 0 && 'cart-checkout-minimum']
              .filter(Boolean)
              .join(' ') || undefined
          }
        >
          Оформить заказ
        </Button>
      )}
      {missingKopecks > 0 && (
        <Typography.Paragraph id="cart-checkout-minimum" type="warning" className="cart-checkout-blocked">
          До минимальной суммы заказа ({formatRubles(minOrderSum)}) не хватает {formatKopecks(missingKopecks)}
        </Typography.Paragraph>
      )}
      {shortOfStock && (
        <Typography.Paragraph id="cart-checkout-blocked" type="danger" className="cart-checkout-blocked">
          В некоторых строках больше товара, чем есть на складе: уменьшите количество, чтобы оформить заказ.
        </Typography.Paragraph>
      )}
      {someOffSale && (
        <Typography.Paragraph type="secondary" className="cart-checkout-blocked">
          Товары, снятые с продажи, не войдут в заказ.
        </Typography.Paragraph>
      )}
    </Card>
  );
}
