import type { DownloadLink, DownloadLinkRequest } from '@shared/api';
import { baseApi } from '@/api/baseApi';

// Injected by the lazy pages whose buttons use it: nothing of it is in the home page's first chunk.
export const downloadLinksApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    // A mutation: every click asks for a new link (it lasts 90 seconds), nothing is cached.
    createDownloadLink: build.mutation<DownloadLink, DownloadLinkRequest['path']>({
      query: (path) => ({ url: 'api/v1/download-links', method: 'POST', body: { path } }),
    }),
  }),
});

export const { useCreateDownloadLinkMutation } = downloadLinksApi;
