import { Flex, Tag, Typography } from 'antd';
import { lazy, Suspense, useId, useRef, useState, type CSSProperties } from 'react';
import type { Product, ProductPage, Variant } from '@shared/api';
import { formatRubles } from '@shared/money';
import { PRODUCT_TIER_NOTE, tierLabel, tiersBelow } from '@shared/pricing';
import { packagingNote } from '@/components/packaging';
import { useAppSelector } from '@/hooks/reduxHooks';
import { useNearViewport } from '@/components/useNearViewport';
import { selectUser } from '@/features/session/sessionSlice';
import { PriceAfterSignIn } from './PriceAfterSignIn';
import { ProductCharacteristics } from './ProductCharacteristics';
import { ProductGallery } from './ProductGallery';
import { PurchaseControls } from './PurchaseControls';
import { coloursOf } from './variants';
import './product.css';

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

/** The chosen variant's prices by quantity, those below its one-piece price (tierLabel's rows). */
function PriceTiers({ onePiece, variant }: { onePiece: number; variant: Variant }) {
  const titleId = useId();
  const tiers = tiersBelow(onePiece, variant.tiers);
  if (tiers.length === 0) return null;
  return (
    <div className="product-tiers">
      <Typography.Text strong id={titleId}>
        Цены по количеству
      </Typography.Text>
      <ul aria-labelledby={titleId}>
        {tiers.map((tier) => (
          <li key={tier.from}>{tierLabel(tier)}</li>
        ))}
      </ul>
      {variant.tiers_scope === 'product' && (
        <Typography.Text type="secondary">Для этих цен {PRODUCT_TIER_NOTE}</Typography.Text>
      )}
    </div>
  );
}

/** The chosen variant's price, with the recommended retail price beside it; to a visitor, maybe, the way to see it. */
function VariantPrice({ variant }: { variant: Variant | undefined }) {
  if (variant?.price === null) return <PriceAfterSignIn className="product-price-hidden" />;
  return (
    <Flex wrap align="baseline" gap="middle">
      <div className="product-price" aria-label="Цена">
        {variant ? formatRubles(variant.price) : 'Нет данных'}
      </div>
      {variant?.rrp != null && (
        <span className="product-rrp">
          <abbr title="Рекомендованная розничная цена">РРЦ</abbr> {formatRubles(variant.rrp)}
        </span>
      )}
    </Flex>
  );
}

export function ProductDetails({ product }: { product: ProductPage }) {
  const user = useAppSelector(selectUser);
  // By id: the product read again (another caller's prices after a sign-in) keeps the choice, with the new data.
  const [variantId, setVariantId] = useState(product.variants[0]?.id);
  const variant = product.variants.find(({ id }) => id === variantId);
  const inStock = (variant?.stock ?? 0) > 0;
  // Prices shown after signing in only: to a visitor every variant's is null.
  const pricesHidden = product.variants.some(({ price }) => price === null);
  const packaging = packagingNote(product);

  return (
    <article className="product-details">
      <ProductGallery key={variant?.color} product={product} colour={variant?.color} />
      <div className="product-info">
        <Typography.Title>{product.name}</Typography.Title>
        <p className="secondary-text">Артикул: {product.art}</p>
        <p className="secondary-text">{product.description || 'Описание отсутствует'}</p>
        <VariantPrice variant={variant} />
        {variant && variant.price !== null && <PriceTiers onePiece={variant.price} variant={variant} />}
        {packaging && <p className="product-packaging">{packaging}</p>}
        <Tag color={inStock ? 'success' : 'default'}>
          {inStock ? `В наличии: ${variant!.stock} шт.` : 'Нет в наличии'}
        </Tag>
        <PurchaseControls product={product} variant={variant} onVariantChange={(chosen) => setVariantId(chosen?.id)} />
        {!user && !pricesHidden && (
          <p className="secondary-text">Войдите, чтобы купить или добавить товар в корзину.</p>
        )}
      </div>

      {/* With one variant the controls above say it all; without prices there is nothing to order in it. */}
      {product.variants.length > 1 && !pricesHidden && <MatrixWhenNear product={product} />}

      <ProductCharacteristics product={product} variant={variant} />

      {product.big_description && (
        <section className="product-more">
          <Typography.Title level={2}>Подробнее о товаре</Typography.Title>
          <p className="preserve-lines">{product.big_description}</p>
        </section>
      )}
    </article>
  );
}
