import type { Address, AddressFields } from '@shared/api';
import { baseApi } from '@/api/baseApi';

/** SPEC §7 address calls: the profile's address book edits them, the checkout offers them to pick from. */
export const addressesApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getAddresses: build.query<Address[], number>({
      query: (userId) => `api/v1/address/${userId}`,
      providesTags: ['Address'],
    }),
    createAddress: build.mutation<Address, AddressFields>({
      query: (fields) => ({ url: 'api/v1/address/', method: 'POST', body: fields }),
      invalidatesTags: ['Address'],
    }),
    updateAddress: build.mutation<Address, AddressFields & { id: number }>({
      query: ({ id, ...fields }) => ({ url: `api/v1/address/${id}`, method: 'PUT', body: fields }),
      invalidatesTags: ['Address'],
    }),
    deleteAddress: build.mutation<void, number>({
      query: (id) => ({ url: `api/v1/address/${id}`, method: 'DELETE' }),
      invalidatesTags: ['Address'],
    }),
  }),
});

export const { useGetAddressesQuery, useCreateAddressMutation, useUpdateAddressMutation, useDeleteAddressMutation } =
  addressesApi;
