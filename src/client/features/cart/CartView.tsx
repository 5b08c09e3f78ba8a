import { DeleteOutlined, MinusOutlined, PlusOutlined } from '@ant-design/icons';
import { App, Button, Card, Empty, Flex, InputNumber, Typography } from 'antd';
import { memo, useEffect, useMemo, useState } from 'react';
import { shallowEqual } from 'react-redux';
import { Link, useNavigate } from 'react-router';
import { imageUrl, LIMITS, type CartItem } from '@shared/api';
import { checkoutPath, PAGE_PATHS, productPath } from '@shared/paths';
import { API_HOST } from '@/api/config';
import { useAppDispatch, useAppSelector } from '@/hooks/reduxHooks';
import { formatPrice, goodsCount } from '@/components/format';
import { PageLoading } from '@/components/PageLoading';
import { groupInBlocks, type BlockPlacement } from './cartBlocks';
import { useGetCartQuery } from './cartApi';
import {
  cartFailureShown,
  cartQuantityEdited,
  linesWithEdits,
  selectCartFailure,
  selectDeletedLines,
  selectPendingCount,
  selectPendingEdits,
} from './cartEditsSlice';
import './cart.css';

/** Lines per block the browser may skip while off screen (measured with bench/cart-paint.ts). */
const LINES_PER_BLOCK = 10;

/**
 * One line of a cart that may hold hundreds (docs/decisions.md, "A long cart"). It reads its own
 * quantity, so a change re-renders this line and the summary, not the list. antd's Button and
 * InputNumber cost no style work per instance with the build-time CSS; the description is still
 * a CSS line clamp, not Typography's ellipsis, which measures every line with an observer.
 */
const CartLine = memo(function CartLine({ item }: { item: CartItem }) {
  const count = useAppSelector((state) => selectPendingCount(state, item.id)) ?? item.count;
  const dispatch = useAppDispatch();
  const setCount = (next: number) => dispatch(cartQuantityEdited({ itemId: item.id, count: next }));
  const productLink = productPath(item.product.art);
  return (
    <li className="cart-line" role="listitem">
      <Link to={productLink} className="cart-line-image">
        <img
          src={imageUrl(API_HOST, item.product.image)}
          alt={item.product.name}
          width={96}
          height={96}
          loading="lazy"
        />
      </Link>
      <div className="cart-line-text">
        <Link to={productLink} className="cart-line-name">
          {item.product.name}
        </Link>
        <p className="cart-line-variant">
          Арт. {item.product.art} · {item.variant.color} · {item.variant.size} см
        </p>
        <UnitPrice item={item} />
        <p className="cart-line-description">{item.product.description}</p>
        {count > item.variant.stock && <StockShortage item={item} onReduce={setCount} />}
      </div>
      <Flex align="center" gap={4} className="cart-line-stepper">
        <Button
          icon={<MinusOutlined aria-hidden />}
          aria-label={`Уменьшить количество: ${item.product.name}`}
          onClick={() => setCount(count - 1)}
        />
        <InputNumber
          className="cart-line-count"
          aria-label="Количество"
          controls={false}
          min={0}
          max={LIMITS.maxCartCount}
          precision={0}
          inputMode="numeric"
          value={count}
          onChange={(typed) => typed !== null && setCount(typed)}
        />
        <Button
          icon={<PlusOutlined aria-hidden />}
          aria-label={`Увеличить количество: ${item.product.name}`}
          onClick={() => setCount(count + 1)}
        />
      </Flex>
      <strong className="cart-line-total">{formatPrice(item.variant.price * count)} ₽</strong>
      <Button
        type="text"
        danger
        className="cart-line-delete"
        icon={<DeleteOutlined aria-hidden />}
        aria-label={`Удалить: ${item.product.name}`}
        onClick={() => setCount(0)}
      />
    </li>
  );
});

/** The unit price; when it changed since the line was added, the old one struck out beside it. */
function UnitPrice({ item }: { item: CartItem }) {
  const { price } = item.variant;
  if (item.price_when_added === price) return <p className="cart-line-price">{formatPrice(price)} ₽ / шт.</p>;
  return (
    <p
      className="cart-line-price"
      aria-label={`Цена изменилась: было ${formatPrice(item.price_when_added)} ₽, стало ${formatPrice(price)} ₽ за шт.`}
    >
      <del>{formatPrice(item.price_when_added)} ₽</del> <strong>{formatPrice(price)} ₽</strong> / шт.
    </p>
  );
}

