import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import type { OrderSummary } from '@shared/api';
import { cart, cartHandler, homeHandlers, json, loggedIn, order, refreshFails, USER } from '@/test/fixtures';
import { renderShop } from '@/test/render';
import { API, server } from '@/test/server';

function openProfile(orders: OrderSummary[] | 'error') {
  server.use(
    cartHandler(cart([])),
    http.get(`${API}/order/${USER.id}`, () => (orders === 'error' ? json({ detail: 'Ошибка' }, 500) : json(orders))),
  );
  const user = userEvent.setup();
  return { user, ...renderShop({ route: '/profile', preloadedState: loggedIn() }) };
}

const card = (title: string) => screen.getByRole('heading', { name: title }).closest('.order-card') as HTMLElement;

describe('Profile page (SPEC §2)', () => {
  test('greets the user with the e-mail prefix and shows the e-mail', async () => {
    openProfile([]);
    expect(await screen.findByRole('heading', { name: 'Здравствуйте, ivan.petrov!' })).toBeInTheDocument();
    expect(screen.getByText('ivan.petrov@example.ru')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Мои заказы' })).toBeInTheDocument();
    expect(await screen.findByText('Нет заказов')).toBeInTheDocument();
  });

  test("lists the orders with 'Заказ #id', 'Сумма: … ₽' and 'Статус: …'", async () => {
    openProfile([
      order({ id: 15, total_price: 4500, status: 'Создан' }),
      order({ id: 16, total_price: 123456.5, status: 'Доставлен' }),
    ]);
    expect(await screen.findByRole('heading', { name: 'Заказ #15' })).toBeInTheDocument();
    const created = card('Заказ #15');
    expect(within(created).getByText('Сумма: 4 500 ₽')).toBeInTheDocument();
    expect(within(created).getByText('Статус: Создан')).toBeInTheDocument();
    const delivered = card('Заказ #16');
    expect(within(delivered).getByText('Сумма: 123 456,5 ₽')).toBeInTheDocument();
    // Green only for 'Доставлен'.
    expect(within(delivered).getByText('Статус: Доставлен').className).toMatch(/success/);
    expect(within(created).getByText('Статус: Создан').className).not.toMatch(/success/);
  });

  test("a failed order load shows 'Нет заказов'", async () => {
    openProfile('error');
    expect(await screen.findByText('Нет заказов')).toBeInTheDocument();
  });

  test('its Выйти button logs out and goes home', async () => {
    server.use(
      http.post(`${API}/auth/logout`, () => json({})),
      refreshFails(),
      ...homeHandlers(),
    );
    const { user, router, store } = openProfile([]);
    await screen.findByRole('heading', { name: 'Здравствуйте, ivan.petrov!' });
    const head = screen
      .getByRole('heading', { name: 'Здравствуйте, ivan.petrov!' })
      .closest('.profile-head') as HTMLElement;
    await user.click(within(head).getByRole('button', { name: /Выйти/ }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(store.getState().session.user).toBeNull();
    expect(await screen.findByRole('heading', { name: 'Популярные игрушки' })).toBeInTheDocument();
  });
});
