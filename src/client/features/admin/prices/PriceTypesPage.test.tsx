import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App } from 'antd';
import { http } from 'msw';
import type { PriceType } from '@shared/api';
import { MANAGER, PRICE_TYPES } from '@/test/adminFixtures';
import { json, loggedIn, recorder } from '@/test/fixtures';
import { renderShop } from '@/test/render';
import { API, server } from '@/test/server';
import { PriceTypesPage } from './PriceTypesPage';

// antd's App (the toasts) is the back office layout's, around every page.
const routes = [
  {
    path: '/admin/price-types',
    element: (
      <App>
        <PriceTypesPage />
      </App>
    ),
  },
];

/**
 * Opens «Типы цен»; `state.types` is what the server lists now, and the storefront's setting is
 * `state.pricesForVisitors`, changed by a PUT as the server would.
 */
function openPage(...handlers: Parameters<typeof server.use>) {
  const state = { types: [...PRICE_TYPES], pricesForVisitors: true };
  const settings = recorder();
  server.use(
    ...handlers,
    http.get(`${API}/admin/price-types`, () => json(state.types)),
    http.get(`${API}/admin/settings/storefront`, () => json({ prices_for_visitors: state.pricesForVisitors })),
    http.put(`${API}/admin/settings/storefront`, async ({ request }) => {
      settings.record(request);
      state.pricesForVisitors = ((await request.json()) as { prices_for_visitors: boolean }).prices_for_visitors;
      return json({ prices_for_visitors: state.pricesForVisitors });
    }),
  );
  const user = userEvent.setup({ delay: null });
  const rendered = renderShop({ route: '/admin/price-types', routes, preloadedState: loggedIn(MANAGER) });
  return { user, state, settings, ...rendered };
}

const rowOf = async (name: string) =>
  (await screen.findByRole('cell', { name: new RegExp(`^${name}`) })).closest('tr')!;

