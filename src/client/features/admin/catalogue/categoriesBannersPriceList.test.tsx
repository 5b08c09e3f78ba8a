import { File as NodeFile } from 'node:buffer';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App } from 'antd';
import { http } from 'msw';
import type { AdminBanner, AdminCategory, ImportResult } from '@shared/api';
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

  /** The import route: answers `dryRun` for a dry run and `applied` for the real one. */
  function importRoute(dryRun: ImportResult, applied?: ImportResult) {
    const calls = recorder();
    const handler = http.post(`${API}/admin/catalogue/import`, async ({ request }) => {
      calls.record(request);
      const file = (await request.formData()).get('file') as unknown as File;
      if (file.name !== 'прайс.csv') return json({ detail: 'Нет файла' }, 422);
      const real = new URL(request.url).searchParams.get('dry_run') === 'false';
      return json(real ? applied! : dryRun);
    });
    return { calls, handler };
  }

  const apply = () => screen.getByRole('button', { name: 'Применить' });

  test('a dry run with errors lists them by row and keeps «Применить» disabled', async () => {
    const { calls, handler } = importRoute({
      dry_run: true,
      created: 1,
      updated: 2,
      unchanged: 40,
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
    expect(apply()).toBeDisabled();
    expect(calls.calls).toHaveLength(1);
    expect(new URL(calls.last!.url).searchParams.get('dry_run')).toBe('true');
  });

  test('a clean dry run shows what will change and «Применить» posts dry_run=false', async () => {
    const { calls, handler } = importRoute(
      { dry_run: true, created: 3, updated: 5, unchanged: 64, errors: [] },
      { dry_run: false, created: 3, updated: 5, unchanged: 64, errors: [] },
    );
    const { user } = openAt('/admin/price-list', handler);
    await user.upload(screen.getByLabelText('Файл прайс-листа'), priceList());

    expect(await screen.findByText('Будет добавлено: 3, изменено: 5, без изменений: 64.')).toBeInTheDocument();
    await waitFor(() => expect(apply()).toBeEnabled());
    await user.click(apply());

    expect(await screen.findByText('Прайс-лист применён')).toBeInTheDocument();
    expect(screen.getByText('Добавлено: 3, изменено: 5, без изменений: 64.')).toBeInTheDocument();
    expect(calls.calls.map((call) => new URL(call.url).searchParams.get('dry_run'))).toEqual(['true', 'false']);
    expect(apply()).toBeDisabled();
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
