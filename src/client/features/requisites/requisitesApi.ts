import type { Requisites, RequisitesFields } from '@shared/api';
import { baseApi } from '@/api/baseApi';

export const requisitesApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    // Until some are saved the server answers the last order's details, so a new order changes them too.
    getRequisites: build.query<Requisites, number>({
      query: (userId) => `api/v1/requisites/${userId}`,
      providesTags: ['Requisites', 'Order'],
    }),
    saveRequisites: build.mutation<Requisites, RequisitesFields & { userId: number }>({
      query: ({ userId, ...fields }) => ({ url: `api/v1/requisites/${userId}`, method: 'PUT', body: fields }),
      invalidatesTags: ['Requisites'],
    }),
  }),
});

export const { useGetRequisitesQuery, useSaveRequisitesMutation } = requisitesApi;
