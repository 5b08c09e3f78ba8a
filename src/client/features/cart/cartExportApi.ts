import type { CartExportFormat } from '@shared/cart-import';
import { downloadFile } from '@/api/download';
import { cartApi } from './cartApi';

/** The cart as a spreadsheet: injected with the cart page, so the shell does not carry it. */
export const cartExportApi = cartApi.injectEndpoints({
  endpoints: (build) => ({
    // A mutation, not a query: each click fetches and saves the file, and nothing is cached.
    exportCart: build.mutation<string, { userId: number; format: CartExportFormat }>({
      queryFn: downloadFile(
        ({ userId, format }) => `api/v1/cart/${userId}/export?format=${format}`,
        ({ format }) => `Корзина.${format}`,
      ),
    }),
  }),
});

export const { useExportCartMutation } = cartExportApi;
