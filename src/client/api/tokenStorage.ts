import { jwtDecode } from 'jwt-decode';
import { SESSION_HINT_COOKIE, STORAGE_KEYS } from '@shared/api';

/** The access token lives in sessionStorage (SPEC §9): one per tab, gone when the tab closes. */
export const tokenStorage = {
  get: (): string | null => sessionStorage.getItem(STORAGE_KEYS.accessToken),
  set: (token: string): void => sessionStorage.setItem(STORAGE_KEYS.accessToken, token),
  remove: (): void => sessionStorage.removeItem(STORAGE_KEYS.accessToken),
};

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
