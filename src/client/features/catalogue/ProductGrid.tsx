import type { Product } from '@shared/api';
import { PageLoading } from '@/components/PageLoading';
import { ProductCard } from './ProductCard';

interface ProductGridProps {
  products: Product[] | undefined;
  loading: boolean;
  /** How many of the first cards to load eagerly (above the fold). */
  eagerCount?: number;
}

/** SPEC §8: a failed or empty load shows 'Товары не найдены'. */
export function ProductGrid({ products, loading, eagerCount = 4 }: ProductGridProps) {
  if (loading) return <PageLoading />;
  if (!products || products.length === 0) return <p className="empty-note">Товары не найдены</p>;
  return (
    <div className="product-grid">
      {products.map((product, index) => (
        <ProductCard key={product.id} product={product} eager={index < eagerCount} />
      ))}
    </div>
  );
}
