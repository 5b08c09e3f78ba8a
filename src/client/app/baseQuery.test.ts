import { http, HttpResponse } from 'msw';
import { setupStore } from '@/app/store';
import { bannersApi } from '@/features/banners/bannersApi';
import { cartApi } from '@/features/cart/cartApi';
import { catalogueApi } from '@/features/catalogue/catalogueApi';
import { accountApi } from '@/features/session/accountApi';
import { authApi } from '@/features/session/authApi';
import {
  cart,
  json,
  loggedIn,
  makeToken,
  recorder,
  USER,
  wait,
  withoutSessionCookie,
  withSessionCookie,
} from '@/test/fixtures';
import { API, server } from '@/test/server';

const NEW_TOKEN = makeToken(3600, 'renewed');

/** A browser holding the session cookie, and a server whose refresh answers `ok` or 401. */
function refreshNetwork(ok: boolean, delayMs = 0) {
  withSessionCookie();
  const refreshCalls = recorder();
  server.use(
    http.post(`${API}/auth/refresh`, async ({ request }) => {
      refreshCalls.record(request);
      if (delayMs) await wait(delayMs);
      return ok ? json({ access_token: NEW_TOKEN, token_type: 'bearer' }) : json({ detail: 'Нет сессии' }, 401);
    }),
  );
  return refreshCalls;
}

/** The catalogue calls, each recorded, answering with empty lists. */
function catalogueNetwork() {
  const calls = recorder();
  server.use(
    http.get(`${API}/products/`, ({ request }) => (calls.record(request), json([]))),
    http.get(`${API}/products/categories/all`, ({ request }) => (calls.record(request), json([]))),
    http.get(`${API}/banners/all`, ({ request }) => (calls.record(request), json([]))),
  );
  return calls;
}

const authorisations = (calls: Request[]) => calls.map((request) => request.headers.get('Authorization'));

describe('baseQuery: refresh before the request (SPEC §4)', () => {
  test('many parallel requests with an expired token share exactly one refresh and all use the new token', async () => {
    const refreshCalls = refreshNetwork(true, 50);
    const calls = catalogueNetwork();
    const store = setupStore(loggedIn(USER, makeToken(-60)));
    await Promise.all([
      store.dispatch(catalogueApi.endpoints.getProducts.initiate({ skip: 0, limit: 10 })),
      store.dispatch(catalogueApi.endpoints.getProducts.initiate({ skip: 10, limit: 10 })),
      store.dispatch(catalogueApi.endpoints.getCategories.initiate()),
      store.dispatch(bannersApi.endpoints.getBanners.initiate()),
    ]);
    expect(refreshCalls.calls).toHaveLength(1);
    expect(calls.calls).toHaveLength(4);
    expect(authorisations(calls.calls)).toEqual(Array(4).fill(`Bearer ${NEW_TOKEN}`));
    expect(sessionStorage.getItem('access_token')).toBe(NEW_TOKEN);
    expect(store.getState().session.user).toEqual(USER);
  });

  test('a failed refresh removes the token, the request goes without Authorization and the user is logged out', async () => {
    const refreshCalls = refreshNetwork(false);
    const calls = catalogueNetwork();
    const store = setupStore(loggedIn(USER, makeToken(-60)));
    const result = await store.dispatch(catalogueApi.endpoints.getCategories.initiate());
    expect(result.isSuccess).toBe(true);
    expect(refreshCalls.calls).toHaveLength(1);
    expect(authorisations(calls.calls)).toEqual([null]);
    expect(calls.last!.headers.get('Accept')).toBe('application/json');
    expect(sessionStorage.getItem('access_token')).toBeNull();
    expect(store.getState().session).toEqual({ user: null, accessToken: null, initialised: true });
  });

  test('a valid token is sent as it is, with no refresh', async () => {
    const token = makeToken(3600);
    const refreshCalls = refreshNetwork(true);
    const calls = catalogueNetwork();
    const store = setupStore(loggedIn(USER, token));
    await store.dispatch(catalogueApi.endpoints.getCategories.initiate());
    expect(refreshCalls.calls).toHaveLength(0);
    expect(authorisations(calls.calls)).toEqual([`Bearer ${token}`]);
  });

  test('a visitor (no session cookie) sends no refresh at all: it could only fail', async () => {
    const refreshCalls = refreshNetwork(false, 30);
    withoutSessionCookie();
    const calls = catalogueNetwork();
    const store = setupStore();
    await Promise.all([
      store.dispatch(catalogueApi.endpoints.getCategories.initiate()),
      store.dispatch(bannersApi.endpoints.getBanners.initiate()),
    ]);
    await store.dispatch(catalogueApi.endpoints.getProducts.initiate({ skip: 0, limit: 10 }));
    expect(refreshCalls.calls).toHaveLength(0);
    expect(authorisations(calls.calls)).toEqual([null, null, null]);
  });
});

