import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { type Address, type OrderSummary, type Requisites } from '@shared/api';
import { ACCOUNT_MESSAGES } from '@shared/account';
import { MESSAGES } from '@shared/messages';
import {
  cart,
  cartHandler,
  companyNetwork,
  homeHandlers,
  json,
  legalEntity,
  loggedIn,
  makeToken,
  order,
  ORGANISATION,
  ORGANISATION_FIELDS,
  recorder,
  refreshFails,
  requisites,
  USER,
} from '@/test/fixtures';
import { catchDownloads } from '@/test/downloads';
import { renderShop } from '@/test/render';
import { API, server } from '@/test/server';

function openProfile(orders: OrderSummary[] | 'error', ...handlers: Parameters<typeof server.use>) {
  server.use(
    ...handlers,
    cartHandler(cart([])),
    http.get(`${API}/requisites/${USER.id}`, () => json(requisites())),
    http.get(`${API}/address/${USER.id}`, () => json([])),
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
    expect(within(created).getByText('Сумма: 4 500,00 ₽')).toBeInTheDocument();
    expect(within(created).getByText('Статус: Создан')).toBeInTheDocument();
    const delivered = card('Заказ #16');
    expect(within(delivered).getByText('Сумма: 123 456,50 ₽')).toBeInTheDocument();
    // Green only for 'Доставлен'.
    expect(within(delivered).getByText('Статус: Доставлен').className).toMatch(/success/);
    expect(within(created).getByText('Статус: Создан').className).not.toMatch(/success/);
  });

  test('each card shows the date and the pieces, and its title opens the order page', async () => {
    const { user, router } = openProfile([
      order({ id: 15, created_at: '2025-03-01T10:00:00.000Z', items_count: 3 }),
      order({ id: 16, created_at: '2026-11-20T10:00:00.000Z', items_count: 5 }),
      order({ id: 17, items_count: 21 }),
    ]);
    await screen.findByRole('heading', { name: 'Заказ #15' });
    expect(within(card('Заказ #15')).getByText('от 1 марта 2025 г. · 3 штуки')).toBeInTheDocument();
    expect(within(card('Заказ #16')).getByText('от 20 ноября 2026 г. · 5 штук')).toBeInTheDocument();
    expect(within(card('Заказ #17')).getByText(/· 21 штука$/)).toBeInTheDocument();
    const link = within(card('Заказ #16')).getByRole('link', { name: 'Заказ #16' });
    expect(link).toHaveAttribute('href', '/profile/orders/16');
    server.use(http.get(`${API}/order/${USER.id}/16`, () => json({ detail: 'Заказ не найден' }, 404)));
    await user.click(link);
    await waitFor(() => expect(router.state.location.pathname).toBe('/profile/orders/16'));
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
    localStorage.setItem(`checkoutFields:${USER.id}`, JSON.stringify({ contact_name: 'Иван' }));
    localStorage.setItem('checkoutFields:8', JSON.stringify({ contact_name: 'Пётр' }));
    await user.click(within(head).getByRole('button', { name: /Выйти/ }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(store.getState().session.user).toBeNull();
    // What this account typed at checkout is forgotten; another account's is its own.
    expect(localStorage.getItem(`checkoutFields:${USER.id}`)).toBeNull();
    expect(localStorage.getItem('checkoutFields:8')).not.toBeNull();
    expect(await screen.findByRole('heading', { name: 'Популярные игрушки' })).toBeInTheDocument();
  });
});

