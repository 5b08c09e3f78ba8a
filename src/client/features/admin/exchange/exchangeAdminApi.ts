import type {
  ExchangeAccount,
  ExchangeOverview,
  ExchangePriceType,
  ExchangeResendResult,
  ExchangeRunList,
  ExchangeSettingsBody,
  ExchangeWarehouse,
} from '@shared/api';
import { adminBaseApi } from '../adminBaseApi';

const EXCHANGE = 'api/v1/admin/exchange';

// 1С's Ид of a price type or warehouse and a run's file name are free text (a file may sit in a
// folder: import_files/ab/pic.jpg), so each goes into the path as one encoded segment.
const segment = encodeURIComponent;

/** Every change on the page changes the overview it shows and is written to the journal. */
const changed = (_answer: unknown, error: unknown) => (error ? [] : (['Exchange', 'Audit'] as const));

/** The path of a run's kept file, for its download link (the server names the file it sends). */
export const exchangeFilePath = (runId: string, name: string) => `/${EXCHANGE}/runs/${runId}/files/${segment(name)}`;

/** The back office's «Обмен с 1С»: the connection, its settings and mapping, the exchanges made and «send again». */
export const exchangeAdminApi = adminBaseApi.injectEndpoints({
  endpoints: (build) => ({
    getExchange: build.query<ExchangeOverview, void>({
      query: () => EXCHANGE,
      providesTags: ['Exchange'],
    }),
    saveExchangeSettings: build.mutation<ExchangeSettingsBody, ExchangeSettingsBody>({
      query: (body) => ({ url: `${EXCHANGE}/settings`, method: 'PUT', body }),
      invalidatesTags: changed,
    }),
    /** 404 {detail} when no account has that e-mail. */
    grantExchange: build.mutation<ExchangeAccount, string>({
      query: (email) => ({ url: `${EXCHANGE}/accounts`, method: 'POST', body: { email } }),
      invalidatesTags: changed,
    }),
    revokeExchange: build.mutation<unknown, number>({
      query: (id) => ({ url: `${EXCHANGE}/accounts/${id}`, method: 'DELETE' }),
      invalidatesTags: changed,
    }),
    /** `price_type_id` null: 1С's type is not loaded. */
    mapExchangePriceType: build.mutation<ExchangePriceType, { externalId: string; priceTypeId: number | null }>({
      query: ({ externalId, priceTypeId }) => ({
        url: `${EXCHANGE}/price-types/${segment(externalId)}`,
        method: 'PUT',
        body: { price_type_id: priceTypeId },
      }),
      invalidatesTags: changed,
    }),
    setExchangeWarehouseUsed: build.mutation<ExchangeWarehouse, { externalId: string; used: boolean }>({
      query: ({ externalId, used }) => ({
        url: `${EXCHANGE}/warehouses/${segment(externalId)}`,
        method: 'PUT',
        body: { used },
      }),
      invalidatesTags: changed,
    }),
    getExchangeRuns: build.query<ExchangeRunList, { skip: number; limit: number }>({
      query: (params) => ({ url: `${EXCHANGE}/runs`, params }),
      providesTags: ['ExchangeRun'],
    }),
    resendOrdersToOneC: build.mutation<ExchangeResendResult, number[]>({
      query: (orderIds) => ({ url: `${EXCHANGE}/resend`, method: 'POST', body: { order_ids: orderIds } }),
      invalidatesTags: changed,
    }),
  }),
});

export const {
  useGetExchangeQuery,
  useSaveExchangeSettingsMutation,
  useGrantExchangeMutation,
  useRevokeExchangeMutation,
  useMapExchangePriceTypeMutation,
  useSetExchangeWarehouseUsedMutation,
  useGetExchangeRunsQuery,
  useResendOrdersToOneCMutation,
} = exchangeAdminApi;
