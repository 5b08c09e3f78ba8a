import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import type {
  AdminBanner,
  AdminCategory,
  AdminProduct,
  AdminProductList,
  AdminProductsFilter,
  BannerFields,
  BannerPatch,
  CategoryFields,
  CategoryPatch,
  ImportResult,
  PhotosChange,
  PreviewChanges,
  ProductCreate,
  ProductPatch,
  UploadedImage,
  VariantFields,
  VariantPatch,
} from '@shared/api';
import { baseApi } from '@/api/baseApi';
import { downloadFile } from '@/api/download';
import { serverErrorDetail } from '@/api/serverErrorDetail';

const ADMIN = 'api/v1/admin';

export type PriceListFormat = 'xlsx' | 'csv';

/** What the product form changes on an existing product (see productFormValues.ts). */
export interface ProductEdits {
  id: number;
  /** Null when no product field changed. */
  product: ProductPatch | null;
  added: VariantFields[];
  changed: { id: number; patch: VariantPatch }[];
  removed: number[];
}

const LIST = 'LIST';

// The storefront's own tags: a manager's change must not leave a stale catalogue in this tab either.
const STOREFRONT_CATALOGUE = ['Product', 'Category'] as const;

type Tags = Parameters<typeof baseApi.util.invalidateTags>[0];

/** A refused change changed nothing: the tags go stale only once it succeeded. */
const onceSaved =
  (...tags: Tags) =>
  (_result: unknown, error: unknown) =>
    error ? [] : tags;

// The lists of banners and of categories, the back office's and the storefront's.
const bannersChanged = onceSaved({ type: 'AdminBanner', id: LIST }, 'Banner');
const categoriesChanged = onceSaved({ type: 'AdminCategory', id: LIST }, 'Category');
// A price list's import may touch any product, category count and storefront page.
const catalogueImported: Tags = ['AdminProduct', { type: 'AdminCategory', id: LIST }, ...STOREFRONT_CATALOGUE];

/** A multipart body with one file in the field the server reads (`file`). */
function fileBody(file: File): FormData {
  const body = new FormData();
  body.append('file', file);
  return body;
}

/**
 * A failure after part of the edits went through: the product must be read again, and the manager
 * told that not everything was saved.
 */
const partlySaved = (error: FetchBaseQueryError): FetchBaseQueryError => ({
  status: 'CUSTOM_ERROR',
  error: 'partly saved',
  data: { detail: `Сохранено не всё: ${serverErrorDetail(error) ?? 'сервер не ответил'}` },
});

