import { DeleteOutlined, MinusOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Flex, InputNumber, Tag, Typography } from 'antd';
import { memo, useState } from 'react';
import type { CartItem } from '@shared/api';
import { LIMITS } from '@shared/limits';
import { formatKopecks, formatRubles, rublesToKopecks } from '@shared/money';
import { lineLimitNote } from '@shared/order-limits';
import { fitToPackaging, packagingProblem, PRODUCT_TIER_NOTE } from '@shared/pricing';
import { fitTypedCount, maxLineCount, nextCountDown, nextCountUp } from '@/components/packaging';
import { useAppDispatch, useAppSelector } from '@/hooks/reduxHooks';
import { selectLineLimits } from '@/features/session/orderLimits';
import { cartQuantityEdited, selectLineUnsaved, selectPendingCount } from './cartEditsSlice';
import { PackagingProblem } from './PackagingProblem';
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
  // A count typed that the packaging does not take: kept in the field until the buyer leaves it.
  const [typedCount, setTypedCount] = useState<number | null>(null);
  const [roundedNote, setRoundedNote] = useState<string | null>(null);
  const setCount = (next: number, typed = false) => {
    setRoundedNote(null);
    dispatch(cartQuantityEdited({ itemId: item.id, count: next, serverCount: item.count, typed }));
  };
  const packaging = item.product;
  const { stock } = item.variant;
  const typeCount = (typed: number) => {
    if (packagingProblem(typed, packaging, stock) === null) {
      setTypedCount(null);
      setCount(typed, true);
    } else {
      setTypedCount(typed);
      setRoundedNote(null);
    }
  };
  const fitTyped = () => {
    if (typedCount === null) return;
    const fitted = fitTypedCount(typedCount, packaging, stock);
    setTypedCount(null);
    setCount(fitted.count, true);
    setRoundedNote(fitted.note);
  };
  const name = lineName(item);
  const shareNote = useAppSelector((state) =>
    lineLimitNote(count, item.variant, selectLineLimits(state), packaging.multiple),
  );
  // The server's words while the line holds what it has saved; the same rules meanwhile.
  const saved = count === item.count;
  const problem = saved ? item.packaging_problem : packagingProblem(count, packaging, stock);
  const fitCount = saved ? item.fit_count : fitToPackaging(count, packaging);
  // Taken off sale: the line stays for the buyer to see and delete, but cannot be changed or ordered.
  const offSale = !item.available;
  const describedBy = [
    !offSale && shareNote && `cart-line-share-${item.id}`,
    roundedNote && `cart-line-rounded-${item.id}`,
  ].filter(Boolean);
  return (
    <li className="cart-line" role="listitem">
      <div className="cart-line-text">
        <p className="cart-line-variant">
          {item.variant.color} · {item.variant.size} см
        </p>
        <UnitPrice item={item} />
        {/* Of the count saved: the server counts the model's other lines too. */}
        {saved && item.next_tier && (
          <p className="cart-line-next-tier">
            Ещё {item.next_tier.missing} шт. — и цена {formatRubles(item.next_tier.price)}
            {item.tiers_scope === 'product' && ` (${PRODUCT_TIER_NOTE})`}
          </p>
        )}
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
        {!offSale && problem && (
          <PackagingProblem problem={problem} fitCount={fitCount} onFit={(fitted) => setCount(fitted, true)} />
        )}
        {roundedNote && (
          <Typography.Text type="warning" id={`cart-line-rounded-${item.id}`} role="status" className="cart-line-share">
            {roundedNote}
          </Typography.Text>
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
          onClick={() => setCount(nextCountDown(count, packaging))}
        />
        <InputNumber
          className="cart-line-count"
          aria-label={`Количество: ${name}`}
          controls={false}
          min={LIMITS.minQuantity}
          max={maxLineCount(packaging)}
          step={packaging.multiple}
          precision={0}
          inputMode="numeric"
          value={typedCount ?? count}
          disabled={offSale}
          aria-describedby={describedBy.length > 0 ? describedBy.join(' ') : undefined}
          // min 1: an emptied field or a typed 0 is not a deletion (the field never reports it);
          // only the delete button and − at the least count delete (SPEC §4).
          onChange={(typed) => typed !== null && typeCount(typed)}
          onBlur={fitTyped}
          onPressEnter={fitTyped}
        />
        <Button
          icon={<PlusOutlined aria-hidden />}
          aria-label={`Увеличить количество: ${name}`}
          disabled={offSale}
          onClick={() => setCount(nextCountUp(count, packaging))}
        />
      </Flex>
      {/* At the price a piece applied to the saved count: a new count's price comes with the cart's reload. */}
      <strong className="cart-line-total">{formatKopecks(rublesToKopecks(item.unit_price) * count)}</strong>
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
