import { DeleteOutlined, MinusOutlined, PlusOutlined } from '@ant-design/icons';
import { setupListeners } from '@reduxjs/toolkit/query/react';
import { App, Button, Card, Empty, Flex, InputNumber, Tag, Typography } from 'antd';
import { memo, useEffect, useMemo, useState } from 'react';
import { shallowEqual } from 'react-redux';
import { Link, useNavigate } from 'react-router';
import { imageUrl, type Cart, type CartItem } from '@shared/api';
import { LIMITS } from '@shared/limits';
import { formatKopecks, formatRubles, rublesToKopecks } from '@shared/money';
import { cartCheckoutPath, PAGE_PATHS, productPath } from '@shared/paths';
import { API_HOST } from '@/api/config';
import { ButtonLink } from '@/components/ButtonLink';
import { useAppDispatch, useAppSelector } from '@/hooks/reduxHooks';
import { goodsCount } from '@/components/format';
import { PageLoading } from '@/components/PageLoading';
import { selectLineLimits, useOrderLimits } from '@/features/session/orderLimits';
import { lineLimitNote } from '@shared/order-limits';
import { CartActions, QuickOrderLink } from './CartActions';
import { groupInBlocks, type BlockPlacement } from './cartBlocks';
import { cartApi, useGetCartQuery } from './cartApi';
import { listenForCartSavesElsewhere, type SavedCounts } from './cartChannel';
import {
  cartFailureShown,
  cartFlushRequested,
  cartQuantityEdited,
  connectionRestored,
  linesWithEdits,
  selectCartFailure,
  selectCartOffline,
  selectDeletedLines,
  selectLineUnsaved,
  selectPendingCount,
  selectPendingEdits,
} from './cartEditsSlice';
import './cart.css';

/** Products per block the browser may skip while off screen (about ten lines; bench/cart-paint.ts). */
const PRODUCTS_PER_BLOCK = 4;

/** A product in the cart and its lines, one per variant chosen. */
interface ProductGroup {
  product: CartItem['product'];
  lines: CartItem[];
}

/** Lines of one product together, in the order the products first appear in the cart. */
function groupByProduct(items: CartItem[]): ProductGroup[] {
  const groups = new Map<number, ProductGroup>();
  for (const item of items) {
    const group = groups.get(item.product.id);
    if (group) group.lines.push(item);
    else groups.set(item.product.id, { product: item.product, lines: [item] });
  }
  return [...groups.values()];
}

/** What tells a line from the product's other lines, for the names of its buttons. */
const lineName = (item: CartItem) => `${item.product.name}, ${item.variant.color}, ${item.variant.size} см`;

/**
 * One product of a cart that may hold hundreds (docs/decisions.md, "A long cart"), with the
 * variants chosen beneath it. It re-renders only when its lines' data does (a reload keeps unchanged
 * items as the same objects), and the description is a CSS line clamp, not Typography's ellipsis,
 * which measures every line with an observer.
 */
const CartProduct = memo(
  function CartProduct({ group }: { group: ProductGroup }) {
    const { product, lines } = group;
    const productLink = productPath(product.art);
    return (
      <li className="cart-product" role="listitem">
        <Link to={productLink} className="cart-line-image">
          <img src={imageUrl(API_HOST, product.image)} alt={product.name} width={96} height={96} loading="lazy" />
        </Link>
        <div className="cart-product-text">
          <h2 className="cart-product-name">
            <Link to={productLink} className="cart-line-name">
              {product.name}
            </Link>
          </h2>
          <p className="cart-product-art">Арт. {product.art}</p>
          <p className="cart-line-description">{product.description}</p>
        </div>
        <ul className="cart-variants" role="list" aria-label={`Выбранные варианты: ${product.name}`}>
          {lines.map((item) => (
            <CartLine key={item.id} item={item} />
          ))}
        </ul>
      </li>
    );
  },
  (previous, next) => shallowEqual(previous.group.lines, next.group.lines),
);

/**
 * One variant's line. It reads its own quantity, so a change re-renders this line and the summary,
 * not the list. antd's Button and InputNumber cost no style work per instance with the build-time CSS.
 */
