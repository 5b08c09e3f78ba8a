import { File as NodeFile } from 'node:buffer';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App } from 'antd';
import { http } from 'msw';
import type { AdminCategory } from '@shared/api';
import { adminProduct, adminVariant, conformityDocument, MANAGER, PRICE_TYPES } from '@/test/adminFixtures';
import { choose } from '@/test/select';
import { json, loggedIn, recorder } from '@/test/fixtures';
import { renderShop } from '@/test/render';
import { API, server } from '@/test/server';
import ProductFormPage from './ProductFormPage';
import ProductsPage from './ProductsPage';

// A whole product form is filled in some tests: a few seconds on a busy 2-core machine, beyond Jest's default 5.
jest.setTimeout(20_000);

// antd's App (the toasts) is the back office layout's, around every page.
const routes = [
  {
    path: '/admin/products',
    element: (
      <App>
        <ProductsPage />
      </App>
    ),
  },
  {
    path: '/admin/products/new',
    element: (
      <App>
        <ProductFormPage />
      </App>
    ),
  },
  {
    path: '/admin/products/:id',
    element: (
      <App>
        <ProductFormPage />
      </App>
    ),
  },
];

const CATEGORIES: AdminCategory[] = [
  { id: 1, name: 'Мишки', position: 0, products_count: 30 },
  { id: 2, name: 'Зайцы', position: 1, products_count: 15 },
];

const page = (count: number, from: number) =>
  Array.from({ length: count }, (_unused, index) =>
    adminProduct({ id: from + index, art: `ART-${from + index}`, name: `Игрушка ${from + index}` }),
  );

const asked = (request: Request) => Object.fromEntries(new URL(request.url).searchParams);

function openAt(route: string, ...handlers: Parameters<typeof server.use>) {
  server.use(
    ...handlers,
    http.get(`${API}/admin/categories`, () => json(CATEGORIES)),
    http.get(`${API}/admin/price-types`, () => json(PRICE_TYPES)),
  );
  // No pause between keystrokes: the forms are long, the machine is shared.
  const user = userEvent.setup({ delay: null });
  return { user, ...renderShop({ route, routes, preloadedState: loggedIn(MANAGER) }) };
}

