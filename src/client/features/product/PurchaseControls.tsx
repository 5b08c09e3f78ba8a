import { Button, InputNumber, message as antMessage, Radio, Space, Typography } from 'antd';
import { skipToken } from '@reduxjs/toolkit/query/react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { LIMITS, type Product, type Variant } from '@shared/api';
import { useAppSelector } from '@/app/withTypes';
import { useAddToCartMutation, useGetCartQuery } from '@/features/cart/cartApi';
import { selectUser } from '@/features/session/sessionSlice';
import { chooseColour, chooseSize, coloursOf, sizesOf } from './variants';

function errorDetail(error: unknown): string | undefined {
  const detail = (error as { data?: { detail?: unknown } }).data?.detail;
  return typeof detail === 'string' ? detail : undefined;
}

export interface PurchaseControlsProps {
  product: Product;
  variant: Variant | undefined;
  onVariantChange(variant: Variant | undefined): void;
}

/** The product page's colour and size choice, quantity, 'Купить' and 'В корзину' (SPEC §4). */
export default function PurchaseControls({ product, variant, onVariantChange }: PurchaseControlsProps) {
  const user = useAppSelector(selectUser);
  const navigate = useNavigate();
  const [message, messageHolder] = antMessage.useMessage();
  const [quantity, setQuantity] = useState<number>(LIMITS.minQuantity);
  const [addToCart, { isLoading: adding }] = useAddToCartMutation();
  // currentData: after logout (skipToken) data would still be the previous user's cart.
  const { currentData: cart } = useGetCartQuery(user ? user.id : skipToken);

  const inStock = (variant?.stock ?? 0) > 0;
  const inCart = Boolean(variant && cart?.items.some((item) => item.variant_id === variant.id));
  const buyingDisabled = !user || !variant || !inStock;

  const buyNow = () => {
    if (!variant) return;
    navigate(`/checkout?items=${encodeURIComponent(product.art)}:${variant.id}:${quantity}`);
  };

  const putInCart = async () => {
    if (!user || !variant) return;
    try {
      await addToCart({ user_id: user.id, product_id: product.id, variant_id: variant.id, count: quantity }).unwrap();
      message.success('Товар добавлен в корзину');
    } catch (error) {
      message.error(errorDetail(error) ?? 'Не удалось добавить товар в корзину');
    }
  };

  return (
    <>
      {messageHolder}
      {variant && (
        <Space orientation="vertical" size="middle" className="variant-picker">
          <div>
            <Typography.Text strong id="colour-label">
              Цвет
            </Typography.Text>
            <Radio.Group
              aria-labelledby="colour-label"
              optionType="button"
              value={variant.color}
              onChange={(event) => onVariantChange(chooseColour(product.variants, variant, event.target.value as string))}
              options={coloursOf(product.variants).map((colour) => ({ value: colour, label: colour }))}
            />
          </div>
          <div>
            <Typography.Text strong id="size-label">
              Размер
            </Typography.Text>
            <Radio.Group
              aria-labelledby="size-label"
              optionType="button"
              value={variant.size}
              onChange={(event) => onVariantChange(chooseSize(product.variants, variant.color, event.target.value as number))}
              options={sizesOf(product.variants, variant.color).map(({ size }) => ({ value: size, label: `${size} см` }))}
            />
          </div>
        </Space>
      )}

      <Space wrap size="middle" className="buy-row">
        <InputNumber
          aria-label="Количество"
          min={LIMITS.minQuantity}
          max={LIMITS.maxCartCount}
          precision={0}
          value={quantity}
          onChange={(value) => setQuantity(Math.max(LIMITS.minQuantity, Math.floor(value ?? LIMITS.minQuantity)))}
          mode="spinner"
        />
        <Button type="primary" size="large" disabled={buyingDisabled} onClick={buyNow}>
          Купить
        </Button>
        <Button size="large" disabled={buyingDisabled || inCart} loading={adding} onClick={putInCart}>
          {inCart ? 'В корзине' : 'В корзину'}
        </Button>
      </Space>
    </>
  );
}
