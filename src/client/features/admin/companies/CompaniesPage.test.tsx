import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { adminCompany, adminCompanyRow, MANAGER, PRICE_TYPES, staffProfile } from '@/test/adminFixtures';
import { json, loggedIn, recorder } from '@/test/fixtures';
import { renderShop } from '@/test/render';
import { API, server } from '@/test/server';

function openList(route = '/admin/companies') {
  const requests = recorder();
  server.use(
    http.get(`${API}/admin/companies`, ({ request }) => {
      requests.record(request);
      const q = new URL(request.url).searchParams.get('q');
      const items = q
        ? [adminCompanyRow({ id: 22, name: 'Мишки Оптом', inns: ['500100732259'], owner_email: null })]
        : [
            adminCompanyRow({
              inns: ['7707083893', '500100732259'],
              blocked: true,
              trusted: true,
              manager: { id: 3, name: 'Анна Смирнова', email: MANAGER.email },
              price_type: 'Крупный опт',
            }),
            adminCompanyRow({ id: 22, name: 'Мишки Оптом' }),
          ];
      return json({ items, total: q ? 1 : 45 });
    }),
  );
  const user = userEvent.setup();
  const rendered = renderShop({ route, preloadedState: loggedIn(MANAGER) });
  const lastQuery = () => Object.fromEntries(new URL(requests.last!.url).searchParams);
  return { user, lastQuery, ...rendered };
}

describe('Компании (back office)', () => {
  test('lists the companies a page of 20 at a time, with their ИНН, owner, counts, manager, price type and marks', async () => {
    const { lastQuery } = openList();
    const row = (await screen.findByRole('link', { name: 'Игрушки Плюс' })).closest('tr')!;
    expect(lastQuery()).toEqual({ skip: '0', limit: '20' });
    expect(within(row).getByText('7707083893')).toBeInTheDocument();
    expect(within(row).getByText('500100732259')).toBeInTheDocument();
    expect(within(row).getByText('owner@igrushki.ru')).toBeInTheDocument();
    expect(within(row).getByRole('cell', { name: '3' })).toBeInTheDocument();
    expect(within(row).getByRole('cell', { name: '12' })).toBeInTheDocument();
    expect(within(row).getByText('Анна Смирнова')).toBeInTheDocument();
    expect(within(row).getByText('Крупный опт')).toBeInTheDocument();
    expect(within(row).getByText('Заблокирована')).toBeInTheDocument();
    expect(within(row).getByText('Проверенная')).toBeInTheDocument();
    const other = screen.getByRole('link', { name: 'Мишки Оптом' }).closest('tr')!;
    expect(within(other).getByText('Не назначен')).toBeInTheDocument();
    expect(within(other).getByText('По умолчанию')).toBeInTheDocument();
    expect(within(other).queryByText('Заблокирована')).not.toBeInTheDocument();
    expect(screen.getByText('Всего: 45')).toBeInTheDocument();
  });

  test('a search sends q from the first page, shows what was found and stays in the address', async () => {
    const { user, lastQuery, router } = openList('/admin/companies?page=2');
    await screen.findByRole('link', { name: 'Игрушки Плюс' });
    expect(lastQuery()).toMatchObject({ skip: '20' });
    await user.type(screen.getByLabelText('Название, ИНН или e-mail сотрудника'), ' 5001 ');
    await user.click(screen.getByRole('button', { name: 'Найти' }));
    await waitFor(() => expect(lastQuery()).toEqual({ q: '5001', skip: '0', limit: '20' }));
    const row = (await screen.findByRole('link', { name: 'Мишки Оптом' })).closest('tr')!;
    expect(within(row).getByText('500100732259')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Игрушки Плюс' })).not.toBeInTheDocument();
    expect(router.state.location.search).toBe('?q=5001');
  });

  test('«Мои клиенты» asks for the manager’s own companies (mine=true), kept in the address', async () => {
    const { user, lastQuery, router } = openList('/admin/companies?q=%D0%98');
    await screen.findByRole('link', { name: 'Мишки Оптом' });
    await user.click(screen.getByRole('switch', { name: 'Мои клиенты' }));
    await waitFor(() => expect(lastQuery()).toEqual({ q: 'И', mine: 'true', skip: '0', limit: '20' }));
    expect(router.state.location.search).toBe('?q=%D0%98&mine=true');
    expect(screen.getByRole('switch', { name: 'Мои клиенты' })).toBeChecked();
  });

  test('a row opens its company, whose «К компаниям» returns to the same search', async () => {
    server.use(
      http.get(`${API}/admin/companies/22`, () => json(adminCompany({ id: 22, name: 'Мишки Оптом' }))),
      http.get(`${API}/admin/staff`, () => json([staffProfile()])),
      http.get(`${API}/admin/price-types`, () => json(PRICE_TYPES)),
    );
    const { user, router } = openList('/admin/companies?q=5001');
    const row = (await screen.findByRole('link', { name: 'Мишки Оптом' })).closest('tr')!;
    // Anywhere on the row, not only its name's link.
    await user.click(within(row).getByText('500100732259'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Мишки Оптом' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin/companies/22');
    expect(screen.getByRole('link', { name: /К компаниям/ })).toHaveAttribute('href', '/admin/companies?q=5001');
  });
});
