import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { loadPersistedState, setupStore } from '@/app/store';
import {
  cart,
  cartHandler,
  cartItem,
  homeHandlers,
  json,
  loggedIn,
  makeToken,
  recorder,
  USER,
  withoutSessionCookie,
  withSessionCookie,
} from '@/test/fixtures';
import { renderShop } from '@/test/render';
import { API, server } from '@/test/server';
import { initialiseSession } from './sessionThunks';

const NEW_TOKEN = makeToken(3600, 'renewed');

/** The start-up calls, recorded: refresh answers NEW_TOKEN or 401, /auth/user answers USER for any bearer token. */
function startUpNetwork({ refreshOk, userOk = true }: { refreshOk: boolean; userOk?: boolean }) {
  withSessionCookie();
  const refreshCalls = recorder();
  const userCalls = recorder();
  server.use(
    http.post(`${API}/auth/refresh`, ({ request }) => {
      refreshCalls.record(request);
      return refreshOk ? json({ access_token: NEW_TOKEN, token_type: 'bearer' }) : json({ detail: 'Нет сессии' }, 401);
    }),
    http.get(`${API}/auth/user`, ({ request }) => {
      userCalls.record(request);
      return userOk && request.headers.get('Authorization')?.startsWith('Bearer ')
        ? json(USER)
        : json({ detail: 'Не авторизован' }, 401);
    }),
  );
  return { refreshCalls, userCalls };
}

describe('initialiseSession (SPEC §4 start-up)', () => {
  test('starts with no user and not initialised', () => {
    expect(setupStore().getState().session).toEqual({ user: null, accessToken: null, initialised: false });
  });

  test('no token: a refresh is tried and, when it works, the user is fetched with the new token', async () => {
    const { refreshCalls, userCalls } = startUpNetwork({ refreshOk: true });
    const store = setupStore();
    await store.dispatch(initialiseSession());
    expect(refreshCalls.calls).toHaveLength(1);
    expect(userCalls.calls).toHaveLength(1);
    expect(userCalls.last!.headers.get('Authorization')).toBe(`Bearer ${NEW_TOKEN}`);
    expect(store.getState().session).toEqual({ user: USER, accessToken: NEW_TOKEN, initialised: true });
    expect(sessionStorage.getItem('access_token')).toBe(NEW_TOKEN);
  });

  test('no token and no session cookie (a visitor): logged out at once, no refresh is sent', async () => {
    const { refreshCalls, userCalls } = startUpNetwork({ refreshOk: true });
    withoutSessionCookie();
    const store = setupStore();
    await store.dispatch(initialiseSession());
    expect(refreshCalls.calls).toHaveLength(0);
    expect(userCalls.calls).toHaveLength(0);
    expect(store.getState().session).toEqual({ user: null, accessToken: null, initialised: true });
  });

  test('no token and the refresh fails: logged out (initialised, no user), the user is not asked for', async () => {
    const { refreshCalls, userCalls } = startUpNetwork({ refreshOk: false });
    const store = setupStore();
    await store.dispatch(initialiseSession());
    expect(refreshCalls.calls).toHaveLength(1);
    expect(userCalls.calls).toHaveLength(0);
    expect(store.getState().session).toEqual({ user: null, accessToken: null, initialised: true });
    expect(sessionStorage.getItem('access_token')).toBeNull();
  });

  test('a valid token: the user is fetched with it and no refresh is made', async () => {
    const token = makeToken(3600);
    sessionStorage.setItem('access_token', token);
    const { refreshCalls, userCalls } = startUpNetwork({ refreshOk: true });
    const store = setupStore(loadPersistedState());
    await store.dispatch(initialiseSession());
    expect(refreshCalls.calls).toHaveLength(0);
    expect(userCalls.last!.headers.get('Authorization')).toBe(`Bearer ${token}`);
    expect(store.getState().session).toEqual({ user: USER, accessToken: token, initialised: true });
  });

  test('a valid token but fetching the user fails: logged out and the token is dropped', async () => {
    sessionStorage.setItem('access_token', makeToken(3600));
    const { userCalls } = startUpNetwork({ refreshOk: false, userOk: false });
    const store = setupStore(loadPersistedState());
    await store.dispatch(initialiseSession());
    expect(userCalls.calls).toHaveLength(1);
    expect(store.getState().session).toEqual({ user: null, accessToken: null, initialised: true });
    expect(sessionStorage.getItem('access_token')).toBeNull();
  });

  // SPEC §4 says an expired token means logout; the storefront tries the refresh cookie first (it
  // outlives the access token, see the comment on initialiseSession and docs/decisions.md).
  test('an expired token: a refresh is tried and, when it works, the user is fetched with the new token', async () => {
    sessionStorage.setItem('access_token', makeToken(-60));
    const { refreshCalls, userCalls } = startUpNetwork({ refreshOk: true });
    const store = setupStore(loadPersistedState());
    await store.dispatch(initialiseSession());
    expect(refreshCalls.calls).toHaveLength(1);
    expect(userCalls.last!.headers.get('Authorization')).toBe(`Bearer ${NEW_TOKEN}`);
    expect(store.getState().session).toEqual({ user: USER, accessToken: NEW_TOKEN, initialised: true });
  });

  test('an expired token and the refresh fails: logged out and the expired token is removed', async () => {
    sessionStorage.setItem('access_token', makeToken(-60));
    const { refreshCalls, userCalls } = startUpNetwork({ refreshOk: false });
    const store = setupStore(loadPersistedState());
    await store.dispatch(initialiseSession());
    expect(refreshCalls.calls).toHaveLength(1);
    expect(userCalls.calls).toHaveLength(0);
    expect(store.getState().session).toEqual({ user: null, accessToken: null, initialised: true });
    expect(sessionStorage.getItem('access_token')).toBeNull();
  });

  test('the header shows a loading user button during start-up and the user once it is restored', async () => {
    sessionStorage.setItem('access_token', makeToken(3600));
    startUpNetwork({ refreshOk: false });
    server.use(cartHandler(cart([])), ...homeHandlers());
    const { store } = renderShop({ route: '/', preloadedState: loadPersistedState() });
    const nav = screen.getByRole('navigation', { name: 'Основное меню' });
    expect(within(nav).getByRole('button', { name: /Войти/ })).toBeDisabled();
    expect(within(nav).getByRole('button', { name: /Войти/ })).toHaveAttribute('aria-busy', 'true');
    await act(() => store.dispatch(initialiseSession()));
    expect(await within(nav).findByRole('button', { name: /ivan\.petrov/ })).toBeInTheDocument();
  });
});

