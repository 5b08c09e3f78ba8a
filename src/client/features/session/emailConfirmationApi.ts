import type { Static } from 'typebox';
import type { EmailConfirmBody, PasswordResetRequestedSchema } from '@shared/schemas/auth';
import { baseApi } from '@/api/baseApi';

/**
 * The confirmation of the buyer's address: the letter again, and the link's landing.
 * Injected by the notice and the confirmation page only.
 */
export const emailConfirmationApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    resendConfirmation: build.mutation<Static<typeof PasswordResetRequestedSchema>, void>({
      query: () => ({ url: 'api/v1/auth/email-confirmation', method: 'POST' }),
    }),
    confirmEmail: build.mutation<void, Static<typeof EmailConfirmBody>>({
      query: (body) => ({ url: 'api/v1/auth/email-confirmation/confirm', method: 'POST', body }),
      // The account's standing changed: the notice goes, the order goes through.
      invalidatesTags: ['User'],
    }),
  }),
});

export const { useResendConfirmationMutation, useConfirmEmailMutation } = emailConfirmationApi;
