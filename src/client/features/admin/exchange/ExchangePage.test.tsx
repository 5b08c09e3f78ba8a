import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App } from 'antd';
import { http, HttpResponse } from 'msw';
import type { ExchangeAccount, ExchangeOverview, ExchangeRun, ExchangeSettingsBody } from '@shared/api';
import { MANAGER, PRICE_TYPES } from '@/test/adminFixtures';
import { json, loggedIn, recorder } from '@/test/fixtures';
import { renderShop } from '@/test/render';
import { choose } from '@/test/select';
import { API, server } from '@/test/server';
import { ExchangePage } from './ExchangePage';

const EXCHANGE = `${API}/admin/exchange`;

// antd's App (the toasts) is the back office layout's, around every page.
const routes = [
  {
    path: '/admin/exchange',
    element: (
      <App>
        <ExchangePage />
      </App>
    ),
  },
];

const ONE_C: ExchangeAccount = { id: 41, email: '1c@myagkiy-opt.ru', name: null, is_manager: false };

function overview(): ExchangeOverview {
  return {
    url: 'https://myagkiy-opt.ru/1c_exchange',
    file_limit: 100 * 1024 * 1024,
    files_keep_days: 30,
    allowed_ips: [],
    accounts: [ONE_C],
    settings: { color_characteristic: 'Цвет', size_characteristic: 'Размер', missing_products: 'leave' },
    price_types: [
      {
        external_id: 'opt-1c',
        name: 'Опт',
        price_type_id: 1,
        mapped_by_manager: false,
        last_seen_at: '2026-11-27T09:00:00Z',
      },
      {
        // 1С's Ид is free text: it goes into the path encoded.
        external_id: 'закупка/2 #',
        name: 'Закупочная',
        price_type_id: null,
        mapped_by_manager: false,
        last_seen_at: '2026-11-27T09:00:00Z',
      },
    ],
    warehouses: [{ external_id: 'main', name: 'Основной склад', used: false, last_seen_at: '2026-11-27T09:00:00Z' }],
    pending_orders: 3,
  };
}

function run(overrides: Partial<ExchangeRun> = {}): ExchangeRun {
  return {
    id: '2f1e4c8a-8d3b-4c55-9a51-6f0f1d2b3c4d',
    kind: 'catalog',
    status: 'done',
    failure: null,
    started_at: '2026-11-27T09:00:00Z',
    finished_at: '2026-11-27T09:02:00Z',
    by_email: ONE_C.email,
    files: [],
    files_kept: true,
    categories_created: 0,
    categories_updated: 0,
    products_created: 0,
    products_updated: 0,
    products_hidden: 0,
    products_linked_by_article: [],
    variants_created: 0,
    variants_updated: 0,
    variants_linked: 0,
    prices_set: 0,
    orders_sent: 0,
    orders_updated: 0,
    errors: [],
    errors_count: 0,
    ...overrides,
  };
}

interface Given {
  overview?: Partial<ExchangeOverview>;
  runs?: ExchangeRun[];
  /** How many runs the server counts (more than `runs` for a later page). */
  runsTotal?: number;
}

/** Opens «Обмен с 1С»; `state` is what the server has now, which the handlers given change as the server would. */
function openPage(given: Given, ...handlers: Parameters<typeof server.use>) {
  const state = { overview: { ...overview(), ...given.overview }, runs: given.runs ?? [] };
  const runPages = recorder();
  server.use(
    ...handlers,
    http.get(EXCHANGE, () => json(state.overview)),
    http.get(`${EXCHANGE}/runs`, ({ request }) => {
      runPages.record(request);
      return json({ items: state.runs, total: given.runsTotal ?? state.runs.length });
    }),
    http.get(`${API}/admin/price-types`, () => json(PRICE_TYPES)),
  );
  const user = userEvent.setup({ delay: null });
  const rendered = renderShop({ route: '/admin/exchange', routes, preloadedState: loggedIn(MANAGER) });
  return { user, state, runPages, ...rendered };
}

const rowOf = async (name: string) => (await screen.findByRole('cell', { name })).closest('tr')!;

