import type { Static } from 'typebox';
import { ACCOUNT_EXPORT_FILE_NAME } from '@shared/account';
import type {
  AccountDeleteBody,
  PasswordChangeBody,
  PasswordResetConfirmBody,
  PasswordResetRequestBody,
  PasswordResetRequestedSchema,
} from '@shared/schemas/auth';
import { baseApi } from '@/api/baseApi';
import { refreshAccessToken } from '@/api/baseQuery';
import { downloadFile } from '@/api/download';

/**
 * The buyer's own account: the password's reset and change, the export of the data and
 * the deletion. Injected by the dialog's «Забыли пароль?», the reset page and the profile, so the
 * shell does not carry it.
 */
export const accountApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    requestPasswordReset: build.mutation<
      Static<typeof PasswordResetRequestedSchema>,
      Static<typeof PasswordResetRequestBody>
    >({
      query: (body) => ({ url: 'api/v1/auth/password-reset', method: 'POST', body }),
    }),
    confirmPasswordReset: build.mutation<void, Static<typeof PasswordResetConfirmBody>>({
      query: (body) => ({ url: 'api/v1/auth/password-reset/confirm', method: 'POST', body }),
    }),
    changePassword: build.mutation<void, Static<typeof PasswordChangeBody>>({
      query: (body) => ({ url: 'api/v1/auth/password', method: 'POST', body }),
      // The change refuses every access token issued before it, this tab's too: take the new one
      // now (the refresh cookie of this session stays valid) rather than on the next call's 401.
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        if (
          await queryFulfilled.then(
            () => true,
            () => false,
          )
        )
          await refreshAccessToken(dispatch);
      },
    }),
    // A mutation, not a query: each click fetches and saves the file, and nothing is cached.
    exportAccount: build.mutation<string, void>({
      queryFn: downloadFile(
        () => 'api/v1/auth/user/export',
        () => ACCOUNT_EXPORT_FILE_NAME,
      ),
    }),
    deleteAccount: build.mutation<void, Static<typeof AccountDeleteBody>>({
      query: (body) => ({ url: 'api/v1/auth/user', method: 'DELETE', body }),
    }),
  }),
});

export const {
  useRequestPasswordResetMutation,
  useConfirmPasswordResetMutation,
  useChangePasswordMutation,
  useExportAccountMutation,
  useDeleteAccountMutation,
} = accountApi;
