import type {
  AdminProduct,
  AdminVariant,
  PriceType,
  PriceTypeFields,
  PriceTypePatch,
  ProductPrices,
  StorefrontSettings,
  VariantPrices,
} from '@shared/api';
import { adminBaseApi } from '../adminBaseApi';
import { catalogueAdminApi } from '../catalogue/catalogueAdminApi';

const ADMIN = 'api/v1/admin';

type Tags = Parameters<typeof adminBaseApi.util.invalidateTags>[0];

/**
 * What a change of a price type makes stale besides the types' list and the journal: a new name
 * shows in the companies buying by it; a new default or РРЦ changes every product's prices as the
 * back office and the storefront show them; a minimum order sum shows in the cart.
 */
function priceTypeChanged(patch: PriceTypePatch): Tags {
  return [
    'PriceType',
    'Audit',
    ...(patch.name === undefined ? [] : (['AdminCompany'] as const)),
    ...(patch.is_default === undefined && patch.is_rrp === undefined
      ? []
      : (['AdminProduct', 'Product', 'Cart'] as const)),
    ...(patch.min_order_sum === undefined ? [] : (['Cart'] as const)),
  ];
}

// A product's prices are saved from its page while its form may hold unsaved edits: the product's
// cached answer is patched in place rather than read again, which would mount the form afresh and
// lose them. The lists and the storefront (prices, tiers in the cart) are read again.
const pricesChanged: Tags = [{ type: 'AdminProduct', id: 'LIST' }, 'Product', 'Cart'];

/** The supplier's price types, a product's prices in them, and whether visitors see prices. */
export const pricesAdminApi = adminBaseApi.injectEndpoints({
  endpoints: (build) => ({
    getPriceTypes: build.query<PriceType[], void>({
      query: () => `${ADMIN}/price-types`,
      providesTags: ['PriceType'],
    }),
    createPriceType: build.mutation<PriceType, PriceTypeFields>({
      query: (body) => ({ url: `${ADMIN}/price-types`, method: 'POST', body }),
      invalidatesTags: (_type, error) => (error ? [] : ['PriceType', 'Audit']),
    }),
    updatePriceType: build.mutation<PriceType, { id: number; patch: PriceTypePatch }>({
      query: ({ id, patch }) => ({ url: `${ADMIN}/price-types/${id}`, method: 'PATCH', body: patch }),
      invalidatesTags: (_type, error, { patch }) => (error ? [] : priceTypeChanged(patch)),
    }),
    /** 409 while a company buys by the type or it is the default one; its prices go with it. */
    deletePriceType: build.mutation<unknown, number>({
      query: (id) => ({ url: `${ADMIN}/price-types/${id}`, method: 'DELETE' }),
      invalidatesTags: (_answer, error) => (error ? [] : ['PriceType', 'Audit', 'AdminProduct', 'Product']),
    }),

    getStorefrontSettings: build.query<StorefrontSettings, void>({
      query: () => `${ADMIN}/settings/storefront`,
      providesTags: ['StorefrontSettings'],
    }),
    saveStorefrontSettings: build.mutation<StorefrontSettings, StorefrontSettings>({
      query: (body) => ({ url: `${ADMIN}/settings/storefront`, method: 'PUT', body }),
      invalidatesTags: (_settings, error) => (error ? [] : ['StorefrontSettings', 'Audit', 'Product']),
    }),

    /** A variant's price and tiers in the types named (the default type's price is the variant's own). */
    saveVariantPrices: build.mutation<AdminVariant, { productId: number; variantId: number; prices: VariantPrices }>({
      query: ({ variantId, prices }) => ({ url: `${ADMIN}/variants/${variantId}/prices`, method: 'PUT', body: prices }),
      async onQueryStarted({ productId, variantId }, { dispatch, queryFulfilled }) {
        const { data: saved } = await queryFulfilled.catch(() => ({ data: null }));
        if (!saved) return;
        dispatch(
          catalogueAdminApi.util.updateQueryData('getAdminProduct', productId, (product) => {
            const variant = product.variants.find(({ id }) => id === variantId);
            if (variant) variant.prices = saved.prices;
          }),
        );
      },
      invalidatesTags: (_variant, error) => (error ? [] : pricesChanged),
    }),
    /** The product's tiers per type, counted over all its colours and sizes together. */
    saveProductTiers: build.mutation<AdminProduct, { id: number; tiers: ProductPrices }>({
      query: ({ id, tiers }) => ({ url: `${ADMIN}/products/${id}/prices`, method: 'PUT', body: tiers }),
      async onQueryStarted({ id }, { dispatch, queryFulfilled }) {
        const { data: saved } = await queryFulfilled.catch(() => ({ data: null }));
        if (!saved) return;
        dispatch(
          catalogueAdminApi.util.updateQueryData('getAdminProduct', id, (product) => {
            product.tiers = saved.tiers;
          }),
        );
      },
      invalidatesTags: (_product, error) => (error ? [] : pricesChanged),
    }),
  }),
});

export const {
  useGetPriceTypesQuery,
  useCreatePriceTypeMutation,
  useUpdatePriceTypeMutation,
  useDeletePriceTypeMutation,
  useGetStorefrontSettingsQuery,
  useSaveStorefrontSettingsMutation,
  useSaveVariantPricesMutation,
  useSaveProductTiersMutation,
} = pricesAdminApi;
