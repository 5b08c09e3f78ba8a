import type { Cart, CartAddPayload } from '@shared/api';
import { baseApi } from '@/api/baseApi';

/** A change sent as the page is hidden or closed goes with `keepalive`, so closing does not cancel it. */
interface LineChange {
  itemId: number;
  keepalive?: boolean;
}

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
    /** With `expected` (the count the change started from) the server answers 409 if the line holds another. */
    setCartCount: build.mutation<void, LineChange & { count: number; expected?: number }>({
      query: ({ itemId, count, expected, keepalive }) => ({
        url: 'api/v1/cart/count',
        method: 'PUT',
        params: { item_id: itemId, count, expected },
        keepalive,
      }),
      invalidatesTags: ['Cart'],
    }),
    removeCartItem: build.mutation<void, LineChange>({
      query: ({ itemId, keepalive }) => ({ url: `api/v1/cart/${itemId}`, method: 'DELETE', keepalive }),
      invalidatesTags: ['Cart'],
    }),
  }),
});

export const { useGetCartQuery, useAddToCartMutation } = cartApi;
