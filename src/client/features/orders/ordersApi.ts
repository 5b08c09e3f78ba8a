import type { BuyerOrder, BuyerOrdersFilter, OrderCreatePayload, OrderStatusAnswer, OrderSummary } from '@shared/api';
import { baseApi } from '@/api/baseApi';
import { downloadFile } from '@/api/download';

/** A page of the company's orders and how many the filters match in all (X-Total-Count). */
export interface OrdersPage {
  orders: OrderSummary[];
  total: number;
}

/** The header's count, or null when the answer has none (an older server: then the page is all there is). */
function totalCount(header: string | null | undefined): number | null {
  const total = header ? Number(header) : Number.NaN;
  return Number.isInteger(total) && total >= 0 ? total : null;
}

export const ordersApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    // Placing or cancelling an order changes the cart and the stock shown on product pages; placing
    // one also puts its legal entity first among the company's (the last used).
    // The key makes a retry of a request whose answer was lost return the order it placed, not a second one.
    createOrder: build.mutation<OrderSummary, { order: OrderCreatePayload; idempotencyKey: string }>({
      query: ({ order, idempotencyKey }) => ({
        url: 'api/v1/order/',
        method: 'POST',
        body: order,
        headers: { 'Idempotency-Key': idempotencyKey },
      }),
      invalidatesTags: ['Order', 'Cart', 'Product', 'Company'],
    }),
    // The company's orders, newest first: all of them, or a page of those the filters match.
    getOrders: build.query<OrdersPage, { userId: number } & BuyerOrdersFilter>({
      query: ({ userId, ...filter }) => {
        const params = Object.fromEntries(Object.entries(filter).filter(([, value]) => value !== undefined));
        return { url: `api/v1/order/${userId}`, ...(Object.keys(params).length > 0 && { params }) };
      },
      transformResponse: (orders: OrderSummary[], meta, { skip = 0 }) => ({
        orders,
        total: totalCount(meta?.response?.headers.get('X-Total-Count')) ?? skip + orders.length,
      }),
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
