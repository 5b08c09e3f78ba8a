import { createAction } from '@reduxjs/toolkit';
import { jwtDecode } from 'jwt-decode';
import { SESSION_HINT_COOKIE } from '@shared/api';

/**
 * The access token is part of the session's state (features/session/sessionSlice.ts), which a
 * listener keeps in sessionStorage. The API layer sits below the features, so the changes it makes
 * to the token and its one read of it are declared here, as the slice's own actions are there. Each
 * payload names the token `accessToken`, a key the store's DevTools sanitizers mask.
 */
export interface AccessTokenState {
  accessToken: string | null;
}

export const selectAccessToken = (state: { session: AccessTokenState }): string | null => state.session.accessToken;

/** The refresh cookie brought a new access token. */
export const accessTokenRefreshed = createAction<{ accessToken: string }>('session/accessTokenRefreshed');

/** The refresh cookie brought none: the token this tab held, if any, is of no use any more. */
export const refreshFailed = createAction('session/refreshFailed');

/** Dispatched when the session cannot be renewed any more; the session slice logs the user out. */
export const sessionExpired = createAction('api/sessionExpired');

// Refresh a little before the exp claim so a request is never sent with a token that dies in flight.
const EXPIRY_MARGIN_SECONDS = 10;

/** True for a token whose exp claim (seconds) has passed, or that cannot be read at all. */
export function isExpired(token: string, nowMs = Date.now()): boolean {
  try {
    const { exp } = jwtDecode<{ exp?: number }>(token);
    return typeof exp !== 'number' || exp - EXPIRY_MARGIN_SECONDS <= nowMs / 1000;
  } catch {
    return true;
  }
}

/** True while the server's session cookie exists (its readable twin, see SESSION_HINT_COOKIE). */
export function hasSessionHint(): boolean {
  return document.cookie.split(';').some((cookie) => cookie.trim() === `${SESSION_HINT_COOKIE}=1`);
}
