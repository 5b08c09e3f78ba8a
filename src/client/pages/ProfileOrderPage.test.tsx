import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import type { BuyerOrder } from '@shared/api';
import { cart, cartHandler, json, loggedIn, recorder, USER } from '@/test/fixtures';
import { renderShop } from '@/test/render';
import { API, server } from '@/test/server';

const LINES: BuyerOrder['lines'] = [
  {
    product_id: 3,
    variant_id: 31,
    art: 'MO-1008',
    name: 'Мишка Тедди',
    color: 'коричневый',
    size: 90,
    price: 1499.9,
    quantity: 2,
    item_total: 2999.8,
    list_price: null,
    price_type: null,
    tier_from: null,
  },
  {
    product_id: 4,
    variant_id: 41,
    art: 'MO-2001',
    name: 'Зайка',
    color: 'белый',
    size: 30,
    price: 500,
    quantity: 3,
    item_total: 1500,
    list_price: null,
    price_type: null,
    tier_from: null,
  },
];

function buyerOrder(overrides: Partial<BuyerOrder> = {}): BuyerOrder {
  return {
    id: 15,
    created_at: '2025-03-01T10:00:00.000Z',
    status: 'Создан',
    total_price: 4499.8,
    one_c: null,
    items_count: 5,
    placed_by: null,
    legal_entity_id: null,
    contact_name: 'Анна Смирнова',
    contact_phone: '+7 900 000-00-00',
    address: 'г. Тверь, ул. Советская, д. 3',
    company_name: 'ООО «Ромашка»',
    company_inn: '7736050003',
    company_kpp: null,
    lines: LINES,
    history: [
      { at: '2025-03-01T10:00:00.000Z', status: 'Создан' },
      { at: '2025-03-02T09:30:00.000Z', status: 'Ожидает оплаты' },
    ],
    invoice: null,
    can_cancel: true,
    ...overrides,
  };
}

function openOrder(answer: BuyerOrder | (() => BuyerOrder) | 404, ...handlers: Parameters<typeof server.use>) {
  const reads = recorder();
  server.use(
    ...handlers,
    cartHandler(cart([])),
    http.get(`${API}/order/${USER.id}/15`, ({ request }) => {
      reads.record(request);
      if (answer === 404) return json({ detail: 'Заказ не найден' }, 404);
      return json(typeof answer === 'function' ? answer() : answer);
    }),
  );
  const user = userEvent.setup();
  return { user, reads, ...renderShop({ route: '/profile/orders/15', preloadedState: loggedIn() }) };
}

const heading = () => screen.findByRole('heading', { name: 'Заказ №15 от 1 марта 2025 г.' });

describe('Order page: what the manager said', () => {
  test('the history shows the manager’s comment, the carrier and the tracking number linked to its page', async () => {
    openOrder(
      buyerOrder({
        status: 'Отправлен',
        history: [
          { at: '2025-03-01T10:00:00.000Z', status: 'Создан' },
          { at: '2025-03-04T09:30:00.000Z', status: 'Оплачен' },
          {
            at: '2025-03-05T09:30:00.000Z',
            status: 'Отправлен',
            comment: 'Два места, второе догоним завтра',
            tracking: {
              carrier: 'СДЭК',
              number: '1234567890',
              url: 'https://www.cdek.ru/ru/tracking?order_id=1234567890',
            },
          },
        ],
      }),
    );
    expect(await heading()).toBeInTheDocument();
    expect(screen.getByText('Комментарий менеджера: Два места, второе догоним завтра')).toBeInTheDocument();
    const link = screen.getByRole('link', { name: '1234567890' });
    expect(link).toHaveAttribute('href', 'https://www.cdek.ru/ru/tracking?order_id=1234567890');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link.parentElement).toHaveTextContent('СДЭК, трек-номер 1234567890');
  });

  test('a carrier without a tracking page: the number, no link', async () => {
    openOrder(
      buyerOrder({
        status: 'Отправлен',
        history: [
          { at: '2025-03-01T10:00:00.000Z', status: 'Создан' },
          {
            at: '2025-03-05T09:30:00.000Z',
            status: 'Отправлен',
            tracking: { carrier: 'КИТ', number: 'KT-77', url: null },
          },
        ],
      }),
    );
    expect(await heading()).toBeInTheDocument();
    expect(screen.getByText('КИТ, трек-номер KT-77')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'KT-77' })).not.toBeInTheDocument();
  });
});