/** The profile with a requisites and address server that remembers what it is sent. */
function openRequisites({ saved = requisites(), refuse }: { saved?: Requisites; refuse?: string } = {}) {
  let stored = saved;
  let addresses: Address[] = [];
  let nextId = 1;
  const saves = recorder();
  const addressCalls = recorder();
  const handlers = [
    http.get(`${API}/requisites/${USER.id}`, () => json(stored)),
    http.put(`${API}/requisites/${USER.id}`, async ({ request }) => {
      saves.record(request);
      if (refuse) return json({ detail: refuse }, 422);
      stored = (await request.json()) as Requisites;
      return json(stored);
    }),
    http.get(`${API}/address/${USER.id}`, () => json(addresses)),
    http.post(`${API}/address/`, async ({ request }) => {
      addressCalls.record(request);
      const created = { ...((await request.json()) as Address), id: nextId++ };
      addresses = [...addresses, created];
      return json(created, 201);
    }),
    http.put(`${API}/address/:id`, async ({ params, request }) => {
      addressCalls.record(request);
      const updated = { ...((await request.json()) as Address), id: Number(params.id) };
      addresses = addresses.map((address) => (address.id === updated.id ? updated : address));
      return json(updated);
    }),
    http.delete(`${API}/address/:id`, ({ params, request }) => {
      addressCalls.record(request);
      addresses = addresses.filter((address) => address.id !== Number(params.id));
      return json({ detail: 'Адрес удалён' });
    }),
  ];
  return { saves, addressCalls, ...openProfile([], ...handlers) };
}

const requisitesCard = async () =>
  within(
    (await screen.findByRole('button', { name: 'Сохранить реквизиты' })).closest('.requisites-card') as HTMLElement,
  );

describe('Profile: «Реквизиты и адреса»', () => {
  test('shows the saved requisites and saves changes', async () => {
    const { user, saves } = openRequisites({ saved: ORGANISATION });
    expect(await screen.findByRole('heading', { name: 'Реквизиты и адреса' })).toBeInTheDocument();
    const card = await requisitesCard();
    expect(card.getByLabelText('ИНН')).toHaveValue('7707083893');
    expect(card.getByLabelText('Имя')).toHaveValue('Иван Петров');
    await user.clear(card.getByLabelText('Телефон'));
    await user.type(card.getByLabelText('Телефон'), '+7 495 123-45-67');
    await user.clear(card.getByLabelText('КПП'));
    await user.click(card.getByRole('button', { name: 'Сохранить реквизиты' }));
    expect(await card.findByText('Реквизиты сохранены')).toBeInTheDocument();
    expect(await saves.last!.json()).toEqual({
      ...ORGANISATION_FIELDS,
      contact_phone: '+7 495 123-45-67',
      company_kpp: null,
    });
  });

  test("a company with legal entities keeps their details in «Компания»: here only the employee's contact", async () => {
    companyNetwork('purchaser', { legal_entities: [legalEntity()] });
    const { user, saves } = openRequisites({ saved: { ...ORGANISATION, legal_entity_id: legalEntity().id } });
    const card = await requisitesCard();
    expect(card.queryByLabelText('ИНН')).not.toBeInTheDocument();
    expect(card.getByText('Юрлица компании и их реквизиты — в разделе «Компания».')).toBeInTheDocument();
    await user.clear(card.getByLabelText('Телефон'));
    await user.type(card.getByLabelText('Телефон'), '+7 495 123-45-67');
    await user.click(card.getByRole('button', { name: 'Сохранить реквизиты' }));
    expect(await card.findByText('Реквизиты сохранены')).toBeInTheDocument();
    expect(await saves.last!.json()).toEqual({ contact_name: 'Иван Петров', contact_phone: '+7 495 123-45-67' });
  });

  test('an ИНН that breaks the law is refused with its message and nothing is sent', async () => {
    const { user, saves } = openRequisites();
    const card = await requisitesCard();
    await user.type(card.getByLabelText('ИНН'), '7707083894');
    await user.click(card.getByRole('button', { name: 'Сохранить реквизиты' }));
    expect(await card.findByText(MESSAGES.innChecksum)).toBeInTheDocument();
    expect(saves.calls).toHaveLength(0);
  });

  test("the server's refusal is shown with its detail", async () => {
    const { user } = openRequisites({ refuse: 'Реквизиты не приняты' });
    const card = await requisitesCard();
    await user.type(card.getByLabelText('Имя'), 'Иван');
    await user.click(card.getByRole('button', { name: 'Сохранить реквизиты' }));
    expect(await card.findByText('Не удалось сохранить реквизиты')).toBeInTheDocument();
    expect(card.getByText('Реквизиты не приняты')).toBeInTheDocument();
  });

  test('delivery addresses are added, changed and deleted through the address calls', async () => {
    const { user, addressCalls } = openRequisites();
    expect(await screen.findByText('Нет сохранённых адресов')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: /Добавить адрес/ }));
    const dialog = within(await screen.findByRole('dialog'));
    await user.click(dialog.getByRole('button', { name: 'Сохранить' }));
    expect(await dialog.findByText('Укажите город')).toBeInTheDocument();
    expect(addressCalls.calls).toHaveLength(0);
    expect(dialog.getByLabelText('Страна')).toHaveValue('Россия');
    await user.type(dialog.getByLabelText('Город'), 'Казань');
    await user.type(dialog.getByLabelText('Улица'), 'ул. Баумана');
    await user.type(dialog.getByLabelText('Дом'), '5');
    await user.click(dialog.getByRole('button', { name: 'Сохранить' }));
    expect(await screen.findByText('Россия, Казань, ул. Баумана, д. 5')).toBeInTheDocument();
    expect(await addressCalls.last!.json()).toEqual({
      country: 'Россия',
      city: 'Казань',
      street: 'ул. Баумана',
      home_number: '5',
      apartment_number: null,
      user_id: USER.id,
    });

    await user.click(screen.getByRole('button', { name: 'Изменить адрес: Россия, Казань, ул. Баумана, д. 5' }));
    const editDialog = within(await screen.findByRole('dialog', { name: 'Изменить адрес' }));
    await user.type(editDialog.getByLabelText(/Квартира/), '12');
    await user.click(editDialog.getByRole('button', { name: 'Сохранить' }));
    expect(await screen.findByText('Россия, Казань, ул. Баумана, д. 5, кв. 12')).toBeInTheDocument();
    expect(addressCalls.last!.method).toBe('PUT');

    await user.click(screen.getByRole('button', { name: 'Удалить адрес: Россия, Казань, ул. Баумана, д. 5, кв. 12' }));
    await user.click(await screen.findByRole('button', { name: 'Удалить' }));
    expect(await screen.findByText('Нет сохранённых адресов')).toBeInTheDocument();
    expect(addressCalls.last!.method).toBe('DELETE');
  });
});

