import type {
  Company,
  CompanyFeed,
  CompanyFeedIssued,
  CompanyMember,
  Invitation,
  InvitationAccept,
  InvitationAccepted,
  InvitationFields,
  InvitationPreview,
  LegalEntity,
  LegalEntityFields,
} from '@shared/api';
import { baseApi } from '@/api/baseApi';

/**
 * The buyer's company (GET /api/v1/company and its parts): the profile's «Компания» edits it, the
 * checkout picks its legal entities, the order list filters by them and by its employees. Every
 * change refetches the company; the requisites name the default legal entity, so a change of the
 * entities refetches them too.
 */
export const companyApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getCompany: build.query<Company, void>({
      query: () => 'api/v1/company',
      providesTags: ['Company'],
    }),
    // The name is also in GET /auth/user's `company`.
    renameCompany: build.mutation<Company, string>({
      query: (name) => ({ url: 'api/v1/company', method: 'PATCH', body: { name } }),
      invalidatesTags: ['Company', 'User'],
    }),
    inviteEmployee: build.mutation<Invitation, InvitationFields>({
      query: (invitation) => ({ url: 'api/v1/company/invitations', method: 'POST', body: invitation }),
      invalidatesTags: ['Company'],
    }),
    revokeInvitation: build.mutation<void, number>({
      query: (id) => ({ url: `api/v1/company/invitations/${id}`, method: 'DELETE' }),
      invalidatesTags: ['Company'],
    }),
    changeMemberRole: build.mutation<Company, Pick<CompanyMember, 'user_id' | 'role'>>({
      query: ({ user_id, role }) => ({ url: `api/v1/company/members/${user_id}`, method: 'PATCH', body: { role } }),
      invalidatesTags: ['Company'],
    }),
    removeMember: build.mutation<Company, number>({
      query: (userId) => ({ url: `api/v1/company/members/${userId}`, method: 'DELETE' }),
      invalidatesTags: ['Company'],
    }),
    createLegalEntity: build.mutation<LegalEntity, LegalEntityFields>({
      query: (fields) => ({ url: 'api/v1/company/legal-entities', method: 'POST', body: fields }),
      invalidatesTags: ['Company', 'Requisites'],
    }),
    updateLegalEntity: build.mutation<LegalEntity, LegalEntityFields & { id: string }>({
      query: ({ id, ...fields }) => ({ url: `api/v1/company/legal-entities/${id}`, method: 'PATCH', body: fields }),
      invalidatesTags: ['Company', 'Requisites'],
    }),
    deleteLegalEntity: build.mutation<void, string>({
      query: (id) => ({ url: `api/v1/company/legal-entities/${id}`, method: 'DELETE' }),
      invalidatesTags: ['Company', 'Requisites'],
    }),
    // The company's secret feed address (the owner's): whether there is one; the address itself only when made.
    getCompanyFeed: build.query<CompanyFeed, void>({
      query: () => 'api/v1/company/feed',
      providesTags: ['Company'],
    }),
    issueCompanyFeed: build.mutation<CompanyFeedIssued, void>({
      query: () => ({ url: 'api/v1/company/feed', method: 'POST' }),
      invalidatesTags: ['Company'],
    }),
    revokeCompanyFeed: build.mutation<void, void>({
      query: () => ({ url: 'api/v1/company/feed', method: 'DELETE' }),
      invalidatesTags: ['Company'],
    }),
    // Needs no session: the invitation's page shows it to whoever opened the letter's link.
    previewInvitation: build.query<InvitationPreview, string>({
      query: (token) => ({ url: 'api/v1/company/invitations/preview', method: 'POST', body: { token } }),
    }),
    // The account joins another company: everything cached for the old one is read again.
    acceptInvitation: build.mutation<InvitationAccepted, InvitationAccept>({
      query: (answer) => ({ url: 'api/v1/company/invitations/accept', method: 'POST', body: answer }),
      invalidatesTags: ['Company', 'User', 'Order', 'Requisites', 'Address', 'Cart'],
    }),
  }),
});

export const {
  useGetCompanyQuery,
  useRenameCompanyMutation,
  useInviteEmployeeMutation,
  useRevokeInvitationMutation,
  useChangeMemberRoleMutation,
  useRemoveMemberMutation,
  useCreateLegalEntityMutation,
  useUpdateLegalEntityMutation,
  useDeleteLegalEntityMutation,
  useGetCompanyFeedQuery,
  useIssueCompanyFeedMutation,
  useRevokeCompanyFeedMutation,
  usePreviewInvitationQuery,
  useAcceptInvitationMutation,
} = companyApi;
