import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { loggedOut } from '@/features/session/sessionSlice';
import {
  cart,
  json,
  loggedIn,
  product,
  installUserNetwork,
  installVisitorNetwork,
  USER,
  visitor,
} from '@/test/fixtures';
import { renderShop } from '@/test/render';
import { API } from '@/test/server';
import { AppLayout } from '@/layout/AppLayout';

const GUARDED = ['/cart', '/profile', '/checkout?items=BEAR-01:101:1'];

describe('pages for users only (SPEC §6)', () => {
  test.each(GUARDED)('%s sends a visitor home once the session is initialised', async (route) => {
    installVisitorNetwork();
    const { router } = renderShop({ route, preloadedState: visitor() });
    expect(await screen.findByRole('heading', { name: 'Популярные игрушки' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
  });

  test.each(GUARDED)('%s shows a spinner, not a redirect, while the session is not initialised', async (route) => {
    const { router, store } = renderShop({ route });
    const content = document.querySelector('main') ?? document.body;
    expect(await within(content as HTMLElement).findByRole('status', { name: 'Загрузка' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe(route.split('?')[0]);
    // Once the start-up decides nobody is logged in, the visitor is sent home.
    installVisitorNetwork();
    act(() => {
      store.dispatch(loggedOut());
    });
    expect(await screen.findByRole('heading', { name: 'Популярные игрушки' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
  });

  test('/cart renders for a user', async () => {
    installUserNetwork(cart([]));
    const { router } = renderShop({ route: '/cart', preloadedState: loggedIn() });
    expect(await screen.findByText('Ваша корзина пуста')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/cart');
  });

  test('/profile renders for a user', async () => {
    installUserNetwork(
      cart([]),
      http.get(`${API}/order/${USER.id}`, () => json([])),
    );
    renderShop({ route: '/profile', preloadedState: loggedIn() });
    expect(await screen.findByRole('heading', { name: 'Здравствуйте, ivan.petrov!' })).toBeInTheDocument();
  });

  test('/checkout renders for a user', async () => {
    installUserNetwork(
      cart([]),
      http.post(`${API}/products/by-arts`, () => json([product()])),
    );
    renderShop({ route: '/checkout?items=BEAR-01:101:1', preloadedState: loggedIn() });
    expect(await screen.findByRole('heading', { name: 'Оформление заказа' })).toBeInTheDocument();
    expect(await screen.findByText('Мишка Тедди x 1')).toBeInTheDocument();
  });
});

describe('unknown routes', () => {
  test("show 'Упс... Страница не найдена' with a link home", async () => {
    installVisitorNetwork();
    const user = userEvent.setup();
    const { router } = renderShop({ route: '/no/such/page', preloadedState: visitor() });
    expect(await screen.findByRole('heading', { name: 'Упс... Страница не найдена' })).toBeInTheDocument();
    const home = screen.getByRole('link', { name: 'На главную' });
    expect(home).toHaveAttribute('href', '/');
    // One tab stop: a link drawn as a button, not a button inside a link.
    expect(within(home).queryByRole('button')).toBeNull();
    await user.click(home);
    expect(router.state.location.pathname).toBe('/');
    expect(await screen.findByRole('heading', { name: 'Популярные игрушки' })).toBeInTheDocument();
  });
});

describe('ErrorBoundary in the layout', () => {
  function Broken(): never {
    throw new Error('Сломанная страница');
  }

  test('keeps the header and footer when a page throws, and the next page renders again', async () => {
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    installVisitorNetwork();
    const { router } = renderShop({
      preloadedState: visitor(),
      routes: [
        {
          element: <AppLayout />,
          children: [
            { path: '/', element: <Broken /> },
            { path: '/fine', element: <p>Всё в порядке</p> },
          ],
        },
      ],
    });
    expect(await screen.findByText('Не удалось показать эту часть страницы')).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'Основное меню' })).toBeInTheDocument();
    expect(screen.getByRole('contentinfo')).toHaveTextContent('Мягкий Опт');
    expect(consoleError).toHaveBeenCalledWith('Ошибка интерфейса', expect.any(Error), expect.anything());

    await act(() => router.navigate('/fine'));
    expect(await screen.findByText('Всё в порядке')).toBeInTheDocument();
    expect(screen.queryByText('Не удалось показать эту часть страницы')).not.toBeInTheDocument();
    consoleError.mockRestore();
  });
});
