import { File as NodeFile } from 'node:buffer';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App } from 'antd';
import { http } from 'msw';
import type { AdminBanner, AdminCategory, ImportResult, PreviewChange } from '@shared/api';
import { MANAGER } from '@/test/adminFixtures';
import { catchDownloads } from '@/test/downloads';
import { json, loggedIn, recorder } from '@/test/fixtures';
import { renderShop } from '@/test/render';
import { API, server } from '@/test/server';
import BannersPage from './BannersPage';
import CategoriesPage from './CategoriesPage';
import PriceListPage from './PriceListPage';

// antd's App (the toasts) is the back office layout's, around every page.
const routes = [
  {
    path: '/admin/categories',
    element: (
      <App>
        <CategoriesPage />
      </App>
    ),
  },
  {
    path: '/admin/banners',
    element: (
      <App>
        <BannersPage />
      </App>
    ),
  },
  {
    path: '/admin/price-list',
    element: (
      <App>
        <PriceListPage />
      </App>
    ),
  },
];

function openAt(route: string, ...handlers: Parameters<typeof server.use>) {
  server.use(...handlers);
  // No pause between keystrokes: the forms are long, the machine is shared.
  const user = userEvent.setup({ delay: null });
  return { user, ...renderShop({ route, routes, preloadedState: loggedIn(MANAGER) }) };
}

const rowOf = (text: string) => screen.getByRole('cell', { name: text }).closest('tr')!;

