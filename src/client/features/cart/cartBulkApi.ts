import type { Cart, CartBulkPayload } from '@shared/api';
import { cartApi } from './cartApi';
import { announceCartSaved } from './cartChannel';

/**
 * Many variants at once, all or nothing (the product page's matrix). Its own module, injected when
 * the matrix loads: the shell, which carries cartApi, stays within the home page's download budget.
 */
export const cartBulkApi = cartApi.injectEndpoints({
  endpoints: (build) => ({
    /** The answer is the whole cart; a refused line is named in the 4xx detail («Строка 3: …»). */
    addManyToCart: build.mutation<Cart, CartBulkPayload>({
      query: (payload) => ({ url: 'api/v1/cart/bulk', method: 'POST', body: payload }),
      // As after «В корзину»: this tab's cart and header badge reload.
      invalidatesTags: ['Cart'],
      // The shopper's other tabs show the new counts of the lines added to, and reload for the new lines.
      async onQueryStarted({ items }, { queryFulfilled }) {
        const answer = await queryFulfilled.catch(() => null);
        if (!answer) return;
        const added = new Set(items.map((item) => item.variant_id));
        const saved = answer.data.items.filter((item) => added.has(item.variant_id));
        announceCartSaved(Object.fromEntries(saved.map((item) => [item.id, item.count])));
      },
    }),
  }),
});

export const { useAddManyToCartMutation } = cartBulkApi;
