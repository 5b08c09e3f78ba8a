import { DeleteOutlined, MinusOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Flex, InputNumber, Tag, Typography } from 'antd';
import { memo } from 'react';
import type { CartItem } from '@shared/api';
import { LIMITS } from '@shared/limits';
import { formatRubles } from '@shared/money';
import { lineLimitNote } from '@shared/order-limits';
import { useAppDispatch, useAppSelector } from '@/hooks/reduxHooks';
import { selectLineLimits } from '@/features/session/orderLimits';
import { cartQuantityEdited, selectLineUnsaved, selectPendingCount } from './cartEditsSlice';
import { StockShortage } from './StockShortage';
import { UnitPrice } from './UnitPrice';

/** What tells a line from the product's other lines, for the names of its buttons. */
const lineName = (item: CartItem) => `${item.product.name}, ${item.variant.color}, ${item.variant.size} см`;

/**
 * One variant's line. It reads its own quantity, so a change re-renders this line and the summary,
 * not the list. antd's Button and InputNumber cost no style work per instance with the build-time CSS.
 */
export const CartLine = memo(function CartLine({ item }: { item: CartItem }) {
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
