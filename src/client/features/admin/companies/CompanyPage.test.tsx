import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import type { AdminCompany, AdminCompanyPatch } from '@shared/api';
import { adminCompany, adminCompanyRow, MANAGER, PRICE_TYPES, staffProfile } from '@/test/adminFixtures';
import { json, loggedIn, recorder } from '@/test/fixtures';
import { renderShop } from '@/test/render';
import { API, server } from '@/test/server';

const STAFF = [
  staffProfile(),
  staffProfile({ id: 4, email: 'oleg@myagkiy-opt.ru', name: 'Олег Кузнецов', companies_count: 2 }),
];

/**
 * Opens the company's page; `current` is what the server answers now, and a PATCH changes it as the
 * server would (the manager's and the price type's names from their lists).
 */
function openCompany(initial: AdminCompany, ...handlers: Parameters<typeof server.use>) {
  const state = { current: initial };
  const patches = recorder();
  server.use(
    ...handlers,
    http.get(`${API}/admin/companies/${initial.id}`, () => json(state.current)),
    http.get(`${API}/admin/staff`, () => json(STAFF)),
    http.get(`${API}/admin/price-types`, () => json(PRICE_TYPES)),
    http.patch(`${API}/admin/companies/${initial.id}`, async ({ request }) => {
      patches.record(request);
      const {
        manager_id: managerId,
        price_type_id: priceTypeId,
        ...patch
      } = (await request.json()) as AdminCompanyPatch;
      const staff = STAFF.find(({ id }) => id === managerId);
      const priceType = PRICE_TYPES.find(({ id }) => id === priceTypeId);
      state.current = {
        ...state.current,
        ...patch,
        ...(managerId === undefined
          ? {}
          : { manager: staff ? { id: staff.id, name: staff.name, email: staff.email } : null }),
        ...(priceTypeId === undefined
          ? {}
          : { price_type: priceType ? { id: priceType.id, name: priceType.name } : null }),
      };
      return json(state.current);
    }),
  );
  const user = userEvent.setup();
  const rendered = renderShop({ route: `/admin/companies/${initial.id}`, preloadedState: loggedIn(MANAGER) });
  return { user, state, patches, ...rendered };
}

const region = (name: string) => screen.getByRole('region', { name });

async function choose(user: ReturnType<typeof userEvent.setup>, combobox: HTMLElement, name: string) {
  await user.click(combobox);
  const options = await screen.findAllByTitle(name);
  await user.click(options.find((option) => option.classList.contains('ant-select-item-option'))!);
}

