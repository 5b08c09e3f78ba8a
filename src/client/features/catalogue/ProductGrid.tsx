import { Empty } from 'antd';
import type { CSSProperties } from 'react';
import type { Product } from '@shared/api';
import { PageLoading } from '@/components/PageLoading';
import { ProductCard } from './ProductCard';

interface ProductGridProps {
  products: Product[] | undefined;
  loading: boolean;
  /**
   * Cards in a row on a wide screen: a divisor of the page size (4 for the home page's 8, 3 for the
   * catalogue's 9), so a full page leaves no empty slots. The first row loads eagerly, above the fold.
   */
  rowLength?: number;
}

/** SPEC §8: a failed or empty load shows 'Товары не найдены'. */
export function ProductGrid({ products, loading, rowLength = 4 }: ProductGridProps) {
  if (loading) return <PageLoading />;
  if (!products || products.length === 0) return <Empty description="Товары не найдены" />;
  return (
    <div className="product-grid" style={{ '--row-length': rowLength } as CSSProperties}>
      {products.map((product, index) => (
        <ProductCard key={product.id} product={product} eager={index < rowLength} />
      ))}
    </div>
  );
}
