import { File as NodeFile } from 'node:buffer';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App } from 'antd';
import dayjs from 'dayjs';
import { http, HttpResponse } from 'msw';
import type { ConformityDocument, ConformityProduct } from '@shared/api';
import { adminProduct, conformityDocument, MANAGER } from '@/test/adminFixtures';
import { catchDownloads } from '@/test/downloads';
import { json, loggedIn, recorder } from '@/test/fixtures';
import { renderShop } from '@/test/render';
import { API, server } from '@/test/server';
import { ConformityDocumentsPage } from './ConformityDocumentsPage';

const DOCUMENTS = `${API}/admin/conformity-documents`;

// antd's App (the toasts) is the back office layout's, around every page.
const routes = [
  {
    path: '/admin/conformity-documents',
    element: (
      <App>
        <ConformityDocumentsPage />
      </App>
    ),
  },
];

const day = (offset: number) => dayjs().add(offset, 'day').format('YYYY-MM-DD');
const shown = (iso: string) => iso.split('-').reverse().join('.');

/** A document lasting past the tests' today, unless said otherwise. */
const documentOf = (overrides: Partial<ConformityDocument> = {}) =>
  conformityDocument({ valid_to: day(400), ...overrides });

const LASTING = documentOf();
const ENDING = documentOf({ id: 2, kind: 'certificate', number: 'RU C-CN.АБ12.В.00077', valid_to: day(10) });
const EXPIRED = documentOf({ id: 3, number: 'ЕАЭС N RU Д-CN.РА01.В.00003/23', valid_to: day(-5), expired: true });

function openPage(documents: ConformityDocument[], ...handlers: Parameters<typeof server.use>) {
  server.use(
    ...handlers,
    http.get(DOCUMENTS, () => json(documents)),
  );
  const user = userEvent.setup({ delay: null });
  const rendered = renderShop({ route: '/admin/conformity-documents', routes, preloadedState: loggedIn(MANAGER) });
  return { user, ...rendered };
}

const rowOf = async (number: string) => (await screen.findByRole('cell', { name: number })).closest('tr')!;

