import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { cartApi } from '@/features/cart/cartApi';
import { categorySelected } from '@/features/catalogue/selectedCategorySlice';
import { colourModeChanged } from '@/features/colourMode/colourModeSlice';
import { ordersApi } from '@/features/orders/ordersApi';
import { authApi } from '@/features/session/authApi';
import { logIn } from '@/features/session/sessionThunks';
import {
  cart,
  cartItem,
  json,
  loggedIn,
  makeToken,
  order,
  recorder,
  installVisitorNetwork,
  USER,
  visitor,
  withSessionCookie,
} from '@/test/fixtures';
import { setSystemPrefersDark } from '@/test/media';
import { renderComponent, renderShop } from '@/test/render';
import { API, server } from '@/test/server';
import { startAppListening } from './listeners';
import { loadPersistedState, maskTokens, setupStore } from './store';

const theme = () => document.documentElement.dataset.theme;

describe('persistence in localStorage (SPEC §1, §9)', () => {
  test("the header's colour switch stores light and dark, and 'system' removes the key", async () => {
    installVisitorNetwork();
    const user = userEvent.setup();
    const { store } = renderShop({ preloadedState: visitor() });
    const colours = await screen.findByRole('radiogroup', { name: 'Цветовая тема' });
    await user.click(within(colours).getByRole('radio', { name: 'Тёмная тема' }));
    expect(localStorage.getItem('colourMode')).toBe('dark');
    expect(store.getState().colourMode).toBe('dark');
    expect(within(colours).getByRole('radio', { name: 'Тёмная тема' })).toBeChecked();
    await user.click(within(colours).getByRole('radio', { name: 'Светлая тема' }));
    expect(localStorage.getItem('colourMode')).toBe('light');
    await user.click(within(colours).getByRole('radio', { name: 'Как в системе' }));
    expect(localStorage.getItem('colourMode')).toBeNull();
    expect(store.getState().colourMode).toBe('system');
    await screen.findByText('Товары не найдены');
  });

  test("choosing a category writes 'selectedCategory'", () => {
    const store = setupStore();
    store.dispatch(categorySelected('Зайцы'));
    expect(localStorage.getItem('selectedCategory')).toBe('Зайцы');
  });

  test('loadPersistedState reads both back', () => {
    localStorage.setItem('colourMode', 'dark');
    localStorage.setItem('selectedCategory', 'Зайцы');
    expect(loadPersistedState()).toMatchObject({ colourMode: 'dark', selectedCategory: 'Зайцы' });
    const store = setupStore(loadPersistedState());
    expect(store.getState().colourMode).toBe('dark');
    expect(store.getState().selectedCategory).toBe('Зайцы');
  });

  test("loadPersistedState defaults to 'system' and no category, and ignores an unknown colour mode", () => {
    expect(loadPersistedState()).toEqual({
      session: { user: null, accessToken: null, initialised: false },
      colourMode: 'system',
      selectedCategory: null,
    });
    localStorage.setItem('colourMode', 'sepia');
    expect(loadPersistedState().colourMode).toBe('system');
  });

  test('a choice survives a new store built from what was stored (a reload)', () => {
    const first = setupStore(loadPersistedState());
    first.dispatch(colourModeChanged('light'));
    first.dispatch(categorySelected('Мишки'));
    expect(setupStore(loadPersistedState()).getState()).toMatchObject({
      colourMode: 'light',
      selectedCategory: 'Мишки',
    });
  });
});

describe('the session in sessionStorage (SPEC §4, §9)', () => {
  const TOKEN = makeToken(3600, 'signed-in');
  const RENEWED = makeToken(3600, 'renewed');

  function authNetwork() {
    withSessionCookie();
    server.use(
      http.post(`${API}/auth/token`, () => json({ access_token: TOKEN, token_type: 'bearer' })),
      http.post(`${API}/auth/refresh`, () => json({ access_token: RENEWED, token_type: 'bearer' })),
      http.post(`${API}/auth/logout`, () => json({})),
      http.get(`${API}/auth/user`, () => json(USER)),
    );
  }

  test("the token is kept under 'access_token' as the session changes: sign-in, refresh, logout", async () => {
    authNetwork();
    const store = setupStore(loadPersistedState());
    await store.dispatch(logIn({ email: USER.email, password: 'secret-password' }));
    expect(store.getState().session).toEqual({ user: USER, accessToken: TOKEN, initialised: true });
    expect(sessionStorage.getItem('access_token')).toBe(TOKEN);
    await store.dispatch(authApi.endpoints.refresh.initiate());
    expect(sessionStorage.getItem('access_token')).toBe(RENEWED);
    await store.dispatch(authApi.endpoints.logout.initiate());
    expect(store.getState().session.accessToken).toBeNull();
    expect(sessionStorage.getItem('access_token')).toBeNull();
    expect(localStorage.getItem('access_token')).toBeNull();
  });

  test('a reload starts with the token this tab stored, and no user until the start-up asks for one', () => {
    sessionStorage.setItem('access_token', TOKEN);
    expect(setupStore(loadPersistedState()).getState().session).toEqual({
      user: null,
      accessToken: TOKEN,
      initialised: false,
    });
  });

  test('Redux DevTools is never given the token: every action and state are masked', async () => {
    authNetwork();
    const seen: unknown[] = [];
    const stopRecording = startAppListening({
      predicate: () => true,
      effect: (action, listenerApi) => void seen.push(action, listenerApi.getState()),
    });
    const store = setupStore(loadPersistedState());
    await store.dispatch(logIn({ email: USER.email, password: 'secret-password' }));
    await store.dispatch(authApi.endpoints.refresh.initiate());
    stopRecording();
    const shown = JSON.stringify(seen.map(maskTokens));
    expect(JSON.stringify(seen)).toContain(TOKEN);
    expect(shown).not.toContain(TOKEN);
    expect(shown).not.toContain(RENEWED);
    expect(shown).toContain('session/signedIn');
    expect(shown).toContain('session/accessTokenRefreshed');
  });
});

