import { createAction } from '@reduxjs/toolkit';
import {
  fetchBaseQuery,
  type BaseQueryFn,
  type FetchArgs,
  type FetchBaseQueryError,
} from '@reduxjs/toolkit/query/react';
import type { TokenResponse } from '@shared/api';
import { API_HOST } from './config';
import { takeInitialResponse } from './initialResponses';
import { hasSessionHint, isExpired, tokenStorage } from './tokenStorage';

/** Dispatched when the session cannot be renewed any more; the session slice logs the user out. */
export const sessionExpired = createAction('api/sessionExpired');

const rawBaseQuery = fetchBaseQuery({
  baseUrl: API_HOST,
  credentials: 'include',
  prepareHeaders(headers) {
    headers.set('Accept', 'application/json');
    const token = tokenStorage.get();
    if (token) headers.set('Authorization', `Bearer ${token}`);
    return headers;
  },
});

let refreshInFlight: Promise<string | null> | null = null;

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
 * Stores the new token, or removes the old one when the refresh fails.
 */
export function refreshAccessToken(): Promise<string | null> {
  refreshInFlight ??= requestNewToken().then((token) => {
    refreshInFlight = null;
    if (token) tokenStorage.set(token);
    else tokenStorage.remove();
    return token;
  });
  return refreshInFlight;
}

/** A refresh only when the server's session cookie exists: a visitor's would fail (and log a 401). */
export const refreshIfSession = (): Promise<string | null> =>
  hasSessionHint() ? refreshAccessToken() : Promise.resolve(null);

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
export const baseQueryWithReauth: BaseQueryFn<string | FetchArgs, unknown, FetchBaseQueryError> = async (
  args,
  api,
  extraOptions,
) => {
  // Public catalogue reads the page came with need neither a token nor the network.
  const initial = takeInitialResponse(args);
  if (initial) return initial;
  if (!isAuthCall(args)) {
    const token = tokenStorage.get();
    if (!token || isExpired(token)) {
      const renewed = await refreshIfSession();
      if (!renewed && token) {
        tokenStorage.remove();
        api.dispatch(sessionExpired());
      }
    }
  }
  let result = await rawBaseQuery(args, api, extraOptions);
  if (result.error?.status === 401 && !isAuthCall(args)) {
    const renewed = await refreshIfSession();
    if (renewed) result = await rawBaseQuery(args, api, extraOptions);
    else {
      tokenStorage.remove();
      api.dispatch(sessionExpired());
    }
  }
  return result;
};

/** For tests: no refresh carries over from the previous test. */
export function resetSessionMemory(): void {
  refreshInFlight = null;
}
