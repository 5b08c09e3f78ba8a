import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { STORAGE_KEYS, type User } from '@shared/api';
import { accessTokenRefreshed, refreshFailed, sessionExpired, type AccessTokenState } from '@/api/accessToken';
import { baseApi } from '@/api/baseApi';
import type { AppStartListening } from '@/app/listeners';

/**
 * Who is logged in and the access token their calls carry (SPEC §4, §9). Only the token is kept in
 * sessionStorage (one per tab, gone when the tab closes): the user is asked of the server at every
 * start, as the account may have changed meanwhile.
 */
export interface SessionState extends AccessTokenState {
  user: User | null;
  /** False until the start-up sequence of SPEC §4 has decided whether someone is logged in. */
  initialised: boolean;
}

const initialState: SessionState = { user: null, accessToken: null, initialised: false };

const loggedOutState = (): SessionState => ({ user: null, accessToken: null, initialised: true });

/** The session as this tab left it: its access token, if any, for the start-up to check. */
export function loadSession(): SessionState {
  try {
    return { ...initialState, accessToken: sessionStorage.getItem(STORAGE_KEYS.accessToken) };
  } catch {
    return initialState;
  }
}

export const sessionSlice = createSlice({
  name: 'session',
  initialState,
  reducers: {
    /** The server took the credentials and issued this token; the user is fetched with it next. */
    signedIn: (state, action: PayloadAction<{ accessToken: string }>) => {
      state.accessToken = action.payload.accessToken;
    },
    userUpdated: (state, action: PayloadAction<User>) => {
      state.user = action.payload;
      state.initialised = true;
    },
    loggedOut: loggedOutState,
  },
  extraReducers: (builder) =>
    builder
      .addCase(accessTokenRefreshed, (state, action) => {
        state.accessToken = action.payload.accessToken;
      })
      .addCase(refreshFailed, (state) => {
        state.accessToken = null;
      })
      .addCase(sessionExpired, loggedOutState),
  selectors: {
    selectUser: (state) => state.user,
    selectSessionInitialised: (state) => state.initialised,
  },
});

export const { signedIn, userUpdated, loggedOut } = sessionSlice.actions;
export const { selectUser, selectSessionInitialised } = sessionSlice.selectors;

/**
 * Every change of the token, whichever action made it, is written to this tab's sessionStorage.
 * Another caller (a sign-in, a sign-out, a session that ended) is shown another catalogue: prices
 * by their company's type, or none before signing in; what was read for the one before is read again.
 */
export function addSessionListeners(startAppListening: AppStartListening): void {
  startAppListening({
    predicate: (_action, current, previous) =>
      previous.session.initialised && current.session.user?.id !== previous.session.user?.id,
    effect: (_action, listenerApi) => {
      listenerApi.dispatch(baseApi.util.invalidateTags(['Product']));
    },
  });
  startAppListening({
    predicate: (_action, current, previous) => current.session.accessToken !== previous.session.accessToken,
    effect: (_action, listenerApi) => {
      const { accessToken } = listenerApi.getState().session;
      if (accessToken) sessionStorage.setItem(STORAGE_KEYS.accessToken, accessToken);
      else sessionStorage.removeItem(STORAGE_KEYS.accessToken);
    },
  });
}
