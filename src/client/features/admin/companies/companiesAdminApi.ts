import type { Static } from 'typebox';
import type { AdminCompany, AdminCompanyList, AdminCompanyPatch, StaffProfile, StaffProfileFields } from '@shared/api';
import type { AdminCompaniesQuery } from '@shared/schemas/company';
import { adminBaseApi } from '../adminBaseApi';

const ADMIN = 'api/v1/admin';
const LIST = 'LIST';

export type AdminCompaniesRequest = Partial<Static<typeof AdminCompaniesQuery>>;

type Tags = Parameters<typeof adminBaseApi.util.invalidateTags>[0];

/** A refused change changed nothing: the tags go stale only once it succeeded. */
const onceSaved =
  (...tags: Tags) =>
  (_result: unknown, error: unknown) =>
    error ? [] : tags;

/**
 * The buyers' companies and the managers who look after them. A company's change shows in its
 * page, the list and the journal; a manager given or taken away changes the managers' counts and
 * which orders are «мои клиенты»; a price type given or taken away, the types' counts of companies.
 */
export const companiesAdminApi = adminBaseApi.injectEndpoints({
  endpoints: (build) => ({
    getAdminCompanies: build.query<AdminCompanyList, AdminCompaniesRequest>({
      query: (params) => ({ url: `${ADMIN}/companies`, params }),
      providesTags: [{ type: 'AdminCompany', id: LIST }],
    }),
    getAdminCompany: build.query<AdminCompany, number>({
      query: (id) => `${ADMIN}/companies/${id}`,
      providesTags: (_company, _error, id) => [{ type: 'AdminCompany', id }],
    }),
    updateCompany: build.mutation<AdminCompany, { id: number; patch: AdminCompanyPatch }>({
      query: ({ id, patch }) => ({ url: `${ADMIN}/companies/${id}`, method: 'PATCH', body: patch }),
      invalidatesTags: (_company, error, { id, patch }) =>
        error
          ? []
          : [
              { type: 'AdminCompany', id },
              { type: 'AdminCompany', id: LIST },
              'Audit',
              ...(patch.manager_id === undefined ? [] : (['Staff', 'AdminOrders'] as const)),
              ...(patch.price_type_id === undefined ? [] : (['PriceType'] as const)),
            ],
    }),
    /** Moves everything of `fromId` into `id` and dissolves `fromId`: its orders now belong to `id`. */
    mergeCompanies: build.mutation<AdminCompany, { id: number; fromId: number }>({
      query: ({ id, fromId }) => ({
        url: `${ADMIN}/companies/${id}/merge`,
        method: 'POST',
        body: { from_company_id: fromId },
      }),
      invalidatesTags: (_company, error, { id, fromId }) =>
        error
          ? []
          : [
              { type: 'AdminCompany', id },
              { type: 'AdminCompany', id: fromId },
              { type: 'AdminCompany', id: LIST },
              'AdminOrders',
              'AdminOrder',
              'Audit',
              'Staff',
              'PriceType',
            ],
    }),
    getStaff: build.query<StaffProfile[], void>({
      query: () => `${ADMIN}/staff`,
      providesTags: ['Staff'],
    }),
    // Companies name their manager: a new name shows in their list and pages too.
    updateStaffProfile: build.mutation<StaffProfile, { id: number; patch: StaffProfileFields }>({
      query: ({ id, patch }) => ({ url: `${ADMIN}/staff/${id}`, method: 'PATCH', body: patch }),
      invalidatesTags: onceSaved('Staff', 'AdminCompany'),
    }),
  }),
});

export const {
  useGetAdminCompaniesQuery,
  useGetAdminCompanyQuery,
  useUpdateCompanyMutation,
  useMergeCompaniesMutation,
  useGetStaffQuery,
  useUpdateStaffProfileMutation,
} = companiesAdminApi;
