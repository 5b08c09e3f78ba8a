import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import type { AdminOrder } from '@shared/api';
import { adminOrder, MANAGER } from '@/test/adminFixtures';
import { json, loggedIn, recorder } from '@/test/fixtures';
import { renderShop } from '@/test/render';
import { API, server } from '@/test/server';

/** Opens the order page; `current` is what the server answers now, so a handler can change it. */
function openOrder(initial: AdminOrder, ...handlers: Parameters<typeof server.use>) {
  const state = { current: initial };
  server.use(
    ...handlers,
    http.get(`${API}/admin/orders/${initial.id}`, () => json(state.current)),
    http.get(`${API}/admin/orders`, () => json({ items: [], total: 0 })),
  );
  const user = userEvent.setup();
  return { user, state, ...renderShop({ route: `/admin/orders/${initial.id}`, preloadedState: loggedIn(MANAGER) }) };
}

const actions = () => screen.getByRole('region', { name: 'Действия' });
const buttonNames = () =>
  within(actions())
    .getAllByRole('button')
    .map((button) => button.textContent);

describe('Заказ №N', () => {
  test('shows the buyer, the company, the lines and the history', async () => {
    openOrder(
      adminOrder({
        status: 'Оплачен',
        next_statuses: ['Отправлен', 'Отменён'],
        invoice: { number: 12, date: '2026-11-24' },
        history: [
          { at: '2026-11-24T10:00:00.000Z', from: 'Создан', to: 'Ожидает оплаты', by: MANAGER, comment: null },
          { at: '2026-11-25T07:15:00.000Z', from: 'Ожидает оплаты', to: 'Оплачен', by: null, comment: 'Платёж 42' },
          {
            at: '2026-11-26T07:15:00.000Z',
            from: 'Оплачен',
            to: 'Отправлен',
            by: MANAGER,
            comment: null,
            tracking: { carrier: 'СДЭК', number: '123', url: 'https://www.cdek.ru/ru/tracking?order_id=123' },
          },
        ],
      }),
    );
    expect(await screen.findByRole('heading', { level: 1, name: 'Заказ №15' })).toBeInTheDocument();
    expect(screen.getByText('7707083893 / 770101001')).toBeInTheDocument();
    expect(screen.getByText('Россия, Москва, ул. Ленина, д. 1')).toBeInTheDocument();
    // The buyer's company, a link to its page, and who of its employees placed the order.
    expect(screen.getByRole('link', { name: 'ООО «Игрушки»' })).toHaveAttribute('href', '/admin/companies/3');
    expect(screen.getAllByText('Иван Петров').length).toBeGreaterThan(0);
    expect(screen.getByText('№ 12 от 24.11.2026')).toBeInTheDocument();
    const lines = screen.getByRole('region', { name: 'Товары' });
    const line = within(lines).getByText('Мишка Тедди').closest('tr')!;
    expect(within(line).getByText('BEAR-01')).toBeInTheDocument();
    expect(within(line).getByText('1 500,00 ₽')).toBeInTheDocument();
    // The total row counts the pieces, as the buyer's own order page does.
    const total = within(lines).getByText('Итого').closest('tr')!;
    expect(within(total).getByText('3 штуки')).toBeInTheDocument();
    expect(within(total).getByText('4 500,00 ₽')).toBeInTheDocument();
    const history = screen.getByRole('region', { name: 'История' });
    expect(within(history).getByText('24.11.2026, 13:00 — Создан → Ожидает оплаты')).toBeInTheDocument();
    expect(within(history).getAllByText(MANAGER.email)).toHaveLength(2);
    expect(within(history).getByText('командная строка')).toBeInTheDocument();
    expect(within(history).getByText('СДЭК, трек-номер 123')).toBeInTheDocument();
    expect(within(history).getByText('«Платёж 42»')).toBeInTheDocument();
  });

  test('a change the shop made itself reads «автоматически», with its reason', async () => {
    const reason = 'Срок резерва истёк: заказ не оплачен в течение 120 ч после оформления.';
    openOrder(
      adminOrder({
        status: 'Отменён',
        next_statuses: [],
        history: [{ at: '2026-11-29T10:00:00.000Z', from: 'Создан', to: 'Отменён', by: null, comment: null, reason }],
      }),
    );
    const history = await screen.findByRole('region', { name: 'История' });
    expect(within(history).getByText('автоматически')).toBeInTheDocument();
    expect(within(history).getByText(reason)).toBeInTheDocument();
    expect(within(history).queryByText('командная строка')).not.toBeInTheDocument();
  });

  test('an order of a buyer who deleted the account: «удалено» where the buyer and the personal fields were', async () => {
    openOrder(
      adminOrder({
        user: null,
        contact_name: 'удалено',
        contact_phone: 'удалено',
        address: 'удалено',
        company_name: 'удалено',
        company_inn: 'удалено',
        company_kpp: 'удалено',
      }),
    );
    expect(await screen.findByRole('heading', { level: 1, name: 'Заказ №15' })).toBeInTheDocument();
    const buyer = screen.getByText('Покупатель').closest('tr')!;
    expect(within(buyer).getAllByText('удалено').length).toBeGreaterThan(0);
    expect(screen.getByText('удалено / удалено')).toBeInTheDocument();
  });

  test('offers only the allowed steps, and posts a step with its comment, carrier and tracking number', async () => {
    const posts = recorder();
    const { user, state } = openOrder(
      adminOrder({
        status: 'Оплачен',
        next_statuses: ['Отправлен', 'Отменён'],
        invoice: { number: 12, date: '2026-11-24' },
      }),
      http.post(`${API}/admin/orders/15/status`, async ({ request }) => {
        posts.record(request);
        state.current = { ...state.current, status: 'Отправлен', next_statuses: ['Доставлен'] };
        return json({ id: 15, status: 'Отправлен' });
      }),
    );
    await screen.findByRole('heading', { level: 1, name: 'Заказ №15' });
    expect(buttonNames()).toEqual(['Скачать счёт', 'Отметить отправку', 'Отменить заказ']);
    await user.type(
      screen.getByLabelText('Комментарий к смене статуса (необязательно, его увидит покупатель)'),
      'Два места',
    );
    await user.click(screen.getByRole('combobox', { name: 'Перевозчик' }));
    await user.click(await screen.findByTitle('Почта России'));
    await user.type(screen.getByLabelText('Трек-номер'), ' RA123456789RU ');
    await user.click(screen.getByRole('button', { name: 'Отметить отправку' }));
    await waitFor(() => expect(posts.calls).toHaveLength(1));
    expect(await posts.last!.json()).toEqual({
      status: 'Отправлен',
      comment: 'Два места',
      carrier: 'Почта России',
      tracking_number: 'RA123456789RU',
    });
    // The order is read again: the next step is the only button left beside the invoice.
    expect(await screen.findByRole('button', { name: 'Отметить доставку' })).toBeInTheDocument();
    expect(buttonNames()).toEqual(['Скачать счёт', 'Отметить доставку']);
  });

  test('cancelling asks first, and a refusal shows the server’s words', async () => {
    const posts = recorder();
    const { user } = openOrder(
      adminOrder({ next_statuses: ['Отменён'] }),
      http.post(`${API}/admin/orders/15/status`, ({ request }) => {
        posts.record(request);
        return json({ detail: 'Нельзя перевести заказ из статуса «Отменён» в статус «Отменён»' }, 409);
      }),
    );
    await user.click(await screen.findByRole('button', { name: 'Отменить заказ' }));
    expect(posts.calls).toHaveLength(0);
    await user.click(await screen.findByRole('button', { name: 'Да, отменить' }));
    await waitFor(() => expect(posts.calls).toHaveLength(1));
    expect(await posts.last!.json()).toEqual({ status: 'Отменён' });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Статус не изменён');
    expect(alert).toHaveTextContent('Нельзя перевести заказ из статуса «Отменён» в статус «Отменён»');
  });

  test('a delivered order offers nothing but its invoice', async () => {
    openOrder(adminOrder({ status: 'Доставлен', next_statuses: [], invoice: { number: 3, date: '2026-01-10' } }));
    await screen.findByRole('heading', { level: 1, name: 'Заказ №15' });
    expect(buttonNames()).toEqual(['Скачать счёт']);
  });

  test('«Выставить счёт» posts, then the order offers «Скачать счёт»', async () => {
    const posts = recorder();
    const { user, state } = openOrder(
      adminOrder({ status: 'Создан', next_statuses: ['Отменён'] }),
      http.post(`${API}/admin/orders/15/invoice`, ({ request }) => {
        posts.record(request);
        state.current = {
          ...state.current,
          status: 'Ожидает оплаты',
          next_statuses: ['Оплачен', 'Отменён'],
          invoice: { number: 7, date: '2026-11-24' },
        };
        return json({ number: 7, date: '2026-11-24' }, 201);
      }),
    );
    expect(await screen.findByRole('heading', { level: 1, name: 'Заказ №15' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Скачать счёт' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Выставить счёт' }));
    expect(await screen.findByRole('button', { name: 'Скачать счёт' })).toBeInTheDocument();
    expect(posts.calls).toHaveLength(1);
    expect(screen.queryByRole('button', { name: 'Выставить счёт' })).not.toBeInTheDocument();
    expect(screen.getByText('№ 7 от 24.11.2026')).toBeInTheDocument();
    expect(await screen.findByText('Счёт № 7 от 24.11.2026 выставлен')).toBeInTheDocument();
  });

  test('an invoice refused for missing requisites says what is missing', async () => {
    const { user } = openOrder(
      adminOrder(),
      http.post(`${API}/admin/orders/15/invoice`, () =>
        json({ detail: 'Заполните реквизиты поставщика: ИНН, БИК.' }, 409),
      ),
    );
    await user.click(await screen.findByRole('button', { name: 'Выставить счёт' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Заполните реквизиты поставщика: ИНН, БИК.');
    expect(screen.getByRole('button', { name: 'Выставить счёт' })).toBeInTheDocument();
  });

  test('«Скачать счёт» fetches the PDF with the token and saves it under the server’s name', async () => {
    const fetched = recorder();
    const createObjectURL = jest.fn<string, [Blob]>(() => 'blob:http://shop.test/invoice');
    Object.assign(URL, { createObjectURL, revokeObjectURL: jest.fn() });
    const saved: { download: string; href: string }[] = [];
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      saved.push({ download: this.download, href: this.href });
    });
    const { user } = openOrder(
      adminOrder({
        status: 'Ожидает оплаты',
        next_statuses: ['Оплачен', 'Отменён'],
        invoice: { number: 12, date: '2026-11-24' },
      }),
      http.get(`${API}/order/15/invoice`, ({ request }) => {
        fetched.record(request);
        return new HttpResponse(new Uint8Array([37, 80, 68, 70]), {
          headers: {
            'Content-Type': 'application/pdf',
            'Content-Disposition': `attachment; filename="invoice-12.pdf"; filename*=UTF-8''${encodeURIComponent('Счёт 12.pdf')}`,
          },
        });
      }),
    );
    await user.click(await screen.findByRole('button', { name: 'Скачать счёт' }));
    await waitFor(() => expect(click).toHaveBeenCalledTimes(1));
    expect(saved).toEqual([{ download: 'Счёт 12.pdf', href: 'blob:http://shop.test/invoice' }]);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(fetched.last!.headers.get('Authorization')).toMatch(/^Bearer /);
    expect(createObjectURL.mock.calls[0]![0].size).toBe(4);
    click.mockRestore();
  });

  test('an unknown order says so', async () => {
    server.use(http.get(`${API}/admin/orders/404`, () => json({ detail: 'Заказ не найден' }, 404)));
    renderShop({ route: '/admin/orders/404', preloadedState: loggedIn(MANAGER) });
    expect(await screen.findByRole('heading', { level: 1, name: 'Заказ не найден' })).toBeInTheDocument();
  });
});

describe('Заказ №N: the buyer’s trust', () => {
  test('a manager marks the buyer as trusted: PUT with the buyer’s id, and the page shows the new state', async () => {
    const puts = recorder();
    const { user, state } = openOrder(
      adminOrder(),
      http.put(`${API}/admin/buyers/7/trusted`, async ({ request }) => {
        puts.record(request);
        const buyer = { ...state.current.user!, trusted: true };
        state.current = { ...state.current, user: buyer };
        return json(buyer);
      }),
    );
    const trust = await screen.findByRole('switch', { name: 'Проверенный покупатель' });
    expect(trust).not.toBeChecked();
    expect(trust).toHaveAccessibleDescription(
      'Новый покупатель: ограничены доля остатка в заказе, число неоплаченных заказов и срок резерва',
    );
    await user.click(trust);
    await waitFor(() => expect(screen.getByRole('switch', { name: 'Проверенный покупатель' })).toBeChecked());
    expect(await puts.last!.json()).toEqual({ trusted: true });
    expect(screen.getByRole('switch', { name: 'Проверенный покупатель' })).toHaveAccessibleDescription(
      'Ограничения новых покупателей сняты: заказывает любое количество в пределах остатка',
    );
  });

  test('a buyer with a paid order needs no mark: the page says so, without a switch', async () => {
    openOrder(adminOrder({ user: { id: 7, email: 'ivan.petrov@example.ru', trusted: false, has_paid_order: true } }));
    expect(await screen.findByText('Есть оплаченный заказ: ограничения новых покупателей сняты')).toBeInTheDocument();
    expect(screen.queryByRole('switch')).not.toBeInTheDocument();
  });
});
