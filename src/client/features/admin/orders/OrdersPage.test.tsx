import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { adminOrder, adminOrderRow, MANAGER } from '@/test/adminFixtures';
import { json, loggedIn, recorder } from '@/test/fixtures';
import { renderShop } from '@/test/render';
import { API, server } from '@/test/server';

function openQueue(route = '/admin/orders', total = 45) {
  const requests = recorder();
  server.use(
    http.get(`${API}/admin/orders`, ({ request }) => {
      requests.record(request);
      const skip = Number(new URL(request.url).searchParams.get('skip'));
      return json({ items: [adminOrderRow({ id: 100 - skip }), adminOrderRow({ id: 99 - skip })], total });
    }),
  );
  const user = userEvent.setup();
  const rendered = renderShop({ route, preloadedState: loggedIn(MANAGER) });
  const lastQuery = () => Object.fromEntries(new URL(requests.last!.url).searchParams);
  return { user, requests, lastQuery, ...rendered };
}

describe('Заказы: the managers’ queue', () => {
  test('asks for the new orders (status «Создан»), newest first, the first 20', async () => {
    const { lastQuery } = openQueue();
    expect(await screen.findByRole('link', { name: '№100' })).toBeInTheDocument();
    expect(lastQuery()).toEqual({ status: 'Создан', sort: 'created_at_desc', skip: '0', limit: '20' });
    const row = screen.getByRole('link', { name: '№100' }).closest('tr')!;
    expect(within(row).getByText('ivan.petrov@example.ru')).toBeInTheDocument();
    expect(within(row).getByText('4 500,00 ₽')).toBeInTheDocument();
    // 09:30 UTC is 12:30 in Moscow.
    expect(within(row).getByText('24.11.2026, 12:30')).toBeInTheDocument();
    expect(screen.getByText('Всего: 45')).toBeInTheDocument();
  });

  test('pages with skip and limit and keeps the page in the address', async () => {
    const { user, lastQuery, router } = openQueue();
    await screen.findByRole('link', { name: '№100' });
    await user.click(screen.getByRole('listitem', { name: '2' }));
    expect(await screen.findByRole('link', { name: '№80' })).toBeInTheDocument();
    expect(lastQuery()).toMatchObject({ skip: '20', limit: '20', status: 'Создан' });
    expect(router.state.location.search).toBe('?page=2');
  });

  test('reads its filters from the address: all statuses, a search, days, a sort and a page', async () => {
    const { lastQuery } = openQueue(
      '/admin/orders?status=all&q=%D0%98%D0%B3%D1%80%D1%83%D1%88%D0%BA%D0%B8&from=2026-11-01&to=2026-11-30&sort=total_asc&page=3&size=10',
    );
    expect(await screen.findByRole('link', { name: '№80' })).toBeInTheDocument();
    expect(lastQuery()).toEqual({
      q: 'Игрушки',
      from: '2026-11-01',
      to: '2026-11-30',
      sort: 'total_asc',
      skip: '20',
      limit: '10',
    });
    expect(screen.getByLabelText('Номер, e-mail, компания или ИНН')).toHaveValue('Игрушки');
    expect(screen.getByLabelText('С (день по Москве)')).toHaveValue('01.11.2026');
    expect(screen.getByRole('columnheader', { name: /Сумма/ })).toHaveAttribute('aria-sort', 'ascending');
  });

  test('a search and a day start again from the first page and go into the address', async () => {
    const { user, lastQuery, router } = openQueue('/admin/orders?page=2');
    await screen.findByRole('link', { name: '№80' });
    await user.type(screen.getByLabelText('Номер, e-mail, компания или ИНН'), '7707083893');
    await user.click(screen.getByRole('button', { name: 'Найти' }));
    await waitFor(() => expect(lastQuery()).toMatchObject({ q: '7707083893', skip: '0', status: 'Создан' }));
    // Typed the Russian way, whatever the browser's language.
    await user.type(screen.getByLabelText('По (включительно)'), '24.11.2026{Enter}');
    await waitFor(() => expect(lastQuery()).toMatchObject({ q: '7707083893', to: '2026-11-24' }));
    expect(router.state.location.search).toBe('?q=7707083893&to=2026-11-24');
  });

  test('the day filters are antd’s DatePicker in Russian: Monday first, Russian months, the other end bounding the range', async () => {
    const { user, lastQuery } = openQueue('/admin/orders?from=2026-11-10&to=2026-11-15');
    await screen.findByRole('link', { name: '№100' });
    const to = screen.getByLabelText('По (включительно)');
    expect(to).toHaveValue('15.11.2026');
    await user.click(to);
    const calendar = (await screen.findByRole('columnheader', { name: 'Пн' })).closest('table')!;
    const weekdays = within(calendar)
      .getAllByRole('columnheader')
      .map((header) => header.textContent);
    expect(weekdays).toEqual(['Пн', 'Вт', 'Ср', 'Чт', 'Пт', 'Сб', 'Вс']);
    expect(screen.getByRole('button', { name: 'Выбрать месяц' })).toHaveTextContent('Ноя');
    // Days before «С» cannot be chosen for «По».
    expect(within(calendar).getByTitle('2026-11-09')).toHaveClass('ant-picker-cell-disabled');
    expect(within(calendar).getByTitle('2026-11-10')).not.toHaveClass('ant-picker-cell-disabled');
    await user.click(within(within(calendar).getByTitle('2026-11-20')).getByText('20'));
    await waitFor(() => expect(lastQuery()).toMatchObject({ from: '2026-11-10', to: '2026-11-20' }));
    expect(to).toHaveValue('20.11.2026');
  });

  test('«Мои клиенты» asks for the orders of the manager’s companies only and stays in the address', async () => {
    const { user, lastQuery, router } = openQueue('/admin/orders?page=2');
    await screen.findByRole('link', { name: '№80' });
    const mine = screen.getByRole('switch', { name: 'Мои клиенты' });
    expect(mine).not.toBeChecked();
    await user.click(mine);
    await waitFor(() => expect(lastQuery()).toMatchObject({ mine: 'true', skip: '0', status: 'Создан' }));
    expect(router.state.location.search).toBe('?mine=true');
    expect(mine).toBeChecked();
    await user.click(mine);
    await waitFor(() => expect(lastQuery()).not.toHaveProperty('mine'));
    expect(router.state.location.search).toBe('');
  });

  test('sorting by the total asks the server for it', async () => {
    const { user, lastQuery, router } = openQueue();
    await screen.findByRole('link', { name: '№100' });
    await user.click(screen.getByRole('columnheader', { name: /Сумма/ }));
    await waitFor(() => expect(lastQuery()).toMatchObject({ sort: 'total_desc', skip: '0' }));
    expect(router.state.location.search).toBe('?sort=total_desc');
  });

  test('a row opens its order, whose «К заказам» returns to the same queue', async () => {
    const { user, router } = openQueue('/admin/orders?status=all');
    server.use(http.get(`${API}/admin/orders/99`, () => json(adminOrder({ id: 99 }))));
    const row = (await screen.findByRole('link', { name: '№99' })).closest('tr')!;
    // Anywhere on the row, not only its number's link.
    await user.click(within(row).getByText('ivan.petrov@example.ru'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Заказ №99' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin/orders/99');
    expect(screen.getByRole('link', { name: /К заказам/ })).toHaveAttribute('href', '/admin/orders?status=all');
  });
});
