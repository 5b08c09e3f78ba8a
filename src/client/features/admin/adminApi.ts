import type {
  AdminBuyer,
  AdminOrder,
  AdminOrderList,
  AdminOrdersFilter,
  AdminStatusChange,
  AuditList,
  InvoiceRef,
  OrderStatusAnswer,
} from '@shared/api';
import type { SupplierRequisites } from '@shared/schemas/settings';
import { baseApi } from '@/api/baseApi';
import { downloadFile } from '@/api/download';

export type AdminOrdersRequest = Partial<AdminOrdersFilter> & Pick<AdminOrdersFilter, 'skip' | 'limit'>;

// A change to one order (status, invoice) changes its page, the queue, the journal and, when the
// order is cancelled, the stock the storefront shows.
const orderChanged = (id: number) => [{ type: 'AdminOrder', id }, 'AdminOrders', 'Audit', 'Order', 'Product'] as const;

/** The back office's orders, supplier requisites and journal (the catalogue's are in catalogue/). */
export const adminApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getAdminOrders: build.query<AdminOrderList, AdminOrdersRequest>({
      query: (params) => ({ url: 'api/v1/admin/orders', params }),
      providesTags: ['AdminOrders'],
    }),
    getAdminOrder: build.query<AdminOrder, number>({
      query: (id) => `api/v1/admin/orders/${id}`,
      providesTags: (_answer, _error, id) => [{ type: 'AdminOrder', id }],
    }),
    changeOrderStatus: build.mutation<OrderStatusAnswer, AdminStatusChange & { id: number }>({
      query: ({ id, ...body }) => ({ url: `api/v1/admin/orders/${id}/status`, method: 'POST', body }),
      invalidatesTags: (_answer, _error, { id }) => [...orderChanged(id)],
    }),
    issueInvoice: build.mutation<InvoiceRef, number>({
      query: (id) => ({ url: `api/v1/admin/orders/${id}/invoice`, method: 'POST' }),
      invalidatesTags: (_answer, _error, id) => [...orderChanged(id)],
    }),
    /** A buyer marked as trusted (or not), from an order's page: that page and the journal change. */
    setBuyerTrusted: build.mutation<AdminBuyer, { buyerId: number; trusted: boolean; orderId: number }>({
      query: ({ buyerId, trusted }) => ({
        url: `api/v1/admin/buyers/${buyerId}/trusted`,
        method: 'PUT',
        body: { trusted },
      }),
      invalidatesTags: (_answer, _error, { orderId }) => [{ type: 'AdminOrder', id: orderId }, 'Audit'],
    }),
    // A mutation, not a query: every click fetches the file anew and nothing is cached.
    fetchInvoice: build.mutation<string, number>({
      queryFn: downloadFile(
        (id) => `api/v1/order/${id}/invoice`,
        (id) => `Счёт по заказу ${id}.pdf`,
      ),
    }),
    getSupplierRequisites: build.query<SupplierRequisites | null, void>({
      query: () => 'api/v1/admin/settings/requisites',
      providesTags: ['SupplierRequisites'],
    }),
    saveSupplierRequisites: build.mutation<SupplierRequisites, SupplierRequisites>({
      query: (body) => ({ url: 'api/v1/admin/settings/requisites', method: 'PUT', body }),
      invalidatesTags: ['SupplierRequisites', 'Audit'],
    }),
    getAudit: build.query<AuditList, { skip: number; limit: number }>({
      query: (params) => ({ url: 'api/v1/admin/audit', params }),
      providesTags: ['Audit'],
    }),
  }),
});

export const {
  useGetAdminOrdersQuery,
  useGetAdminOrderQuery,
  useChangeOrderStatusMutation,
  useIssueInvoiceMutation,
  useSetBuyerTrustedMutation,
  useFetchInvoiceMutation,
  useGetSupplierRequisitesQuery,
  useSaveSupplierRequisitesMutation,
  useGetAuditQuery,
} = adminApi;