describe('baseQuery: a 401 answer', () => {
  const OLD_TOKEN = makeToken(3600, 'old');

  function cartNetwork(acceptedToken: string | null) {
    const cartCalls = recorder();
    server.use(
      http.get(`${API}/cart/${USER.id}`, ({ request }) => {
        cartCalls.record(request);
        return acceptedToken && request.headers.get('Authorization') === `Bearer ${acceptedToken}`
          ? json(cart([]))
          : json({ detail: 'Не авторизован' }, 401);
      }),
    );
    return cartCalls;
  }

  test('triggers one refresh and one retry with the new token', async () => {
    const refreshCalls = refreshNetwork(true);
    const cartCalls = cartNetwork(NEW_TOKEN);
    const store = setupStore(loggedIn(USER, OLD_TOKEN));
    const result = await store.dispatch(cartApi.endpoints.getCart.initiate(USER.id));
    expect(result.data).toEqual(cart([]));
    expect(refreshCalls.calls).toHaveLength(1);
    expect(authorisations(cartCalls.calls)).toEqual([`Bearer ${OLD_TOKEN}`, `Bearer ${NEW_TOKEN}`]);
    expect(sessionStorage.getItem('access_token')).toBe(NEW_TOKEN);
    expect(store.getState().session.user).toEqual(USER);
  });

  test('parallel 401s share one refresh', async () => {
    const refreshCalls = refreshNetwork(true, 30);
    const cartCalls = cartNetwork(NEW_TOKEN);
    const productCalls = recorder();
    server.use(
      http.get(`${API}/products/categories/all`, ({ request }) => {
        productCalls.record(request);
        return request.headers.get('Authorization') === `Bearer ${NEW_TOKEN}`
          ? json([])
          : json({ detail: 'Не авторизован' }, 401);
      }),
    );
    const store = setupStore(loggedIn(USER, OLD_TOKEN));
    const [cartResult, categoriesResult] = await Promise.all([
      store.dispatch(cartApi.endpoints.getCart.initiate(USER.id)),
      store.dispatch(catalogueApi.endpoints.getCategories.initiate()),
    ]);
    expect(cartResult.isSuccess && categoriesResult.isSuccess).toBe(true);
    expect(refreshCalls.calls).toHaveLength(1);
    expect(cartCalls.calls).toHaveLength(2);
    expect(productCalls.calls).toHaveLength(2);
  });

  test('is retried only once: a second 401 is returned without another refresh', async () => {
    const refreshCalls = refreshNetwork(true);
    const cartCalls = cartNetwork(null);
    const store = setupStore(loggedIn(USER, OLD_TOKEN));
    const result = await store.dispatch(cartApi.endpoints.getCart.initiate(USER.id));
    expect(result.isError).toBe(true);
    expect(refreshCalls.calls).toHaveLength(1);
    expect(cartCalls.calls).toHaveLength(2);
  });

  test('with a failing refresh logs the user out and is not retried', async () => {
    const refreshCalls = refreshNetwork(false);
    const cartCalls = cartNetwork(NEW_TOKEN);
    const store = setupStore(loggedIn(USER, OLD_TOKEN));
    const result = await store.dispatch(cartApi.endpoints.getCart.initiate(USER.id));
    expect(result.isError).toBe(true);
    expect(refreshCalls.calls).toHaveLength(1);
    expect(cartCalls.calls).toHaveLength(1);
    expect(store.getState().session).toEqual({ user: null, accessToken: null, initialised: true });
    expect(sessionStorage.getItem('access_token')).toBeNull();
  });

  test('on an auth call (a wrong password) is not followed by a refresh', async () => {
    const refreshCalls = refreshNetwork(true);
    server.use(http.post(`${API}/auth/token`, () => json({ detail: 'Неверный email или пароль' }, 401)));
    const store = setupStore();
    const result = await store.dispatch(
      authApi.endpoints.login.initiate({ email: 'ivan@example.ru', password: 'wrong' }),
    );
    expect('error' in result).toBe(true);
    expect(refreshCalls.calls).toHaveLength(0);
  });

  test("the account's own calls under /auth go with a fresh token: an expired one is refreshed before a password change", async () => {
    const refreshCalls = refreshNetwork(true);
    const changes = recorder();
    server.use(
      http.post(`${API}/auth/password`, ({ request }) => {
        changes.record(request);
        return new Response(null, { status: 204 });
      }),
    );
    const store = setupStore(loggedIn(USER, makeToken(-60)));
    const result = await store.dispatch(
      accountApi.endpoints.changePassword.initiate({ current_password: 'old password', new_password: 'new password' }),
    );
    expect('error' in result).toBe(false);
    expect(refreshCalls.calls).toHaveLength(1);
    expect(authorisations(changes.calls)).toEqual([`Bearer ${NEW_TOKEN}`]);
  });
});

describe('baseQuery: the sign-in calls carry the browser’s cookies', () => {
  // The server's device cookie (HttpOnly, Path=/api/v1/auth) keeps the owner signing in while
  // strangers guess the password: it reaches the server only if these calls send cookies.
  test('sign-in, sign-up and both reset calls go with credentials: include', async () => {
    const calls = recorder();
    server.use(
      http.post(`${API}/auth/token`, ({ request }) => (calls.record(request), json({ access_token: NEW_TOKEN }))),
      http.post(`${API}/auth/register`, ({ request }) => (calls.record(request), json(USER, 201))),
      http.post(`${API}/auth/password-reset`, ({ request }) => (calls.record(request), json({ detail: 'ok' }, 202))),
      http.post(
        `${API}/auth/password-reset/confirm`,
        ({ request }) => (calls.record(request), new HttpResponse(null, { status: 204 })),
      ),
    );
    const store = setupStore();
    const credentials = { email: 'ivan@example.ru', password: 'long enough' };
    await store.dispatch(authApi.endpoints.login.initiate(credentials));
    await store.dispatch(authApi.endpoints.register.initiate({ ...credentials, consent: true }));
    await store.dispatch(accountApi.endpoints.requestPasswordReset.initiate({ email: credentials.email }));
    await store.dispatch(accountApi.endpoints.confirmPasswordReset.initiate({ token: 't', password: 'long enough' }));
    expect(calls.calls.map((request) => [new URL(request.url).pathname, request.credentials])).toEqual([
      ['/api/v1/auth/token', 'include'],
      ['/api/v1/auth/register', 'include'],
      ['/api/v1/auth/password-reset', 'include'],
      ['/api/v1/auth/password-reset/confirm', 'include'],
    ]);
  });
});