describe("the order card's «Скачать счёт»", () => {
  const PDF = new TextEncoder().encode('%PDF-1.7 счёт');
  const FILE_NAME = 'Счёт №15 от 24.11.2026.pdf';

  /** The browser's side of a download, which jsdom lacks: the Blob URL made and the link clicked. */
  function watchDownloads() {
    const blobs: Blob[] = [];
    const names: string[] = [];
    const { createObjectURL, revokeObjectURL } = URL;
    URL.createObjectURL = jest.fn((blob: Blob) => {
      blobs.push(blob);
      return `blob:http://shop.test/${blobs.length}`;
    });
    URL.revokeObjectURL = jest.fn();
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      names.push(this.download);
    });
    const restore = () => {
      click.mockRestore();
      Object.assign(URL, { createObjectURL, revokeObjectURL });
    };
    return { blobs, names, restore };
  }

  test('shows the button only on orders whose invoice is issued', async () => {
    openProfile([
      order({ id: 15, status: 'Ожидает оплаты', invoice: { number: 15, date: '2026-11-24' } }),
      order({ id: 16, status: 'Создан', invoice: null }),
    ]);
    await screen.findByRole('heading', { name: 'Заказ #15' });
    const invoiced = card('Заказ #15');
    expect(within(invoiced).getByRole('button', { name: /Скачать счёт/ })).toBeInTheDocument();
    expect(within(invoiced).getByText('Счёт № 15 от 24.11.2026')).toBeInTheDocument();
    expect(within(card('Заказ #16')).queryByRole('button', { name: /Скачать счёт/ })).not.toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: /Скачать счёт/ })).toHaveLength(1);
  });

  test("a click fetches /order/{id}/invoice with the bearer token and saves the PDF under the server's name", async () => {
    const requests = recorder();
    const downloads = watchDownloads();
    const disposition = `attachment; filename="invoice-15-24.11.2026.pdf"; filename*=UTF-8''${encodeURIComponent(FILE_NAME)}`;
    const { user } = openProfile(
      [order({ id: 15, status: 'Ожидает оплаты', invoice: { number: 15, date: '2026-11-24' } })],
      http.get(`${API}/order/15/invoice`, ({ request }) => {
        requests.record(request);
        return new HttpResponse(PDF, {
          headers: { 'content-type': 'application/pdf', 'content-disposition': disposition },
        });
      }),
    );
    try {
      await user.click(await screen.findByRole('button', { name: /Скачать счёт/ }));
      await waitFor(() => expect(downloads.names).toEqual([FILE_NAME]));
      expect(requests.calls).toHaveLength(1);
      expect(requests.last!.headers.get('authorization')).toMatch(/^Bearer [\w-]+\.[\w-]+\.\w+$/);
      expect(requests.last!.headers.get('authorization')).toBe(`Bearer ${sessionStorage.getItem('access_token')}`);
      expect(downloads.blobs).toHaveLength(1);
      expect(downloads.blobs[0]!.type).toBe('application/pdf');
      expect(new Uint8Array(await downloads.blobs[0]!.arrayBuffer())).toEqual(PDF);
      await waitFor(() => expect(URL.revokeObjectURL).toHaveBeenCalledWith('blob:http://shop.test/1'));
    } finally {
      downloads.restore();
    }
  });

  test('a refused download says why in a toast and saves nothing', async () => {
    const downloads = watchDownloads();
    const { user } = openProfile(
      [order({ id: 15, status: 'Ожидает оплаты', invoice: { number: 15, date: '2026-11-24' } })],
      http.get(`${API}/order/15/invoice`, () => json({ detail: 'Счёт по этому заказу не выставлен' }, 404)),
    );
    try {
      await user.click(await screen.findByRole('button', { name: /Скачать счёт/ }));
      expect(await screen.findByText('Счёт по этому заказу не выставлен')).toBeInTheDocument();
      expect(downloads.names).toEqual([]);
      expect(URL.createObjectURL).not.toHaveBeenCalled();
    } finally {
      downloads.restore();
    }
  });
});

