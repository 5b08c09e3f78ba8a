import { createApi } from '@reduxjs/toolkit/query/react';
import { baseQueryWithReauth } from './baseQuery';

/** The one API slice; each feature injects its own endpoints (RTK Query code splitting). */
export const baseApi = createApi({
  reducerPath: 'api',
  baseQuery: baseQueryWithReauth,
  tagTypes: [
    'Product',
    'Category',
    'Banner',
    'Cart',
    'Order',
    'Address',
    'User',
    'Requisites',
    // The buyer's company: its employees, legal entities, invitations and manager.
    'Company',
    // The back office's (features/admin).
    'AdminOrders',
    'AdminOrder',
    'SupplierRequisites',
    'Audit',
    'AdminProduct',
    'AdminCategory',
    'AdminBanner',
    'AdminCompany',
    'Staff',
  ],
  endpoints: () => ({}),
});