const CartLine = memo(function CartLine({ item }: { item: CartItem }) {
  const count = useAppSelector((state) => selectPendingCount(state, item.id)) ?? item.count;
  const unsaved = useAppSelector((state) => selectLineUnsaved(state, item.id));
  const dispatch = useAppDispatch();
  const setCount = (next: number, typed = false) =>
    dispatch(cartQuantityEdited({ itemId: item.id, count: next, serverCount: item.count, typed }));
  const name = lineName(item);
  const shareNote = useAppSelector((state) => lineLimitNote(count, item.variant, selectLineLimits(state)));
  // Taken off sale: the line stays for the buyer to see and delete, but cannot be changed or ordered.
  const offSale = !item.available;
  return (
    <li className="cart-line" role="listitem">
      <div className="cart-line-text">
        <p className="cart-line-variant">
          {item.variant.color} · {item.variant.size} см
        </p>
        <UnitPrice item={item} />
        {unsaved && (
          <Tag color="warning" className="cart-line-unsaved">
            Не сохранено
          </Tag>
        )}
        {offSale ? (
          <Tag className="cart-line-off-sale">Товар снят с продажи</Tag>
        ) : (
          count > item.variant.stock && <StockShortage item={item} onReduce={(stock) => setCount(stock, true)} />
        )}
        {!offSale && shareNote && (
          <Typography.Text type="warning" id={`cart-line-share-${item.id}`} className="cart-line-share">
            {shareNote}
          </Typography.Text>
        )}
      </div>
      <Flex align="center" gap={4} className="cart-line-stepper">
        <Button
          icon={<MinusOutlined aria-hidden />}
          aria-label={`Уменьшить количество: ${name}`}
          disabled={offSale}
          onClick={() => setCount(count - 1)}
        />
        <InputNumber
          className="cart-line-count"
          aria-label={`Количество: ${name}`}
          controls={false}
          min={LIMITS.minQuantity}
          max={LIMITS.maxCartCount}
          precision={0}
          inputMode="numeric"
          value={count}
          disabled={offSale}
          aria-describedby={!offSale && shareNote ? `cart-line-share-${item.id}` : undefined}
          // min 1: an emptied field or a typed 0 is not a deletion (the field never reports it);
          // only the delete button and − at 1 delete (SPEC §4).
          onChange={(typed) => typed !== null && setCount(typed, true)}
        />
        <Button
          icon={<PlusOutlined aria-hidden />}
          aria-label={`Увеличить количество: ${name}`}
          disabled={offSale}
          onClick={() => setCount(count + 1)}
        />
      </Flex>
      <strong className="cart-line-total">{formatRubles(item.variant.price * count)}</strong>
      <Button
        type="text"
        danger
        className="cart-line-delete"
        icon={<DeleteOutlined aria-hidden />}
        aria-label={`Удалить: ${name}`}
        onClick={() => setCount(0, true)}
      />
    </li>
  );
});

