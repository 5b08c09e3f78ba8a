import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { json, product, productPage, products, recorder, refreshFails, variant, visitor, wait } from '@/test/fixtures';
import { renderShop, type TestRouter } from '@/test/render';
import { API, server } from '@/test/server';

const CATEGORIES = ['Мишки', 'Зайцы', 'Лисы'];
const COLORS = ['красный', 'синий'];

/** The colour filter's choices of every category. */
const colorsOfCategories = () => http.get(`${API}/products/categories/:category/colors`, () => json(COLORS));

/** Categories and their products: `shelves[category][n]` answers skip = n * 9. */
function catalogueNetwork(shelves: Record<string, ReturnType<typeof products>[]>, categories = CATEGORIES) {
  const productCalls = recorder();
  server.use(
    refreshFails(),
    colorsOfCategories(),
    http.get(`${API}/products/categories/all`, () => json(categories)),
    http.get(`${API}/products/categories/:category`, ({ request, params }) => {
      productCalls.record(request);
      const skip = Number(new URL(request.url).searchParams.get('skip'));
      return json(shelves[params.category as string]?.[skip / 9] ?? []);
    }),
  );
  return productCalls;
}

/** The category a request asked for, and its paging. */
const asked = (request: Request): Record<string, string> => {
  const url = new URL(request.url);
  return { category: decodeURIComponent(url.pathname.split('/').at(-1)!), ...Object.fromEntries(url.searchParams) };
};

const categorySelect = () => screen.getByRole('combobox', { name: 'Категория' });
/** What antd's Select shows as chosen (or its placeholder), read from the whole control. */
const shownCategory = () => categorySelect().closest('.ant-select')!;

const forward = () => screen.getByRole('button', { name: /Вперёд/ });
const back = () => screen.getByRole('button', { name: /Назад/ });
/** Forward once the next page has been read ahead and has products. */
const enabledForward = async () => {
  await waitFor(() => expect(forward()).toBeEnabled());
  return forward();
};
/** The browser's Back, in the in-memory router. */
const goBack = (router: TestRouter) => act(() => router.navigate(-1 as unknown as string));
/** The address's query, decoded. */
const addressQuery = (router: TestRouter) => Object.fromEntries(new URLSearchParams(router.state.location.search));

/** Opens the Select labelled `label` and taps its option `name`, as a shopper would. */
async function chooseIn(user: ReturnType<typeof userEvent.setup>, label: string, name: string) {
  await user.click(screen.getByRole('combobox', { name: label }));
  // The open list's option (each carries its label as its title).
  const options = await screen.findAllByTitle(name);
  await user.click(options.find((option) => option.classList.contains('ant-select-item-option'))!);
}

const chooseCategory = (user: ReturnType<typeof userEvent.setup>, name: string) => chooseIn(user, 'Категория', name);

