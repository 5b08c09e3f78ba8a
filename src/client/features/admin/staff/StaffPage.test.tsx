import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import type { StaffProfile, StaffProfileFields } from '@shared/api';
import { MANAGER, staffProfile } from '@/test/adminFixtures';
import { json, loggedIn, recorder } from '@/test/fixtures';
import { renderShop } from '@/test/render';
import { API, server } from '@/test/server';

/** Opens «Менеджеры»; a PATCH changes the profile as the server would, and the list is read again. */
function openStaff() {
  const state: { staff: StaffProfile[] } = {
    staff: [
      staffProfile(),
      staffProfile({
        id: 4,
        email: 'oleg@myagkiy-opt.ru',
        name: 'Олег Кузнецов',
        contact_email: null,
        phone: null,
        messenger_url: null,
        companies_count: 0,
      }),
    ],
  };
  const patches = recorder();
  server.use(
    http.get(`${API}/admin/staff`, () => json(state.staff)),
    http.patch(`${API}/admin/staff/:id`, async ({ request, params }) => {
      patches.record(request);
      const patch = (await request.json()) as StaffProfileFields;
      state.staff = state.staff.map((profile) =>
        profile.id === Number(params.id) ? { ...profile, ...patch } : profile,
      );
      return json(state.staff.find(({ id }) => id === Number(params.id))!);
    }),
  );
  // No pause between keystrokes: the form has four fields.
  const user = userEvent.setup({ delay: null });
  return { user, patches, ...renderShop({ route: '/admin/staff', preloadedState: loggedIn(MANAGER) }) };
}

describe('Менеджеры (back office)', () => {
  test('lists the managers with the contacts the buyers see', async () => {
    openStaff();
    const anna = (await screen.findByText('Анна Смирнова')).closest('tr')!;
    expect(within(anna).getByText(MANAGER.email)).toBeInTheDocument();
    expect(within(anna).getByText('anna@myagkiy-opt.ru')).toBeInTheDocument();
    expect(within(anna).getByText('+7 495 000-00-00')).toBeInTheDocument();
    expect(within(anna).getByRole('link', { name: 'https://t.me/anna_opt' })).toHaveAttribute(
      'href',
      'https://t.me/anna_opt',
    );
    expect(within(anna).getByRole('cell', { name: '5' })).toBeInTheDocument();
    const oleg = screen.getByText('Олег Кузнецов').closest('tr')!;
    expect(within(oleg).getAllByText('—')).toHaveLength(3);
  });

  test('editing sends only what changed, an emptied contact as null', async () => {
    const { user, patches } = openStaff();
    await user.click(await screen.findByRole('button', { name: 'Изменить профиль Анна Смирнова' }));
    const dialog = await screen.findByRole('dialog', { name: `Менеджер ${MANAGER.email}` });
    const phone = within(dialog).getByLabelText('Телефон');
    await user.clear(phone);
    await user.clear(within(dialog).getByLabelText('Ссылка на мессенджер'));
    await user.type(within(dialog).getByLabelText('Ссылка на мессенджер'), 'https://wa.me/74950000000');
    await user.click(within(dialog).getByRole('button', { name: 'Сохранить' }));
    await waitFor(() => expect(patches.calls).toHaveLength(1));
    expect(new URL(patches.last!.url).pathname).toBe('/api/v1/admin/staff/3');
    expect(await patches.last!.json()).toEqual({ phone: null, messenger_url: 'https://wa.me/74950000000' });
    expect(await screen.findByText('Профиль менеджера сохранён')).toBeInTheDocument();
    // The list is read again.
    expect(await screen.findByRole('link', { name: 'https://wa.me/74950000000' })).toBeInTheDocument();
  });

  test('the form checks the e-mail, the link and the name before sending', async () => {
    const { user, patches } = openStaff();
    await user.click(await screen.findByRole('button', { name: 'Изменить профиль Олег Кузнецов' }));
    const dialog = await screen.findByRole('dialog', { name: 'Менеджер oleg@myagkiy-opt.ru' });
    await user.clear(within(dialog).getByLabelText('Имя для покупателей'));
    await user.type(within(dialog).getByLabelText('E-mail для связи'), 'oleg-at-shop');
    await user.type(within(dialog).getByLabelText('Ссылка на мессенджер'), 't.me/oleg');
    await user.click(within(dialog).getByRole('button', { name: 'Сохранить' }));
    expect(await within(dialog).findByText('Укажите имя')).toBeInTheDocument();
    expect(await within(dialog).findByText('Введите e-mail, например anna@example.ru')).toBeInTheDocument();
    expect(await within(dialog).findByText('Введите ссылку целиком, начиная с https://')).toBeInTheDocument();
    expect(patches.calls).toHaveLength(0);

    await user.type(within(dialog).getByLabelText('Имя для покупателей'), '  Олег  ');
    await user.clear(within(dialog).getByLabelText('E-mail для связи'));
    await user.type(within(dialog).getByLabelText('E-mail для связи'), 'oleg.k@myagkiy-opt.ru');
    await user.clear(within(dialog).getByLabelText('Ссылка на мессенджер'));
    await user.type(within(dialog).getByLabelText('Ссылка на мессенджер'), 'https://t.me/oleg');
    await user.click(within(dialog).getByRole('button', { name: 'Сохранить' }));
    await waitFor(() => expect(patches.calls).toHaveLength(1));
    expect(await patches.last!.json()).toEqual({
      name: 'Олег',
      contact_email: 'oleg.k@myagkiy-opt.ru',
      messenger_url: 'https://t.me/oleg',
    });
  });
});
