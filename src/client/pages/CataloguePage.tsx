// antd's CSS for the components outside the shell (theme/antdComponents.ts), with this chunk.
import '../theme/antd-catalogue.generated.css';
import { skipToken } from '@reduxjs/toolkit/query/react';
import { Flex, Select, Typography } from 'antd';
import { useState } from 'react';
import { PAGE_SIZE } from '@shared/api';
import { useAppDispatch, useAppSelector } from '@/hooks/reduxHooks';
import { Pager } from '@/components/Pager';
import { useGetCategoriesQuery, useGetCategoryProductsQuery } from '@/features/catalogue/catalogueApi';
import { ProductGrid } from '@/features/catalogue/ProductGrid';
import { categorySelected, selectSelectedCategory } from '@/features/catalogue/selectedCategorySlice';

export default function CataloguePage() {
  const dispatch = useAppDispatch();
  const stored = useAppSelector(selectSelectedCategory);
  const { data: categories = [], isLoading: categoriesLoading } = useGetCategoriesQuery();
  const [page, setPage] = useState(0);
  // SPEC §9: the stored category if it still exists, otherwise the first one.
  const category = stored && categories.includes(stored) ? stored : categories[0];
  const { data, isFetching, isError } = useGetCategoryProductsQuery(
    category ? { category, skip: page * PAGE_SIZE.catalogue, limit: PAGE_SIZE.catalogue } : skipToken,
  );
  const products = isError ? [] : data;

  const choose = (next: string) => {
    setPage(0);
    dispatch(categorySelected(next));
  };

  return (
    <>
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
      <ProductGrid products={products} loading={isFetching || categoriesLoading} rowLength={3} />
      {products && (
        <Pager
          page={page}
          canGoForward={products.length === PAGE_SIZE.catalogue}
          onChange={setPage}
          showPageNumber
          disabled={isFetching}
        />
      )}
    </>
  );
}