describe('Catalogue page (SPEC §2, §9)', () => {
  test('without a stored category shows the first one, page 1, 9 per page', async () => {
    const productCalls = catalogueNetwork({ Мишки: [products(9), products(1, 10)] });
    renderShop({ route: '/catalog', preloadedState: visitor() });
    expect(await screen.findByText('Игрушка 9')).toBeInTheDocument();
    expect(shownCategory()).toHaveTextContent('Мишки');
    expect(screen.getByText('Категория', { selector: 'label' })).toBeInTheDocument();
    expect(screen.getByText('Страница 1')).toBeInTheDocument();
    expect(asked(productCalls.calls[0]!)).toEqual({ category: 'Мишки', skip: '0', limit: '9' });
    await enabledForward();
    expect(back()).toBeDisabled();
  });

  test('uses the stored selectedCategory when it is still a category', async () => {
    localStorage.setItem('selectedCategory', 'Зайцы');
    const productCalls = catalogueNetwork({ Зайцы: [products(2, 30)] });
    renderShop({ route: '/catalog', preloadedState: { ...visitor(), selectedCategory: 'Зайцы' } });
    expect(await screen.findByText('Игрушка 30')).toBeInTheDocument();
    expect(shownCategory()).toHaveTextContent('Зайцы');
    expect(productCalls.calls.map((request) => asked(request).category)).toEqual(['Зайцы']);
  });

  test('falls back to the first category when the stored one no longer exists', async () => {
    const productCalls = catalogueNetwork({ Мишки: [products(1)] });
    renderShop({ route: '/catalog', preloadedState: { ...visitor(), selectedCategory: 'Драконы' } });
    expect(await screen.findByText('Игрушка 1')).toBeInTheDocument();
    expect(shownCategory()).toHaveTextContent('Мишки');
    expect(productCalls.calls.map((request) => asked(request).category)).toEqual(['Мишки']);
  });

  test('Forward turns to the page read ahead; Back returns', async () => {
    const productCalls = catalogueNetwork({ Мишки: [products(9), products(8, 10)] });
    const user = userEvent.setup();
    renderShop({ route: '/catalog', preloadedState: visitor() });
    await screen.findByText('Игрушка 1');
    await user.click(await enabledForward());
    expect(await screen.findByText('Игрушка 10')).toBeInTheDocument();
    expect(screen.getByText('Страница 2')).toBeInTheDocument();
    expect(productCalls.calls.map(asked)).toEqual([
      { category: 'Мишки', skip: '0', limit: '9' },
      { category: 'Мишки', skip: '9', limit: '9' },
    ]);
    expect(forward()).toBeDisabled();
    await user.click(back());
    expect(await screen.findByText('Игрушка 1')).toBeInTheDocument();
    expect(screen.getByText('Страница 1')).toBeInTheDocument();
  });

  test('changing the category returns to page 1 and stores the choice', async () => {
    const productCalls = catalogueNetwork({ Мишки: [products(9), products(9, 10)], Лисы: [products(3, 40)] });
    const user = userEvent.setup();
    const { store, router } = renderShop({ route: '/catalog', preloadedState: visitor() });
    await screen.findByText('Игрушка 1');
    await user.click(await enabledForward());
    await screen.findByText('Страница 2');
    await chooseCategory(user, 'Лисы');
    expect(await screen.findByText('Игрушка 40')).toBeInTheDocument();
    expect(screen.getByText('Страница 1')).toBeInTheDocument();
    expect(shownCategory()).toHaveTextContent('Лисы');
    expect(asked(productCalls.last!)).toEqual({ category: 'Лисы', skip: '0', limit: '9' });
    expect(localStorage.getItem('selectedCategory')).toBe('Лисы');
    expect(addressQuery(router)).toEqual({ category: 'Лисы' });
    expect(store.getState().selectedCategory).toBe('Лисы');
  });

  test('a category of exactly 9 products has Forward disabled: the next page is empty', async () => {
    const productCalls = catalogueNetwork({ Мишки: [products(9)] });
    renderShop({ route: '/catalog', preloadedState: visitor() });
    expect(await screen.findByText('Игрушка 9')).toBeInTheDocument();
    await waitFor(() => expect(productCalls.calls.map((request) => asked(request).skip)).toEqual(['0', '9']));
    await wait(50);
    expect(forward()).toBeDisabled();
  });

  test("an empty category shows 'Товары не найдены' with Forward disabled", async () => {
    catalogueNetwork({ Мишки: [[]] });
    renderShop({ route: '/catalog', preloadedState: visitor() });
    expect(await screen.findByText('Товары не найдены')).toBeInTheDocument();
    expect(forward()).toBeDisabled();
  });

  test("a failed product load shows 'Товары не найдены'", async () => {
    server.use(
      refreshFails(),
      colorsOfCategories(),
      http.get(`${API}/products/categories/all`, () => json(CATEGORIES)),
      http.get(`${API}/products/categories/:category`, () => json({ detail: 'Ошибка' }, 500)),
    );
    renderShop({ route: '/catalog', preloadedState: visitor() });
    expect(await screen.findByText('Товары не найдены')).toBeInTheDocument();
    expect(forward()).toBeDisabled();
  });

  test("failed categories leave an empty select and 'Товары не найдены'", async () => {
    server.use(
      refreshFails(),
      http.get(`${API}/products/categories/all`, () => json({ detail: 'Ошибка' }, 500)),
    );
    renderShop({ route: '/catalog', preloadedState: visitor() });
    expect(await screen.findByText('Товары не найдены')).toBeInTheDocument();
    await waitFor(() => expect(shownCategory()).toHaveTextContent('Категория'));
  });
});

