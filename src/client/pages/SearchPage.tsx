import { skipToken, type SkipToken } from '@reduxjs/toolkit/query/react';
import { Empty, Typography } from 'antd';
import { useEffect } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { PAGE_SIZE } from '@shared/limits';
import { articleKey } from '@shared/article-key';
import { LIST_PARAMS, PAGE_PATHS, productPath } from '@shared/paths';
import { Pager } from '@/components/Pager';
import { PageTitle } from '@/components/PageTitle';
import type { PageArgs } from '@/features/catalogue/catalogueApi';
import { ProductGrid } from '@/features/catalogue/ProductGrid';
import { usePagedProducts } from '@/features/catalogue/usePagedProducts';
import { useSearchProductsQuery } from '@/features/search/searchApi';

type SearchArgs = PageArgs & { q: string };

/** The search's pages as a paged list reads them: the products alone. */
const useFoundProducts = (args: SearchArgs | SkipToken) =>
  useSearchProductsQuery(args, {
    selectFromResult: ({ data, currentData, isFetching, isError }) => ({
      data: data?.products,
      currentData: currentData?.products,
      isFetching,
      isError,
    }),
  });

/**
 * The products found for the address's `q`, a catalogue-sized page at a time. A whole article
 * (in any case, with or without its hyphen) opens its product; its beginning lists the series.
 */
export default function SearchPage() {
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const query = (searchParams.get(LIST_PARAMS.query) ?? '').trim();
  const { products, loading, page, canGoForward, goTo } = usePagedProducts(
    useFoundProducts,
    PAGE_SIZE.catalogue,
    // The server refuses an empty query: nothing is asked, and the page says what to do.
    query ? (paging: PageArgs) => ({ q: query, ...paging }) : null,
  );
  // The same request as the page's (answered from its cache entry): whether the server read the query in the other layout.
  const { readAs } = useSearchProductsQuery(
    query ? { q: query, skip: page * PAGE_SIZE.catalogue, limit: PAGE_SIZE.catalogue } : skipToken,
    { selectFromResult: ({ currentData }) => ({ readAs: currentData?.readAs ?? null }) },
  );
  // The server ranks the exact article first (typed in the other layout too: «ЬЩ-1001»).
  const whole =
    page === 0 && products?.[0] && articleKey(products[0].art) === articleKey(readAs ?? query) ? products[0] : null;
  useEffect(() => {
    if (whole) void navigate(productPath(whole.art), { replace: true });
  }, [whole, navigate]);
  const title = query ? `Поиск: «${query}»` : 'Поиск';
  const nothing = !loading && page === 0 && products?.length === 0;
  return (
    <>
      <PageTitle name={title} listPage={page} />
      <Typography.Title>{title}</Typography.Title>
      {!query ? (
        <p className="secondary-text">Введите в поле поиска слово из названия или артикул, например MO-1008.</p>
      ) : nothing ? (
        // Nothing to page through: what was searched, and where to look instead.
        <Empty description={`По запросу «${query}» товары не найдены. Проверьте, нет ли опечатки.`}>
          <Link to={PAGE_PATHS.catalogue}>Открыть каталог</Link>
        </Empty>
      ) : (
        <>
          {readAs && (
            <Typography.Paragraph role="status">
              По запросу «{query}» ничего не нашлось. Показаны результаты по запросу «{readAs}»: похоже, он набран в
              другой раскладке клавиатуры.
            </Typography.Paragraph>
          )}
          <ProductGrid products={products} loading={loading || whole !== null} rowLength={3} />
          {products && (
            <Pager page={page} canGoForward={canGoForward} onChange={goTo} showPageNumber disabled={loading} />
          )}
        </>
      )}
    </>
  );
}
