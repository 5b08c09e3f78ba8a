import { DeleteOutlined, MinusOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Card, Empty, message as antMessage, Space, Typography } from 'antd';
import { memo, useEffect, useMemo } from 'react';
import { Link, useNavigate } from 'react-router';
import { imageUrl, type CartItem } from '@shared/api';
import { API_HOST } from '@/api/config';
import { useAppDispatch, useAppSelector } from '@/app/withTypes';
import { formatPrice, goodsCount } from '@/components/format';
import { PageSpinner } from '@/components/PageSpinner';
import { useGetCartQuery } from './cartApi';
import { cartFailureShown, cartQuantityEdited, linesWithEdits, selectCartFailure, selectPendingEdits } from './cartEditsSlice';

interface LineProps {
  item: CartItem;
  count: number;
}

// Memoised: with hundreds of lines, changing one quantity re-renders one line, not all of them.
const CartLine = memo(function CartLine({ item, count }: LineProps) {
  const dispatch = useAppDispatch();
  const setCount = (next: number) => dispatch(cartQuantityEdited({ itemId: item.id, count: next }));
  return (
    <li className="cart-line">
      <Link to={`/product/${encodeURIComponent(item.product.art)}`} className="cart-line-image">
        <img src={imageUrl(API_HOST, item.product.image)} alt={item.product.name} width={96} height={96} loading="lazy" />
      </Link>
      <div className="cart-line-text">
        <Link to={`/product/${encodeURIComponent(item.product.art)}`} className="cart-line-name">
          {item.product.name}
        </Link>
        <Typography.Paragraph type="secondary" ellipsis={{ rows: 2 }} className="cart-line-description">
          {item.product.description}
        </Typography.Paragraph>
      </div>
      <Space.Compact className="cart-line-stepper">
        <Button icon={<MinusOutlined />} aria-label={`Уменьшить количество: ${item.product.name}`} onClick={() => setCount(count - 1)} />
        <span className="cart-line-count" aria-label="Количество">
          {count}
        </span>
        <Button icon={<PlusOutlined />} aria-label={`Увеличить количество: ${item.product.name}`} onClick={() => setCount(count + 1)} />
      </Space.Compact>
      <Typography.Text strong className="cart-line-total">
        {formatPrice(item.variant.price * count)} ₽
      </Typography.Text>
      <Button type="text" danger className="cart-line-delete" icon={<DeleteOutlined />} aria-label={`Удалить: ${item.product.name}`} onClick={() => setCount(0)} />
    </li>
  );
});

const toKopecks = (rubles: number) => Math.round(rubles * 100);

/** Says once, in a toast, that saving an edit failed (the line has already gone back). */
function SaveFailureNotice() {
  const failure = useAppSelector(selectCartFailure);
  const dispatch = useAppDispatch();
  const [message, messageHolder] = antMessage.useMessage();
  useEffect(() => {
    if (!failure) return;
    message.error(failure);
    dispatch(cartFailureShown());
  }, [failure, message, dispatch]);
  return messageHolder;
}

export function CartView({ userId }: { userId: number }) {
  return (
    <>
      <SaveFailureNotice />
      <CartContent userId={userId} />
    </>
  );
}

function CartContent({ userId }: { userId: number }) {
  const { data: cart, isLoading, isError, refetch } = useGetCartQuery(userId);
  const pending = useAppSelector(selectPendingEdits);
  const navigate = useNavigate();

  const lines = useMemo(() => linesWithEdits(cart?.items ?? [], pending), [cart, pending]);
  const units = lines.reduce((sum, line) => sum + line.count, 0);
  const totalKopecks = lines.reduce((sum, line) => sum + toKopecks(line.item.variant.price) * line.count, 0);

  if (isLoading) return <PageSpinner />;
  if (isError) {
    return (
      <Empty description="Не удалось загрузить корзину">
        <Button onClick={refetch}>Повторить</Button>
      </Empty>
    );
  }
  if (lines.length === 0) {
    return (
      <Empty description={<span className="cart-empty-title">Ваша корзина пуста</span>}>
        <Typography.Paragraph type="secondary">Добавьте товары из каталога — они появятся здесь.</Typography.Paragraph>
        <Link to="/catalog">
          <Button type="primary">Перейти в каталог</Button>
        </Link>
      </Empty>
    );
  }

  const checkout = () => {
    const items = lines.map(({ item, count }) => `${encodeURIComponent(item.product.art)}:${item.variant_id}:${count}`).join(',');
    navigate(`/checkout?items=${items}`);
  };

  return (
    <div className="cart">
      <ul className="cart-lines">
        {lines.map(({ item, count }) => (
          <CartLine key={item.id} item={item} count={count} />
        ))}
      </ul>
      <Card className="cart-summary">
        <Typography.Title level={3} className="cart-total">
          Итого: {formatPrice(totalKopecks / 100)}₽
        </Typography.Title>
        <Typography.Text type="secondary">{goodsCount(units)}</Typography.Text>
        <Button type="primary" size="large" block onClick={checkout}>
          Оформить заказ
        </Button>
      </Card>
    </div>
  );
}
