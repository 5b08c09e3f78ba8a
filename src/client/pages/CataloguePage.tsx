import { skipToken } from '@reduxjs/toolkit/query/react';
import { useState } from 'react';
import { PAGE_SIZE } from '@shared/api';
import { useAppDispatch, useAppSelector } from '@/app/withTypes';
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
      <h1 className="page-title">Каталог</h1>
      {/* A native select: the page then needs no antd at all, which on a phone is most of its script work. */}
      <div className="catalogue-toolbar">
        <label htmlFor="category-select">Категория</label>
        <select
          id="category-select"
          className="category-select"
          value={category ?? ''}
          onChange={(event) => choose(event.target.value)}
          aria-busy={categoriesLoading}
        >
          {!category && (
            <option value="" disabled>
              Категория
            </option>
          )}
          {categories.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
      </div>
      <ProductGrid products={products} loading={isFetching || categoriesLoading} eagerCount={3} />
      {products && <Pager page={page} canGoForward={products.length === PAGE_SIZE.catalogue} onChange={setPage} showPageNumber disabled={isFetching} />}
    </>
  );
}