describe('logout from the header', () => {
  test('ends the session, forgets the cached cart and goes home; later requests make no refresh attempt', async () => {
    const logoutCalls = recorder();
    const refreshCalls = recorder();
    const cartCalls = recorder();
    server.use(
      http.post(`${API}/auth/logout`, ({ request }) => (logoutCalls.record(request), json({}))),
      http.post(
        `${API}/auth/refresh`,
        ({ request }) => (refreshCalls.record(request), json({ detail: 'Нет сессии' }, 401)),
      ),
      http.get(
        `${API}/cart/${USER.id}`,
        ({ request }) => (cartCalls.record(request), json(cart([cartItem({ count: 3 })]))),
      ),
      ...homeHandlers(),
      http.get(`${API}/order/${USER.id}`, () => json([])),
    );
    const user = userEvent.setup();
    const { store, router } = renderShop({ route: '/profile', preloadedState: loggedIn() });
    expect(await screen.findByRole('button', { name: 'Корзина, товаров: 3' })).toBeInTheDocument();

    const nav = screen.getByRole('navigation', { name: 'Основное меню' });
    await user.click(within(nav).getByRole('button', { name: 'Выйти' }));

    expect(await within(nav).findByRole('button', { name: /Войти/ })).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(logoutCalls.calls).toHaveLength(1);
    expect(store.getState().session).toEqual({ user: null, accessToken: null, initialised: true });
    expect(sessionStorage.getItem('access_token')).toBeNull();
    expect(screen.getByRole('button', { name: 'Корзина, товаров: 0' })).toBeInTheDocument();
    // The API cache was reset: nothing of the user's cart or orders is left in it.
    const cached = Object.keys(store.getState().api.queries);
    expect(cached.filter((key) => key.startsWith('getCart') || key.startsWith('getOrders'))).toEqual([]);
    await screen.findByText('Товары не найдены');
    expect(refreshCalls.calls).toHaveLength(0);
    expect(cartCalls.calls).toHaveLength(1);
  });

  test('logs out locally even when the server call fails', async () => {
    server.use(
      http.post(`${API}/auth/logout`, () => json({ detail: 'Ошибка' }, 500)),
      http.post(`${API}/auth/refresh`, () => json({ detail: 'Нет сессии' }, 401)),
      cartHandler(cart([])),
      ...homeHandlers(),
    );
    const user = userEvent.setup();
    const { store } = renderShop({ route: '/', preloadedState: loggedIn() });
    const nav = screen.getByRole('navigation', { name: 'Основное меню' });
    await user.click(await within(nav).findByRole('button', { name: 'Выйти' }));
    await waitFor(() => expect(store.getState().session).toEqual({ user: null, accessToken: null, initialised: true }));
    expect(sessionStorage.getItem('access_token')).toBeNull();
  });
});
