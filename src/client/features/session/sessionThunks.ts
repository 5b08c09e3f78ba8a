import { baseApi } from '@/api/baseApi';
import { isExpired, selectAccessToken } from '@/api/accessToken';
import type { AppDispatch } from '@/app/store';
import { createAppAsyncThunk } from '@/hooks/reduxHooks';
import { authApi, type Credentials, type Registration } from './authApi';
import { loggedOut, signedIn, userUpdated } from './sessionSlice';

const fetchCurrentUser = (dispatch: AppDispatch) =>
  dispatch(authApi.endpoints.currentUser.initiate(undefined, { subscribe: false, forceRefetch: true })).unwrap();

/**
 * SPEC §4 start-up: with no usable token a refresh is tried when the session cookie exists (an
 * expired token too: the refresh cookie outlives it, see docs/decisions.md); with a token the
 * user is fetched; any failure leaves the visitor logged out.
 */
export const initialiseSession = createAppAsyncThunk('session/initialise', async (_arg, { dispatch, getState }) => {
  const stored = selectAccessToken(getState());
  const usable =
    (stored !== null && !isExpired(stored)) || (await dispatch(authApi.endpoints.refresh.initiate()).unwrap());
  if (!usable) {
    dispatch(loggedOut());
    return;
  }
  try {
    dispatch(userUpdated(await fetchCurrentUser(dispatch)));
  } catch {
    dispatch(loggedOut());
  }
});

/** Login (and the automatic login after registration): take the token, fetch the user, make them current. */
export const logIn = createAppAsyncThunk('session/logIn', async (credentials: Credentials, { dispatch }) => {
  const { access_token } = await dispatch(authApi.endpoints.login.initiate(credentials)).unwrap();
  dispatch(signedIn({ accessToken: access_token }));
  const user = await fetchCurrentUser(dispatch);
  dispatch(userUpdated(user));
  // Anything cached while logged out (an empty cart, say) belongs to nobody now.
  dispatch(baseApi.util.invalidateTags(['Cart', 'Order', 'Address']));
  return user;
});

export const register = createAppAsyncThunk(
  'session/register',
  async (registration: Registration, { dispatch, rejectWithValue }) => {
    try {
      await dispatch(authApi.endpoints.register.initiate(registration)).unwrap();
    } catch (error) {
      // Passed on as it is: a thrown error would be serialised down to name and message, losing the
      // server's detail that the dialog shows (SPEC §8).
      return rejectWithValue(error);
    }
    return dispatch(logIn({ email: registration.email, password: registration.password })).unwrap();
  },
);