describe('Catalogue page: the category and page live in the address', () => {
  test('opens at the category and page the address names, over the stored choice, which it keeps', async () => {
    localStorage.setItem('selectedCategory', 'Зайцы');
    const productCalls = catalogueNetwork({ Лисы: [products(9, 40), products(2, 50)] });
    renderShop({ route: `/catalog?category=${encodeURIComponent('Лисы')}&page=2`, preloadedState: visitor() });
    expect(await screen.findByText('Игрушка 51')).toBeInTheDocument();
    expect(shownCategory()).toHaveTextContent('Лисы');
    expect(screen.getByText('Страница 2')).toBeInTheDocument();
    expect(asked(productCalls.calls[0]!)).toEqual({ category: 'Лисы', skip: '9', limit: '9' });
    expect(localStorage.getItem('selectedCategory')).toBe('Зайцы');
  });

  test('without a category in the address the stored one is used and written with the page', async () => {
    localStorage.setItem('selectedCategory', 'Зайцы');
    catalogueNetwork({ Зайцы: [products(9, 20), products(1, 30)] });
    const user = userEvent.setup();
    const { router } = renderShop({ route: '/catalog', preloadedState: { ...visitor(), selectedCategory: 'Зайцы' } });
    await screen.findByText('Игрушка 20');
    await user.click(await enabledForward());
    expect(await screen.findByText('Игрушка 30')).toBeInTheDocument();
    expect(addressQuery(router)).toEqual({ category: 'Зайцы', page: '2' });
    await user.click(back());
    await screen.findByText('Игрушка 20');
    expect(addressQuery(router)).toEqual({ category: 'Зайцы' });
  });

  test('an unknown category in the address falls back to the stored one', async () => {
    const productCalls = catalogueNetwork({ Зайцы: [products(2, 30)] });
    renderShop({
      route: `/catalog?category=${encodeURIComponent('Драконы')}`,
      preloadedState: { ...visitor(), selectedCategory: 'Зайцы' },
    });
    expect(await screen.findByText('Игрушка 30')).toBeInTheDocument();
    expect(productCalls.calls.map((request) => asked(request).category)).toEqual(['Зайцы']);
  });

  test('Back from a product returns to the same category and page', async () => {
    catalogueNetwork({ Мишки: [products(9)], Лисы: [products(9, 40), products(2, 50)] });
    server.use(
      http.get(`${API}/products/ART-51`, () => json(productPage({ id: 51, art: 'ART-51', name: 'Лис Рыжик' }))),
    );
    const user = userEvent.setup();
    const { router } = renderShop({ route: '/catalog', preloadedState: visitor() });
    await screen.findByText('Игрушка 1');
    await chooseCategory(user, 'Лисы');
    await user.click(await enabledForward());
    await user.click(await screen.findByRole('link', { name: /Игрушка 51/ }));
    expect(await screen.findByRole('heading', { name: 'Лис Рыжик' })).toBeInTheDocument();

    await goBack(router);
    expect(await screen.findByText('Игрушка 51')).toBeInTheDocument();
    expect(screen.getByText('Страница 2')).toBeInTheDocument();
    expect(shownCategory()).toHaveTextContent('Лисы');
    expect(addressQuery(router)).toEqual({ category: 'Лисы', page: '2' });
  });

  test.each(['0', '-1', 'abc', '1e9'])('a page that is not one (?page=%s) shows page 1 and drops it', async (bad) => {
    const productCalls = catalogueNetwork({ Мишки: [products(3)] });
    const { router } = renderShop({ route: `/catalog?page=${bad}`, preloadedState: visitor() });
    expect(await screen.findByText('Игрушка 3')).toBeInTheDocument();
    expect(screen.getByText('Страница 1')).toBeInTheDocument();
    await waitFor(() => expect(addressQuery(router)).toEqual({}));
    expect(productCalls.calls.map((request) => asked(request).skip)).toEqual(['0']);
  });

  test('names the category and page in the document title', async () => {
    catalogueNetwork({ Мишки: [products(9), products(1, 10)] });
    const user = userEvent.setup();
    renderShop({ route: '/catalog', preloadedState: visitor() });
    await screen.findByText('Игрушка 1');
    expect(document.title).toBe('Каталог: Мишки — Мягкий Опт');
    await user.click(await enabledForward());
    await screen.findByText('Игрушка 10');
    expect(document.title).toBe('Каталог: Мишки, страница 2 — Мягкий Опт');
  });
});