/** A line holding more than the stock: how many there are, and the one-click fix. */
function StockShortage({ item, onReduce }: { item: CartItem; onReduce(count: number): void }) {
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

const toKopecks = (rubles: number) => Math.round(rubles * 100);

function CartSummary({ items }: { items: CartItem[] }) {
  const pending = useAppSelector(selectPendingEdits);
  const navigate = useNavigate();
  const lines = linesWithEdits(items, pending);
  const units = lines.reduce((sum, line) => sum + line.count, 0);
  const totalKopecks = lines.reduce((sum, line) => sum + toKopecks(line.item.variant.price) * line.count, 0);
  const shortOfStock = lines.some((line) => line.count > line.item.variant.stock);

  const checkout = () => {
    navigate(
      checkoutPath(lines.map(({ item, count }) => ({ art: item.product.art, variantId: item.variant_id, count }))),
    );
  };

  return (
    <Card className="cart-summary">
      {/* The page's second heading level: it comes right after the page's h1. */}
      <h2 className="cart-total">Итого: {formatPrice(totalKopecks / 100)}₽</h2>
      <span className="cart-units">{goodsCount(units)}</span>
      <Button
        type="primary"
        size="large"
        block
        className="cart-checkout"
        onClick={checkout}
        disabled={shortOfStock}
        aria-describedby={shortOfStock ? 'cart-checkout-blocked' : undefined}
      >
        Оформить заказ
      </Button>
      {shortOfStock && (
        <Typography.Paragraph id="cart-checkout-blocked" type="danger" className="cart-checkout-blocked">
          В некоторых строках больше товара, чем есть на складе: уменьшите количество, чтобы оформить заказ.
        </Typography.Paragraph>
      )}
    </Card>
  );
}

/** Says once, in a toast, that saving an edit failed (the line has already gone back). */
function SaveFailureNotice() {
  const failure = useAppSelector(selectCartFailure);
  const dispatch = useAppDispatch();
  const { message } = App.useApp();
  useEffect(() => {
    if (!failure) return;
    message.error(failure);
    dispatch(cartFailureShown());
  }, [failure, message, dispatch]);
  return null;
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
  // Not isFetching: the list need not re-render when a reload starts and ends, only when data comes.
  const {
    data: cart,
    isLoading,
    isError,
    refetch,
  } = useGetCartQuery(userId, { selectFromResult: ({ data, isLoading, isError }) => ({ data, isLoading, isError }) });
  // Which lines are listed changes only with deletions; quantities are read by the lines themselves.
  const deleted = useAppSelector(selectDeletedLines, shallowEqual);
  const [placement] = useState<BlockPlacement>(() => new Map());

  const items = useMemo(() => (cart?.items ?? []).filter((item) => !deleted.includes(item.id)), [cart, deleted]);
  const blocks = useMemo(() => groupInBlocks(items, (item) => item.id, LINES_PER_BLOCK, placement), [items, placement]);

  if (isLoading) return <PageLoading />;
  // Only with nothing to show: a failed reload (offline, say) leaves the last cart on screen.
  if (isError && !cart) {
    return (
      <Empty description="Не удалось загрузить корзину">
        <Button onClick={refetch}>Повторить</Button>
      </Empty>
    );
  }
  if (items.length === 0) {
    return (
      <Empty description={<span className="cart-empty-title">Ваша корзина пуста</span>}>
        <Typography.Paragraph type="secondary">Добавьте товары из каталога — они появятся здесь.</Typography.Paragraph>
        <Link to={PAGE_PATHS.catalogue}>
          <Button type="primary">Перейти в каталог</Button>
        </Link>
      </Empty>
    );
  }

  return (
    <div className="cart">
      {/* The blocks between the list and its lines are presentational: one list of every line. */}
      <ul className="cart-lines" role="list">
        {blocks.map((block) => (
          <li key={block.key} className="cart-lines-block" role="none">
            <ul role="none">
              {block.lines.map((item) => (
                <CartLine key={item.id} item={item} />
              ))}
            </ul>
          </li>
        ))}
      </ul>
      <CartSummary items={items} />
    </div>
  );
}