describe('Категории (back office)', () => {
  const categories = (): AdminCategory[] => [
    { id: 1, name: 'Мишки', position: 0, products_count: 30 },
    { id: 2, name: 'Новинки', position: 1, products_count: 0 },
  ];

  test("a category with products stays, and the server's 409 says why", async () => {
    const removals = recorder();
    const { user } = openAt(
      '/admin/categories',
      http.get(`${API}/admin/categories`, () => json(categories())),
      http.delete(`${API}/admin/categories/:id`, ({ request }) => {
        removals.record(request);
        return json({ detail: 'В категории «Мишки» 30 товаров: перенесите их, прежде чем удалять' }, 409);
      }),
    );
    expect(await screen.findByRole('cell', { name: 'Мишки' })).toBeInTheDocument();
    expect(within(rowOf('Мишки')).getByRole('cell', { name: '30' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Удалить категорию «Мишки»' }));
    await user.click(await screen.findByRole('button', { name: 'Удалить' }));

    expect(await screen.findByText('В категории «Мишки» 30 товаров: перенесите их, прежде чем удалять')).toBeVisible();
    expect(new URL(removals.last!.url).pathname).toBe('/api/v1/admin/categories/1');
    expect(screen.getByRole('cell', { name: 'Мишки' })).toBeInTheDocument();
  });

  test('renames a category with only the changed field, and the list is read again', async () => {
    let stored = categories();
    const patches = recorder();
    const { user } = openAt(
      '/admin/categories',
      http.get(`${API}/admin/categories`, () => json(stored)),
      http.patch(`${API}/admin/categories/2`, async ({ request }) => {
        patches.record(request);
        const { name } = (await request.json()) as { name: string };
        stored = stored.map((category) => (category.id === 2 ? { ...category, name } : category));
        return json(stored[1]!);
      }),
    );
    await user.click(await screen.findByRole('button', { name: 'Изменить категорию «Новинки»' }));
    const name = within(await screen.findByRole('dialog')).getByRole('textbox', { name: 'Название' });
    await user.clear(name);
    await user.type(name, 'Новинки сезона');
    await user.click(screen.getByRole('button', { name: 'Сохранить' }));

    expect(await screen.findByRole('cell', { name: 'Новинки сезона' })).toBeInTheDocument();
    expect(await patches.last!.json()).toEqual({ name: 'Новинки сезона' });
  });
});

describe('Баннеры (back office)', () => {
  const banner: AdminBanner = { id: 4, image: 'spring.webp', url: '/catalog', position: 0, active: true };

  test('the Switch hides a banner from the storefront with one PATCH', async () => {
    let stored = banner;
    const patches = recorder();
    const { user } = openAt(
      '/admin/banners',
      http.get(`${API}/admin/banners`, () => json([stored])),
      http.patch(`${API}/admin/banners/4`, async ({ request }) => {
        patches.record(request);
        stored = { ...stored, ...((await request.json()) as Partial<AdminBanner>) };
        return json(stored);
      }),
    );
    const shown = await screen.findByRole('switch', { name: 'Показывать: Баннер №4' });
    expect(shown).toBeChecked();
    expect(screen.getByRole('img', { name: 'Баннер №4' })).toHaveAttribute(
      'src',
      'http://shop.test/api/v1/image/spring.webp',
    );
    await user.click(shown);
    await waitFor(() => expect(screen.getByRole('switch', { name: 'Показывать: Баннер №4' })).not.toBeChecked());
    expect(await patches.last!.json()).toEqual({ active: false });
  });

  test("refuses a link that is neither a shop page nor http(s), by the server's own rule", async () => {
    const creations = recorder();
    const { user } = openAt(
      '/admin/banners',
      http.get(`${API}/admin/banners`, () => json([])),
      http.post(`${API}/admin/images`, () => json({ name: 'new.webp', width: 1200, height: 400 }, 201)),
      http.post(`${API}/admin/banners`, async ({ request }) => {
        creations.record(request);
        return json({ ...banner, id: 5 }, 201);
      }),
    );
    await user.click(await screen.findByRole('button', { name: 'Добавить баннер' }));
    const dialog = await screen.findByRole('dialog');
    await user.upload(
      within(dialog).getByLabelText('Картинка'),
      new NodeFile([new Uint8Array([0x89, 0x50])], 'весна.png', { type: 'image/png' }) as unknown as File,
    );
    await within(dialog).findByRole('img', { name: 'Картинка баннера' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Ссылка' }), 'javascript:alert(1)');
    await user.click(within(dialog).getByRole('button', { name: 'Сохранить' }));
    expect(
      await within(dialog).findByText(
        'Ссылка баннера: путь на сайте, начинающийся с «/», или адрес http:// либо https://',
      ),
    ).toBeInTheDocument();
    expect(creations.calls).toHaveLength(0);

    await user.clear(within(dialog).getByRole('textbox', { name: 'Ссылка' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Ссылка' }), '/catalog?category=Мишки');
    await user.click(within(dialog).getByRole('button', { name: 'Сохранить' }));
    await waitFor(() => expect(creations.calls).toHaveLength(1));
    expect(await creations.last!.json()).toEqual({ image: 'new.webp', url: '/catalog?category=Мишки', active: true });
  });
});

describe('Импорт и экспорт (back office)', () => {
  const priceList = () => new NodeFile(['Артикул;Название\n'], 'прайс.csv', { type: 'text/csv' }) as unknown as File;

  /** The import route: every check answers `checked`. */
  function importRoute(checked: ImportResult) {
    const calls = recorder();
    const handler = http.post(`${API}/admin/catalogue/import`, async ({ request }) => {
      calls.record(request);
      const file = (await request.formData()).get('file') as unknown as File;
      if (file.name !== 'прайс.csv') return json({ detail: 'Нет файла' }, 422);
      return json(checked);
    });
    return { calls, handler };
  }

  const PREVIEW_ID = '4f0c6a8e-1d2b-4c3d-8e9f-0a1b2c3d4e5f';
  const PREVIEWS = `${API}/admin/catalogue/import/previews/${PREVIEW_ID}`;
  const clean = (counts: Partial<ImportResult> = {}): ImportResult => ({
    dry_run: true,
    created: 3,
    updated: 5,
    unchanged: 64,
    new_products: 1,
    errors: [],
    preview: { id: PREVIEW_ID, expires_at: '2026-11-28T04:00:00.000Z' },
    ...counts,
  });
  const change = (row: number, fields: Partial<PreviewChange> = {}): PreviewChange => ({
    row,
    kind: 'updated',
    new_product: false,
    art: `MO-${row}`,
    name: 'Мишка Тедди',
    category: 'Мишки',
    color: 'бежевый',
    size: 30,
    price: 1200,
    stock: 8,
    old_name: 'Мишка Тедди',
    old_category: 'Мишки',
    old_price: 990,
    old_stock: 12,
    prices: [],
    multiple: null,
    min_quantity: null,
    old_multiple: null,
    old_min_quantity: null,
    card_changes: [],
    ...fields,
  });
  /** The preview's pages: 120 changed rows, row 2 on, as the server pages them. */
  function changesRoute() {
    const calls = recorder();
    const rows = Array.from({ length: 120 }, (_, index) => change(index + 2));
    rows[1] = change(3, {
      kind: 'created',
      new_product: true,
      art: 'NEW-1',
      name: 'Ёжик',
      old_name: null,
      old_category: null,
      old_price: null,
      old_stock: null,
      price: 799.9,
      stock: 5,
    });
    rows[2] = change(4, { name: 'Мишка Большой', old_stock: 8 });
    const handler = http.get(`${PREVIEWS}/changes`, ({ request }) => {
      calls.record(request);
      const params = new URL(request.url).searchParams;
      const skip = Number(params.get('skip'));
      return json({
        price_types: [],
        packaging: false,
        card: false,
        items: rows.slice(skip, skip + Number(params.get('limit'))),
        total: rows.length,
      });
    });
    return { calls, handler };
  }

  const apply = () => screen.getByRole('button', { name: 'Применить' });

  test('a dry run with errors lists them by row and keeps «Применить» disabled', async () => {
    const { calls, handler } = importRoute({
      ...clean({ created: 0, updated: 0, unchanged: 0, new_products: 0, preview: null }),
      errors: [
        { row: 7, detail: 'Цена должна быть больше нуля' },
        { row: 12, detail: 'Нет категории «Жирафы»' },
      ],
    });
    const { user } = openAt('/admin/price-list', handler);
    expect(apply()).toBeDisabled();
    await user.upload(screen.getByLabelText('Файл прайс-листа'), priceList());

    expect(await screen.findByText(/Ошибок в файле: 2/)).toBeInTheDocument();
    expect(within(rowOf('7')).getByRole('cell', { name: 'Цена должна быть больше нуля' })).toBeInTheDocument();
    expect(within(rowOf('12')).getByRole('cell', { name: 'Нет категории «Жирафы»' })).toBeInTheDocument();
    expect(screen.queryByText('Что изменится')).not.toBeInTheDocument();
    expect(apply()).toBeDisabled();
    expect(calls.calls).toHaveLength(1);
    expect(new URL(calls.last!.url).searchParams.get('dry_run')).toBe('true');
  });

  test('a clean dry run shows each changed row old → new, paged by the server; «Применить» applies the preview', async () => {
    const { calls, handler } = importRoute(clean());
    const pages = changesRoute();
    const applies = recorder();
    const { user } = openAt(
      '/admin/price-list',
      handler,
      pages.handler,
      http.post(`${PREVIEWS}/apply`, ({ request }) => {
        applies.record(request);
        return json(clean({ dry_run: false, preview: null }));
      }),
    );
    await user.upload(screen.getByLabelText('Файл прайс-листа'), priceList());

    expect(
      await screen.findByText('Будет добавлено: 3, изменено: 5, без изменений: 64. Новых товаров: 1.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Что изменится' })).toBeInTheDocument();
    const changed = (await screen.findByRole('cell', { name: 'MO-2' })).closest('tr')!;
    expect(within(changed).getByText('изменение')).toBeInTheDocument();
    // The price and stock as they were, struck out, and as they will be.
    expect(within(changed).getByRole('cell', { name: /^990,00\s₽ → 1\s200,00\s₽$/ })).toBeInTheDocument();
    expect(
      within(changed)
        .getByText(/^990,00\s₽$/)
        .closest('del'),
    ).not.toBeNull();
    expect(within(changed).getByRole('cell', { name: '12 → 8' })).toBeInTheDocument();
    const created = rowOf('NEW-1');
    expect(within(created).getByText('новый товар')).toBeInTheDocument();
    expect(within(created).getByRole('cell', { name: /^799,90\s₽$/ })).toBeInTheDocument();
    expect(within(created).getByRole('cell', { name: '5' })).toBeInTheDocument();
    const renamed = rowOf('MO-4');
    expect(within(renamed).getByRole('cell', { name: 'Мишка Тедди → Мишка Большой' })).toBeInTheDocument();
    expect(within(renamed).getByRole('cell', { name: '8' })).toBeInTheDocument();
    expect(screen.getByText('Всего: 120')).toBeInTheDocument();
    expect(Object.fromEntries(new URL(pages.calls.last!.url).searchParams)).toEqual({ skip: '0', limit: '50' });

    await user.click(screen.getByRole('listitem', { name: '3' }));
    expect(await screen.findByRole('cell', { name: 'MO-121' })).toBeInTheDocument();
    expect(Object.fromEntries(new URL(pages.calls.last!.url).searchParams)).toEqual({ skip: '100', limit: '50' });

    await waitFor(() => expect(apply()).toBeEnabled());
    await user.click(apply());
    expect(await screen.findByText('Прайс-лист применён')).toBeInTheDocument();
    expect(screen.getByText('Добавлено: 3, изменено: 5, без изменений: 64. Новых товаров: 1.')).toBeInTheDocument();
    expect(applies.calls).toHaveLength(1);
    // The file is not sent again: the server applies what it checked.
    expect(calls.calls).toHaveLength(1);
    expect(screen.queryByText('Что изменится')).not.toBeInTheDocument();
    expect(apply()).toBeDisabled();
  });

  test('a file with a price type’s column and the packaging: each type’s price and the packaging old → new', async () => {
    const large = (price: number | null, oldPrice: number | null) => [
      { code: 'krupnyy-opt', price, old_price: oldPrice },
    ];
    const packed = { multiple: 6, min_quantity: 12 };
    const { user } = openAt(
      '/admin/price-list',
      importRoute(clean({ created: 1, updated: 2 })).handler,
      http.get(`${PREVIEWS}/changes`, () =>
        json({
          price_types: [{ code: 'krupnyy-opt', name: 'Крупный опт' }],
          packaging: true,
          card: false,
          items: [
            change(2, { prices: large(null, 900), ...packed, old_multiple: 1, old_min_quantity: 1 }),
            change(3, { prices: large(850.5, null), ...packed, old_multiple: 1, old_min_quantity: 1 }),
            change(4, {
              kind: 'created',
              new_product: true,
              art: 'NEW-1',
              ...{ old_name: null, old_category: null, old_price: null, old_stock: null },
              prices: large(1350, null),
              ...{ multiple: 2, min_quantity: 4, old_multiple: null, old_min_quantity: null },
            }),
          ],
          total: 3,
        }),
      ),
    );
    await user.upload(screen.getByLabelText('Файл прайс-листа'), priceList());

    const table = (await screen.findByRole('columnheader', { name: 'Цена «Крупный опт»' })).closest('table')!;
    const titles = within(table)
      .getAllByRole('columnheader')
      .map((header) => header.textContent);
    expect(titles).toEqual([
      ...['Строка', 'Что', 'Артикул', 'Название', 'Категория', 'Цвет', 'Размер', 'Цена', 'Цена «Крупный опт»'],
      ...['Кратность', 'Минимум', 'Остаток'],
    ]);
    // The cells in the columns' order: a removed price says «нет» (the default type's then applies).
    const cellsOf = (art: string) =>
      within(rowOf(art))
        .getAllByRole('cell')
        .map((cell) => cell.textContent!.replace(/\s/g, ' '));
    expect(cellsOf('MO-2').slice(8, 11)).toEqual(['900,00 ₽ → нет', '1 → 6', '1 → 12']);
    expect(
      within(rowOf('MO-2'))
        .getByText(/^900,00\s₽$/)
        .closest('del'),
    ).not.toBeNull();
    expect(cellsOf('MO-3').slice(8, 11)).toEqual(['нет → 850,50 ₽', '1 → 6', '1 → 12']);
    // A new product's prices and packaging as they will be, with nothing struck out.
    expect(cellsOf('NEW-1').slice(8, 11)).toEqual(['1 350,00 ₽', '2', '4']);
    expect(within(rowOf('NEW-1')).queryByRole('deletion')).not.toBeInTheDocument();
  });

  test('a file with the card’s columns: a changed row names the card fields it changes, the old value struck out', async () => {
    const { user } = openAt(
      '/admin/price-list',
      importRoute(clean({ created: 0, updated: 2 })).handler,
      http.get(`${PREVIEWS}/changes`, () =>
        json({
          price_types: [],
          packaging: false,
          card: true,
          items: [
            change(2, {
              ...{ price: 990, stock: 12 },
              card_changes: [
                { column: 'Бренд', old_value: 'Плюшевый мир', value: 'Мягкий Опт' },
                { column: 'Штрихкод', old_value: null, value: '4607001111115' },
              ],
            }),
            change(3),
          ],
          total: 2,
        }),
      ),
    );
    await user.upload(screen.getByLabelText('Файл прайс-листа'), priceList());

    const table = (await screen.findByRole('columnheader', { name: 'Карточка: что меняется' })).closest('table')!;
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((header) => header.textContent)
        .slice(0, 4),
    ).toEqual(['Строка', 'Что', 'Карточка: что меняется', 'Артикул']);
    // Price and stock as they were: only the card tells what «изменение» changes.
    const changed = rowOf('MO-2');
    expect(within(changed).getByText('изменение')).toBeInTheDocument();
    expect(
      within(changed)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Бренд: Плюшевый мир → Мягкий Опт', 'Штрихкод: пусто → 4607001111115']);
    expect(within(changed).getByText('Плюшевый мир').closest('del')).not.toBeNull();
    // An empty field is «пусто», struck out like any old value.
    expect(within(changed).getByText('пусто').closest('del')).not.toBeNull();
    expect(within(changed).getByText('Мягкий Опт').closest('del')).toBeNull();
    // A row whose card stays lists nothing.
    expect(within(rowOf('MO-3')).queryByRole('list')).not.toBeInTheDocument();
  });

  test('«Скачать изменения (XLSX)» saves the preview’s file under the server’s name', async () => {
    const downloads = catchDownloads('blob:changes');
    const files = recorder();
    const { user } = openAt(
      '/admin/price-list',
      importRoute(clean()).handler,
      changesRoute().handler,
      http.get(`${PREVIEWS}/changes.xlsx`, ({ request }) => {
        files.record(request);
        return new Response(new Uint8Array([0x50, 0x4b]), {
          headers: {
            'Content-Type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
            'Content-Disposition': `attachment; filename="changes.xlsx"; filename*=UTF-8''${encodeURIComponent('изменения.xlsx')}`,
          },
        });
      }),
    );
    await user.upload(screen.getByLabelText('Файл прайс-листа'), priceList());
    await user.click(await screen.findByRole('button', { name: 'Скачать изменения (XLSX)' }));
    await waitFor(() => expect(downloads.saved).toEqual(['изменения.xlsx']));
    expect(files.last!.headers.get('Authorization')).toMatch(/^Bearer /);
    downloads.restore();
  });

  test('the catalogue changed since the check: the 409 is shown, nothing applied, and «Проверить снова» checks again', async () => {
    const { calls, handler } = importRoute(clean());
    const { user } = openAt(
      '/admin/price-list',
      handler,
      changesRoute().handler,
      http.post(`${PREVIEWS}/apply`, () =>
        json({ detail: 'Каталог изменился после проверки файла: проверьте файл снова и посмотрите изменения' }, 409),
      ),
    );
    await user.upload(screen.getByLabelText('Файл прайс-листа'), priceList());
    await waitFor(() => expect(apply()).toBeEnabled());
    await user.click(apply());
    expect(
      await screen.findByText('Каталог изменился после проверки файла: проверьте файл снова и посмотрите изменения'),
    ).toBeInTheDocument();
    expect(screen.queryByText('Прайс-лист применён')).not.toBeInTheDocument();
    expect(apply()).toBeDisabled();

    await user.click(screen.getByRole('button', { name: 'Проверить снова' }));
    await waitFor(() => expect(calls.calls).toHaveLength(2));
    await waitFor(() => expect(apply()).toBeEnabled());
  });

  test('«Скачать XLSX» fetches the export with the token and saves it under the server’s name', async () => {
    const exports = recorder();
    const downloads = catchDownloads('blob:price-list');
    const { user } = openAt(
      '/admin/price-list',
      http.get(`${API}/admin/catalogue/export`, ({ request }) => {
        exports.record(request);
        return new Response(new Uint8Array([0x50, 0x4b]), {
          headers: {
            'Content-Type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
            'Content-Disposition': `attachment; filename="price-list.xlsx"; filename*=UTF-8''${encodeURIComponent('прайс-лист.xlsx')}`,
          },
        });
      }),
    );
    await user.click(screen.getByRole('button', { name: 'Скачать XLSX' }));
    await waitFor(() => expect(downloads.saved).toEqual(['прайс-лист.xlsx']));
    expect(new URL(exports.last!.url).searchParams.get('format')).toBe('xlsx');
    expect(exports.last!.headers.get('Authorization')).toMatch(/^Bearer /);
    await waitFor(() => expect(downloads.revoke).toHaveBeenCalledWith('blob:price-list'));
    downloads.restore();
  });
});
