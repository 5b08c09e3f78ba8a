import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { json, product, products, recorder, refreshFails, visitor, wait } from '@/test/fixtures';
import { renderShop, type TestRouter } from '@/test/render';
import { API, server } from '@/test/server';

const CATEGORIES = ['Мишки', 'Зайцы', 'Лисы'];

/** Categories and their products: `shelves[category][n]` answers skip = n * 9. */
function catalogueNetwork(shelves: Record<string, ReturnType<typeof products>[]>, categories = CATEGORIES) {
  const productCalls = recorder();
  server.use(
    refreshFails(),
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

async function chooseCategory(user: ReturnType<typeof userEvent.setup>, name: string) {
  await user.click(categorySelect());
  // The open list's option, as a shopper would tap it (each carries its label as its title).
  const options = await screen.findAllByTitle(name);
  await user.click(options.find((option) => option.classList.contains('ant-select-item-option'))!);
}

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

  test('a category of exactly 9 products has Forward disabled: the next page is empty (issue 17)', async () => {
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

describe('Catalogue page: the category and page live in the address (issue 17)', () => {
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
    server.use(http.get(`${API}/products/ART-51`, () => json(product({ id: 51, art: 'ART-51', name: 'Лис Рыжик' }))));
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
