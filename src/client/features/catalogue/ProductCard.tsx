import { Link } from 'react-router';
import { imageUrl, type Product } from '@shared/api';
import { productPath } from '@shared/paths';
import { API_HOST } from '@/api/config';
import { formatPrice } from '@/components/format';

/** SPEC §9: the lowest variant price, or 'Нет данных' when the product has no variants. */
export function lowestPrice(product: Pick<Product, 'variants'>): string {
  if (product.variants.length === 0) return 'Нет данных';
  return `${formatPrice(Math.min(...product.variants.map((variant) => variant.price)))} ₽`;
}

/**
 * A product in the home and catalogue grids: a link drawn as a card with antd's theme variables.
 * Not antd's Card: it imports Tabs (for its tab list) and with them Dropdown and Menu, 26 KB gzip
 * of the home page's first load.
 */
export function ProductCard({ product, eager = false }: { product: Product; eager?: boolean }) {
  return (
    <Link to={productPath(product.art)} className="product-card">
      <img
        src={imageUrl(API_HOST, product.image)}
        alt={product.name}
        width={600}
        height={600}
        loading={eager ? 'eager' : 'lazy'}
        decoding="async"
      />
      <span className="product-card-body">
        <span className="product-card-name">{product.name}</span>
        <strong className="product-card-price">{lowestPrice(product)}</strong>
      </span>
    </Link>
  );
}
