// antd's CSS for the components outside the shell (theme/antdComponents.ts), with this chunk.
import '../theme/antd-catalogue.generated.css';
import { Flex, Select, Typography } from 'antd';
import { useSearchParams } from 'react-router';
import { PAGE_SIZE } from '@shared/api';
import { catalogueName } from '@shared/page-names';
import { LIST_PARAMS } from '@shared/paths';
import { useAppDispatch, useAppSelector } from '@/hooks/reduxHooks';
import { Pager } from '@/components/Pager';
import { PageTitle } from '@/components/PageTitle';
import { useGetCategoriesQuery, useGetCategoryProductsQuery, type PageArgs } from '@/features/catalogue/catalogueApi';
import { ProductGrid } from '@/features/catalogue/ProductGrid';
import { categorySelected, selectSelectedCategory } from '@/features/catalogue/selectedCategorySlice';
import { usePagedProducts } from '@/features/catalogue/usePagedProducts';

export default function CataloguePage() {
  const dispatch = useAppDispatch();
  const stored = useAppSelector(selectSelectedCategory);
  const [searchParams, setSearchParams] = useSearchParams();
  const { data: categories = [], isLoading: categoriesLoading } = useGetCategoriesQuery();
  // The address's category, else SPEC §9: the stored one if it still exists, otherwise the first one.
  const category =
    [searchParams.get(LIST_PARAMS.category), stored].find((name) => name && categories.includes(name)) ?? categories[0];
  const { products, loading, page, canGoForward, goTo } = usePagedProducts(
    useGetCategoryProductsQuery,
    PAGE_SIZE.catalogue,
    category ? (paging: PageArgs) => ({ category, ...paging }) : null,
    category ? { [LIST_PARAMS.category]: category } : {},
  );

  const choose = (next: string) => {
    dispatch(categorySelected(next));
    setSearchParams({ [LIST_PARAMS.category]: next });
  };

  return (
    <>
      <PageTitle name={catalogueName(category)} listPage={page} />
      <Typography.Title>Каталог</Typography.Title>
      <Flex align="center" gap="small" className="catalogue-toolbar">
        <label htmlFor="category-select">Категория</label>
        <Select
          id="category-select"
          className="category-select"
          value={category}
          placeholder="Категория"
          onChange={choose}
          loading={categoriesLoading}
          options={categories.map((name) => ({ value: name, label: name }))}
        />
      </Flex>
      <ProductGrid products={products} loading={loading || categoriesLoading} rowLength={3} />
      {products && <Pager page={page} canGoForward={canGoForward} onChange={goTo} showPageNumber disabled={loading} />}
    </>
  );
}
