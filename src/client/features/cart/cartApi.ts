import type { Cart, CartAddPayload } from '@shared/api';
import { baseApi } from '@/api/baseApi';

export const cartApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getCart: build.query<Cart, number>({
      query: (userId) => `api/v1/cart/${userId}`,
      providesTags: ['Cart'],
    }),
    addToCart: build.mutation<{ id: number }, CartAddPayload>({
      query: (payload) => ({ url: 'api/v1/cart/add', method: 'POST', body: payload }),
      invalidatesTags: ['Cart'],
    }),
    setCartCount: build.mutation<void, { itemId: number; count: number }>({
      query: ({ itemId, count }) => ({ url: 'api/v1/cart/count', method: 'PUT', params: { item_id: itemId, count } }),
      invalidatesTags: ['Cart'],
    }),
    removeCartItem: build.mutation<void, number>({
      query: (itemId) => ({ url: `api/v1/cart/${itemId}`, method: 'DELETE' }),
      invalidatesTags: ['Cart'],
    }),
  }),
});

export const { useGetCartQuery, useAddToCartMutation, useSetCartCountMutation, useRemoveCartItemMutation } = cartApi;
