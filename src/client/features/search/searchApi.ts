import type { Product } from '@shared/api';
import { SEARCH_READ_AS_HEADER } from '@shared/search';
import { baseApi } from '@/api/baseApi';
import { productTags, type PageArgs } from '@/features/catalogue/catalogueApi';

export interface FoundProducts {
  products: Product[];
  /** What the server searched instead of the query, read in the other keyboard layout; null: the query as typed. */
  readAs: string | null;
}

function readAsOf(header: string | null | undefined): string | null {
  if (!header) return null;
  try {
    return decodeURIComponent(header);
  } catch {
    // Not the server's encoding: say nothing rather than something wrong.
    return null;
  }
}

// Injected by the search's own chunks (the header's suggestions, the results page), not the first load.
export const searchApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    /** `q` is the buyer's text, as typed. */
    searchProducts: build.query<FoundProducts, PageArgs & { q: string }>({
      query: (params) => ({ url: 'api/v1/products/search', params }),
      transformResponse: (products: Product[], meta) => ({
        products,
        readAs: readAsOf(meta?.response?.headers.get(SEARCH_READ_AS_HEADER)),
      }),
      providesTags: (found) => productTags(found?.products),
    }),
  }),
});

export const { useSearchProductsQuery } = searchApi;
