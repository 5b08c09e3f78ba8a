import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { User } from '@shared/api';
import { sessionExpired } from '@/api/baseQuery';

export interface SessionState {
  user: User | null;
  /** False until the start-up sequence of SPEC §4 has decided whether someone is logged in. */
  initialised: boolean;
}

const initialState: SessionState = { user: null, initialised: false };

const loggedOutState = (): SessionState => ({ user: null, initialised: true });

export const sessionSlice = createSlice({
  name: 'session',
  initialState,
  reducers: {
    userUpdated: (_state, action: PayloadAction<User>) => ({ user: action.payload, initialised: true }),
    loggedOut: loggedOutState,
  },
  extraReducers: (builder) => builder.addCase(sessionExpired, loggedOutState),
  selectors: {
    selectUser: (state) => state.user,
    selectSessionInitialised: (state) => state.initialised,
  },
});

export const { userUpdated, loggedOut } = sessionSlice.actions;
export const { selectUser, selectSessionInitialised } = sessionSlice.selectors;
