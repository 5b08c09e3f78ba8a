import { Tag, Typography } from 'antd';
import { lazy, Suspense, useRef, useState, type CSSProperties } from 'react';
import { imageUrl, type Product, type Variant } from '@shared/api';
import { formatRubles } from '@shared/money';
import { API_HOST } from '@/api/config';
import { useAppSelector } from '@/hooks/reduxHooks';
import { useNearViewport } from '@/components/useNearViewport';
import { selectUser } from '@/features/session/sessionSlice';
import { PurchaseControls } from './PurchaseControls';
import { coloursOf } from './variants';

// antd's Table comes with it: the page's picture, text and SPEC §4 controls do not wait for it.
const VariantMatrix = lazy(() => import(/* webpackChunkName: "variant-matrix" */ './VariantMatrix'));

/**
 * The colour × size table, loaded when the shopper scrolls near it (on a phone it is below
 * the first screen, and its code, downloaded and run before, slowed the page's first paint). Its place
 * is kept at about its height (a row per colour), so that what is below it hardly moves when it comes.
 */
function MatrixWhenNear({ product }: { product: Product }) {
  const place = useRef<HTMLDivElement>(null);
  const near = useNearViewport(place);
  const placeholder = (
    <div
      ref={place}
      className="variant-matrix-place"
      style={{ '--matrix-rows': coloursOf(product.variants).length } as CSSProperties}
    />
  );
  if (!near) return placeholder;
  return (
    <Suspense fallback={placeholder}>
      <VariantMatrix product={product} />
    </Suspense>
  );
}

export function ProductDetails({ product }: { product: Product }) {
  const user = useAppSelector(selectUser);
  const [variant, setVariant] = useState<Variant | undefined>(product.variants[0]);
  const inStock = (variant?.stock ?? 0) > 0;

  return (
    <article className="product-details">
      <img
        className="product-image"
        src={imageUrl(API_HOST, product.image)}
        alt={product.name}
        width={600}
        height={600}
      />
      <div className="product-info">
        <Typography.Title>{product.name}</Typography.Title>
        <p className="secondary-text">Артикул: {product.art}</p>
        <p className="secondary-text">{product.description || 'Описание отсутствует'}</p>
        <div className="product-price" aria-label="Цена">
          {variant ? formatRubles(variant.price) : 'Нет данных'}
        </div>
        <Tag color={inStock ? 'success' : 'default'}>
          {inStock ? `В наличии: ${variant!.stock} шт.` : 'Нет в наличии'}
        </Tag>
        <PurchaseControls product={product} variant={variant} onVariantChange={setVariant} />
        {!user && <p className="secondary-text">Войдите, чтобы купить или добавить товар в корзину.</p>}
      </div>

      {/* With one variant the controls above say it all. */}
      {product.variants.length > 1 && <MatrixWhenNear product={product} />}

      {product.big_description && (
        <section className="product-more">
          <Typography.Title level={2}>Подробнее о товаре</Typography.Title>
          <p className="preserve-lines">{product.big_description}</p>
        </section>
      )}
    </article>
  );
}