describe('Типы цен (back office)', () => {
  test('lists the types with their code, marks, minimum order sum and companies', async () => {
    openPage();
    expect(await screen.findByRole('heading', { level: 1, name: 'Типы цен' })).toBeInTheDocument();
    const opt = await rowOf('Опт');
    expect(within(opt).getByText('По умолчанию')).toBeInTheDocument();
    expect(within(opt).getByText('opt')).toBeInTheDocument();
    expect(within(opt).getByText('Без минимума')).toBeInTheDocument();
    // The default type is default already: nothing to make so, and it cannot be deleted from here unasked.
    expect(within(opt).queryByRole('button', { name: /Сделать по умолчанию/ })).not.toBeInTheDocument();

    const large = await rowOf('Крупный опт');
    expect(within(large).getByText('50 000,00 ₽')).toBeInTheDocument();
    expect(within(large).getByRole('cell', { name: '3' })).toBeInTheDocument();
    expect(within(large).queryByText('По умолчанию')).not.toBeInTheDocument();

    const rrp = await rowOf('РРЦ');
    expect(within(rrp).getByText('РРЦ', { selector: '.ant-tag' })).toBeInTheDocument();
    expect(within(rrp).queryByRole('button', { name: /Сделать по умолчанию/ })).not.toBeInTheDocument();
  });

  test('«Добавить тип цен» sends its name and minimum order sum, and the list shows it', async () => {
    const creations = recorder();
    const { user, state } = openPage(
      http.post(`${API}/admin/price-types`, async ({ request }) => {
        creations.record(request);
        const body = (await request.json()) as { name: string; min_order_sum: number };
        const created: PriceType = {
          id: 4,
          code: 'small',
          name: body.name,
          is_default: false,
          is_rrp: false,
          min_order_sum: body.min_order_sum,
          companies_count: 0,
        };
        state.types = [...state.types, created];
        return json(created, 201);
      }),
    );
    await user.click(await screen.findByRole('button', { name: 'Добавить тип цен' }));
    const dialog = await screen.findByRole('dialog', { name: 'Новый тип цен' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Название' }), ' Мелкий опт ');
    const sum = within(dialog).getByRole('spinbutton', { name: 'Минимальная сумма заказа, ₽' });
    await user.clear(sum);
    await user.type(sum, '15000,555');
    await user.click(within(dialog).getByRole('button', { name: 'Сохранить' }));
    expect(await within(dialog).findByText('Сумма указывается в рублях с копейками, не точнее')).toBeInTheDocument();
    expect(creations.calls).toHaveLength(0);

    await user.clear(sum);
    await user.type(sum, '15000');
    await user.click(within(dialog).getByRole('button', { name: 'Сохранить' }));
    await waitFor(() => expect(creations.calls).toHaveLength(1));
    expect(await creations.last!.json()).toEqual({ name: 'Мелкий опт', is_rrp: false, min_order_sum: 15000 });
    const created = await rowOf('Мелкий опт');
    expect(within(created).getByText('15 000,00 ₽')).toBeInTheDocument();
    expect(await screen.findByText('Тип цен добавлен')).toBeInTheDocument();
  });

  test('a rename sends only the name; «Сделать по умолчанию» asks, then sends is_default', async () => {
    const patches: unknown[] = [];
    const { user, state } = openPage(
      http.patch(`${API}/admin/price-types/:id`, async ({ request, params }) => {
        const patch = (await request.json()) as Partial<PriceType>;
        patches.push({ id: Number(params.id), ...patch });
        state.types = state.types.map((type) =>
          type.id === Number(params.id)
            ? { ...type, ...patch }
            : patch.is_default
              ? { ...type, is_default: false }
              : type,
        );
        return json(state.types.find(({ id }) => id === Number(params.id))!);
      }),
    );
    await user.click(await screen.findByRole('button', { name: 'Изменить тип цен «Крупный опт»' }));
    const dialog = await screen.findByRole('dialog', { name: 'Тип цен «Крупный опт»' });
    expect(within(dialog).getByText(/Код large не меняется/)).toBeInTheDocument();
    const name = within(dialog).getByRole('textbox', { name: 'Название' });
    await user.clear(name);
    await user.type(name, 'Дилер');
    await user.click(within(dialog).getByRole('button', { name: 'Сохранить' }));
    await waitFor(() => expect(patches).toEqual([{ id: 2, name: 'Дилер' }]));

    await user.click(await screen.findByRole('button', { name: 'Сделать по умолчанию: Дилер' }));
    const confirm = await screen.findByRole('tooltip');
    expect(confirm).toHaveTextContent('По нему будут покупать гости и компании без назначенного типа цен.');
    expect(patches).toHaveLength(1);
    await user.click(within(confirm).getByRole('button', { name: 'Сделать' }));
    await waitFor(() =>
      expect(patches).toEqual([
        { id: 2, name: 'Дилер' },
        { id: 2, is_default: true },
      ]),
    );
    // The list is read again: «Дилер» is the default now, and «Опт» may be made so.
    await waitFor(async () => expect(within(await rowOf('Дилер')).getByText('По умолчанию')).toBeInTheDocument());
    expect(within(await rowOf('Опт')).getByRole('button', { name: 'Сделать по умолчанию: Опт' })).toBeInTheDocument();
  });

  test('a deletion is asked first; the server’s 409 is shown and the type stays', async () => {
    const deletions = recorder();
    const { user } = openPage(
      http.delete(`${API}/admin/price-types/:id`, ({ request }) => {
        deletions.record(request);
        return json({ detail: 'Тип цен «Крупный опт» назначен 3 компаниям: сначала смените им тип' }, 409);
      }),
    );
    await user.click(await screen.findByRole('button', { name: 'Удалить тип цен «Крупный опт»' }));
    const confirm = await screen.findByRole('tooltip');
    expect(confirm).toHaveTextContent('Удалить тип цен «Крупный опт»? Цены этого типа у товаров удалятся.');
    expect(deletions.calls).toHaveLength(0);
    await user.click(within(confirm).getByRole('button', { name: 'Удалить' }));
    expect(
      await screen.findByText('Тип цен «Крупный опт» назначен 3 компаниям: сначала смените им тип'),
    ).toBeInTheDocument();
    expect(new URL(deletions.last!.url).pathname).toBe('/api/v1/admin/price-types/2');
    expect(await rowOf('Крупный опт')).toBeInTheDocument();
  });

  test('«Показывать цены только после входа» turned on sends prices_for_visitors: false', async () => {
    const { user, settings } = openPage();
    const hide = await screen.findByRole('switch', { name: 'Показывать цены только после входа' });
    await waitFor(() => expect(hide).toBeEnabled());
    expect(hide).not.toBeChecked();
    expect(screen.getByText('Гости видят цены типа по умолчанию («Опт»)')).toBeInTheDocument();

    await user.click(hide);
    await waitFor(() => expect(settings.calls).toHaveLength(1));
    expect(await settings.last!.json()).toEqual({ prices_for_visitors: false });
    await waitFor(() => expect(hide).toBeChecked());
    expect(
      screen.getByText(
        'Гости видят каталог без цен: цены на витрине, в прайс-листе и фидах — только покупателям после входа',
      ),
    ).toBeInTheDocument();
  });
});
