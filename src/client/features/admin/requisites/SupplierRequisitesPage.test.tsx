import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { MESSAGES } from '@shared/messages';
import { MANAGER, SUPPLIER } from '@/test/adminFixtures';
import { json, loggedIn, recorder } from '@/test/fixtures';
import { renderShop } from '@/test/render';
import { API, server } from '@/test/server';

const URL_ = `${API}/admin/settings/requisites`;

function openRequisites(saved: typeof SUPPLIER | null, answer?: () => Response) {
  const puts = recorder();
  server.use(
    http.get(URL_, () => json(saved)),
    http.put(URL_, async ({ request }) => {
      puts.record(request);
      return answer ? answer() : json(await request.clone().json());
    }),
  );
  const user = userEvent.setup();
  return { user, puts, ...renderShop({ route: '/admin/requisites', preloadedState: loggedIn(MANAGER) }) };
}

const field = (label: string) => screen.getByLabelText(label);

/** Types into a field at once (a paste): typing twelve fields key by key takes seconds in jsdom. */
async function fill(user: ReturnType<typeof userEvent.setup>, label: string, value: string) {
  await user.click(field(label));
  await user.paste(value);
}

describe('Реквизиты поставщика', () => {
  test('an empty form is filled in and sent with PUT', async () => {
    const { user, puts } = openRequisites(null);
    await screen.findByRole('heading', { level: 1, name: 'Реквизиты поставщика' });
    await fill(user, 'Наименование', SUPPLIER.name);
    await fill(user, 'ИНН', SUPPLIER.inn);
    await fill(user, 'КПП', SUPPLIER.kpp!);
    await fill(user, 'ОГРН или ОГРНИП', SUPPLIER.ogrn);
    await fill(user, 'Адрес', SUPPLIER.address);
    await fill(user, 'Банк', SUPPLIER.bank_name);
    await fill(user, 'БИК', SUPPLIER.bik);
    await fill(user, 'Расчётный счёт', SUPPLIER.account);
    await fill(user, 'Корреспондентский счёт', SUPPLIER.corr_account);
    await user.click(screen.getByRole('button', { name: 'Сохранить реквизиты' }));
    await waitFor(() => expect(puts.calls).toHaveLength(1));
    // Без НДС and five days unless chosen otherwise.
    expect(await puts.last!.json()).toEqual({ ...SUPPLIER, vat_rate: null, payment_days: 5 });
    expect(await screen.findByText('Реквизиты сохранены')).toBeInTheDocument();
  });

  test('a bad ИНН is refused in the form and nothing is sent', async () => {
    const { user, puts } = openRequisites(SUPPLIER);
    await screen.findByDisplayValue(SUPPLIER.name);
    await user.clear(field('ИНН'));
    await fill(user, 'ИНН', '7707083894');
    await user.click(screen.getByRole('button', { name: 'Сохранить реквизиты' }));
    expect(await screen.findByText(MESSAGES.innChecksum)).toBeInTheDocument();
    expect(puts.calls).toHaveLength(0);
  });

  test('a settlement account that does not match the БИК is refused', async () => {
    const { user, puts } = openRequisites(SUPPLIER);
    await screen.findByDisplayValue(SUPPLIER.name);
    await user.clear(field('Расчётный счёт'));
    await fill(user, 'Расчётный счёт', '40702810938000000000');
    await user.click(screen.getByRole('button', { name: 'Сохранить реквизиты' }));
    expect(
      await screen.findByText('Некорректный расчётный счёт: не сходится контрольный ключ с БИК.'),
    ).toBeInTheDocument();
    expect(puts.calls).toHaveLength(0);
  });

  test('saved details are shown, a new VAT rate is sent, and the server’s refusal is shown', async () => {
    const { user, puts } = openRequisites(SUPPLIER, () =>
      json({ detail: 'Некорректный ОГРН: не сходится контрольное число.' }, 422),
    );
    await screen.findByDisplayValue(SUPPLIER.name);
    expect(field('БИК')).toHaveValue(SUPPLIER.bik);
    const vat = screen.getByRole('combobox', { name: 'Ставка НДС' });
    expect(vat.closest('.ant-select')).toHaveTextContent('22 %');
    await user.click(vat);
    // The open list's option, as a manager would click it (each carries its label as its title).
    const options = await screen.findAllByTitle('Без НДС');
    await user.click(options.find((option) => option.classList.contains('ant-select-item-option'))!);
    await user.click(screen.getByRole('button', { name: 'Сохранить реквизиты' }));
    await waitFor(() => expect(puts.calls).toHaveLength(1));
    expect(await puts.last!.json()).toEqual({ ...SUPPLIER, vat_rate: null });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Реквизиты не сохранены');
    expect(alert).toHaveTextContent('Некорректный ОГРН: не сходится контрольное число.');
  });

  test('details that could not be read show no form to overwrite them, and a retry', async () => {
    let fails = true;
    server.use(http.get(URL_, () => (fails ? json({ detail: 'Ошибка' }, 500) : json(SUPPLIER))));
    const user = userEvent.setup();
    renderShop({ route: '/admin/requisites', preloadedState: loggedIn(MANAGER) });
    expect(await screen.findByText('Не удалось загрузить реквизиты')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Сохранить реквизиты' })).not.toBeInTheDocument();
    fails = false;
    await user.click(screen.getByRole('button', { name: 'Повторить' }));
    expect(await screen.findByDisplayValue(SUPPLIER.name)).toBeInTheDocument();
  });
});
