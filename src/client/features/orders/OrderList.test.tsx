import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import type { OrderSummary } from '@shared/api';
import {
  cart,
  cartHandler,
  companyNetwork,
  json,
  legalEntity,
  loggedIn,
  member,
  order,
  recorder,
  requisites,
  SOLE_TRADER,
  USER,
} from '@/test/fixtures';
import { renderShop } from '@/test/render';
import { choose } from '@/test/select';
import { API, server } from '@/test/server';

const ORGANISATION_ENTITY = legalEntity();
const OLGA = member({ user_id: 8, name: 'Ольга Смирнова' });

/** The profile of a company's owner whose orders the server pages: `total` of them, each page made by `page`. */
function openOrders(total: number, page: (query: URLSearchParams) => OrderSummary[]) {
  companyNetwork('owner', {
    legal_entities: [ORGANISATION_ENTITY, SOLE_TRADER],
    members: [{ user_id: USER.id, email: USER.email, role: 'owner', name: 'Иван Петров' }, OLGA],
  });
  const lists = recorder();
  server.use(
    cartHandler(cart([])),
    http.get(`${API}/requisites/${USER.id}`, () => json(requisites())),
    http.get(`${API}/address/${USER.id}`, () => json([])),
    http.get(`${API}/order/${USER.id}`, ({ request }) => {
      lists.record(request);
      return HttpResponse.json(page(new URL(request.url).searchParams), {
        headers: { 'X-Total-Count': String(total) },
      });
    }),
  );
  const user = userEvent.setup({ delay: null });
  return { user, lists, ...renderShop({ route: '/profile', preloadedState: loggedIn() }) };
}

const query = (request: Request) => Object.fromEntries(new URL(request.url).searchParams);
const card = (id: number) =>
  screen.getByRole('heading', { name: `Заказ #${id}` }).closest('.order-card') as HTMLElement;

describe("Profile: the company's orders", () => {
  test('each card says who placed it and for which legal entity', async () => {
    openOrders(2, () => [
      order({ id: 15, placed_by: { user_id: 8, name: 'Ольга Смирнова' }, legal_entity_id: SOLE_TRADER.id }),
      order({ id: 16, placed_by: { user_id: null, name: 'petr@example.ru' }, legal_entity_id: null }),
    ]);
    await screen.findByRole('heading', { name: 'Заказ #15' });
    expect(within(card(15)).getByText('Оформил: Ольга Смирнова')).toBeInTheDocument();
    expect(await within(card(15)).findByText(`Юрлицо: ${SOLE_TRADER.name}`)).toBeInTheDocument();
    // An employee whose account is gone is still named.
    expect(within(card(16)).getByText('Оформил: petr@example.ru')).toBeInTheDocument();
    expect(within(card(16)).queryByText(/Юрлицо:/)).not.toBeInTheDocument();
  });

  test('the filters go to the server, each from the first page', async () => {
    const { user, lists } = openOrders(3, (params) =>
      params.get('status') ? [order({ id: 15, status: 'Оплачен' })] : [order({ id: 15 }), order({ id: 16 })],
    );
    await screen.findByRole('heading', { name: 'Заказ #15' });
    expect(query(lists.last!)).toEqual({ skip: '0', limit: '12' });
    const filters = within(screen.getByRole('group', { name: 'Отбор заказов' }));

    await choose(user, filters.getByRole('combobox', { name: 'Статус' }), 'Оплачен');
    await waitFor(() => expect(query(lists.last!)).toEqual({ skip: '0', limit: '12', status: 'Оплачен' }));

    await choose(user, filters.getByRole('combobox', { name: 'Юрлицо' }), SOLE_TRADER.name);
    await waitFor(() =>
      expect(query(lists.last!)).toEqual({
        skip: '0',
        limit: '12',
        status: 'Оплачен',
        legal_entity_id: SOLE_TRADER.id,
      }),
    );

    await choose(user, filters.getByRole('combobox', { name: 'Сотрудник' }), 'Ольга Смирнова');
    await waitFor(() =>
      expect(query(lists.last!)).toEqual({
        skip: '0',
        limit: '12',
        status: 'Оплачен',
        legal_entity_id: SOLE_TRADER.id,
        placed_by: '8',
      }),
    );
  });

  test('pages by the count the server gives in X-Total-Count', async () => {
    const { user, lists } = openOrders(30, (params) => {
      const skip = Number(params.get('skip'));
      return Array.from({ length: Math.min(12, 30 - skip) }, (_unused, index) => order({ id: 100 + skip + index }));
    });
    await screen.findByRole('heading', { name: 'Заказ #100' });
    expect(screen.getAllByRole('heading', { name: /^Заказ #/ })).toHaveLength(12);
    // 30 orders, 12 a page: three pages.
    expect(screen.getByRole('listitem', { name: '3' })).toBeInTheDocument();
    expect(screen.queryByRole('listitem', { name: '4' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('listitem', { name: '3' }));
    expect(await screen.findByRole('heading', { name: 'Заказ #129' })).toBeInTheDocument();
    expect(query(lists.last!)).toEqual({ skip: '24', limit: '12' });
    expect(screen.getAllByRole('heading', { name: /^Заказ #/ })).toHaveLength(6);
  });

  test('no orders for the filters says so and keeps the filters to change', async () => {
    const { user } = openOrders(1, (params) => (params.get('status') ? [] : [order({ id: 15 })]));
    await screen.findByRole('heading', { name: 'Заказ #15' });
    await choose(user, screen.getByRole('combobox', { name: 'Статус' }), 'Отменён');
    expect(await screen.findByText('Нет заказов с такими отборами')).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Статус' })).toBeInTheDocument();
  });
});
