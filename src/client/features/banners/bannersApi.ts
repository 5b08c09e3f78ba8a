import type { Banner } from '@shared/api';
import { baseApi } from '@/api/baseApi';

export const bannersApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getBanners: build.query<Banner[], void>({
      query: () => 'api/v1/banners/all',
      providesTags: ['Banner'],
    }),
  }),
});

export const { useGetBannersQuery } = bannersApi;