describe('Catalogue page: filters and sorting live in the address', () => {
  const FILTERED = {
    category: 'Лисы',
    sort: 'name',
    color: 'синий',
    size_min: '20',
    size_max: '50',
    price_min: '100.5',
    price_max: '500',
    in_stock: 'true',
  };

  test('each choice goes into the address and the request, and returns to page 1', async () => {
    const productCalls = catalogueNetwork({ Мишки: [products(9), products(9, 10), products(1, 19)] });
    const user = userEvent.setup();
    const { router } = renderShop({ route: '/catalog?page=2', preloadedState: visitor() });
    await screen.findByText('Игрушка 10');

    await chooseIn(user, 'Сортировка', 'Сначала дешевле');
    await waitFor(() => expect(addressQuery(router)).toEqual({ category: 'Мишки', sort: 'price_asc' }));
    expect(screen.getByText('Страница 1')).toBeInTheDocument();
    await waitFor(() =>
      expect(productCalls.calls.map(asked)).toContainEqual({
        category: 'Мишки',
        skip: '0',
        limit: '9',
        sort: 'price_asc',
      }),
    );

    await user.click(await enabledForward());
    await waitFor(() => expect(addressQuery(router)).toMatchObject({ page: '2', sort: 'price_asc' }));
    await chooseIn(user, 'Цвет', 'синий');
    await waitFor(() => expect(addressQuery(router)).toEqual({ category: 'Мишки', sort: 'price_asc', color: 'синий' }));

    await user.type(screen.getByRole('spinbutton', { name: 'Размер от' }), '20');
    await user.tab();
    await user.type(screen.getByRole('spinbutton', { name: 'Цена до' }), '500{Enter}');
    await user.click(screen.getByRole('checkbox', { name: 'В наличии' }));
    const expected = {
      category: 'Мишки',
      sort: 'price_asc',
      color: 'синий',
      size_min: '20',
      price_max: '500',
      in_stock: 'true',
    };
    await waitFor(() => expect(addressQuery(router)).toEqual(expected));
    // The first page of the filtered list (and the next, read ahead for Forward).
    await waitFor(() => expect(productCalls.calls.map(asked)).toContainEqual({ ...expected, skip: '0', limit: '9' }));
  });

  test('a reload shows the same filtered page: the address is read into the request and the controls', async () => {
    const productCalls = catalogueNetwork({ Лисы: [products(9, 40), products(2, 50)] });
    renderShop({ route: `/catalog?${new URLSearchParams({ ...FILTERED, page: '2' })}`, preloadedState: visitor() });
    expect(await screen.findByText('Игрушка 51')).toBeInTheDocument();
    expect(asked(productCalls.calls[0]!)).toEqual({ ...FILTERED, skip: '9', limit: '9' });
    expect(screen.getByRole('combobox', { name: 'Сортировка' }).closest('.ant-select')).toHaveTextContent(
      'По названию',
    );
    expect(screen.getByRole('combobox', { name: 'Цвет' }).closest('.ant-select')).toHaveTextContent('синий');
    expect(screen.getByRole('spinbutton', { name: 'Размер от' })).toHaveValue('20');
    expect(screen.getByRole('spinbutton', { name: 'Размер до' })).toHaveValue('50');
    // Rubles as people write them, not padded to kopecks.
    expect(screen.getByRole('spinbutton', { name: 'Цена от' })).toHaveValue('100,5');
    expect(screen.getByRole('spinbutton', { name: 'Цена до' })).toHaveValue('500');
    expect(screen.getByRole('checkbox', { name: 'В наличии' })).toBeChecked();
  });

  test('the price takes rubles as typed, «800» or «799,5», and keeps at most kopecks', async () => {
    catalogueNetwork({ Мишки: [products(3)] });
    const user = userEvent.setup();
    const { router } = renderShop({ route: '/catalog', preloadedState: visitor() });
    await screen.findByText('Игрушка 3');
    const from = screen.getByRole('spinbutton', { name: 'Цена от' });
    const to = screen.getByRole('spinbutton', { name: 'Цена до' });

    await user.type(to, '800{Enter}');
    await waitFor(() => expect(addressQuery(router)).toEqual({ category: 'Мишки', price_max: '800' }));
    expect(to).toHaveValue('800');

    await user.type(from, '799,5');
    await user.tab();
    await waitFor(() =>
      expect(addressQuery(router)).toEqual({ category: 'Мишки', price_min: '799.5', price_max: '800' }),
    );
    expect(from).toHaveValue('799,5');

    await user.clear(from);
    await user.type(from, '99.999{Enter}');
    await waitFor(() =>
      expect(addressQuery(router)).toEqual({ category: 'Мишки', price_min: '100', price_max: '800' }),
    );
    expect(from).toHaveValue('100');
  });

  test('values the API would refuse are left out of the request rather than shown as an error', async () => {
    const productCalls = catalogueNetwork({ Мишки: [products(3)] });
    renderShop({
      route: '/catalog?sort=cheap&size_min=50&size_max=20&price_min=-1&price_max=300&in_stock=yes',
      preloadedState: visitor(),
    });
    expect(await screen.findByText('Игрушка 3')).toBeInTheDocument();
    expect(asked(productCalls.calls[0]!)).toEqual({ category: 'Мишки', skip: '0', limit: '9', price_max: '300' });
  });

  test('«Сбросить фильтры» clears the filters, keeps the order and the category, and returns to page 1', async () => {
    const productCalls = catalogueNetwork({ Лисы: [products(9, 40), products(2, 50)] });
    const user = userEvent.setup();
    const { router } = renderShop({
      route: `/catalog?${new URLSearchParams({ ...FILTERED, page: '2' })}`,
      preloadedState: visitor(),
    });
    await screen.findByText('Игрушка 51');
    await user.click(screen.getByRole('button', { name: 'Сбросить фильтры' }));
    await waitFor(() => expect(addressQuery(router)).toEqual({ category: 'Лисы', sort: 'name' }));
    expect(await screen.findByText('Игрушка 40')).toBeInTheDocument();
    expect(productCalls.calls.map(asked)).toContainEqual({ category: 'Лисы', sort: 'name', skip: '0', limit: '9' });
    expect(screen.getByRole('spinbutton', { name: 'Размер от' })).toHaveValue('');
    expect(screen.queryByRole('button', { name: 'Сбросить фильтры' })).not.toBeInTheDocument();
  });

  test('another category keeps the filters; a card’s price is the lowest of the variants they let through', async () => {
    const twoColours = product({
      id: 60,
      art: 'ART-60',
      name: 'Лис Двухцветный',
      variants: [variant({ id: 601, color: 'красный', price: 150 }), variant({ id: 602, color: 'синий', price: 420 })],
    });
    const productCalls = catalogueNetwork({ Мишки: [products(1)], Лисы: [[twoColours]] });
    const user = userEvent.setup();
    const { router } = renderShop({ route: '/catalog?color=синий', preloadedState: visitor() });
    await screen.findByText('Игрушка 1');
    await chooseCategory(user, 'Лисы');
    expect(await screen.findByText('Лис Двухцветный')).toBeInTheDocument();
    expect(addressQuery(router)).toEqual({ category: 'Лисы', color: 'синий' });
    expect(asked(productCalls.last!)).toEqual({ category: 'Лисы', color: 'синий', skip: '0', limit: '9' });
    expect(screen.getByText('420,00 ₽')).toBeInTheDocument();
    expect(screen.queryByText('150,00 ₽')).not.toBeInTheDocument();
  });
});
