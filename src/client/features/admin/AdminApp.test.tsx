import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { MANAGER } from '@/test/adminFixtures';
import { cart, cartHandler, installUserNetwork, installVisitorNetwork, json, loggedIn, visitor } from '@/test/fixtures';
import { renderShop } from '@/test/render';
import { API, server } from '@/test/server';

const emptyQueue = () => http.get(`${API}/admin/orders`, () => json({ items: [], total: 0 }));

describe('the back office is for managers only', () => {
  test('a buyer opening /admin is sent to the home page', async () => {
    installUserNetwork(cart([]));
    const { router } = renderShop({ route: '/admin/orders', preloadedState: loggedIn() });
    expect(await screen.findByRole('heading', { name: 'Популярные игрушки' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(screen.queryByRole('navigation', { name: 'Разделы панели менеджера' })).not.toBeInTheDocument();
  });

  test('a visitor opening /admin is sent home like from any page for users', async () => {
    installVisitorNetwork();
    const { router } = renderShop({ route: '/admin', preloadedState: visitor() });
    expect(await screen.findByRole('heading', { name: 'Популярные игрушки' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
  });

  // The first to load the back office's lazy code: over 5 s in jsdom on a loaded two-core machine.
  test('a manager gets the layout with every section, and /admin opens the orders', async () => {
    server.use(emptyQueue());
    const { router } = renderShop({ route: '/admin', preloadedState: loggedIn(MANAGER) });
    expect(await screen.findByRole('heading', { level: 1, name: 'Заказы' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin/orders');
    const menu = screen.getByRole('navigation', { name: 'Разделы панели менеджера' });
    const sections = within(menu)
      .getAllByRole('menuitem')
      .map((item) => item.textContent);
    expect(sections).toEqual([
      'Заказы',
      'Компании',
      'Товары',
      'Категории',
      'Баннеры',
      'Типы цен',
      'Импорт и экспорт',
      'Документы соответствия',
      'Обмен с 1С',
      'Реквизиты',
      'Менеджеры',
      'Журнал',
    ]);
    expect(screen.getByText(MANAGER.email)).toBeInTheDocument();
    // The storefront's header is not there.
    expect(screen.queryByRole('button', { name: /Корзина/ })).not.toBeInTheDocument();
  }, 15_000);

  test('the menu leads to its sections', async () => {
    server.use(
      emptyQueue(),
      http.get(`${API}/admin/audit`, () => json({ items: [], total: 0 })),
    );
    const user = userEvent.setup();
    const { router } = renderShop({ route: '/admin/orders', preloadedState: loggedIn(MANAGER) });
    await user.click(await screen.findByRole('menuitem', { name: /Журнал/ }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Журнал изменений' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin/audit');
  });
});

describe('«Панель менеджера» in the user menu', () => {
  test('a manager sees it and it leads to /admin', async () => {
    installUserNetwork(cart([]), cartHandler(cart([]), MANAGER), emptyQueue());
    const user = userEvent.setup();
    const { router } = renderShop({ route: '/', preloadedState: loggedIn(MANAGER) });
    const link = await screen.findByRole('link', { name: 'Панель менеджера' });
    expect(link).toHaveAttribute('href', '/admin');
    await user.click(link);
    expect(await screen.findByRole('heading', { level: 1, name: 'Заказы' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin/orders');
  });

  test('a buyer does not see it', async () => {
    installUserNetwork(cart([]));
    renderShop({ route: '/', preloadedState: loggedIn() });
    expect(await screen.findByRole('button', { name: /ivan\.petrov/ })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Панель менеджера' })).not.toBeInTheDocument();
  });
});