describe('a company in the back office', () => {
  test('shows its employees with their roles, legal entities, invitations, orders and journal', async () => {
    openCompany(adminCompany());
    expect(await screen.findByRole('heading', { level: 1, name: 'Игрушки Плюс' })).toBeInTheDocument();

    const owner = within(region('Сотрудники')).getByText('owner@igrushki.ru').closest('tr')!;
    expect(within(owner).getByText('Иван Петров')).toBeInTheDocument();
    expect(within(owner).getByText('Владелец')).toBeInTheDocument();
    const purchaser = within(region('Сотрудники')).getByText('buyer@igrushki.ru').closest('tr')!;
    expect(within(purchaser).getByText('Закупщик')).toBeInTheDocument();

    const entity = within(region('Юрлица')).getByText('ООО «Игрушки Плюс»').closest('tr')!;
    expect(within(entity).getByText('Организация')).toBeInTheDocument();
    expect(within(entity).getByText('770101001')).toBeInTheDocument();
    expect(within(entity).getByText('По умолчанию')).toBeInTheDocument();
    // No other company has these ИНН and КПП.
    expect(within(region('Юрлица')).queryByRole('alert')).not.toBeInTheDocument();

    const invitation = within(region('Приглашения')).getByText('accountant@igrushki.ru').closest('tr')!;
    expect(within(invitation).getByText('Бухгалтер')).toBeInTheDocument();
    expect(within(invitation).getByText('27.11.2026, 12:00')).toBeInTheDocument();

    const order = within(region('Последние заказы')).getByRole('link', { name: '№15' });
    expect(order).toHaveAttribute('href', '/admin/orders/15');
    expect(within(order.closest('tr')!).getByText('4 500,00 ₽')).toBeInTheDocument();

    const journal = region('Журнал изменений');
    expect(within(journal).getByText('Приглашение сотрудника')).toBeInTheDocument();
    expect(within(journal).queryByText('company.invite')).not.toBeInTheDocument();
  });

  test('warns of a legal entity with the same ИНН and КПП in other companies, linking to them', async () => {
    const company = adminCompany();
    const entity = company.legal_entities[0]!;
    openCompany({
      ...company,
      legal_entities: [
        {
          ...entity,
          same_inn_kpp: [
            { company_id: 22, company_name: 'Мишки Оптом' },
            { company_id: 23, company_name: 'Зайцы и Ко' },
          ],
        },
      ],
    });
    const warning = await within(await screen.findByRole('region', { name: 'Юрлица' })).findByRole('alert');
    expect(warning).toHaveTextContent(
      'ООО «Игрушки Плюс» (ИНН 7707083893, КПП 770101001): тот же ИНН и КПП у компаний Мишки Оптом, Зайцы и Ко',
    );
    expect(within(warning).getByRole('link', { name: 'Мишки Оптом' })).toHaveAttribute('href', '/admin/companies/22');
    expect(within(warning).getByRole('link', { name: 'Зайцы и Ко' })).toHaveAttribute('href', '/admin/companies/23');
    expect(screen.getByText('Тот же ИНН и КПП в другой компании')).toBeInTheDocument();
  });

  test('«Заблокировать» explains what blocking does, then sends blocked: true', async () => {
    const { user, patches } = openCompany(adminCompany());
    await user.click(await screen.findByRole('button', { name: 'Заблокировать' }));
    const confirm = await screen.findByRole('tooltip');
    expect(confirm).toHaveTextContent('Заблокировать компанию «Игрушки Плюс»?');
    expect(confirm).toHaveTextContent(
      'Сотрудники смогут входить, видеть заказы и счета, но не смогут оформлять новые заказы.',
    );
    expect(patches.calls).toHaveLength(0);
    await user.click(within(confirm).getByRole('button', { name: 'Заблокировать' }));
    await waitFor(() => expect(patches.calls).toHaveLength(1));
    expect(await patches.last!.json()).toEqual({ blocked: true });
    // The company is read again: blocked now.
    expect(await screen.findByRole('button', { name: 'Разблокировать' })).toBeInTheDocument();
    expect(screen.getByText('Заблокирована')).toBeInTheDocument();
    expect(screen.getByText('Приостановлено магазином')).toBeInTheDocument();
  });

  test('«Разблокировать» sends blocked: false', async () => {
    const { user, patches } = openCompany(adminCompany({ blocked: true }));
    await user.click(await screen.findByRole('button', { name: 'Разблокировать' }));
    await waitFor(() => expect(patches.calls).toHaveLength(1));
    expect(await patches.last!.json()).toEqual({ blocked: false });
    expect(await screen.findByRole('button', { name: 'Заблокировать' })).toBeInTheDocument();
  });

  test('«Проверенная» sends trusted', async () => {
    const { user, patches } = openCompany(adminCompany());
    const trusted = await screen.findByRole('switch', { name: 'Проверенная' });
    expect(trusted).not.toBeChecked();
    await user.click(trusted);
    await waitFor(() => expect(patches.calls).toHaveLength(1));
    expect(await patches.last!.json()).toEqual({ trusted: true });
    await waitFor(() => expect(screen.getByRole('switch', { name: 'Проверенная' })).toBeChecked());
  });

  test('the personal manager is chosen from the staff (manager_id), and «Не назначен» takes them away (null)', async () => {
    const { user, patches } = openCompany(adminCompany());
    const select = await screen.findByRole('combobox', { name: 'Персональный менеджер' });
    expect(select.closest('.ant-select')).toHaveTextContent('Не назначен');
    await choose(user, select, 'Олег Кузнецов');
    await waitFor(() => expect(patches.calls).toHaveLength(1));
    expect(await patches.last!.json()).toEqual({ manager_id: 4 });
    await waitFor(() => expect(select.closest('.ant-select')).toHaveTextContent('Олег Кузнецов'));

    await choose(user, select, 'Не назначен');
    await waitFor(() => expect(patches.calls).toHaveLength(2));
    expect(await patches.last!.json()).toEqual({ manager_id: null });
  });

  test('«Тип цен» offers the sold types and «По умолчанию», sending price_type_id (null for the default)', async () => {
    const { user, patches } = openCompany(adminCompany());
    const select = await screen.findByRole('combobox', { name: 'Тип цен' });
    await waitFor(() => expect(select.closest('.ant-select')).toHaveTextContent('По умолчанию (Опт)'));
    await choose(user, select, 'Крупный опт');
    await waitFor(() => expect(patches.calls).toHaveLength(1));
    expect(await patches.last!.json()).toEqual({ price_type_id: 2 });
    await waitFor(() => expect(select.closest('.ant-select')).toHaveTextContent('Крупный опт'));
    // A РРЦ is sold to nobody: no choice.
    expect(screen.queryByTitle('РРЦ')).not.toBeInTheDocument();

    await choose(user, select, 'По умолчанию (Опт)');
    await waitFor(() => expect(patches.calls).toHaveLength(2));
    expect(await patches.last!.json()).toEqual({ price_type_id: null });
  });

  test('a refused change shows the server’s reason', async () => {
    const { user } = openCompany(
      adminCompany(),
      http.patch(`${API}/admin/companies/21`, () =>
        HttpResponse.json({ detail: 'Менеджер не найден' }, { status: 404 }),
      ),
    );
    await choose(user, await screen.findByRole('combobox', { name: 'Персональный менеджер' }), 'Анна Смирнова');
    expect(await screen.findByText('Менеджер не найден')).toBeInTheDocument();
  });

  test('«Объединить с другой компанией» finds the other company and sends its id as from_company_id', async () => {
    const searches = recorder();
    const merges = recorder();
    const { user } = openCompany(
      adminCompany(),
      http.get(`${API}/admin/companies`, ({ request }) => {
        searches.record(request);
        // The search finds this company too; it is no choice.
        return json({
          items: [adminCompanyRow(), adminCompanyRow({ id: 22, name: 'Мишки Оптом', inns: ['500100732259'] })],
          total: 2,
        });
      }),
      http.post(`${API}/admin/companies/21/merge`, async ({ request }) => {
        merges.record(request);
        return json(adminCompany());
      }),
    );
    await user.click(await screen.findByRole('button', { name: 'Объединить с другой компанией' }));
    const dialog = await screen.findByRole('dialog', { name: 'Объединить с другой компанией' });
    expect(dialog).toHaveTextContent(
      'Её сотрудники, юрлица, адреса и заказы перейдут сюда, а сама она будет упразднена.',
    );
    const confirm = within(dialog).getByRole('button', { name: 'Объединить' });
    expect(confirm).toBeDisabled();

    await user.type(within(dialog).getByLabelText('Название, ИНН или e-mail сотрудника'), '5001');
    await user.click(within(dialog).getByRole('button', { name: 'Найти' }));
    const other = await within(dialog).findByRole('radio', { name: 'Мишки Оптом' });
    expect(Object.fromEntries(new URL(searches.last!.url).searchParams)).toEqual({ q: '5001', limit: '10' });
    expect(within(dialog).queryByRole('radio', { name: 'Игрушки Плюс' })).not.toBeInTheDocument();

    await user.click(other);
    expect(within(dialog).getByRole('alert')).toHaveTextContent(
      'Компания «Мишки Оптом» будет упразднена' +
        'Её сотрудники, юрлица, адреса и заказы перейдут в «Игрушки Плюс». Отменить объединение нельзя.',
    );
    await user.click(confirm);
    await waitFor(() => expect(merges.calls).toHaveLength(1));
    expect(await merges.last!.json()).toEqual({ from_company_id: 22 });
    expect(await screen.findByText('Компания «Мишки Оптом» объединена с «Игрушки Плюс»')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  test('an unknown company: «Компания не найдена», with the way back', async () => {
    server.use(
      http.get(`${API}/admin/companies/99`, () =>
        HttpResponse.json({ detail: 'Компания не найдена' }, { status: 404 }),
      ),
    );
    renderShop({ route: '/admin/companies/99', preloadedState: loggedIn(MANAGER) });
    expect(await screen.findByRole('heading', { level: 1, name: 'Компания не найдена' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /К компаниям/ })).toHaveAttribute('href', '/admin/companies');
  });
});
