import { baseApi } from '@/api/baseApi';

/**
 * The one API with the tags only the back office provides (price types, the storefront's settings,
 * the exchange with 1С, the conformity documents): they come with its chunk, and the storefront's bundle never names them.
 */
export const adminBaseApi = baseApi.enhanceEndpoints({
  addTagTypes: ['PriceType', 'StorefrontSettings', 'Exchange', 'ExchangeRun', 'ConformityDocument'],
});
