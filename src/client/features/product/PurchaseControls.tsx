import { skipToken } from '@reduxjs/toolkit/query/react';
import { Button, Flex, InputNumber, Radio, Typography } from 'antd';
import { useId, useState } from 'react';
import { useNavigate } from 'react-router';
import type { Product, Variant } from '@shared/api';
import { LIMITS } from '@shared/limits';
import { checkoutPath } from '@shared/paths';
import { serverErrorDetail } from '@/api/serverErrorDetail';
import { useAppSelector } from '@/hooks/reduxHooks';
import { useAddToCartMutation, useGetCartQuery } from '@/features/cart/cartApi';
import { useOrderLimits } from '@/features/session/orderLimits';
import { selectUser } from '@/features/session/sessionSlice';
import { lineLimitNote } from '@shared/order-limits';
import { fitToPackaging } from '@shared/pricing';
import { fitTypedCount, maxLineCount } from '@/components/packaging';
import { chooseColour, chooseSize, coloursOf, noneInStock, sizesOf } from './variants';
import './product.css';

/** What was typed, as a whole number of pieces the cart accepts (the stock and the packaging are checked apart). */
function piecesOf(typed: number | null, max: number): number {
  const pieces = Math.floor(typed ?? LIMITS.minQuantity);
  if (!Number.isFinite(pieces)) return LIMITS.minQuantity;
  return Math.min(max, Math.max(LIMITS.minQuantity, pieces));
}

interface ChoiceGroupProps<Value extends string | number> {
  label: string;
  options: { value: Value; label: string; unavailable: boolean }[];
  value: Value;
  onChange(value: Value): void;
}

/**
 * A row of buttons of which one is chosen: antd's radio buttons, so arrows, Tab and screen readers
 * work. One with nothing in stock stays a choice but is marked (product.css) and named so.
 */
function ChoiceGroup<Value extends string | number>({ label, options, value, onChange }: ChoiceGroupProps<Value>) {
  const id = useId();
  return (
    <Flex vertical gap="small">
      <Typography.Text strong id={id}>
        {label}
      </Typography.Text>
      <Radio.Group
        // Its own name: antd's generated one is the same for every group under test (rc-util's useId).
        name={id}
        aria-labelledby={id}
        optionType="button"
        buttonStyle="solid"
        options={options.map(({ value: optionValue, label: optionLabel, unavailable }) =>
          unavailable
            ? {
                value: optionValue,
                className: 'choice-unavailable',
                title: 'Нет в наличии',
                label: (
                  <>
                    {optionLabel}
                    <span className="choice-note"> — нет в наличии</span>
                  </>
                ),
              }
            : { value: optionValue, label: optionLabel },
        )}
        value={value}
        onChange={(event) => onChange(event.target.value as Value)}
        className="choice-group"
      />
    </Flex>
  );
}

type Notice = { kind: 'done' | 'failed'; text: string };

export interface PurchaseControlsProps {
  product: Product;
  variant: Variant | undefined;
  onVariantChange(variant: Variant | undefined): void;
}

