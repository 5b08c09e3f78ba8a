import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import type { Company, LegalEntity } from '@shared/api';
import { COMPANY_MESSAGES, type CompanyRole } from '@shared/company';
import { MESSAGES } from '@shared/messages';
import {
  cart,
  cartHandler,
  companyNetwork,
  companyOf,
  json,
  legalEntity,
  loggedIn,
  recorder,
  requisites,
  SOLE_TRADER,
  USER,
} from '@/test/fixtures';
import { renderShop } from '@/test/render';
import { choose } from '@/test/select';
import { API, server } from '@/test/server';

/** The profile of the buyer in `role` of their company (`overrides` change the company), at «Компания». */
async function openCompany(
  role: CompanyRole,
  overrides: Partial<Company> = {},
  ...handlers: Parameters<typeof server.use>
) {
  const company = companyNetwork(role, overrides);
  server.use(
    ...handlers,
    cartHandler(cart([])),
    http.get(`${API}/requisites/${USER.id}`, () => json(requisites())),
    http.get(`${API}/address/${USER.id}`, () => json([])),
    http.get(`${API}/order/${USER.id}`, () => json([])),
  );
  const user = userEvent.setup({ delay: null });
  const rendered = renderShop({ route: '/profile', preloadedState: loggedIn() });
  const section = within(await screen.findByRole('region', { name: 'Компания' }));
  await section.findByText(USER.email);
  return { user, section, company, ...rendered };
}

const ENTITY = legalEntity();

