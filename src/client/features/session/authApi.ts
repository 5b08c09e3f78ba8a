import type { CurrentUser, TokenResponse, User } from '@shared/api';
import { baseApi } from '@/api/baseApi';
import { refreshIfSession } from '@/api/baseQuery';
import { loggedOut } from './sessionSlice';

export interface Credentials {
  email: string;
  password: string;
}

/** Sign-up also carries the consent to the processing of personal data (152-ФЗ), required by the server. */
export interface Registration extends Credentials {
  consent: boolean;
}

export const authApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    login: build.mutation<TokenResponse, Credentials>({
      query: ({ email, password }) => ({
        url: 'api/v1/auth/token',
        method: 'POST',
        body: new URLSearchParams({ username: email, password }),
      }),
    }),
    // The server also reads email, password and consent from the query string, as SPEC §7 describes
    // the old call; the storefront sends them in the body so that a password never sits in a URL.
    register: build.mutation<User, Registration>({
      query: (credentials) => ({ url: 'api/v1/auth/register', method: 'POST', body: credentials }),
    }),
    currentUser: build.query<CurrentUser, void>({
      query: () => 'api/v1/auth/user',
      providesTags: ['User'],
    }),
    // Whether a new token came; the token itself goes to the session's state, never to the API cache.
    refresh: build.mutation<boolean, void>({
      queryFn: async (_arg, { dispatch }) => ({ data: await refreshIfSession(dispatch) }),
    }),
    logout: build.mutation<void, void>({
      query: () => ({ url: 'api/v1/auth/logout', method: 'POST' }),
      // Whatever the server says, this tab forgets the session and everything cached for it.
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        await queryFulfilled.catch(() => undefined);
        dispatch(loggedOut());
        dispatch(baseApi.util.resetApiState());
      },
    }),
  }),
});

export const { useLoginMutation, useRegisterMutation, useLogoutMutation } = authApi;