/** The unit price; when it changed since the line was added, the old one struck out beside it. */
function UnitPrice({ item }: { item: CartItem }) {
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

function CartSummary({ items }: { items: CartItem[] }) {
  const pending = useAppSelector(selectPendingEdits);
  const navigate = useNavigate();
  // What the order would take: lines taken off sale are left out (the server refuses them).
  const lines = linesWithEdits(items, pending).filter((line) => line.item.available);
  const someOffSale = items.some((item) => !item.available);
  const units = lines.reduce((sum, line) => sum + line.count, 0);
  const totalKopecks = lines.reduce((sum, line) => sum + rublesToKopecks(line.item.variant.price) * line.count, 0);
  const shortOfStock = lines.some((line) => line.count > line.item.variant.stock);

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
      <Button
        type="primary"
        size="large"
        block
        className="cart-checkout"
        onClick={checkout}
        disabled={shortOfStock || lines.length === 0}
        aria-describedby={shortOfStock ? 'cart-checkout-blocked' : undefined}
      >
        Оформить заказ
      </Button>
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

/** Says, in a toast, that the connection is lost, once each time it is (the lines say which are unsaved). */
function ConnectionLostNotice() {
  const offline = useAppSelector(selectCartOffline);
  const { message } = App.useApp();
  useEffect(() => {
    if (offline) message.warning('Нет связи с сервером. Изменения корзины сохранятся, когда связь вернётся.');
  }, [offline, message]);
  return null;
}

/** Another tab's saved counts, shown at once: the reload that follows brings the rest of the cart. */
function withSavedCounts(cart: Cart, saved: SavedCounts): void {
  cart.items = cart.items.filter((item) => saved[item.id] !== 0);
  for (const item of cart.items) {
    const count = saved[item.id];
    if (count === undefined) continue;
    item.count = count;
    item.item_total = item.variant.price * count;
  }
}

/**
 * Keeps the cart in step with the server and the shopper's other tabs (docs/decisions.md, "A cart
 * that loses nothing"): a pending change goes at once when the page is hidden or closed, unsent ones
 * when the connection returns, and the cart shows and reloads what another tab saved, and reloads
 * when this one is looked at again (the cart query's refetchOnFocus).
 */
function useCartSync(userId: number) {
  const dispatch = useAppDispatch();
  useEffect(() => {
    const flush = () => dispatch(cartFlushRequested());
    const flushWhenHidden = () => {
      if (document.visibilityState === 'hidden') flush();
    };
    const reconnected = () => dispatch(connectionRestored());
    window.addEventListener('pagehide', flush);
    document.addEventListener('visibilitychange', flushWhenHidden);
    window.addEventListener('online', reconnected);
    const stopFocusListeners = setupListeners(dispatch);
    const stopListening = listenForCartSavesElsewhere((saved) => {
      dispatch(cartApi.util.updateQueryData('getCart', userId, (cart) => withSavedCounts(cart, saved)));
      dispatch(cartApi.util.invalidateTags(['Cart']));
    });
    return () => {
      window.removeEventListener('pagehide', flush);
      document.removeEventListener('visibilitychange', flushWhenHidden);
      window.removeEventListener('online', reconnected);
      stopFocusListeners();
      stopListening();
    };
  }, [dispatch, userId]);
}

export function CartView({ userId }: { userId: number }) {
  useCartSync(userId);
  // The buyer's limits, fetched once for every line (selectLineLimits reads them).
  useOrderLimits();
  return (
    <>
      <SaveFailureNotice />
      <ConnectionLostNotice />
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
  } = useGetCartQuery(userId, {
    refetchOnFocus: true,
    selectFromResult: ({ data, isLoading, isError }) => ({ data, isLoading, isError }),
  });
  // Which lines are listed changes only with deletions; quantities are read by the lines themselves.
  const deleted = useAppSelector(selectDeletedLines, shallowEqual);
  const [placement] = useState<BlockPlacement>(() => new Map());

  const items = useMemo(() => (cart?.items ?? []).filter((item) => !deleted.includes(item.id)), [cart, deleted]);
  const blocks = useMemo(
    () => groupInBlocks(groupByProduct(items), (group) => group.product.id, PRODUCTS_PER_BLOCK, placement),
    [items, placement],
  );

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
        <Flex gap="small" justify="center" wrap>
          <ButtonLink type="primary" to={PAGE_PATHS.catalogue}>
            Перейти в каталог
          </ButtonLink>
          <QuickOrderLink />
        </Flex>
      </Empty>
    );
  }

  return (
    <>
      <CartActions userId={userId} />
      <div className="cart">
        {/* The blocks between the list and its products are presentational: one list of every product. */}
        <ul className="cart-lines" role="list" aria-label="Товары в корзине">
          {blocks.map((block) => (
            <li key={block.key} className="cart-lines-block" role="none">
              <ul role="none">
                {block.lines.map((group) => (
                  <CartProduct key={group.product.id} group={group} />
                ))}
              </ul>
            </li>
          ))}
        </ul>
        <CartSummary items={items} />
      </div>
    </>
  );
}
