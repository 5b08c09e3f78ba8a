import type { CartItem } from '@shared/api';
import { Button, Flex, Typography } from 'antd';

/** A line holding more than the stock: how many there are, and the one-click fix. */
export function StockShortage({ item, onReduce }: { item: CartItem; onReduce(count: number): void }) {
  const { stock } = item.variant;
  return (
    <Flex align="center" gap="small" wrap className="cart-line-shortage" role="alert">
      <Typography.Text type="danger">{stock > 0 ? `Доступно ${stock} шт.` : 'Нет в наличии'}</Typography.Text>
      {stock > 0 && (
        <Button size="small" onClick={() => onReduce(stock)}>
          Уменьшить до {stock}
        </Button>
      )}
    </Flex>
  );
}
