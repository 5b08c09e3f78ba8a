import type { Dispatch } from '@reduxjs/toolkit';
import {
  fetchBaseQuery,
  type BaseQueryFn,
  type FetchArgs,
  type FetchBaseQueryError,
  type FetchBaseQueryMeta,
} from '@reduxjs/toolkit/query/react';
import type { TokenResponse } from '@shared/api';
import { API_HOST } from './config';
import { takeInitialResponse } from './initialResponses';
import {
  accessTokenRefreshed,
  hasSessionHint,
  isExpired,
  refreshFailed,
  selectAccessToken,
  sessionExpired,
  type AccessTokenState,
} from './accessToken';

// The store's state as far as the API layer reads it.
const currentToken = (getState: () => unknown) => selectAccessToken(getState() as { session: AccessTokenState });

const rawBaseQuery = fetchBaseQuery({
  baseUrl: API_HOST,
  credentials: 'include',
  prepareHeaders(headers, { getState }) {
    headers.set('Accept', 'application/json');
    const token = currentToken(getState);
    if (token) headers.set('Authorization', `Bearer ${token}`);
    return headers;
  },
});

let refreshInFlight: Promise<boolean> | null = null;

async function requestNewToken(): Promise<string | null> {
  try {
    const response = await fetch(`${API_HOST}api/v1/auth/refresh`, {
      method: 'POST',
      credentials: 'include',
      headers: { Accept: 'application/json' },
    });
    if (!response.ok) return null;
    const { access_token } = (await response.json()) as TokenResponse;
    return access_token;
  } catch {
    return null;
  }
}

/**
 * Asks the server for a new access token with the refresh cookie. Concurrent callers share one
 * request (the server rotates the cookie, so a second parallel refresh would look like reuse).
 * The session takes the new token, or drops the old one when the refresh fails; the answer says
 * whether a new token came (the token itself stays in the session's state, masked in DevTools).
 */
export function refreshAccessToken(dispatch: Dispatch): Promise<boolean> {
  refreshInFlight ??= requestNewToken().then((token) => {
    refreshInFlight = null;
    dispatch(token ? accessTokenRefreshed({ accessToken: token }) : refreshFailed());
    return token !== null;
  });
  return refreshInFlight;
}

/** A refresh only when the server's session cookie exists: a visitor's would fail (and log a 401). */
export const refreshIfSession = (dispatch: Dispatch): Promise<boolean> =>
  hasSessionHint() ? refreshAccessToken(dispatch) : Promise.resolve(false);

/**
 * The calls that go by the refresh cookie or by nothing (signing in and up, refresh, logout, the
 * password reset): no token is refreshed for them, and their 401 is an answer, not an expired
 * session. The account's own calls under /auth (the user, the password, the export, the
 * deletion) carry the bearer token like any other and are refreshed and retried like them.
 */
const COOKIE_OR_ANONYMOUS_CALL = /^api\/v1\/auth\/(token|register|refresh|logout|password-reset(\/confirm)?)$/;
const isAuthCall = (args: string | FetchArgs) =>
  COOKIE_OR_ANONYMOUS_CALL.test((typeof args === 'string' ? args : args.url).split('?')[0]!);

/**
 * SPEC §4 and §7: a missing or expired token is refreshed before the request; a 401 triggers one
 * refresh and one retry; when nothing works the request goes without a token and the session ends.
 */
// With fetchBaseQuery's meta (the request and the response), which an endpoint reads its answer's headers from.
export const baseQueryWithReauth: BaseQueryFn<
  string | FetchArgs,
  unknown,
  FetchBaseQueryError,
  object,
  FetchBaseQueryMeta
> = async (args, api, extraOptions) => {
  // Public catalogue reads the page came with need neither a token nor the network; they are a
  // visitor's, so a session (a token, or the cookie that renews one) reads its own from the API.
  const initial = takeInitialResponse(args, currentToken(api.getState) !== null || hasSessionHint());
  if (initial) return initial;
  if (!isAuthCall(args)) {
    const token = currentToken(api.getState);
    if (!token || isExpired(token)) {
      const renewed = await refreshIfSession(api.dispatch);
      if (!renewed && token) api.dispatch(sessionExpired());
    }
  }
  let result = await rawBaseQuery(args, api, extraOptions);
  if (result.error?.status === 401 && !isAuthCall(args)) {
    const renewed = await refreshIfSession(api.dispatch);
    if (renewed) result = await rawBaseQuery(args, api, extraOptions);
    else api.dispatch(sessionExpired());
  }
  return result;
};

/** For tests: no refresh carries over from the previous test. */
export function resetSessionMemory(): void {
  refreshInFlight = null;
}
