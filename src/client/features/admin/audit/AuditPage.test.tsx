import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { MANAGER } from '@/test/adminFixtures';
import { json, loggedIn, recorder } from '@/test/fixtures';
import { renderShop } from '@/test/render';
import { API, server } from '@/test/server';

const ENTRIES = [
  {
    id: 2,
    at: '2026-11-24T12:00:00.000Z',
    by: MANAGER,
    action: 'variant.update',
    entity: 'variant',
    entity_id: '101',
    before: { price: 990 },
    after: { price: 1090 },
  },
  {
    id: 1,
    at: '2026-11-23T08:00:00.000Z',
    by: null,
    action: 'settings.requisites',
    entity: 'supplier_requisites',
    entity_id: null,
    before: null,
    after: { inn: '7707083893' },
  },
  {
    id: 0,
    at: '2026-11-22T08:00:00.000Z',
    by: MANAGER,
    action: 'legacy.thing',
    entity: 'gadget',
    entity_id: '5',
    before: null,
    after: null,
  },
];

describe('Журнал изменений', () => {
  test('lists the entries with who and when, and opens an entry’s before and after', async () => {
    const requests = recorder();
    server.use(
      http.get(`${API}/admin/audit`, ({ request }) => {
        requests.record(request);
        return json({ items: ENTRIES, total: 120 });
      }),
    );
    const user = userEvent.setup();
    const { router } = renderShop({ route: '/admin/audit', preloadedState: loggedIn(MANAGER) });
    const first = (await screen.findByText('24.11.2026, 15:00')).closest('tr')!;
    expect(within(first).getByText(MANAGER.email)).toBeInTheDocument();
    expect(within(first).getByRole('cell', { name: 'Изменение варианта' })).toBeInTheDocument();
    expect(within(first).queryByText('variant.update')).not.toBeInTheDocument();
    expect(within(first).getByRole('cell', { name: 'Вариант' })).toBeInTheDocument();
    expect(within(first).getByText('101')).toBeInTheDocument();
    const second = screen.getByText('23.11.2026, 11:00').closest('tr')!;
    expect(within(second).getByText('командная строка')).toBeInTheDocument();
    // Russian names, not the codes the server writes.
    expect(within(second).getByRole('cell', { name: 'Изменение реквизитов поставщика' })).toBeInTheDocument();
    expect(within(second).getByRole('cell', { name: 'Реквизиты поставщика' })).toBeInTheDocument();
    expect(within(second).queryByText(/settings\.requisites|supplier_requisites/)).not.toBeInTheDocument();
    expect(within(second).getByText('—')).toBeInTheDocument();
    // A code this page has no name for still shows, as it is.
    const third = screen.getByText('22.11.2026, 11:00').closest('tr')!;
    expect(within(third).getByRole('cell', { name: 'legacy.thing' })).toBeInTheDocument();
    expect(within(third).getByRole('cell', { name: 'gadget' })).toBeInTheDocument();
    expect(Object.fromEntries(new URL(requests.last!.url).searchParams)).toEqual({ skip: '0', limit: '50' });

    await user.click(within(first).getByRole('button', { name: /развернуть|expand/i }));
    expect(await screen.findByText(/"price": 990/)).toBeInTheDocument();
    expect(screen.getByText(/"price": 1090/)).toBeInTheDocument();

    await user.click(screen.getByRole('listitem', { name: '2' }));
    await waitFor(() =>
      expect(Object.fromEntries(new URL(requests.last!.url).searchParams)).toEqual({ skip: '50', limit: '50' }),
    );
    expect(router.state.location.search).toBe('?page=2');
  });
});