describe('Обмен с 1С (back office)', () => {
  test('shows the address for 1С, the limits, the accounts and the orders waiting', async () => {
    openPage({});
    expect(await screen.findByRole('heading', { level: 1, name: 'Обмен с 1С' })).toBeInTheDocument();
    expect(screen.getByText('https://myagkiy-opt.ru/1c_exchange')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Копировать' })).toBeInTheDocument();
    expect(screen.getByText('100 МБ')).toBeInTheDocument();
    expect(screen.getByText('любые')).toBeInTheDocument();
    expect(screen.getByText('30 дней')).toBeInTheDocument();
    const account = await rowOf(ONE_C.email);
    expect(within(account).getByRole('button', { name: `Запретить обмен: ${ONE_C.email}` })).toBeInTheDocument();
    expect(screen.getByText('Ждут отправки: 3 заказа.')).toBeInTheDocument();
  });

  test('«Разрешить обмен» sends the e-mail and the list shows the account', async () => {
    const grants = recorder();
    const { user, state } = openPage(
      {},
      http.post(`${EXCHANGE}/accounts`, async ({ request }) => {
        grants.record(request);
        const { email } = (await request.json()) as { email: string };
        const account: ExchangeAccount = { id: 42, email, name: 'Склад', is_manager: false };
        state.overview = { ...state.overview, accounts: [...state.overview.accounts, account] };
        return json(account, 201);
      }),
    );
    const form = await screen.findByRole('form', { name: 'Разрешить обмен учётной записи' });
    expect(within(form).getByText('Учётная запись с обменом видит все заказы магазина')).toBeInTheDocument();
    await user.type(within(form).getByRole('textbox', { name: 'E-mail учётной записи' }), ' sklad@myagkiy-opt.ru ');
    await user.click(within(form).getByRole('button', { name: 'Разрешить обмен' }));
    await waitFor(() => expect(grants.calls).toHaveLength(1));
    expect(await grants.last!.json()).toEqual({ email: 'sklad@myagkiy-opt.ru' });
    expect(await rowOf('sklad@myagkiy-opt.ru')).toBeInTheDocument();
    expect(await screen.findByText('Обмен разрешён учётной записи sklad@myagkiy-opt.ru')).toBeInTheDocument();
  });

  test('an e-mail no account has: the server’s 404 shows under the field', async () => {
    const { user } = openPage(
      {},
      http.post(`${EXCHANGE}/accounts`, () => json({ detail: 'Учётной записи с таким e-mail нет' }, 404)),
    );
    const form = await screen.findByRole('form', { name: 'Разрешить обмен учётной записи' });
    await user.type(within(form).getByRole('textbox', { name: 'E-mail учётной записи' }), 'nobody@example.ru');
    await user.click(within(form).getByRole('button', { name: 'Разрешить обмен' }));
    expect(await within(form).findByText('Учётной записи с таким e-mail нет')).toBeInTheDocument();
    expect(screen.queryByRole('cell', { name: 'nobody@example.ru' })).not.toBeInTheDocument();
  });

  test('«Запретить обмен» asks first, then deletes the account’s exchange', async () => {
    const revocations = recorder();
    const { user, state } = openPage(
      {},
      http.delete(`${EXCHANGE}/accounts/:id`, ({ request }) => {
        revocations.record(request);
        state.overview = { ...state.overview, accounts: [] };
        return new HttpResponse(null, { status: 204 });
      }),
    );
    await user.click(await screen.findByRole('button', { name: `Запретить обмен: ${ONE_C.email}` }));
    const confirm = await screen.findByRole('tooltip');
    expect(revocations.calls).toHaveLength(0);
    await user.click(within(confirm).getByRole('button', { name: 'Запретить' }));
    await waitFor(() => expect(revocations.calls).toHaveLength(1));
    expect(new URL(revocations.last!.url).pathname).toBe('/api/v1/admin/exchange/accounts/41');
    expect(
      await screen.findByText('Обмен не разрешён ни одной учётной записи: 1С не сможет войти'),
    ).toBeInTheDocument();
  });

  test('a 1С price type mapped to a shop type sends its price_type_id under the encoded Ид', async () => {
    const mappings = recorder();
    const { user, state } = openPage(
      {},
      http.put(`${EXCHANGE}/price-types/:externalId`, async ({ request, params }) => {
        mappings.record(request);
        const { price_type_id } = (await request.json()) as { price_type_id: number | null };
        const externalId = params.externalId as string;
        state.overview = {
          ...state.overview,
          price_types: state.overview.price_types.map((type) =>
            type.external_id === externalId ? { ...type, price_type_id, mapped_by_manager: true } : type,
          ),
        };
        return json(state.overview.price_types.find((type) => type.external_id === externalId)!);
      }),
    );
    const byName = await rowOf('Опт');
    expect(within(byName).getByText('по названию')).toBeInTheDocument();
    const purchase = await rowOf('Закупочная');
    expect(within(purchase).getByText('Не загружать')).toBeInTheDocument();
    expect(within(purchase).queryByText('по названию')).not.toBeInTheDocument();

    await choose(user, within(purchase).getByRole('combobox', { name: 'Тип цен на сайте для «Закупочная»' }), 'РРЦ');
    await waitFor(() => expect(mappings.calls).toHaveLength(1));
    expect(new URL(mappings.last!.url).pathname).toBe(
      `/api/v1/admin/exchange/price-types/${encodeURIComponent('закупка/2 #')}`,
    );
    expect(await mappings.last!.json()).toEqual({ price_type_id: 3 });
    await waitFor(async () =>
      expect(within(await rowOf('Закупочная')).getByText('выбран менеджером')).toBeInTheDocument(),
    );
  });

  test('1С that has sent no price types or warehouses yet: the tables say so', async () => {
    openPage({ overview: { price_types: [], warehouses: [] } });
    expect(
      await screen.findByText('1С ещё не присылала типы цен: они появятся после первого обмена каталогом'),
    ).toBeInTheDocument();
    expect(
      screen.getByText('1С ещё не присылала склады: они появятся после первого обмена остатками'),
    ).toBeInTheDocument();
  });

  test('«Учитывать в остатке» switched on sends used: true for the warehouse', async () => {
    const switches = recorder();
    const { user, state } = openPage(
      {},
      http.put(`${EXCHANGE}/warehouses/:externalId`, async ({ request }) => {
        switches.record(request);
        const { used } = (await request.json()) as { used: boolean };
        const warehouse = { ...state.overview.warehouses[0]!, used };
        state.overview = { ...state.overview, warehouses: [warehouse] };
        return json(warehouse);
      }),
    );
    const used = await screen.findByRole('switch', { name: 'Учитывать в остатке: Основной склад' });
    expect(used).not.toBeChecked();
    await user.click(used);
    await waitFor(() => expect(switches.calls).toHaveLength(1));
    expect(new URL(switches.last!.url).pathname).toBe('/api/v1/admin/exchange/warehouses/main');
    expect(await switches.last!.json()).toEqual({ used: true });
    await waitFor(() => expect(used).toBeChecked());
  });

  test('«Сохранить» sends the characteristics’ names and what to do with missing products', async () => {
    const saves = recorder();
    const { user, state } = openPage(
      {},
      http.put(`${EXCHANGE}/settings`, async ({ request }) => {
        saves.record(request);
        const settings = (await request.json()) as ExchangeSettingsBody;
        state.overview = { ...state.overview, settings };
        return json(settings);
      }),
    );
    const colour = await screen.findByRole('textbox', { name: 'Характеристика 1С — цвет' });
    expect(colour).toHaveValue('Цвет');
    await user.clear(colour);
    await user.type(colour, ' Цвет игрушки ');
    const size = screen.getByRole('textbox', { name: 'Характеристика 1С — размер' });
    await user.clear(size);
    await user.click(screen.getByRole('button', { name: 'Сохранить' }));
    expect(await screen.findByText('Укажите характеристику размера')).toBeInTheDocument();
    expect(saves.calls).toHaveLength(0);

    await user.type(size, 'Рост, см');
    await user.click(screen.getByRole('radio', { name: 'Скрывать с витрины' }));
    await user.click(screen.getByRole('button', { name: 'Сохранить' }));
    await waitFor(() => expect(saves.calls).toHaveLength(1));
    expect(await saves.last!.json()).toEqual({
      color_characteristic: 'Цвет игрушки',
      size_characteristic: 'Рост, см',
      missing_products: 'hide',
    });
    expect(await screen.findByText('Настройки обмена сохранены')).toBeInTheDocument();
  });

  test('the exchanges: a failed one says why; its row opens onto its files, links and errors', async () => {
    const links = recorder();
    const followed: string[] = [];
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      followed.push(this.href);
    });
    const { user } = openPage(
      {
        runs: [
          run({
            status: 'failed',
            failure: 'offers.xml: нет цены у предложения 5f1c#12',
            products_created: 2,
            prices_set: 40,
            files: [
              { name: 'import.xml', bytes: 2048, stage: 'applied', failure: null },
              { name: 'import_files/ab/pic.jpg', bytes: 512, stage: 'applied', failure: null },
              {
                name: 'offers.xml',
                bytes: 3 * 1024 * 1024,
                stage: 'failed',
                failure: 'нет цены у предложения 5f1c#12',
              },
            ],
            products_linked_by_article: ['MO-1001 → 5f1c'],
            errors: ['import.xml, строка 12: пустой артикул'],
            errors_count: 3,
          }),
          run({ id: '7c0d9a1e-1111-4c55-9a51-6f0f1d2b3c4d', kind: 'sale', orders_sent: 5 }),
        ],
      },
      http.post(`${API}/download-links`, async ({ request }) => {
        links.record(request);
        const { path } = (await request.clone().json()) as { path: string };
        return json({ url: `${path}?link=signed` });
      }),
    );
    const failed = (await screen.findByText('offers.xml: нет цены у предложения 5f1c#12')).closest('tr')!;
    expect(within(failed).getByText('Ошибка')).toBeInTheDocument();
    expect(within(failed).getByText('Каталог')).toBeInTheDocument();
    expect(
      within(failed).getByText('Новых товаров: 2, цен: 40, связано по артикулу: 1, ошибок в строках: 3'),
    ).toBeInTheDocument();
    const sale = (await screen.findByText('Отправлено заказов: 5')).closest('tr')!;
    expect(within(sale).getByText('Готово')).toBeInTheDocument();
    expect(within(sale).getByText('Заказы')).toBeInTheDocument();
    expect(screen.queryByText('import.xml, строка 12: пустой артикул')).not.toBeInTheDocument();

    await user.click(within(failed).getByRole('button', { name: /развернуть/i }));
    expect(await screen.findByText('import.xml, строка 12: пустой артикул')).toBeInTheDocument();
    expect(screen.getByText('и ещё 2')).toBeInTheDocument();
    expect(screen.getByText('MO-1001 → 5f1c')).toBeInTheDocument();
    expect(screen.getByText('3 МБ')).toBeInTheDocument();
    expect(screen.getByText(': нет цены у предложения 5f1c#12')).toBeInTheDocument();

    // The browser saves the file itself, by a signed link asked for with the manager's token.
    await user.click(screen.getByRole('button', { name: 'import_files/ab/pic.jpg' }));
    const path = '/api/v1/admin/exchange/runs/2f1e4c8a-8d3b-4c55-9a51-6f0f1d2b3c4d/files/import_files%2Fab%2Fpic.jpg';
    await waitFor(() => expect(followed).toEqual([`http://shop.test${path}?link=signed`]));
    expect(await links.last!.json()).toEqual({ path });
    expect(links.last!.headers.get('Authorization')).toMatch(/^Bearer /);
    click.mockRestore();
  });

  test('the exchanges come a page at a time: the next page asks the server for it', async () => {
    const { user, runPages } = openPage({ runs: [run()], runsTotal: 45 });
    expect(await screen.findByText('Всего: 45')).toBeInTheDocument();
    expect(new URL(runPages.last!.url).searchParams.toString()).toBe('skip=0&limit=20');
    await user.click(screen.getByRole('listitem', { name: '2' }));
    await waitFor(() => expect(new URL(runPages.last!.url).searchParams.toString()).toBe('skip=20&limit=20'));
  });

  test('files no longer kept are listed without links', async () => {
    const { user } = openPage({
      runs: [run({ files_kept: false, files: [{ name: 'import.xml', bytes: 2048, stage: 'applied', failure: null }] })],
    });
    const row = (await screen.findByText('Каталог')).closest('tr')!;
    await user.click(within(row).getByRole('button', { name: /развернуть/i }));
    expect(await screen.findByText('Файлы уже удалены: они хранятся 30 дней.')).toBeInTheDocument();
    expect(screen.getByRole('cell', { name: 'import.xml' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'import.xml' })).not.toBeInTheDocument();
  });

  test('«Отправить снова» sends the order numbers typed and says which were not found', async () => {
    const resends = recorder();
    const { user, state } = openPage(
      {},
      http.post(`${EXCHANGE}/resend`, async ({ request }) => {
        resends.record(request);
        state.overview = { ...state.overview, pending_orders: 4 };
        return json({ resent: 1, not_found: [16] });
      }),
    );
    const numbers = await screen.findByRole('combobox', { name: 'Номера заказов' });
    // Separated by spaces or commas as typed or pasted; what is not an order's number is dropped.
    await user.type(numbers, '15 abc, 16 15 ');
    expect(numbers.closest('.ant-select')).toHaveTextContent(/^15\s*16$/);
    await user.click(screen.getByRole('button', { name: 'Отправить снова' }));
    await waitFor(() => expect(resends.calls).toHaveLength(1));
    expect(await resends.last!.json()).toEqual({ order_ids: [15, 16] });
    expect(await screen.findByRole('status')).toHaveTextContent(
      '1 заказ уйдёт в 1С при следующем обмене. Не найдены: №16.',
    );
    expect(await screen.findByText('Ждут отправки: 4 заказа.')).toBeInTheDocument();
  });
});
