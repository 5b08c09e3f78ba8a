import { ART_INVALID, type CatalogueFilters, type Product, type ProductPage } from '@shared/api';
import { baseApi } from '@/api/baseApi';

export interface PageArgs {
  skip: number;
  limit: number;
}

/** A product list's cache tags: the list's, and each product's by article. */
export const productTags = (products: Product[] | undefined) => [
  { type: 'Product' as const, id: 'LIST' },
  ...(products ?? []).map(({ art }) => ({ type: 'Product' as const, id: art })),
];

export const catalogueApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getProducts: build.query<Product[], PageArgs>({
      query: (params) => ({ url: 'api/v1/products/', params }),
      providesTags: productTags,
    }),
    getPopularProducts: build.query<Product[], PageArgs>({
      query: (params) => ({ url: 'api/v1/products/popular', params }),
      providesTags: productTags,
    }),
    getCategories: build.query<string[], void>({
      query: () => 'api/v1/products/categories/all',
      providesTags: ['Category'],
    }),
    /** A category's page; the filters' keys are only those set, so the request names the same read as the server's preload. */
    getCategoryProducts: build.query<Product[], PageArgs & CatalogueFilters & { category: string }>({
      query: ({ category, ...params }) => ({
        url: `api/v1/products/categories/${encodeURIComponent(category)}`,
        params,
      }),
      providesTags: productTags,
    }),
    getProductByArt: build.query<ProductPage, string>({
      // SPEC §5: an empty article is refused before any request is made.
      async queryFn(art, _api, _extra, baseQuery) {
        if (typeof art !== 'string' || !art.trim()) return { error: { status: 'CUSTOM_ERROR', error: ART_INVALID } };
        const result = await baseQuery(`api/v1/products/${encodeURIComponent(art)}`);
        return result.error ? { error: result.error } : { data: result.data as ProductPage };
      },
      providesTags: (_product, _error, art) => [{ type: 'Product', id: art }],
    }),
    /** Several products at once (the checkout's lines); fails if any one of them cannot be loaded. */
    getProductsByArts: build.query<Product[], string[]>({
      // One request however many articles; a POST, as the list may be longer than an address.
      query: (arts) => ({ url: 'api/v1/products/by-arts', method: 'POST', body: { arts } }),
      providesTags: (_products, _error, arts) => arts.map((art) => ({ type: 'Product' as const, id: art })),
    }),
  }),
});

export const {
  useGetProductsByArtsQuery,
  useGetProductsQuery,
  useGetPopularProductsQuery,
  useGetCategoriesQuery,
  useGetCategoryProductsQuery,
  useGetProductByArtQuery,
} = catalogueApi;
