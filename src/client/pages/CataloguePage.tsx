// antd's CSS for the components outside the shell (theme/antdComponents.ts), with this chunk.
import '../theme/antd-catalogue.generated.css';
import './CataloguePage.css';
import { Flex, Select, Typography } from 'antd';
import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import type { CatalogueFilters } from '@shared/api';
import { PAGE_SIZE } from '@shared/limits';
import { catalogueFiltersFrom, variantMatches, withCatalogueFilters } from '@shared/catalogueFilters';
import { catalogueName } from '@shared/page-names';
import { LIST_PARAMS } from '@shared/paths';
import { useAppDispatch, useAppSelector } from '@/hooks/reduxHooks';
import { Pager } from '@/components/Pager';
import { PageTitle } from '@/components/PageTitle';
import { CatalogueFilterBar } from '@/features/catalogue/CatalogueFilterBar';
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
  // Read from the address as the server reads it to preload the first page: the same request.
  const filters = useMemo(() => catalogueFiltersFrom(searchParams), [searchParams]);
  const { products, loading, page, canGoForward, goTo } = usePagedProducts(
    useGetCategoryProductsQuery,
    PAGE_SIZE.catalogue,
    category ? (paging: PageArgs) => ({ category, ...paging, ...filters }) : null,
    category ? { [LIST_PARAMS.category]: category } : {},
  );
  // A card's price is the lowest among the variants the filters let through, the price the list is sorted by.
  const shown = useMemo(
    () =>
      products?.map((product) => ({
        ...product,
        variants: product.variants.filter((variant) => variantMatches(variant, filters)),
      })),
    [products, filters],
  );

  /** The address with `category` and `nextFilters`, at page 1: another choice lists other products. */
  const show = (nextCategory: string | undefined, nextFilters: CatalogueFilters) => {
    const params = withCatalogueFilters(searchParams, nextFilters);
    params.delete(LIST_PARAMS.page);
    if (nextCategory) params.set(LIST_PARAMS.category, nextCategory);
    setSearchParams(params);
  };

  // The filters stay with another category: a buyer looks for the same colour, sizes and prices there.
  const choose = (next: string) => {
    dispatch(categorySelected(next));
    show(next, filters);
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
      <Flex align="end" gap="middle" className="catalogue-filters">
        <CatalogueFilterBar category={category} filters={filters} onChange={(next) => show(category, next)} />
      </Flex>
      <ProductGrid products={shown} loading={loading || categoriesLoading} rowLength={3} />
      {products && <Pager page={page} canGoForward={canGoForward} onChange={goTo} showPageNumber disabled={loading} />}
    </>
  );
}
