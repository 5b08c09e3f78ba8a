import type { BuyerOrder, Cart, OrderCreatePayload, OrderStatusAnswer, OrderSummary } from '@shared/api';
import { baseApi } from '@/api/baseApi';
import { downloadFile } from '@/api/download';

export interface BulkCartItem {
  product_id: number;
  variant_id: number;
  count: number;
}

export const ordersApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    // Placing or cancelling an order changes the cart and the stock shown on product pages.
    // The key makes a retry of a request whose answer was lost return the order it placed, not a second one.
    createOrder: build.mutation<OrderSummary, { order: OrderCreatePayload; idempotencyKey: string }>({
      query: ({ order, idempotencyKey }) => ({
        url: 'api/v1/order/',
        method: 'POST',
        body: order,
        headers: { 'Idempotency-Key': idempotencyKey },
      }),
      invalidatesTags: ['Order', 'Cart', 'Product'],
    }),
    getOrders: build.query<OrderSummary[], number>({
      query: (userId) => `api/v1/order/${userId}`,
      providesTags: ['Order'],
    }),
    // Tagged by its id too: a cancel (which invalidates every 'Order') reloads the open page as well as the list.
    getOrder: build.query<BuyerOrder, { userId: number; orderId: number }>({
      query: ({ userId, orderId }) => `api/v1/order/${userId}/${orderId}`,
      providesTags: (_answer, _error, { orderId }) => ['Order', { type: 'Order', id: orderId }],
    }),
    /**
     * «Повторить заказ»: the lines go into the cart in one all-or-nothing call (POST /api/v1/cart/bulk);
     * a refused line comes back as a 4xx whose detail begins «Строка N: …», N counting the items from 1.
     */
    addLinesToCart: build.mutation<Cart, { userId: number; items: BulkCartItem[] }>({
      query: ({ userId, items }) => ({ url: 'api/v1/cart/bulk', method: 'POST', body: { user_id: userId, items } }),
      invalidatesTags: ['Cart'],
    }),
    getOrderStatus: build.query<OrderStatusAnswer, number>({
      query: (orderId) => `api/v1/order/${orderId}/status`,
      providesTags: (_answer, _error, orderId) => [{ type: 'Order', id: orderId }],
    }),
    cancelOrder: build.mutation<OrderStatusAnswer, number>({
      query: (orderId) => ({ url: `api/v1/order/${orderId}`, method: 'DELETE' }),
      invalidatesTags: ['Order', 'Cart', 'Product'],
    }),
    // A mutation, not a query: each click fetches and saves the file, and nothing is cached.
    downloadInvoice: build.mutation<string, number>({
      queryFn: downloadFile(
        (orderId) => `api/v1/order/${orderId}/invoice`,
        (orderId) => `Счёт по заказу ${orderId}.pdf`,
      ),
    }),
    exportOrder: build.mutation<string, { userId: number; orderId: number }>({
      queryFn: downloadFile(
        ({ userId, orderId }) => `api/v1/order/${userId}/${orderId}/export`,
        ({ orderId }) => `Заказ ${orderId}.xlsx`,
      ),
    }),
  }),
});

export const {
  useCreateOrderMutation,
  useGetOrdersQuery,
  useGetOrderQuery,
  useAddLinesToCartMutation,
  useExportOrderMutation,
  useGetOrderStatusQuery,
  useCancelOrderMutation,
  useDownloadInvoiceMutation,
} = ordersApi;