/** The product page's colour and size choice, quantity, 'Купить' and 'В корзину' (SPEC §4). */
export function PurchaseControls({ product, variant, onVariantChange }: PurchaseControlsProps) {
  const user = useAppSelector(selectUser);
  const navigate = useNavigate();
  // The least the packaging allows: one carton, or the minimum.
  const [typedQuantity, setTypedQuantity] = useState<number | null>(() => fitToPackaging(LIMITS.minQuantity, product));
  const [roundedNote, setRoundedNote] = useState<string | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [addToCart, { isLoading: adding }] = useAddToCartMutation();
  // currentData: after logout (skipToken) data would still be the previous user's cart.
  const { currentData: cart } = useGetCartQuery(user ? user.id : skipToken);

  const inStock = (variant?.stock ?? 0) > 0;
  const maxCount = maxLineCount(product);
  const quantity = piecesOf(typedQuantity, maxCount);
  const inCart = Boolean(variant && cart?.items.some((item) => item.variant_id === variant.id));
  // A quantity beyond the stock is kept as typed and said, never lowered silently: the
  // buyer decides what to take instead, and buying waits for it.
  const beyondStock = Boolean(variant && inStock && quantity > variant.stock);
  const buyingDisabled = !user || !variant || !inStock || beyondStock;
  const { lineLimits } = useOrderLimits();
  const note = beyondStock
    ? { text: `В наличии только ${variant!.stock} шт.`, type: 'danger' as const }
    : {
        text: variant ? lineLimitNote(quantity, variant, lineLimits, product.multiple) : null,
        type: 'warning' as const,
      };
  const describedBy = [note.text && 'purchase-quantity-note', roundedNote && 'purchase-rounded-note'].filter(Boolean);

  const choose = (next: Variant | undefined) => {
    setNotice(null);
    onVariantChange(next);
  };

  /**
   * The quantity raised to what the packaging allows, said under the field: the count to order, or
   * null when it had to change (the buyer sees the new count before anything is ordered).
   */
  const fittedQuantity = (): number | null => {
    const fitted = fitTypedCount(quantity, product, variant?.stock ?? 0);
    setTypedQuantity(fitted.count);
    setRoundedNote(fitted.note);
    return fitted.note ? null : fitted.count;
  };

  const buyNow = () => {
    const count = fittedQuantity();
    if (!variant || count === null) return;
    navigate(checkoutPath([{ art: product.art, variantId: variant.id, count }]));
  };

  const putInCart = async () => {
    const count = fittedQuantity();
    if (!user || !variant || count === null) return;
    setNotice(null);
    try {
      await addToCart({ user_id: user.id, product_id: product.id, variant_id: variant.id, count }).unwrap();
      setNotice({ kind: 'done', text: 'Товар добавлен в корзину' });
    } catch (error) {
      setNotice({ kind: 'failed', text: serverErrorDetail(error) ?? 'Не удалось добавить товар в корзину' });
    }
  };

  return (
    <>
      {variant && (
        <Flex vertical gap="middle" className="variant-picker">
          <ChoiceGroup
            label="Цвет"
            value={variant.color}
            options={coloursOf(product.variants).map((colour) => ({
              value: colour,
              label: colour,
              unavailable: noneInStock(sizesOf(product.variants, colour)),
            }))}
            onChange={(colour) => choose(chooseColour(product.variants, variant, colour))}
          />
          <ChoiceGroup
            label="Размер"
            value={variant.size}
            options={sizesOf(product.variants, variant.color).map((sized) => ({
              value: sized.size,
              label: `${sized.size} см`,
              unavailable: noneInStock([sized]),
            }))}
            onChange={(size) => choose(chooseSize(product.variants, variant.color, size))}
          />
        </Flex>
      )}

      {/* A visitor who is shown no price is shown no way to buy at it (ProductDetails shows the way in). */}
      {variant?.price !== null && (
        <Flex wrap gap="small" align="center" className="buy-row">
          <InputNumber
            className="quantity-input"
            aria-label="Количество"
            size="large"
            min={LIMITS.minQuantity}
            max={maxCount}
            step={product.multiple}
            precision={0}
            inputMode="numeric"
            value={typedQuantity}
            status={beyondStock ? 'error' : undefined}
            aria-invalid={beyondStock || undefined}
            aria-describedby={describedBy.length > 0 ? describedBy.join(' ') : undefined}
            onChange={(typed) => {
              setTypedQuantity(typed);
              setRoundedNote(null);
            }}
            onBlur={fittedQuantity}
          />
          <Button type="primary" size="large" disabled={buyingDisabled} onClick={buyNow}>
            Купить
          </Button>
          <Button size="large" disabled={buyingDisabled || inCart || adding} aria-busy={adding} onClick={putInCart}>
            {inCart ? 'В корзине' : 'В корзину'}
          </Button>
        </Flex>
      )}
      {roundedNote && (
        <Typography.Paragraph type="warning" id="purchase-rounded-note" role="status" className="purchase-notice">
          {roundedNote}
        </Typography.Paragraph>
      )}
      {note.text && (
        <Typography.Paragraph type={note.type} id="purchase-quantity-note" className="purchase-notice">
          {note.text}
        </Typography.Paragraph>
      )}
      {notice && (
        <Typography.Paragraph
          role={notice.kind === 'done' ? 'status' : 'alert'}
          type={notice.kind === 'done' ? 'success' : 'danger'}
          className="purchase-notice"
        >
          {notice.text}
        </Typography.Paragraph>
      )}
    </>
  );
}