export const catalogueAdminApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getAdminProducts: build.query<AdminProductList, Partial<AdminProductsFilter>>({
      query: (params) => ({ url: `${ADMIN}/products`, params }),
      providesTags: (list) => [
        { type: 'AdminProduct', id: LIST },
        ...(list?.items ?? []).map(({ id }) => ({ type: 'AdminProduct' as const, id })),
      ],
    }),
    getAdminProduct: build.query<AdminProduct, number>({
      query: (id) => `${ADMIN}/products/${id}`,
      providesTags: (_product, _error, id) => [{ type: 'AdminProduct', id }],
    }),
    createProduct: build.mutation<AdminProduct, ProductCreate>({
      query: (body) => ({ url: `${ADMIN}/products`, method: 'POST', body }),
      invalidatesTags: onceSaved(
        { type: 'AdminProduct', id: LIST },
        { type: 'AdminCategory', id: LIST },
        ...STOREFRONT_CATALOGUE,
      ),
    }),
    /**
     * The product form's save: the product's fields, then new, changed and removed variants, one
     * request each, in that order (a product is never left without a variant on the way). Stops at
     * the first refusal; when something was saved before it, the product is read again.
     */
    saveProductEdits: build.mutation<null, ProductEdits>({
      async queryFn({ id, product, added, changed, removed }, _api, _extra, baseQuery) {
        const requests = [
          ...(product ? [{ url: `${ADMIN}/products/${id}`, method: 'PATCH', body: product }] : []),
          ...added.map((body) => ({ url: `${ADMIN}/products/${id}/variants`, method: 'POST', body })),
          ...changed.map(({ id: variantId, patch }) => ({
            url: `${ADMIN}/variants/${variantId}`,
            method: 'PATCH',
            body: patch,
          })),
          ...removed.map((variantId) => ({ url: `${ADMIN}/variants/${variantId}`, method: 'DELETE' })),
        ];
        for (const [index, request] of requests.entries()) {
          const { error } = await baseQuery(request);
          if (error) return { error: index === 0 ? error : partlySaved(error) };
        }
        return { data: null };
      },
      invalidatesTags: (_result, error, { id }) =>
        error && error.status !== 'CUSTOM_ERROR'
          ? []
          : [
              { type: 'AdminProduct', id },
              { type: 'AdminProduct', id: LIST },
              { type: 'AdminCategory', id: LIST },
              ...STOREFRONT_CATALOGUE,
            ],
    }),
    /**
     * Takes the product off the storefront (DELETE) or puts it back (PATCH with hidden: false);
     * orders and carts keep their lines either way.
     */
    setProductHidden: build.mutation<AdminProduct, { id: number; hidden: boolean }>({
      query: ({ id, hidden }) =>
        hidden
          ? { url: `${ADMIN}/products/${id}`, method: 'DELETE' }
          : { url: `${ADMIN}/products/${id}`, method: 'PATCH', body: { hidden: false } },
      invalidatesTags: (_product, error, { id }) =>
        error ? [] : [{ type: 'AdminProduct', id }, { type: 'AdminProduct', id: LIST }, ...STOREFRONT_CATALOGUE],
    }),
    /** Replaces all the product's photos; its picture may change with them (the own set's cover). */
    setProductPhotos: build.mutation<AdminProduct, { id: number; sets: PhotosChange }>({
      query: ({ id, sets }) => ({ url: `${ADMIN}/products/${id}/photos`, method: 'PUT', body: sets }),
      invalidatesTags: (_product, error, { id }) =>
        error ? [] : [{ type: 'AdminProduct', id }, { type: 'AdminProduct', id: LIST }, ...STOREFRONT_CATALOGUE],
    }),

    getAdminCategories: build.query<AdminCategory[], void>({
      query: () => `${ADMIN}/categories`,
      providesTags: [{ type: 'AdminCategory', id: LIST }],
    }),
    createCategory: build.mutation<AdminCategory, CategoryFields>({
      query: (body) => ({ url: `${ADMIN}/categories`, method: 'POST', body }),
      invalidatesTags: categoriesChanged,
    }),
    // A renamed category renames it in every product's answer too.
    updateCategory: build.mutation<AdminCategory, { id: number; patch: CategoryPatch }>({
      query: ({ id, patch }) => ({ url: `${ADMIN}/categories/${id}`, method: 'PATCH', body: patch }),
      invalidatesTags: onceSaved({ type: 'AdminCategory', id: LIST }, 'AdminProduct', ...STOREFRONT_CATALOGUE),
    }),
    deleteCategory: build.mutation<unknown, number>({
      query: (id) => ({ url: `${ADMIN}/categories/${id}`, method: 'DELETE' }),
      invalidatesTags: categoriesChanged,
    }),

    getAdminBanners: build.query<AdminBanner[], void>({
      query: () => `${ADMIN}/banners`,
      providesTags: [{ type: 'AdminBanner', id: LIST }],
    }),
    createBanner: build.mutation<AdminBanner, BannerFields>({
      query: (body) => ({ url: `${ADMIN}/banners`, method: 'POST', body }),
      invalidatesTags: bannersChanged,
    }),
    updateBanner: build.mutation<AdminBanner, { id: number; patch: BannerPatch }>({
      query: ({ id, patch }) => ({ url: `${ADMIN}/banners/${id}`, method: 'PATCH', body: patch }),
      invalidatesTags: bannersChanged,
    }),
    deleteBanner: build.mutation<unknown, number>({
      query: (id) => ({ url: `${ADMIN}/banners/${id}`, method: 'DELETE' }),
      invalidatesTags: bannersChanged,
    }),

    /** A product's or banner's picture: the server checks, re-encodes and names it. */
    uploadImage: build.mutation<UploadedImage, File>({
      query: (file) => ({ url: `${ADMIN}/images`, method: 'POST', body: fileBody(file) }),
    }),

    /**
     * Downloads the price list with the manager's token and hands it to the browser as a file.
     * The Blob never enters the store: the answer is the file's name.
     */
    downloadPriceList: build.mutation<string, PriceListFormat>({
      queryFn: downloadFile(
        (format) => `${ADMIN}/catalogue/export?format=${format}`,
        (format) => `price-list.${format}`,
      ),
    }),
    /**
     * A dry run changes nothing and keeps what it found as a preview on the server; the real one
     * (dry_run=false, the API's own) is all-or-nothing there.
     */
    importPriceList: build.mutation<ImportResult, { file: File; dryRun: boolean }>({
      query: ({ file, dryRun }) => ({
        url: `${ADMIN}/catalogue/import`,
        method: 'POST',
        params: { dry_run: dryRun },
        body: fileBody(file),
      }),
      invalidatesTags: (result, _error, { dryRun }) => (!result || dryRun ? [] : catalogueImported),
    }),
    /** One page of a preview's changed and new rows. Never cached past the page: a preview is read once. */
    getPriceListChanges: build.query<PreviewChanges, { id: string; skip: number; limit: number }>({
      query: ({ id, skip, limit }) => ({
        url: `${ADMIN}/catalogue/import/previews/${id}/changes`,
        params: { skip, limit },
      }),
      keepUnusedDataFor: 0,
    }),
    /** Every change of a preview as XLSX, saved by the browser. */
    downloadPriceListChanges: build.mutation<string, string>({
      queryFn: downloadFile(
        (id) => `${ADMIN}/catalogue/import/previews/${id}/changes.xlsx`,
        () => 'price-list-changes.xlsx',
      ),
    }),
    /** Applies a preview exactly as it was checked; 409 when the catalogue changed since. */
    applyPriceListPreview: build.mutation<ImportResult, string>({
      query: (id) => ({ url: `${ADMIN}/catalogue/import/previews/${id}/apply`, method: 'POST' }),
      invalidatesTags: (result) => (result ? catalogueImported : []),
    }),
  }),
});

export const {
  useGetAdminProductsQuery,
  useGetAdminProductQuery,
  useCreateProductMutation,
  useSaveProductEditsMutation,
  useSetProductHiddenMutation,
  useSetProductPhotosMutation,
  useGetAdminCategoriesQuery,
  useCreateCategoryMutation,
  useUpdateCategoryMutation,
  useDeleteCategoryMutation,
  useGetAdminBannersQuery,
  useCreateBannerMutation,
  useUpdateBannerMutation,
  useDeleteBannerMutation,
  useUploadImageMutation,
  useDownloadPriceListMutation,
  useImportPriceListMutation,
  useGetPriceListChangesQuery,
  useDownloadPriceListChangesMutation,
  useApplyPriceListPreviewMutation,
} = catalogueAdminApi;