describe('Документы соответствия (back office)', () => {
  test('lists the documents with their validity; one expired or ending within 30 days is flagged red', async () => {
    openPage([LASTING, ENDING, EXPIRED]);
    expect(await screen.findByRole('heading', { level: 1, name: 'Документы соответствия' })).toBeInTheDocument();

    const lasting = await rowOf(LASTING.number);
    expect(within(lasting).getByText('Декларация о соответствии')).toBeInTheDocument();
    expect(within(lasting).getByText(`${shown(LASTING.valid_from)} — ${shown(LASTING.valid_to)}`)).toBeInTheDocument();
    expect(within(lasting).queryByText(/Истёк|Истекает/)).not.toBeInTheDocument();
    expect(within(lasting).getByRole('button', { name: `Товары: Документ ${LASTING.number} (2)` })).toBeInTheDocument();

    const ending = await rowOf(ENDING.number);
    expect(within(ending).getByText('Сертификат соответствия')).toBeInTheDocument();
    expect(within(ending).getByText('Истекает через 10 дней')).toHaveClass('ant-tag-red');
    expect(within(await rowOf(EXPIRED.number)).getByText('Истёк')).toHaveClass('ant-tag-red');
  });

  test('a new document: the form asks for what is missing, then sends the fields and the PDF as a form', async () => {
    const created: FormData[] = [];
    const { user } = openPage(
      [],
      http.post(DOCUMENTS, async ({ request }) => {
        created.push(await request.formData());
        return json(documentOf({ id: 9 }), 201);
      }),
    );
    await user.click(await screen.findByRole('button', { name: 'Добавить документ' }));
    const dialog = await screen.findByRole('dialog', { name: 'Новый документ соответствия' });
    await user.click(within(dialog).getByRole('button', { name: 'Сохранить' }));
    expect(await within(dialog).findByText('Укажите номер документа')).toBeInTheDocument();
    expect(within(dialog).getByText('Укажите срок действия')).toBeInTheDocument();
    expect(within(dialog).getByText('Приложите PDF документа')).toBeInTheDocument();
    expect(created).toHaveLength(0);

    await user.type(within(dialog).getByLabelText('Номер'), ' ЕАЭС N RU Д-CN.РА01.В.00009/26 ');
    await user.type(within(dialog).getByPlaceholderText('Действует с'), '15.01.2026{Enter}');
    await user.type(within(dialog).getByPlaceholderText('Действует по'), '14.01.2031{Enter}');
    // Node's File: the test's fetch sends only its own kind of Blob as a file.
    const pdf = new NodeFile(['%PDF-1.7 декларация'], 'declaration.pdf', {
      type: 'application/pdf',
    }) as unknown as File;
    await user.upload(within(dialog).getByLabelText('Файл PDF'), pdf);
    expect(within(dialog).getByText('declaration.pdf')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Сохранить' }));

    await waitFor(() => expect(created).toHaveLength(1));
    const [form] = created as [FormData];
    expect(Object.fromEntries([...form.entries()].filter(([name]) => name !== 'file'))).toEqual({
      kind: 'declaration',
      regulation: 'ТР ТС 008/2011',
      number: 'ЕАЭС N RU Д-CN.РА01.В.00009/26',
      valid_from: '2026-01-15',
      valid_to: '2031-01-14',
    });
    expect((form.get('file') as unknown as File).name).toBe('declaration.pdf');
    expect(await screen.findByText('Документ добавлен')).toBeInTheDocument();
  });

  test('a change sends only the fields changed; the server’s refusal stays in the dialog', async () => {
    const patches = recorder();
    const { user } = openPage(
      [LASTING],
      http.patch(`${DOCUMENTS}/${LASTING.id}`, ({ request }) => {
        patches.record(request);
        return json({ detail: `Документ с номером «${ENDING.number}» уже есть` }, 409);
      }),
    );
    await user.click(
      within(await rowOf(LASTING.number)).getByRole('button', { name: `Изменить: Документ ${LASTING.number}` }),
    );
    const dialog = await screen.findByRole('dialog', { name: `Документ ${LASTING.number}` });
    const number = within(dialog).getByLabelText('Номер');
    await user.clear(number);
    await user.type(number, ENDING.number);
    await user.click(within(dialog).getByRole('button', { name: 'Сохранить' }));

    expect(await within(dialog).findByText(`Документ с номером «${ENDING.number}» уже есть`)).toBeInTheDocument();
    expect(await patches.last!.json()).toEqual({ number: ENDING.number });
  });

  test('delete asks first; a document products still name is refused with the server’s words', async () => {
    const { user } = openPage(
      [LASTING],
      http.delete(`${DOCUMENTS}/${LASTING.id}`, () =>
        json({ detail: 'Документ указан у 2 товаров: уберите его из товаров, прежде чем удалять' }, 409),
      ),
    );
    await user.click(
      within(await rowOf(LASTING.number)).getByRole('button', { name: `Удалить: Документ ${LASTING.number}` }),
    );
    await user.click(await screen.findByRole('button', { name: 'Удалить' }));
    expect(
      await screen.findByText('Документ указан у 2 товаров: уберите его из товаров, прежде чем удалять'),
    ).toBeInTheDocument();
  });

  test('the PDF downloads under the name the server gives', async () => {
    const downloads = catchDownloads();
    try {
      const { user } = openPage(
        [LASTING],
        http.get(
          `${DOCUMENTS}/${LASTING.id}/pdf`,
          () =>
            new HttpResponse('%PDF-1.7', {
              headers: {
                'content-type': 'application/pdf',
                'content-disposition': `attachment; filename="declaration.pdf"; filename*=UTF-8''${encodeURIComponent('ЕАЭС_N_RU.pdf')}`,
              },
            }),
        ),
      );
      await user.click(await screen.findByRole('button', { name: `Скачать PDF: Документ ${LASTING.number}` }));
      await waitFor(() => expect(downloads.saved).toEqual(['ЕАЭС_N_RU.pdf']));
    } finally {
      downloads.restore();
    }
  });

  test('the products a document covers: found by article, added to those it has, saved as the whole list', async () => {
    const covered: ConformityProduct[] = [{ id: 11, art: 'MO-1001', name: 'Мишка Тедди' }];
    const saves = recorder();
    const { user } = openPage(
      [LASTING],
      http.get(`${DOCUMENTS}/${LASTING.id}/products`, () => json(covered)),
      http.get(`${API}/admin/products`, ({ request }) => {
        const q = new URL(request.url).searchParams.get('q');
        const found = q === 'MO-20' ? [adminProduct({ id: 21, art: 'MO-2001', name: 'Зайка' })] : [];
        return json({ items: found, total: found.length });
      }),
      http.put(`${DOCUMENTS}/${LASTING.id}/products`, async ({ request }) => {
        saves.record(request);
        return json([...covered, { id: 21, art: 'MO-2001', name: 'Зайка' }]);
      }),
    );
    await user.click(await screen.findByRole('button', { name: `Товары: Документ ${LASTING.number} (2)` }));
    const dialog = await screen.findByRole('dialog', { name: `Товары: Документ ${LASTING.number}` });
    expect(await within(dialog).findByText('MO-1001 — Мишка Тедди')).toBeInTheDocument();

    await user.type(within(dialog).getByRole('combobox', { name: 'Товары документа' }), 'MO-20');
    await user.click(await screen.findByTitle('MO-2001 — Зайка'));
    await user.click(within(dialog).getByRole('button', { name: 'Сохранить' }));

    await waitFor(() => expect(saves.calls).toHaveLength(1));
    expect(await saves.last!.json()).toEqual({ products: [11, 21] });
    expect(await screen.findByText('Товары документа сохранены')).toBeInTheDocument();
  });
});
