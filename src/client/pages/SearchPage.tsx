import { Typography } from 'antd';
import { useSearchParams } from 'react-router';
import { PAGE_SIZE } from '@shared/api';
import { LIST_PARAMS } from '@shared/paths';
import { Pager } from '@/components/Pager';
import { PageTitle } from '@/components/PageTitle';
import type { PageArgs } from '@/features/catalogue/catalogueApi';
import { ProductGrid } from '@/features/catalogue/ProductGrid';
import { usePagedProducts } from '@/features/catalogue/usePagedProducts';
import { useSearchProductsQuery } from '@/features/search/searchApi';

/** The products found for the address's `q`, a catalogue-sized page at a time. */
export default function SearchPage() {
  const [searchParams] = useSearchParams();
  const query = (searchParams.get(LIST_PARAMS.query) ?? '').trim();
  const { products, loading, page, canGoForward, goTo } = usePagedProducts(
    useSearchProductsQuery,
    PAGE_SIZE.catalogue,
    // The server refuses an empty query: nothing is asked, and the page says what to do.
    query ? (paging: PageArgs) => ({ q: query, ...paging }) : null,
  );
  const title = query ? `Поиск: «${query}»` : 'Поиск';
  return (
    <>
      <PageTitle name={title} listPage={page} />
      <Typography.Title>{title}</Typography.Title>
      {query ? (
        <>
          <ProductGrid products={products} loading={loading} rowLength={3} />
          {products && (
            <Pager page={page} canGoForward={canGoForward} onChange={goTo} showPageNumber disabled={loading} />
          )}
        </>
      ) : (
        <p className="secondary-text">Введите в поле поиска слово из названия или артикул, например MO-1008.</p>
      )}
    </>
  );
}
