import { skipToken } from '@reduxjs/toolkit/query/react';
import { useId, useState } from 'react';
import { useNavigate } from 'react-router';
import { LIMITS, type Product, type Variant } from '@shared/api';
import { checkoutPath } from '@shared/paths';
import { serverErrorDetail } from '@/api/serverErrorDetail';
import { useAppSelector } from '@/app/withTypes';
import { ShellButton } from '@/components/ShellButton';
import { useAddToCartMutation, useGetCartQuery } from '@/features/cart/cartApi';
import { selectUser } from '@/features/session/sessionSlice';
import { chooseColour, chooseSize, coloursOf, sizesOf } from './variants';

/** What was typed, as a whole number of pieces the cart accepts. */
function piecesOf(typed: string): number {
  const pieces = Math.floor(Number(typed));
  if (!Number.isFinite(pieces)) return LIMITS.minQuantity;
  return Math.min(LIMITS.maxCartCount, Math.max(LIMITS.minQuantity, pieces));
}

interface ChoiceGroupProps<Value extends string | number> {
  label: string;
  options: { value: Value; label: string }[];
  value: Value;
  onChange(value: Value): void;
}

/** A row of buttons of which one is chosen: native radios, so arrows, Tab and screen readers work. */
function ChoiceGroup<Value extends string | number>({ label, options, value, onChange }: ChoiceGroupProps<Value>) {
  const id = useId();
  return (
    <div>
      <strong id={id} className="choice-label">
        {label}
      </strong>
      <div role="radiogroup" aria-labelledby={id} className="choice-group">
        {options.map((option) => (
          <label key={option.value} className={option.value === value ? 'choice choice--chosen' : 'choice'}>
            <input type="radio" name={id} value={option.value} checked={option.value === value} onChange={() => onChange(option.value)} />
            {option.label}
          </label>
        ))}
      </div>
    </div>
  );
}

type Notice = { kind: 'done' | 'failed'; text: string };

export interface PurchaseControlsProps {
  product: Product;
  variant: Variant | undefined;
  onVariantChange(variant: Variant | undefined): void;
}

/**
 * The product page's colour and size choice, quantity, 'Купить' and 'В корзину' (SPEC §4), in plain
 * elements: with antd's they cost a phone a third of a second of script before the page settled.
 */
export function PurchaseControls({ product, variant, onVariantChange }: PurchaseControlsProps) {
  const user = useAppSelector(selectUser);
  const navigate = useNavigate();
  const [typedQuantity, setTypedQuantity] = useState(String(LIMITS.minQuantity));
  const [notice, setNotice] = useState<Notice | null>(null);
  const [addToCart, { isLoading: adding }] = useAddToCartMutation();
  // currentData: after logout (skipToken) data would still be the previous user's cart.
  const { currentData: cart } = useGetCartQuery(user ? user.id : skipToken);

  const quantity = piecesOf(typedQuantity);
  const inStock = (variant?.stock ?? 0) > 0;
  const inCart = Boolean(variant && cart?.items.some((item) => item.variant_id === variant.id));
  const buyingDisabled = !user || !variant || !inStock;

  const choose = (next: Variant | undefined) => {
    setNotice(null);
    onVariantChange(next);
  };

  const buyNow = () => {
    if (!variant) return;
    navigate(checkoutPath([{ art: product.art, variantId: variant.id, count: quantity }]));
  };

  const putInCart = async () => {
    if (!user || !variant) return;
    setNotice(null);
    try {
      await addToCart({ user_id: user.id, product_id: product.id, variant_id: variant.id, count: quantity }).unwrap();
      setNotice({ kind: 'done', text: 'Товар добавлен в корзину' });
    } catch (error) {
      setNotice({ kind: 'failed', text: serverErrorDetail(error) ?? 'Не удалось добавить товар в корзину' });
    }
  };

  return (
    <>
      {variant && (
        <div className="variant-picker">
          <ChoiceGroup
            label="Цвет"
            value={variant.color}
            options={coloursOf(product.variants).map((colour) => ({ value: colour, label: colour }))}
            onChange={(colour) => choose(chooseColour(product.variants, variant, colour))}
          />
          <ChoiceGroup
            label="Размер"
            value={variant.size}
            options={sizesOf(product.variants, variant.color).map(({ size }) => ({ value: size, label: `${size} см` }))}
            onChange={(size) => choose(chooseSize(product.variants, variant.color, size))}
          />
        </div>
      )}

      <div className="buy-row">
        <input
          type="number"
          className="quantity-input"
          aria-label="Количество"
          min={LIMITS.minQuantity}
          max={LIMITS.maxCartCount}
          step={1}
          inputMode="numeric"
          value={typedQuantity}
          onChange={(event) => setTypedQuantity(event.target.value)}
          onBlur={() => setTypedQuantity(String(quantity))}
        />
        <ShellButton variant="primary" className="shell-button--large" disabled={buyingDisabled} onClick={buyNow}>
          Купить
        </ShellButton>
        <ShellButton className="shell-button--large" disabled={buyingDisabled || inCart || adding} aria-busy={adding} onClick={putInCart}>
          {inCart ? 'В корзине' : 'В корзину'}
        </ShellButton>
      </div>
      {notice && (
        <p role={notice.kind === 'done' ? 'status' : 'alert'} className={`purchase-notice purchase-notice--${notice.kind}`}>
          {notice.text}
        </p>
      )}
    </>
  );
}
