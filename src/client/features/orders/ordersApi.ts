import type { BuyerOrder, OrderCreatePayload, OrderStatusAnswer, OrderSummary } from '@shared/api';
import { baseApi } from '@/api/baseApi';
import { downloadFile } from '@/api/download';

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
  useExportOrderMutation,
  useGetOrderStatusQuery,
  useCancelOrderMutation,
  useDownloadInvoiceMutation,
} = ordersApi;