describe('Товары (back office)', () => {
  test('pages through the server 20 at a time, searches and filters by category', async () => {
    const lists = recorder();
    const { user, router } = openAt(
      '/admin/products',
      http.get(`${API}/admin/products/5`, () => json(adminProduct())),
      http.get(`${API}/admin/products`, ({ request }) => {
        lists.record(request);
        const skip = Number(new URL(request.url).searchParams.get('skip'));
        const items = skip === 0 ? [adminProduct({ hidden: true }), ...page(19, 6)] : page(5, 100);
        return json({ items, total: 25 });
      }),
    );
    const row = (await screen.findByRole('link', { name: 'Мишка Тедди' })).closest('tr')!;
    expect(within(row).getByText('Скрыт')).toBeInTheDocument();
    expect(within(row).getByText('990,00 ₽')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Игрушка 6' }).closest('tr')).not.toHaveTextContent('Скрыт');
    expect(asked(lists.calls[0]!)).toEqual({ skip: '0', limit: '20' });
    expect(screen.getByText('Всего: 25')).toBeInTheDocument();

    await user.click(screen.getByRole('listitem', { name: '2' }));
    expect(await screen.findByRole('link', { name: 'Игрушка 100' })).toBeInTheDocument();
    expect(asked(lists.last!)).toEqual({ skip: '20', limit: '20' });
    expect(router.state.location.search).toBe('?page=2');

    await user.type(screen.getByRole('searchbox', { name: 'Артикул или название' }), 'мишка{Enter}');
    await waitFor(() => expect(asked(lists.last!)).toEqual({ q: 'мишка', skip: '0', limit: '20' }));

    await choose(user, screen.getByRole('combobox', { name: 'Категория' }), 'Зайцы');
    await waitFor(() => expect(asked(lists.last!)).toEqual({ q: 'мишка', category: 'Зайцы', skip: '0', limit: '20' }));

    await user.click(await screen.findByRole('link', { name: 'Мишка Тедди' }));
    expect(router.state.location.pathname).toBe('/admin/products/5');
    expect(await screen.findByRole('heading', { name: 'Мишка Тедди' })).toBeInTheDocument();
  });
});

type TestUser = ReturnType<typeof userEvent.setup>;

// Node's File: jsdom's is not a Blob to the fetch and FormData that jest-fixed-jsdom puts in the test's window.
const picture = () =>
  new NodeFile([new Uint8Array([0xff, 0xd8, 0xff, 0xe0])], 'мишка.jpg', { type: 'image/jpeg' }) as unknown as File;

/** The image route: refuses with `refusal` (status and detail) once if given, then stores the file. */
function imageRoute(uploads: { name: string; type: string }[], refusal?: [number, string]) {
  let refused = !refusal;
  return http.post(`${API}/admin/images`, async ({ request }) => {
    const file = (await request.formData()).get('file') as unknown as File;
    uploads.push({ name: file.name, type: file.type });
    if (!refused) {
      refused = true;
      return json({ detail: refusal![1] }, refusal![0]);
    }
    return json({ name: 'a1b2c3.webp', width: 800, height: 800 }, 201);
  });
}

/** The marketplace card's fields left empty, as the form sends them (product-card.test.tsx fills them). */
const NO_CARD = {
  brand: null,
  material: null,
  filler: null,
  age_from: null,
  country_of_origin: null,
  tnved: null,
  conformity_document_id: null,
};
const NO_VARIANT_CARD = { barcode: null, marked: false, package: null, weight_g: null };

const field = (name: string) => screen.getByRole('spinbutton', { name });

/** Replaces a field's text at once, as pasting does (typing key by key makes antd's long form slow to test). */
async function enter(user: TestUser, input: HTMLElement, text: string) {
  await user.clear(input);
  await user.paste(text);
}

async function fillVariant(
  user: TestUser,
  row: number,
  values: { color: string; size: string; price: string; stock: string },
) {
  await enter(user, screen.getByRole('textbox', { name: `Цвет, вариант ${row}` }), values.color);
  await enter(user, field(`Размер, вариант ${row}`), values.size);
  await enter(user, field(`Цена, вариант ${row}`), values.price);
  await enter(user, field(`Остаток, вариант ${row}`), values.stock);
}

async function fillNewProduct(user: TestUser) {
  await enter(user, await screen.findByRole('textbox', { name: 'Артикул' }), 'BUNNY-01');
  await enter(user, screen.getByRole('textbox', { name: 'Название' }), 'Зайка Ушастик');
  await choose(user, screen.getByRole('combobox', { name: 'Категория' }), 'Зайцы');
  await user.upload(screen.getByLabelText('Картинка'), picture());
  expect(await screen.findByRole('img', { name: 'Картинка товара' })).toHaveAttribute(
    'src',
    'http://shop.test/api/v1/image/a1b2c3.webp',
  );
}

describe('The product form (back office)', () => {
  test('creates a product with its two variants in one POST and opens it', async () => {
    const creations = recorder();
    const uploads: { name: string; type: string }[] = [];
    const { user, router } = openAt(
      '/admin/products/new',
      imageRoute(uploads),
      http.post(`${API}/admin/products`, ({ request }) => {
        creations.record(request);
        return json(adminProduct({ id: 77, art: 'BUNNY-01', name: 'Зайка Ушастик' }), 201);
      }),
      http.get(`${API}/admin/products/77`, () =>
        json(adminProduct({ id: 77, art: 'BUNNY-01', name: 'Зайка Ушастик' })),
      ),
    );
    await fillNewProduct(user);
    await enter(user, screen.getByRole('textbox', { name: 'Краткое описание' }), 'Мягкий заяц');
    await user.click(screen.getByRole('switch', { name: /Популярный/ }));
    await fillVariant(user, 1, { color: 'Белый', size: '25', price: '450,5', stock: '10' });
    await user.click(screen.getByRole('button', { name: 'Добавить вариант' }));
    await fillVariant(user, 2, { color: 'Серый', size: '40', price: '890', stock: '0' });
    await user.click(screen.getByRole('button', { name: 'Добавить товар' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/products/77'));
    expect(creations.calls).toHaveLength(1);
    expect(await creations.last!.json()).toEqual({
      art: 'BUNNY-01',
      name: 'Зайка Ушастик',
      description: 'Мягкий заяц',
      big_description: null,
      category: 'Зайцы',
      popular: true,
      image: 'a1b2c3.webp',
      ...NO_CARD,
      variants: [
        { color: 'Белый', size: 25, price: 450.5, stock: 10, ...NO_VARIANT_CARD },
        { color: 'Серый', size: 40, price: 890, stock: 0, ...NO_VARIANT_CARD },
      ],
    });
    expect(uploads).toEqual([{ name: 'мишка.jpg', type: 'image/jpeg' }]);
    expect(await screen.findByRole('heading', { name: 'Зайка Ушастик' })).toBeInTheDocument();
  });

  test('refuses a price of 0, fractional kopecks and stock, and a repeated variant before sending anything', async () => {
    const creations = recorder();
    const { user } = openAt(
      '/admin/products/new',
      imageRoute([]),
      http.post(`${API}/admin/products`, ({ request }) => {
        creations.record(request);
        return json(adminProduct(), 201);
      }),
    );
    await fillNewProduct(user);
    await fillVariant(user, 1, { color: 'Белый', size: '25', price: '0', stock: '2.5' });
    await user.click(screen.getByRole('button', { name: 'Добавить вариант' }));
    await fillVariant(user, 2, { color: 'Белый ', size: '25', price: '100,555', stock: '1' });
    await user.click(screen.getByRole('button', { name: 'Добавить товар' }));

    expect(await screen.findByText('Цена должна быть больше нуля')).toBeInTheDocument();
    expect(screen.getByText('Остаток — целое число, не меньше нуля')).toBeInTheDocument();
    expect(screen.getByText('Цена 100.555 ₽: не больше двух знаков после запятой (копейки)')).toBeInTheDocument();
    expect(await screen.findByText('Вариант «Белый, 25 см» указан дважды')).toBeInTheDocument();
    expect(creations.calls).toHaveLength(0);
  });

  test("shows the server's refusal of a picture, and takes the next one", async () => {
    const uploads: { name: string; type: string }[] = [];
    const { user } = openAt(
      '/admin/products/new',
      imageRoute(uploads, [415, 'Файл не похож на картинку JPEG, PNG, WebP или AVIF']),
    );
    await user.upload(await screen.findByLabelText('Картинка'), picture());
    expect(await screen.findByText('Файл не похож на картинку JPEG, PNG, WebP или AVIF')).toBeInTheDocument();
    expect(screen.queryByRole('img', { name: 'Картинка товара' })).not.toBeInTheDocument();

    await user.upload(screen.getByLabelText('Картинка'), picture());
    expect(await screen.findByRole('img', { name: 'Картинка товара' })).toBeInTheDocument();
    expect(screen.queryByText('Файл не похож на картинку JPEG, PNG, WebP или AVIF')).not.toBeInTheDocument();
    expect(uploads).toHaveLength(2);
  });

  test('saves only what changed: the product fields, then new, changed and removed variants', async () => {
    const calls: string[] = [];
    const bodies: unknown[] = [];
    let current = adminProduct({
      variants: [
        adminVariant({ id: 51, color: 'Бежевый', size: 30, price: 990, stock: 12, prices: [] }),
        adminVariant({ id: 52, color: 'Белый', size: 30, price: 990, stock: 3, prices: [] }),
      ],
    });
    const note = async (request: Request) => {
      calls.push(`${request.method} ${new URL(request.url).pathname}`);
      if (request.method !== 'DELETE') bodies.push(await request.json());
    };
    const { user } = openAt(
      '/admin/products/5',
      http.get(`${API}/admin/products/5`, () => json(current)),
      http.patch(`${API}/admin/products/5`, async ({ request }) => {
        await note(request);
        return json(current);
      }),
      http.post(`${API}/admin/products/5/variants`, async ({ request }) => {
        await note(request);
        return json(adminVariant({ id: 53, color: 'Розовый', size: 20, price: 500, stock: 1 }), 201);
      }),
      http.patch(`${API}/admin/variants/:id`, async ({ request }) => {
        await note(request);
        return json(current.variants[0]!);
      }),
      http.delete(`${API}/admin/variants/:id`, async ({ request }) => {
        await note(request);
        current = adminProduct({
          name: 'Мишка Тедди большой',
          variants: [
            adminVariant({ id: 51, color: 'Бежевый', size: 30, price: 1090, stock: 12, prices: [] }),
            adminVariant({ id: 53, color: 'Розовый', size: 20, price: 500, stock: 1, prices: [] }),
          ],
        });
        return json({ detail: 'Вариант удалён' });
      }),
    );
    const name = await screen.findByRole('textbox', { name: 'Название' });
    await enter(user, name, 'Мишка Тедди большой');
    await enter(user, field('Цена, вариант 1'), '1090');
    await user.click(screen.getByRole('button', { name: 'Удалить вариант 2' }));
    await user.click(screen.getByRole('button', { name: 'Добавить вариант' }));
    await fillVariant(user, 2, { color: 'Розовый', size: '20', price: '500', stock: '1' });
    await user.click(screen.getByRole('button', { name: 'Сохранить' }));

    expect(await screen.findByText('Изменения сохранены')).toBeInTheDocument();
    expect(calls).toEqual([
      'PATCH /api/v1/admin/products/5',
      'POST /api/v1/admin/products/5/variants',
      'PATCH /api/v1/admin/variants/51',
      'DELETE /api/v1/admin/variants/52',
    ]);
    expect(bodies).toEqual([
      { name: 'Мишка Тедди большой' },
      { color: 'Розовый', size: 20, price: 500, stock: 1, ...NO_VARIANT_CARD },
      { price: 1090 },
    ]);
    // The form is read again: the new variant now has its id, so a second save sends nothing.
    expect(await screen.findByRole('heading', { name: 'Мишка Тедди большой' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Сохранить' }));
    expect(await screen.findByText('Изменений нет')).toBeInTheDocument();
    expect(calls).toHaveLength(4);
  });

  test('sends a changed кратность and minimum, refusing a minimum that is no multiple of it before sending', async () => {
    const patches = recorder();
    let current = adminProduct();
    const { user } = openAt(
      '/admin/products/5',
      http.get(`${API}/admin/products/5`, () => json(current)),
      http.patch(`${API}/admin/products/5`, async ({ request }) => {
        patches.record(request);
        current = { ...current, ...((await request.clone().json()) as object) };
        return json(current);
      }),
    );
    const multiple = await screen.findByRole('spinbutton', { name: 'Кратность' });
    expect(multiple).toHaveValue('1');
    await enter(user, multiple, '6');
    await enter(user, field('Минимум в строке'), '10');
    await user.click(screen.getByRole('button', { name: 'Сохранить' }));
    expect(
      await screen.findByText('Минимальное количество (10 шт.) должно быть кратно кратности (6)'),
    ).toBeInTheDocument();
    await enter(user, multiple, '0');
    expect(await screen.findByText('Кратность — целое число штук от 1 до 10 000')).toBeInTheDocument();
    expect(patches.calls).toHaveLength(0);

    await enter(user, multiple, '6');
    await enter(user, field('Минимум в строке'), '12');
    await user.click(screen.getByRole('button', { name: 'Сохранить' }));
    expect(await screen.findByText('Изменения сохранены')).toBeInTheDocument();
    expect(patches.calls).toHaveLength(1);
    expect(await patches.last!.json()).toEqual({ multiple: 6, min_quantity: 12 });
    // Read again, the form shows what the server keeps.
    await waitFor(() => expect(field('Минимум в строке')).toHaveValue('12'));
  });

  test("a refusal stops the save: the server's sentence stays, and a partial save says so and re-reads the product", async () => {
    const reads = recorder();
    const writes: string[] = [];
    const { user } = openAt(
      '/admin/products/5',
      http.get(`${API}/admin/products/5`, ({ request }) => {
        reads.record(request);
        return json(adminProduct());
      }),
      http.patch(`${API}/admin/products/5`, async ({ request }) => {
        writes.push('PATCH product');
        const { art } = (await request.json()) as { art?: string };
        return art === 'BEAR-01'
          ? json({ detail: 'Артикул «BEAR-01» уже есть у другого товара' }, 409)
          : json(adminProduct());
      }),
      http.post(`${API}/admin/products/5/variants`, () => {
        writes.push('POST variant');
        return json({ detail: 'Вариант «Бежевый, 30 см» указан дважды' }, 422);
      }),
      http.patch(`${API}/admin/variants/:id`, () => {
        writes.push('PATCH variant');
        return json(adminProduct().variants[0]!);
      }),
    );
    await enter(user, await screen.findByRole('textbox', { name: 'Артикул' }), 'BEAR-01');
    await user.click(screen.getByRole('button', { name: 'Сохранить' }));
    expect(await screen.findByText('Артикул «BEAR-01» уже есть у другого товара')).toBeInTheDocument();
    expect(writes).toEqual(['PATCH product']);
    // Nothing was saved: the form keeps what was typed, and the product is not read again.
    expect(screen.getByRole('textbox', { name: 'Артикул' })).toHaveValue('BEAR-01');
    expect(reads.calls).toHaveLength(1);

    await enter(user, screen.getByRole('textbox', { name: 'Артикул' }), 'BEAR-05А');
    await enter(user, field('Остаток, вариант 1'), '20');
    await user.click(screen.getByRole('button', { name: 'Добавить вариант' }));
    await fillVariant(user, 2, { color: 'Бежевый', size: '31', price: '990', stock: '1' });
    await user.click(screen.getByRole('button', { name: 'Сохранить' }));
    expect(await screen.findByText('Сохранено не всё: Вариант «Бежевый, 30 см» указан дважды')).toBeInTheDocument();
    expect(writes).toEqual(['PATCH product', 'PATCH product', 'POST variant']);
    await waitFor(() => expect(reads.calls).toHaveLength(2));
  });

  test('«Снять с продажи» asks first, then hides the product; «Вернуть в продажу» puts it back', async () => {
    const changes = recorder();
    let hidden = false;
    const { user } = openAt(
      '/admin/products/5',
      http.get(`${API}/admin/products/5`, () => json(adminProduct({ hidden }))),
      http.delete(`${API}/admin/products/5`, ({ request }) => {
        changes.record(request);
        hidden = true;
        return json(adminProduct({ hidden }));
      }),
      http.patch(`${API}/admin/products/5`, async ({ request }) => {
        changes.record(request);
        hidden = ((await request.clone().json()) as { hidden: boolean }).hidden;
        return json(adminProduct({ hidden }));
      }),
    );
    await user.click(await screen.findByRole('button', { name: 'Снять с продажи' }));
    expect(changes.calls).toHaveLength(0);
    await user.click(await screen.findByRole('button', { name: 'Снять' }));
    expect(await screen.findByText('Скрыт')).toBeInTheDocument();
    expect(changes.last!.method).toBe('DELETE');
    expect(screen.queryByRole('button', { name: 'Снять с продажи' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Вернуть в продажу' }));
    expect(await screen.findByRole('button', { name: 'Снять с продажи' })).toBeInTheDocument();
    expect(screen.queryByText('Скрыт')).not.toBeInTheDocument();
    expect(await changes.last!.json()).toEqual({ hidden: false });
  });
});

describe('Карточка для маркетплейсов (back office)', () => {
  /** The product's page, with every PATCH of the product and of its variants recorded. */
  function openCard(product = adminProduct()) {
    const changes = recorder();
    const opened = openAt(
      '/admin/products/5',
      http.get(`${API}/admin/products/5`, () => json(product)),
      http.patch(`${API}/admin/products/5`, ({ request }) => {
        changes.record(request);
        return json(product);
      }),
      http.patch(`${API}/admin/variants/:id`, ({ request }) => {
        changes.record(request);
        return json(product.variants[0]!);
      }),
    );
    return { ...opened, changes };
  }

  test('the product fields: ТН ВЭД and age checked before sending, ТН ВЭД sent as its 10 digits', async () => {
    const { user, changes } = openCard();
    await enter(user, await screen.findByRole('textbox', { name: 'Бренд' }), ' Мягкий Опт ');
    await enter(user, screen.getByRole('textbox', { name: 'Материал' }), 'Плюш');
    await enter(user, screen.getByRole('textbox', { name: 'Код ТН ВЭД' }), '9503 00 410');
    await enter(user, field('Возраст от, лет'), '19');
    await user.click(screen.getByRole('button', { name: 'Сохранить' }));
    expect(await screen.findByText('Код ТН ВЭД — 10 цифр, например 9503 00 410 0')).toBeInTheDocument();
    expect(await screen.findByText('Возраст — целое число лет от 0 до 18')).toBeInTheDocument();
    expect(changes.calls).toHaveLength(0);

    await enter(user, screen.getByRole('textbox', { name: 'Код ТН ВЭД' }), '9503 00 410 0');
    await enter(user, field('Возраст от, лет'), '3');
    await user.click(screen.getByRole('button', { name: 'Сохранить' }));
    expect(await screen.findByText('Изменения сохранены')).toBeInTheDocument();
    expect(await changes.last!.json()).toEqual({
      brand: 'Мягкий Опт',
      material: 'Плюш',
      age_from: 3,
      tnved: '9503004100',
    });
  });

  test('the conformity document is chosen from the documents, an expired one said so, and sent by id', async () => {
    server.use(
      http.get(`${API}/admin/conformity-documents`, () =>
        json([
          conformityDocument({
            id: 3,
            kind: 'certificate',
            number: 'ЕАЭС RU С-CN.АБ12.В.00001/26',
            valid_to: '2031-01-14',
          }),
          conformityDocument({ id: 4, kind: 'declaration', number: 'ЕАЭС N RU Д-RU.01/20', expired: true }),
        ]),
      ),
    );
    const { user, changes } = openCard();
    const select = await screen.findByRole('combobox', { name: 'Документ соответствия' });
    await user.click(select);
    expect(
      await screen.findByText(/Декларация о соответствии № ЕАЭС N RU Д-RU\.01\/20, до .* — истёк/),
    ).toBeInTheDocument();
    await choose(user, select, 'Сертификат соответствия № ЕАЭС RU С-CN.АБ12.В.00001/26, до 14.01.2031');
    await user.click(screen.getByRole('button', { name: 'Сохранить' }));
    expect(await screen.findByText('Изменения сохранены')).toBeInTheDocument();
    expect(await changes.last!.json()).toEqual({ conformity_document_id: 3 });
  });

  test("a variant's barcode (checked), marking, package and weight; 1С's internal code marked and kept", async () => {
    const { user, changes } = openCard(
      adminProduct({
        variants: [
          adminVariant({ id: 51, barcode: '2000012345', barcode_kind: 'internal' }),
          adminVariant({ id: 52, color: 'Белый', barcode: null }),
        ],
      }),
    );
    const barcode = await screen.findByRole('textbox', { name: 'Штрихкод, вариант 2' });
    expect(screen.getByRole('textbox', { name: 'Штрихкод, вариант 1' })).toHaveValue('2000012345');
    expect(screen.getAllByText('внутренний код')).toHaveLength(1);

    await enter(user, barcode, '4006381333932');
    await enter(user, field('Длина упаковки, вариант 2'), '30');
    await user.click(screen.getByRole('button', { name: 'Сохранить' }));
    expect(await screen.findByText('Неверная контрольная цифра штрихкода')).toBeInTheDocument();
    expect(await screen.findAllByText('Укажите все три размера')).toHaveLength(2);
    expect(changes.calls).toHaveLength(0);

    await enter(user, barcode, '4006381333931');
    await enter(user, field('Ширина упаковки, вариант 2'), '20,5');
    await enter(user, field('Высота упаковки, вариант 2'), '15');
    await enter(user, field('Вес, вариант 2'), '350');
    await user.click(screen.getByRole('checkbox', { name: 'Подлежит маркировке, вариант 2' }));
    await user.click(screen.getByRole('button', { name: 'Сохранить' }));
    expect(await screen.findByText('Изменения сохранены')).toBeInTheDocument();
    // Only variant 2 changed: the internal code of variant 1 is not sent, nor refused.
    expect(changes.calls.map((call) => new URL(call.url).pathname)).toEqual(['/api/v1/admin/variants/52']);
    expect(await changes.last!.json()).toEqual({
      barcode: '4006381333931',
      marked: true,
      package: { length_cm: 30, width_cm: 20.5, height_cm: 15 },
      weight_g: 350,
    });
  });
});

describe('Фото для маркетплейсов (back office)', () => {
  const photo = (name: string, small: boolean) => ({
    name,
    width: 800,
    height: 800,
    master_width: small ? 300 : 1000,
    master_height: small ? 300 : 1400,
    small_for_marketplace: small,
  });

  test('the product set and each colour: cover, small warning, reorder, remove, upload, saved with one PUT', async () => {
    const saves = recorder();
    const product = adminProduct({
      variants: [adminVariant({ id: 51, color: 'Бежевый' }), adminVariant({ id: 52, color: 'Белый', size: 40 })],
      photos: [{ color: null, images: [photo('front.webp', false), photo('side.webp', true)] }],
    });
    const { user } = openAt(
      '/admin/products/5',
      http.get(`${API}/admin/products/5`, () => json(product)),
      http.post(`${API}/admin/images`, () =>
        json(
          {
            name: 'beige.webp',
            width: 600,
            height: 600,
            master: { width: 600, height: 600 },
            small_for_marketplace: true,
          },
          201,
        ),
      ),
      http.put(`${API}/admin/products/5/photos`, ({ request }) => {
        saves.record(request);
        return json(product);
      }),
    );
    const own = await screen.findByRole('list', { name: 'Фото товара' });
    const [first, second] = within(own).getAllByRole('listitem');
    expect(within(first!).getByText('обложка')).toBeInTheDocument();
    expect(within(first!).queryByText(/меньше 900×1200/)).not.toBeInTheDocument();
    expect(within(second!).getByText('меньше 900×1200 — маркетплейс может не принять')).toBeInTheDocument();
    expect(screen.getByText('Фото меньше 900×1200 — маркетплейс может не принять: 1')).toBeInTheDocument();
    expect(screen.getByRole('list', { name: 'Цвет «Бежевый»' })).toBeInTheDocument();
    expect(screen.getByRole('list', { name: 'Цвет «Белый»' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Переместить влево: Фото товара, фото 2' }));
    const reordered = within(screen.getByRole('list', { name: 'Фото товара' })).getAllByRole('listitem');
    expect(within(reordered[0]!).getByRole('img', { name: 'Фото товара, фото 1' })).toHaveAttribute(
      'src',
      'http://shop.test/api/v1/image/side.webp',
    );
    expect(within(reordered[0]!).getByText('обложка')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Убрать: Фото товара, фото 2' }));

    await user.upload(screen.getByLabelText('Файл фото: Цвет «Бежевый»'), picture());
    const beige = await within(screen.getByRole('list', { name: 'Цвет «Бежевый»' })).findByRole('listitem');
    expect(within(beige).getByText('меньше 900×1200 — маркетплейс может не принять')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Сохранить фото' }));
    expect(await screen.findByText('Фото сохранены')).toBeInTheDocument();
    expect(await saves.last!.json()).toEqual([
      { color: null, images: ['side.webp'] },
      { color: 'Бежевый', images: ['beige.webp'] },
    ]);
  });

  test("the server's refusal is shown", async () => {
    const { user } = openAt(
      '/admin/products/5',
      http.get(`${API}/admin/products/5`, () => json(adminProduct())),
      http.put(`${API}/admin/products/5/photos`, () =>
        json({ detail: 'У товара нет вариантов цвета «Бежевый»: фото этого цвета не к чему привязать' }, 422),
      ),
    );
    await user.click(await screen.findByRole('button', { name: 'Сохранить фото' }));
    expect(await screen.findByText(/нет вариантов цвета «Бежевый»/)).toBeInTheDocument();
  });
});