describe('ThemeProvider', () => {
  beforeEach(() => {
    delete document.documentElement.dataset.theme;
  });

  test("applies dark for mode 'dark' even when the system is light", () => {
    renderComponent(<p>Тема</p>, { preloadedState: { colourMode: 'dark' } });
    expect(theme()).toBe('dark');
    expect(document.documentElement.style.colorScheme).toBe('dark');
  });

  test("applies light for mode 'light' even when the system is dark", () => {
    setSystemPrefersDark(true);
    renderComponent(<p>Тема</p>, { preloadedState: { colourMode: 'light' } });
    expect(theme()).toBe('light');
  });

  test("follows the system in mode 'system', live", () => {
    setSystemPrefersDark(true);
    renderComponent(<p>Тема</p>, { preloadedState: { colourMode: 'system' } });
    expect(theme()).toBe('dark');
    act(() => setSystemPrefersDark(false));
    expect(theme()).toBe('light');
    act(() => setSystemPrefersDark(true));
    expect(theme()).toBe('dark');
  });

  test('switches when the mode changes in the store', () => {
    const { store } = renderComponent(<p>Тема</p>, { preloadedState: { colourMode: 'system' } });
    expect(theme()).toBe('light');
    act(() => {
      store.dispatch(colourModeChanged('dark'));
    });
    expect(theme()).toBe('dark');
  });
});

describe('cache invalidation', () => {
  function cartNetwork() {
    const cartCalls = recorder();
    server.use(
      http.get(`${API}/cart/${USER.id}`, ({ request }) => (cartCalls.record(request), json(cart([cartItem()])))),
      http.post(`${API}/cart/add`, () => json({ id: 2 }, 201)),
      http.post(`${API}/order/`, () => json(order(), 201)),
      http.get(`${API}/order/${USER.id}`, () => json([])),
    );
    return cartCalls;
  }

  test('adding to the cart refetches the cart', async () => {
    const cartCalls = cartNetwork();
    const store = setupStore(loggedIn());
    const subscription = store.dispatch(cartApi.endpoints.getCart.initiate(USER.id));
    await subscription;
    expect(cartCalls.calls).toHaveLength(1);
    await store.dispatch(
      cartApi.endpoints.addToCart.initiate({ user_id: USER.id, product_id: 1, variant_id: 101, count: 1 }),
    );
    await waitFor(() => expect(cartCalls.calls).toHaveLength(2));
    subscription.unsubscribe();
  });

  test('placing an order refetches the cart and the orders', async () => {
    const cartCalls = cartNetwork();
    const orderCalls = recorder();
    server.use(http.get(`${API}/order/${USER.id}`, ({ request }) => (orderCalls.record(request), json([]))));
    const store = setupStore(loggedIn());
    const cartSubscription = store.dispatch(cartApi.endpoints.getCart.initiate(USER.id));
    const ordersSubscription = store.dispatch(ordersApi.endpoints.getOrders.initiate({ userId: USER.id }));
    await Promise.all([cartSubscription, ordersSubscription]);
    await store.dispatch(
      ordersApi.endpoints.createOrder.initiate({
        order: {
          user_id: USER.id,
          address: 'Москва',
          items: [{ product_id: 1, variant_id: 101, quantity: 1 }],
          company_name: null,
          company_inn: null,
          company_kpp: null,
        },
        idempotencyKey: 'store-test',
      }),
    );
    await waitFor(() => expect(cartCalls.calls).toHaveLength(2));
    await waitFor(() => expect(orderCalls.calls).toHaveLength(2));
    cartSubscription.unsubscribe();
    ordersSubscription.unsubscribe();
  });
});
