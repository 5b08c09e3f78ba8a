import { Card } from 'antd';
import { Link } from 'react-router';
import { imageUrl, type Product } from '@shared/api';
import { formatRubles } from '@shared/money';
import { productPath } from '@shared/paths';
import { API_HOST } from '@/api/config';

/** SPEC §9: the lowest variant price, or 'Нет данных' when the product has no variants. */
export function lowestPrice(product: Pick<Product, 'variants'>): string {
  if (product.variants.length === 0) return 'Нет данных';
  return formatRubles(Math.min(...product.variants.map((variant) => variant.price)));
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
