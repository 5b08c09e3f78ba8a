import { Card } from 'antd';
import { Link } from 'react-router';
import { imageUrl, type Product } from '@shared/api';
import { formatRubles } from '@shared/money';
import { productPath } from '@shared/paths';
import { API_HOST } from '@/api/config';
import { PRICE_AFTER_SIGN_IN } from '@/components/priceAfterSignIn';

/**
 * SPEC §9: the lowest variant price, or 'Нет данных' when the product has no variants; a visitor
 * told prices after signing in is told so (the product's page has the way in).
 */
export function lowestPrice(product: Pick<Product, 'variants'>): string {
  if (product.variants.length === 0) return 'Нет данных';
  const prices = product.variants.flatMap(({ price }) => (price === null ? [] : [price]));
  if (prices.length < product.variants.length) return PRICE_AFTER_SIGN_IN;
  return formatRubles(Math.min(...prices));
}

/** A product in the home and catalogue grids: an antd Card inside the link to its page, one tab stop. */
export function ProductCard({ product, eager = false }: { product: Product; eager?: boolean }) {
  return (
    <Link to={productPath(product.art)} className="product-card">
      <Card
        hoverable
        size="small"
        cover={
          <img
            src={imageUrl(API_HOST, product.image)}
            alt={product.name}
            width={600}
            height={600}
            loading={eager ? 'eager' : 'lazy'}
            decoding="async"
          />
        }
      >
        <Card.Meta
          title={product.name}
          description={
            <>
              <div>
                Артикул: <span className="article">{product.art}</span>
              </div>
              <strong>{lowestPrice(product)}</strong>
            </>
          }
        />
      </Card>
    </Link>
  );
}