describe('Order page /profile/orders/{id}', () => {
  test('shows the heading, status, requisites, lines with links to the products, the total and the history', async () => {
    openOrder(buyerOrder());
    expect(await heading()).toBeInTheDocument();
    expect(screen.getAllByText('Создан').length).toBeGreaterThanOrEqual(1);
    expect(screen.getByText('Анна Смирнова')).toBeInTheDocument();
    expect(screen.getByText('г. Тверь, ул. Советская, д. 3')).toBeInTheDocument();
    expect(screen.getByText('ООО «Ромашка»')).toBeInTheDocument();
    expect(screen.getByText('7736050003')).toBeInTheDocument();
    // No empty row for a requisite the buyer did not give.
    expect(screen.queryByText('КПП')).not.toBeInTheDocument();

    const rows = screen.getAllByRole('row');
    const teddy = rows.find((row) => within(row).queryByText('Мишка Тедди'))!;
    expect(within(teddy).getByRole('link', { name: 'MO-1008' })).toHaveAttribute('href', '/product/MO-1008');
    for (const text of ['коричневый', '90', '1 499,90 ₽', '2', '2 999,80 ₽']) {
      expect(within(teddy).getByText(text)).toBeInTheDocument();
    }
    const total = rows.find((row) => within(row).queryByText('Итого'))!;
    expect(within(total).getByText('5 штук')).toBeInTheDocument();
    expect(within(total).getByText('4 499,80 ₽')).toBeInTheDocument();

    const history = document.querySelector('.ant-timeline') as HTMLElement;
    expect(
      within(history)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      expect.stringMatching(/^Создан1 марта 2025 г\./),
      expect.stringMatching(/^Ожидает оплаты2 марта 2025 г\./),
    ]);
  });

  test('a line at a price by quantity says from how many pieces, and by which type of prices it was ordered', async () => {
    const [teddy, hare] = LINES;
    openOrder(
      buyerOrder({
        lines: [
          {
            ...teddy!,
            quantity: 12,
            price: 1299.9,
            item_total: 15598.8,
            list_price: 1499.9,
            tier_from: 12,
            price_type: 'Крупный опт',
          },
          { ...hare!, price_type: 'Крупный опт' },
        ],
      }),
    );
    expect(await heading()).toBeInTheDocument();
    const rows = screen.getAllByRole('row');
    const teddyRow = rows.find((row) => within(row).queryByText('Мишка Тедди'))!;
    expect(within(teddyRow).getByText('цена от 12 шт., Крупный опт')).toBeInTheDocument();
    expect(teddyRow).toHaveTextContent('1 299,90 ₽');
    const hareRow = rows.find((row) => within(row).queryByText('Зайка'))!;
    expect(within(hareRow).getByText('Крупный опт')).toBeInTheDocument();
    expect(hareRow).not.toHaveTextContent(/цена от/);
  });

  test('names the employee of the company who placed it', async () => {
    openOrder(buyerOrder({ placed_by: { user_id: 8, name: 'Ольга Смирнова' } }));
    expect(await heading()).toBeInTheDocument();
    expect(screen.getByText('Оформил')).toBeInTheDocument();
    expect(screen.getByText('Ольга Смирнова')).toBeInTheDocument();
  });

  test('says nothing more of who placed it when that is the contact named', async () => {
    openOrder(buyerOrder({ contact_name: 'Ольга Смирнова', placed_by: { user_id: 8, name: 'Ольга Смирнова' } }));
    expect(await heading()).toBeInTheDocument();
    expect(screen.getByText('Ольга Смирнова')).toBeInTheDocument();
    expect(screen.queryByText('Оформил')).not.toBeInTheDocument();
  });

  test('a change the shop made itself says why in the history', async () => {
    const reason = 'Срок резерва истёк: заказ не оплачен в течение 120 ч после оформления.';
    openOrder(
      buyerOrder({
        status: 'Отменён',
        can_cancel: false,
        history: [
          { at: '2025-03-01T10:00:00.000Z', status: 'Создан' },
          { at: '2025-03-06T10:05:00.000Z', status: 'Отменён', reason },
        ],
      }),
    );
    await heading();
    const history = document.querySelector('.ant-timeline') as HTMLElement;
    const [created, cancelled] = within(history).getAllByRole('listitem');
    expect(within(cancelled!).getByText(reason)).toBeInTheDocument();
    expect(created!.textContent).not.toContain('Срок резерва');
  });

  test("someone else's or an unknown order: «Заказ не найден»", async () => {
    openOrder(404);
    expect(await screen.findByRole('heading', { name: 'Заказ не найден' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Мои заказы/ })).toHaveAttribute('href', '/profile');
  });

  test('«Повторить заказ» sends the lines in one bulk request and links to the cart', async () => {
    const bulk = recorder();
    const carts = recorder();
    const { user, router } = openOrder(
      buyerOrder(),
      http.post(`${API}/cart/bulk`, ({ request }) => {
        bulk.record(request);
        return json(cart([]));
      }),
      http.get(`${API}/cart/${USER.id}`, ({ request }) => {
        carts.record(request);
        return json(cart([]));
      }),
    );
    await heading();
    const cartReadsBefore = carts.calls.length;
    await user.click(screen.getByRole('button', { name: /Повторить заказ/ }));
    const toCart = await screen.findByRole('link', { name: 'Перейти в корзину' });
    expect(bulk.calls).toHaveLength(1);
    expect(await bulk.last!.json()).toEqual({
      user_id: USER.id,
      items: [
        { product_id: 3, variant_id: 31, count: 2 },
        { product_id: 4, variant_id: 41, count: 3 },
      ],
    });
    expect(bulk.last!.headers.get('authorization')).toMatch(/^Bearer /);
    // The cart is read again: its badge and page show what was added.
    await waitFor(() => expect(carts.calls.length).toBeGreaterThan(cartReadsBefore));
    await user.click(toCart);
    await waitFor(() => expect(router.state.location.pathname).toBe('/cart'));
  });

  test('a refused line is named, and the rest are added when the buyer agrees', async () => {
    const bodies: unknown[] = [];
    const { user } = openOrder(
      buyerOrder(),
      http.post(`${API}/cart/bulk`, async ({ request }) => {
        const body = (await request.json()) as { items: unknown[] };
        bodies.push(body);
        return body.items.length === 2
          ? json({ detail: 'Строка 1: товар «Мишка Тедди» больше не продаётся' }, 409)
          : json(cart([]));
      }),
    );
    await heading();
    await user.click(screen.getByRole('button', { name: /Повторить заказ/ }));
    const dialog = await screen.findByRole('dialog');
    expect(
      within(dialog).getByText(
        'Не добавлен: MO-1008 «Мишка Тедди», коричневый, 90 см. товар «Мишка Тедди» больше не продаётся',
      ),
    ).toBeInTheDocument();
    expect(bodies).toHaveLength(1);
    await user.click(within(dialog).getByRole('button', { name: 'Добавить остальные (1)' }));
    expect(await screen.findByRole('link', { name: 'Перейти в корзину' })).toBeInTheDocument();
    expect(bodies).toEqual([
      expect.anything(),
      { user_id: USER.id, items: [{ product_id: 4, variant_id: 41, count: 3 }] },
    ]);
    const leftOut = screen.getByText('Не добавлены в корзину').closest('.ant-alert') as HTMLElement;
    expect(within(leftOut).getByText(/MO-1008 «Мишка Тедди».*больше не продаётся/)).toBeInTheDocument();
  });

  test('a refused line and «Отмена»: nothing more is sent', async () => {
    const bulk = recorder();
    const { user } = openOrder(
      buyerOrder(),
      http.post(`${API}/cart/bulk`, ({ request }) => {
        bulk.record(request);
        return json({ detail: 'Строка 2: вариант не найден' }, 404);
      }),
    );
    await heading();
    await user.click(screen.getByRole('button', { name: /Повторить заказ/ }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(/Не добавлен: MO-2001 «Зайка», белый, 30 см/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Отмена' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(bulk.calls).toHaveLength(1);
    expect(screen.queryByRole('link', { name: 'Перейти в корзину' })).not.toBeInTheDocument();
  });

  test('«Отменить заказ» only while the order may be cancelled', async () => {
    openOrder(buyerOrder({ status: 'Отправлен', can_cancel: false }));
    await heading();
    expect(screen.getByRole('button', { name: /Повторить заказ/ })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Отменить заказ/ })).not.toBeInTheDocument();
  });

  test('«Отменить заказ» asks first, then cancels, and the page and the list are read again', async () => {
    let current = buyerOrder();
    const cancels = recorder();
    const lists = recorder();
    const { user, reads } = openOrder(
      () => current,
      http.delete(`${API}/order/15`, ({ request }) => {
        cancels.record(request);
        current = buyerOrder({
          status: 'Отменён',
          can_cancel: false,
          history: [...current.history, { at: '2025-03-03T09:00:00.000Z', status: 'Отменён' }],
        });
        return json({ id: 15, status: 'Отменён' });
      }),
      http.get(`${API}/order/${USER.id}`, ({ request }) => {
        lists.record(request);
        return json([]);
      }),
    );
    await heading();
    await user.click(screen.getByRole('button', { name: /Отменить заказ/ }));
    const confirm = await screen.findByRole('tooltip');
    expect(within(confirm).getByText('Отменить заказ №15?')).toBeInTheDocument();
    expect(cancels.calls).toHaveLength(0);
    await user.click(within(confirm).getByRole('button', { name: 'Да, отменить' }));
    await waitFor(() => expect(cancels.calls).toHaveLength(1));
    expect(await screen.findByText('Заказ №15 отменён')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('button', { name: /Отменить заказ/ })).not.toBeInTheDocument());
    expect(reads.calls).toHaveLength(2);
    expect(screen.getAllByText('Отменён').length).toBeGreaterThanOrEqual(2);
  });

  test("«Скачать в Excel» fetches the export with the bearer token and saves it under the server's name", async () => {
    const exports = recorder();
    const names: string[] = [];
    const { createObjectURL, revokeObjectURL } = URL;
    URL.createObjectURL = jest.fn(() => 'blob:http://shop.test/1');
    URL.revokeObjectURL = jest.fn();
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      names.push(this.download);
    });
    try {
      const { user } = openOrder(
        buyerOrder(),
        http.get(`${API}/order/${USER.id}/15/export`, ({ request }) => {
          exports.record(request);
          return new HttpResponse(new Uint8Array([0x50, 0x4b, 3, 4]), {
            headers: {
              'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
              'content-disposition': `attachment; filename="order-15.xlsx"; filename*=UTF-8''${encodeURIComponent('Заказ 15.xlsx')}`,
            },
          });
        }),
      );
      await heading();
      await user.click(screen.getByRole('button', { name: /Скачать в Excel/ }));
      await waitFor(() => expect(names).toEqual(['Заказ 15.xlsx']));
      expect(exports.calls).toHaveLength(1);
      expect(exports.last!.headers.get('authorization')).toBe(`Bearer ${sessionStorage.getItem('access_token')}`);
    } finally {
      click.mockRestore();
      Object.assign(URL, { createObjectURL, revokeObjectURL });
    }
  });

  test('«Карточки для маркетплейсов» asks for a download link to the order’s kit and lets the browser follow it', async () => {
    const links = recorder();
    const followed: string[] = [];
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      followed.push(this.href);
    });
    try {
      const { user } = openOrder(
        buyerOrder(),
        http.post(`${API}/download-links`, async ({ request }) => {
          links.record(request);
          const { path } = (await request.clone().json()) as { path: string };
          return json({ url: `${path}?link=signed` });
        }),
      );
      await heading();
      await user.click(screen.getByRole('button', { name: /Карточки для маркетплейсов/ }));
      await waitFor(() =>
        expect(followed).toEqual([`http://shop.test/api/v1/order/${USER.id}/15/marketplace-kit?link=signed`]),
      );
      expect(await links.last!.json()).toEqual({ path: `/api/v1/order/${USER.id}/15/marketplace-kit` });
      expect(links.last!.headers.get('authorization')).toBe(`Bearer ${sessionStorage.getItem('access_token')}`);
    } finally {
      click.mockRestore();
    }
  });

  test('a refused kit shows the server’s detail and downloads nothing', async () => {
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click');
    try {
      const { user } = openOrder(
        buyerOrder(),
        http.post(`${API}/download-links`, () =>
          json({ detail: 'Сессия истекла или недействительна. Войдите снова.' }, 403),
        ),
      );
      await heading();
      await user.click(screen.getByRole('button', { name: /Карточки для маркетплейсов/ }));
      expect(await screen.findByText('Сессия истекла или недействительна. Войдите снова.')).toBeInTheDocument();
      expect(click).not.toHaveBeenCalled();
    } finally {
      click.mockRestore();
    }
  });

  test('«Скачать счёт» is there when the invoice is issued', async () => {
    openOrder(buyerOrder({ invoice: { number: 15, date: '2025-03-02' } }));
    await heading();
    expect(screen.getByRole('button', { name: /Скачать счёт/ })).toBeInTheDocument();
    expect(screen.getByText('Счёт № 15 от 02.03.2025')).toBeInTheDocument();
  });
});

describe('Order page: 1С’s version', () => {
  test('when 1С shipped less, its lines show beside the placed ones, which stay', async () => {
    openOrder(
      buyerOrder({
        one_c: {
          received_at: '2025-03-05T09:30:00.000Z',
          number: '15',
          sum: 1000,
          lines: [{ article: 'MO-2001', name: 'Зайка (белый, 30)', price: 500, quantity: 2, sum: 1000 }],
        },
      }),
    );
    expect(await heading()).toBeInTheDocument();
    const oneC = screen.getByRole('region', { name: 'По данным 1С' });
    expect(within(oneC).getByRole('cell', { name: 'Зайка (белый, 30)' })).toBeInTheDocument();
    expect(within(oneC).getByRole('cell', { name: '2' })).toBeInTheDocument();
    expect(screen.getByRole('cell', { name: 'Зайка' })).toBeInTheDocument();
  });

  test('without 1С’s version only the placed lines show', async () => {
    openOrder(buyerOrder());
    expect(await heading()).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'По данным 1С' })).not.toBeInTheDocument();
  });
});