describe("the profile's account section", () => {
  const section = () => screen.getByRole('region', { name: 'Аккаунт и персональные данные' });

  test('«Сменить пароль» sends the current and the new password, then takes a fresh token for this tab', async () => {
    const changes = recorder();
    const freshToken = makeToken(3600, '7');
    const { user } = openProfile(
      [],
      http.post(
        `${API}/auth/password`,
        ({ request }) => (changes.record(request), new HttpResponse(null, { status: 204 })),
      ),
      http.post(`${API}/auth/refresh`, () => json({ access_token: freshToken, token_type: 'bearer' })),
    );
    await user.click(await within(section()).findByRole('button', { name: /Сменить пароль/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Смена пароля' });
    await user.type(within(dialog).getByLabelText('Текущий пароль'), 'old password');
    await user.type(within(dialog).getByLabelText('Новый пароль'), 'new password 1');
    await user.type(within(dialog).getByLabelText('Подтвердите пароль'), 'new password 1');
    await user.click(within(dialog).getByRole('button', { name: 'Сменить пароль' }));
    expect(await screen.findByText(/Пароль изменён/)).toBeInTheDocument();
    expect(await changes.last!.json()).toEqual({ current_password: 'old password', new_password: 'new password 1' });
    await waitFor(() => expect(sessionStorage.getItem('access_token')).toBe(freshToken));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Смена пароля' })).not.toBeInTheDocument());
  });

  test("a wrong current password: the server's detail in the dialog, which stays open", async () => {
    const { user } = openProfile(
      [],
      http.post(`${API}/auth/password`, () => json({ detail: ACCOUNT_MESSAGES.currentPasswordWrong }, 400)),
    );
    await user.click(await within(section()).findByRole('button', { name: /Сменить пароль/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Смена пароля' });
    await user.type(within(dialog).getByLabelText('Текущий пароль'), 'wrong password');
    await user.type(within(dialog).getByLabelText('Новый пароль'), 'new password 1');
    await user.type(within(dialog).getByLabelText('Подтвердите пароль'), 'new password 1');
    await user.click(within(dialog).getByRole('button', { name: 'Сменить пароль' }));
    expect(await within(dialog).findByText(ACCOUNT_MESSAGES.currentPasswordWrong)).toBeInTheDocument();
  });

  test('the new password follows the registration rules before anything is sent', async () => {
    const changes = recorder();
    const { user } = openProfile(
      [],
      http.post(
        `${API}/auth/password`,
        ({ request }) => (changes.record(request), new HttpResponse(null, { status: 204 })),
      ),
    );
    await user.click(await within(section()).findByRole('button', { name: /Сменить пароль/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Смена пароля' });
    await user.type(within(dialog).getByLabelText('Текущий пароль'), 'old password');
    await user.type(within(dialog).getByLabelText('Новый пароль'), 'short');
    await user.type(within(dialog).getByLabelText('Подтвердите пароль'), 'shorter');
    await user.click(within(dialog).getByRole('button', { name: 'Сменить пароль' }));
    expect(await within(dialog).findByText(ACCOUNT_MESSAGES.passwordLength)).toBeInTheDocument();
    expect(within(dialog).getByText(MESSAGES.passwordsDiffer)).toBeInTheDocument();
    expect(changes.calls).toHaveLength(0);
  });

  test('«Скачать мои данные» fetches the export with the bearer token and saves it', async () => {
    const exports = recorder();
    const downloads = catchDownloads();
    try {
      const { user } = openProfile(
        [],
        http.get(`${API}/auth/user/export`, ({ request }) => {
          exports.record(request);
          return new HttpResponse('{"account":{}}', {
            headers: {
              'content-type': 'application/json',
              'content-disposition': 'attachment; filename="moi-dannye.json"; filename*=UTF-8\'\'moi-dannye.json',
            },
          });
        }),
      );
      await user.click(await within(section()).findByRole('button', { name: /Скачать мои данные/ }));
      await waitFor(() => expect(downloads.saved).toEqual(['moi-dannye.json']));
      expect(exports.last!.headers.get('authorization')).toBe(`Bearer ${sessionStorage.getItem('access_token')}`);
    } finally {
      downloads.restore();
    }
  });

  test('«Удалить аккаунт» asks for the password, deletes, logs out and goes home', async () => {
    // What the buyer typed at checkout goes with the account.
    localStorage.setItem(`checkoutFields:${USER.id}`, JSON.stringify({ contact_name: 'Иван' }));
    const deletions = recorder();
    const { user, router, store } = openProfile(
      [],
      ...homeHandlers(),
      http.delete(
        `${API}/auth/user`,
        ({ request }) => (deletions.record(request), new HttpResponse(null, { status: 204 })),
      ),
      http.post(`${API}/auth/logout`, () => new HttpResponse(null, { status: 204 })),
      refreshFails(),
    );
    await user.click(await within(section()).findByRole('button', { name: /Удалить аккаунт/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Удалить аккаунт?' });
    expect(within(dialog).getByText(/Заказы останутся у магазина/)).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText('Пароль для подтверждения'), 'my password');
    await user.click(within(dialog).getByRole('button', { name: 'Удалить аккаунт' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(await deletions.last!.json()).toEqual({ password: 'my password' });
    expect(store.getState().session.user).toBeNull();
    expect(sessionStorage.getItem('access_token')).toBeNull();
    expect(localStorage.getItem(`checkoutFields:${USER.id}`)).toBeNull();
  });

  test('«Удалить аккаунт» with a wrong password: the detail, and the buyer stays', async () => {
    const { user, router, store } = openProfile(
      [],
      http.delete(`${API}/auth/user`, () => json({ detail: ACCOUNT_MESSAGES.passwordWrong }, 400)),
    );
    await user.click(await within(section()).findByRole('button', { name: /Удалить аккаунт/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Удалить аккаунт?' });
    await user.type(within(dialog).getByLabelText('Пароль для подтверждения'), 'wrong');
    await user.click(within(dialog).getByRole('button', { name: 'Удалить аккаунт' }));
    expect(await within(dialog).findByText(ACCOUNT_MESSAGES.passwordWrong)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/profile');
    expect(store.getState().session.user).toEqual(USER);
  });
});
