import { Typography } from 'antd';
import { PAGE_SIZE } from '@shared/limits';
import { POPULAR_TOYS } from '@shared/page-titles';
import { Pager } from '@/components/Pager';
import { PageTitle } from '@/components/PageTitle';
import { BannerCarousel } from '@/features/banners/BannerCarousel';
import { useGetPopularProductsQuery, type PageArgs } from '@/features/catalogue/catalogueApi';
import { ProductGrid } from '@/features/catalogue/ProductGrid';
import { usePagedProducts } from '@/features/catalogue/usePagedProducts';

/** The popular list needs nothing but the page. */
const popularPage = (page: PageArgs) => page;

export default function HomePage() {
  const { products, loading, page, canGoForward, goTo } = usePagedProducts(
    useGetPopularProductsQuery,
    PAGE_SIZE.home,
    popularPage,
  );
  return (
    <>
      <PageTitle name={page > 0 ? POPULAR_TOYS : undefined} listPage={page} />
      <BannerCarousel />
      <Typography.Title className="section-title">{POPULAR_TOYS}</Typography.Title>
      <ProductGrid products={products} loading={loading} />
      {/* Not under the first load's spinner: it would be seen there and then pushed down (a layout shift). */}
      {products && <Pager page={page} canGoForward={canGoForward} onChange={goTo} disabled={loading} />}
    </>
  );
}
