import { skipToken, type SkipToken } from '@reduxjs/toolkit/query/react';
import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import type { Product } from '@shared/api';
import { LIST_PARAMS, listPageIndex } from '@shared/paths';
import type { PageArgs } from './catalogueApi';

/** What a paged list's query hook gives (the catalogue's endpoints' generated hooks). */
interface ListQueryState {
  data?: Product[];
  currentData?: Product[];
  isFetching: boolean;
  isError: boolean;
}

export interface PagedProducts {
  /** The page's products: undefined before the first answer, empty after a failure (SPEC §8). */
  products: Product[] | undefined;
  loading: boolean;
  /** Zero-based. */
  page: number;
  canGoForward: boolean;
  goTo(page: number): void;
}

/**
 * One page of a paged product list, at the page the address names (`page`, none on page 1), so
 * Back from a product and a reload come back to it. The next page is read ahead and Forward is
 * offered only when it has products: SPEC §9's "forward while a page comes back full" led to an
 * empty page after exactly 9·n products. A `page` that names no products (a stale link, 0, abc)
 * is replaced by the first page.
 *
 * `argsFor` is null while it is not known what to list (the catalogue before its categories);
 * `listParams` are the address's other parameters naming the list (the catalogue's category),
 * written with every page change.
 */
export function usePagedProducts<Args>(
  useList: (args: NoInfer<Args> | SkipToken) => ListQueryState,
  pageSize: number,
  argsFor: ((page: PageArgs) => Args) | null,
  listParams: Record<string, string> = {},
): PagedProducts {
  const [searchParams, setSearchParams] = useSearchParams();
  const pageParam = searchParams.get(LIST_PARAMS.page);
  const page = listPageIndex(pageParam, pageSize);
  const argsAt = (index: number) => (argsFor ? argsFor({ skip: index * pageSize, limit: pageSize }) : skipToken);

  const current = useList(argsAt(page));
  const full = current.currentData?.length === pageSize;
  const next = useList(full ? argsAt(page + 1) : skipToken);
  const pastTheEnd = page > 0 && current.currentData?.length === 0;

  /** The address at page `index`, with `written` parameters set and the others kept. */
  const addressAt = (index: number, written: Record<string, string>) => {
    const params = new URLSearchParams(searchParams);
    for (const [name, value] of Object.entries(written)) params.set(name, value);
    if (index > 0) params.set(LIST_PARAMS.page, String(index + 1));
    else params.delete(LIST_PARAMS.page);
    return params;
  };
  const goTo = (index: number) => setSearchParams(addressAt(index, listParams));

  const misnamed = pageParam !== null && pageParam !== String(page + 1);
  useEffect(() => {
    if (misnamed || pastTheEnd) setSearchParams(addressAt(pastTheEnd ? 0 : page, {}), { replace: true });
  });

  return {
    // data, not currentData: the previous page's stay (under the spinner) while the next one loads, so the pager does not blink.
    products: current.isError ? [] : current.data,
    loading: current.isFetching,
    page,
    canGoForward: full && Boolean(next.currentData?.length),
    goTo,
  };
}
