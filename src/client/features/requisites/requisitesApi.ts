import type { Requisites, RequisitesSave } from '@shared/api';
import { baseApi } from '@/api/baseApi';

export const requisitesApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    // Until some are saved the server answers the last order's details, so a new order changes them too.
    getRequisites: build.query<Requisites, number>({
      query: (userId) => `api/v1/requisites/${userId}`,
      providesTags: ['Requisites', 'Order'],
    }),
    // The company's details are its default legal entity's: saving them changes it, or chooses another.
    saveRequisites: build.mutation<Requisites, RequisitesSave & { userId: number }>({
      query: ({ userId, ...fields }) => ({ url: `api/v1/requisites/${userId}`, method: 'PUT', body: fields }),
      invalidatesTags: ['Requisites', 'Company'],
    }),
  }),
});

export const { useGetRequisitesQuery, useSaveRequisitesMutation } = requisitesApi;
