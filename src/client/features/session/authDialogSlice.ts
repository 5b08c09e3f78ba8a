import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

export type AuthTab = 'login' | 'register';

export const authDialogSlice = createSlice({
  name: 'authDialog',
  initialState: { open: false, tab: 'login' as AuthTab },
  reducers: {
    authDialogOpened: (_state, action: PayloadAction<AuthTab | undefined>) => ({
      open: true,
      tab: action.payload ?? 'login',
    }),
    authDialogClosed: (state) => ({ ...state, open: false }),
    authTabChanged: (state, action: PayloadAction<AuthTab>) => ({ ...state, tab: action.payload }),
  },
  selectors: {
    selectAuthDialog: (state) => state,
  },
});

export const { authDialogOpened, authDialogClosed, authTabChanged } = authDialogSlice.actions;
export const { selectAuthDialog } = authDialogSlice.selectors;
