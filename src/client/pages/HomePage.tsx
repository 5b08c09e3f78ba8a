import { Typography } from 'antd';
import { useState } from 'react';
import { PAGE_SIZE } from '@shared/api';
import { Pager } from '@/components/Pager';
import { BannerCarousel } from '@/features/banners/BannerCarousel';
import { useGetPopularProductsQuery } from '@/features/catalogue/catalogueApi';
import { ProductGrid } from '@/features/catalogue/ProductGrid';

export default function HomePage() {
  const [page, setPage] = useState(0);
  const { data, isFetching, isError } = useGetPopularProductsQuery({
    skip: page * PAGE_SIZE.home,
    limit: PAGE_SIZE.home,
  });
  const products = isError ? [] : data;
  return (
    <>
      <BannerCarousel />
      <Typography.Title className="section-title">Популярные игрушки</Typography.Title>
      <ProductGrid products={products} loading={isFetching} />
      {/* Not under the first load's spinner: it would be seen there and then pushed down (a layout shift). */}
      {products && (
        <Pager page={page} canGoForward={products.length === PAGE_SIZE.home} onChange={setPage} disabled={isFetching} />
      )}
    </>
  );
}