describe('Profile: «Компания» by role', () => {
  test('the owner renames the company, changes roles, removes employees and invites, never acting on themselves', async () => {
    const renames = recorder();
    const roleChanges = recorder();
    const removals = recorder();
    const invitations = recorder();
    const { user, section, company } = await openCompany(
      'owner',
      {},
      http.patch(`${API}/company`, async ({ request }) => (renames.record(request), json(company))),
      http.patch(`${API}/company/members/:id`, ({ request }) => (roleChanges.record(request), json(company))),
      http.delete(`${API}/company/members/:id`, ({ request }) => (removals.record(request), json(company))),
      http.post(`${API}/company/invitations`, async ({ request }) => {
        invitations.record(request);
        const body = (await request.json()) as { email: string; role: CompanyRole };
        return json({ id: 1, ...body, created_at: '2026-11-28T10:00:00Z', expires_at: '2026-12-05T10:00:00Z' }, 201);
      }),
    );
    // Their own row has no controls; the other owner's has both.
    expect(section.queryByRole('combobox', { name: `Роль: ${USER.email}` })).not.toBeInTheDocument();
    expect(section.queryByRole('button', { name: `Удалить сотрудника ${USER.email}` })).not.toBeInTheDocument();
    expect(section.getByText('вы')).toBeInTheDocument();

    await user.clear(section.getByLabelText('Название'));
    await user.type(section.getByLabelText('Название'), 'ООО «Мишки»');
    await user.click(section.getByRole('button', { name: 'Переименовать' }));
    await waitFor(() => expect(renames.calls).toHaveLength(1));
    expect(await renames.last!.json()).toEqual({ name: 'ООО «Мишки»' });
    expect(await screen.findByText('Название компании изменено')).toBeInTheDocument();

    await choose(user, section.getByRole('combobox', { name: 'Роль: boss@example.ru' }), 'Бухгалтер');
    await waitFor(() => expect(roleChanges.calls).toHaveLength(1));
    expect(new URL(roleChanges.last!.url).pathname).toBe('/api/v1/company/members/9');
    expect(await roleChanges.last!.json()).toEqual({ role: 'accountant' });

    await user.click(section.getByRole('button', { name: 'Удалить сотрудника boss@example.ru' }));
    await user.click(within(await screen.findByRole('tooltip')).getByRole('button', { name: 'Удалить' }));
    await waitFor(() => expect(removals.calls).toHaveLength(1));
    expect(new URL(removals.last!.url).pathname).toBe('/api/v1/company/members/9');

    const form = within(section.getByRole('form', { name: 'Пригласить сотрудника' }));
    await user.type(form.getByLabelText('E-mail сотрудника'), 'new.buyer@example.ru');
    await choose(user, form.getByRole('combobox', { name: 'Роль' }), 'Бухгалтер');
    expect(await form.findByText('заказы, счета и документы компании; без оформления заказов')).toBeInTheDocument();
    await user.click(form.getByRole('button', { name: 'Отправить приглашение' }));
    await waitFor(() => expect(invitations.calls).toHaveLength(1));
    expect(await invitations.last!.json()).toEqual({ email: 'new.buyer@example.ru', role: 'accountant' });
    expect(await screen.findByText('Приглашение отправлено на new.buyer@example.ru')).toBeInTheDocument();
  });

  test("the invitation form checks the address, and shows the server's refusal", async () => {
    const invitations = recorder();
    const { user, section } = await openCompany(
      'owner',
      {},
      http.post(`${API}/company/invitations`, ({ request }) => {
        invitations.record(request);
        return json({ detail: COMPANY_MESSAGES.otherCompanyEmployee }, 409);
      }),
    );
    const form = within(section.getByRole('form', { name: 'Пригласить сотрудника' }));
    await user.type(form.getByLabelText('E-mail сотрудника'), 'not-an-address');
    await user.click(form.getByRole('button', { name: 'Отправить приглашение' }));
    expect(await form.findByText(MESSAGES.emailInvalid)).toBeInTheDocument();
    expect(invitations.calls).toHaveLength(0);

    await user.clear(form.getByLabelText('E-mail сотрудника'));
    await user.type(form.getByLabelText('E-mail сотрудника'), 'taken@example.ru');
    await user.click(form.getByRole('button', { name: 'Отправить приглашение' }));
    expect(await form.findByText(COMPANY_MESSAGES.otherCompanyEmployee)).toBeInTheDocument();
    expect(invitations.calls).toHaveLength(1);
  });

  test('the owner sees the pending invitations and revokes one', async () => {
    const revocations = recorder();
    const { user, section } = await openCompany(
      'owner',
      {
        invitations: [
          {
            id: 41,
            email: 'later@example.ru',
            role: 'purchaser',
            created_at: '2026-11-28T10:00:00Z',
            expires_at: '2026-12-05T10:00:00Z',
          },
        ],
      },
      http.delete(`${API}/company/invitations/:id`, ({ request }) => {
        revocations.record(request);
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const pending = within(section.getByRole('region', { name: 'Ожидают ответа' }));
    expect(pending.getByText(/later@example\.ru · Закупщик/)).toBeInTheDocument();
    expect(pending.getByText('ссылка действует до 5 декабря 2026 г.')).toBeInTheDocument();
    await user.click(pending.getByRole('button', { name: 'Отозвать приглашение later@example.ru' }));
    await waitFor(() => expect(revocations.calls).toHaveLength(1));
    expect(new URL(revocations.last!.url).pathname).toBe('/api/v1/company/invitations/41');
  });

  test('a purchaser reads the company: no invitation, no role choice, no removal, legal entities read-only', async () => {
    const { section } = await openCompany('purchaser', { legal_entities: [ENTITY] });
    expect(section.getByText('Ваша роль:', { exact: false })).toHaveTextContent('Ваша роль: Закупщик');
    expect(section.queryByRole('form', { name: 'Пригласить сотрудника' })).not.toBeInTheDocument();
    expect(section.queryByRole('combobox')).not.toBeInTheDocument();
    expect(section.queryByRole('button', { name: /Удалить/ })).not.toBeInTheDocument();
    expect(section.queryByRole('button', { name: /Добавить юрлицо/ })).not.toBeInTheDocument();
    expect(section.queryByRole('button', { name: /Изменить юрлицо/ })).not.toBeInTheDocument();
    expect(section.queryByRole('button', { name: 'Переименовать' })).not.toBeInTheDocument();
    expect(section.getByText(COMPANY_MESSAGES.notOwner)).toBeInTheDocument();
    expect(section.getByText(COMPANY_MESSAGES.legalEntitiesReadOnly)).toBeInTheDocument();
    // The details are still there to read.
    const entity = within(section.getByRole('listitem', { name: ENTITY.name }));
    expect(entity.getByText('7707083893')).toBeInTheDocument();
    expect(entity.getByText('По умолчанию')).toBeInTheDocument();
  });

  test('an accountant keeps the legal entities (adds, changes, deletes) but invites nobody', async () => {
    const saved = recorder();
    const deletions = recorder();
    let entities: LegalEntity[] = [ENTITY];
    const { user, section } = await openCompany(
      'accountant',
      {},
      http.get(`${API}/company`, () => json(companyOf('accountant', { legal_entities: entities }))),
      http.post(`${API}/company/legal-entities`, async ({ request }) => {
        saved.record(request);
        const created = { ...SOLE_TRADER, ...((await request.json()) as object) } as LegalEntity;
        entities = [...entities, created];
        return json(created, 201);
      }),
      http.patch(`${API}/company/legal-entities/:id`, async ({ request }) => {
        saved.record(request);
        return json(ENTITY);
      }),
      http.delete(`${API}/company/legal-entities/:id`, ({ request, params }) => {
        deletions.record(request);
        entities = entities.filter((entity) => entity.id !== params.id);
        return new HttpResponse(null, { status: 204 });
      }),
    );
    expect(section.queryByRole('form', { name: 'Пригласить сотрудника' })).not.toBeInTheDocument();
    expect(section.queryByRole('combobox')).not.toBeInTheDocument();

    await user.click(section.getByRole('button', { name: /Добавить юрлицо/ }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Новое юрлицо' }));
    await user.click(dialog.getByRole('radio', { name: 'ИП' }));
    await waitFor(() => expect(dialog.queryByLabelText(/^КПП/)).not.toBeInTheDocument());
    await user.type(dialog.getByLabelText(/^Наименование/), SOLE_TRADER.name);
    await user.type(dialog.getByLabelText(/^ИНН/), SOLE_TRADER.inn);
    await user.click(dialog.getByRole('button', { name: 'Сохранить' }));
    await waitFor(() => expect(saved.calls).toHaveLength(1));
    expect(await saved.last!.json()).toEqual({
      kind: 'ip',
      name: SOLE_TRADER.name,
      inn: SOLE_TRADER.inn,
      kpp: null,
      ogrn: null,
      address: '',
      bank_name: null,
      bik: null,
      account: null,
      corr_account: null,
    });
    expect(await section.findByRole('listitem', { name: SOLE_TRADER.name })).toBeInTheDocument();

    await user.click(section.getByRole('button', { name: `Изменить юрлицо ${ENTITY.name}` }));
    const editing = within(await screen.findByRole('dialog', { name: 'Изменить юрлицо' }));
    expect(editing.getByLabelText(/^КПП/)).toHaveValue(ENTITY.kpp);
    await user.clear(editing.getByLabelText(/^Банк/));
    await user.type(editing.getByLabelText(/^Банк/), 'АО «Банк»');
    await user.click(editing.getByRole('button', { name: 'Сохранить' }));
    await waitFor(() => expect(saved.calls).toHaveLength(2));
    expect(saved.last!.method).toBe('PATCH');
    expect(new URL(saved.last!.url).pathname).toBe(`/api/v1/company/legal-entities/${ENTITY.id}`);
    expect(await saved.last!.json()).toMatchObject({ bank_name: 'АО «Банк»', inn: ENTITY.inn, kpp: ENTITY.kpp });

    await user.click(section.getByRole('button', { name: `Удалить юрлицо ${SOLE_TRADER.name}` }));
    await user.click(within(await screen.findByRole('tooltip')).getByRole('button', { name: 'Удалить' }));
    await waitFor(() => expect(deletions.calls).toHaveLength(1));
    await waitFor(() => expect(section.queryByRole('listitem', { name: SOLE_TRADER.name })).not.toBeInTheDocument());
  });
});

describe("Profile: the legal entity's dialog", () => {
  async function openDialog(...handlers: Parameters<typeof server.use>) {
    const opened = await openCompany('owner', {}, ...handlers);
    await opened.user.click(opened.section.getByRole('button', { name: /Добавить юрлицо/ }));
    return { ...opened, dialog: within(await screen.findByRole('dialog', { name: 'Новое юрлицо' })) };
  }

  test('a 10-digit ИНН for an ИП is refused with its message, and nothing is sent', async () => {
    const creations = recorder();
    const { user, dialog } = await openDialog(
      http.post(`${API}/company/legal-entities`, ({ request }) => (creations.record(request), json(ENTITY, 201))),
    );
    await user.click(dialog.getByRole('radio', { name: 'ИП' }));
    await user.type(dialog.getByLabelText(/^Наименование/), 'ИП Петров');
    await user.type(dialog.getByLabelText(/^ИНН/), '7707083893');
    await user.click(dialog.getByRole('button', { name: 'Сохранить' }));
    expect(await dialog.findByText(COMPANY_MESSAGES.innKindMismatch)).toBeInTheDocument();
    // The same ИНН is an organisation's: switching the kind clears the message.
    await user.click(dialog.getByRole('radio', { name: 'Организация' }));
    await waitFor(() => expect(dialog.queryByText(COMPANY_MESSAGES.innKindMismatch)).not.toBeInTheDocument());
    expect(creations.calls).toHaveLength(0);
  });

  test("an organisation needs its КПП; the ИНН's, ОГРН's and bank's checks are the server's own", async () => {
    const creations = recorder();
    const { user, dialog } = await openDialog(
      http.post(`${API}/company/legal-entities`, ({ request }) => (creations.record(request), json(ENTITY, 201))),
    );
    await user.type(dialog.getByLabelText(/^Наименование/), 'ООО «Ромашка»');
    await user.type(dialog.getByLabelText(/^ИНН/), '7707083894');
    await user.type(dialog.getByLabelText(/^ОГРН/), '1027700132194');
    await user.type(dialog.getByLabelText(/^БИК/), '123');
    await user.type(dialog.getByLabelText(/^Расчётный счёт/), '40702810938000000002');
    await user.click(dialog.getByRole('button', { name: 'Сохранить' }));
    expect(await dialog.findByText(MESSAGES.innChecksum)).toBeInTheDocument();
    expect(await dialog.findByText(COMPANY_MESSAGES.kppRequired)).toBeInTheDocument();
    expect(await dialog.findByText('Некорректный ОГРН: не сходится контрольное число.')).toBeInTheDocument();
    expect(await dialog.findByText('БИК должен содержать 9 цифр и начинаться с 04.')).toBeInTheDocument();
    expect(
      await dialog.findByText('Некорректный расчётный счёт: не сходится контрольный ключ с БИК.'),
    ).toBeInTheDocument();
    expect(creations.calls).toHaveLength(0);
  });

  test("the server's refusal is shown in the dialog, which stays open", async () => {
    const { user, dialog } = await openDialog(
      http.post(`${API}/company/legal-entities`, () => json({ detail: COMPANY_MESSAGES.legalEntityDuplicate }, 422)),
    );
    await user.type(dialog.getByLabelText(/^Наименование/), 'ООО «Игрушки»');
    await user.type(dialog.getByLabelText(/^ИНН/), ENTITY.inn);
    await user.type(dialog.getByLabelText(/^КПП/), ENTITY.kpp!);
    await user.click(dialog.getByRole('button', { name: 'Сохранить' }));
    expect(await dialog.findByText(COMPANY_MESSAGES.legalEntityDuplicate)).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Новое юрлицо' })).toBeInTheDocument();
  });
});

describe('Profile: the personal manager', () => {
  test('is shown with a tel: link, a mailto: link and the messenger', async () => {
    const { section } = await openCompany('purchaser', {
      manager: {
        name: 'Мария Ковалёва',
        email: 'maria@myagkiy-opt.ru',
        phone: '+7 (495) 123-45-67',
        messenger_url: 'https://t.me/maria_opt',
      },
    });
    const card = within(section.getByText('Ваш менеджер').closest('.ant-card') as HTMLElement);
    expect(card.getByText('Мария Ковалёва')).toBeInTheDocument();
    expect(card.getByRole('link', { name: /\+7 \(495\) 123-45-67/ })).toHaveAttribute('href', 'tel:+74951234567');
    expect(card.getByRole('link', { name: /maria@myagkiy-opt\.ru/ })).toHaveAttribute(
      'href',
      'mailto:maria@myagkiy-opt.ru',
    );
    expect(card.getByRole('link', { name: /Написать в мессенджер/ })).toHaveAttribute('href', 'https://t.me/maria_opt');
  });

  test('a messenger address that is not a web page is not made a link', async () => {
    const { section } = await openCompany('owner', {
      manager: { name: 'Мария', email: 'maria@myagkiy-opt.ru', phone: null, messenger_url: 'javascript:alert(1)' },
    });
    const card = within(section.getByText('Ваш менеджер').closest('.ant-card') as HTMLElement);
    expect(card.getAllByRole('link')).toHaveLength(1);
  });

  test('when none is assigned, says so', async () => {
    const { section } = await openCompany('owner');
    expect(section.getByText(/Персональный менеджер пока не назначен/)).toBeInTheDocument();
  });
});
