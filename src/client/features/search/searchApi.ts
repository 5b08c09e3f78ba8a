import type { Product } from '@shared/api';
import { baseApi } from '@/api/baseApi';
import { productTags, type PageArgs } from '@/features/catalogue/catalogueApi';

// Injected by the search's own chunks (the header's suggestions, the results page), not the first load.
export const searchApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    /** `q` is the buyer's text, as typed. */
    searchProducts: build.query<Product[], PageArgs & { q: string }>({
      query: (params) => ({ url: 'api/v1/products/search', params }),
      providesTags: productTags,
    }),
  }),
});

export const { useSearchProductsQuery } = searchApi;
