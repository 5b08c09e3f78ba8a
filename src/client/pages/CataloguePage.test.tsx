import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { json, products, recorder, refreshFails, visitor } from '@/test/fixtures';
import { renderShop } from '@/test/render';
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
const asked = (request: Request) => {
  const url = new URL(request.url);
  return { category: decodeURIComponent(url.pathname.split('/').at(-1)!), ...Object.fromEntries(url.searchParams) };
};

const categorySelect = () => screen.getByRole('combobox', { name: 'Категория' });
/** What antd's Select shows as chosen (or its placeholder), read from the whole control. */
const shownCategory = () => categorySelect().closest('.ant-select')!;

const forward = () => screen.getByRole('button', { name: /Вперёд/ });
const back = () => screen.getByRole('button', { name: /Назад/ });

async function chooseCategory(user: ReturnType<typeof userEvent.setup>, name: string) {
  await user.click(categorySelect());
  // The open list's option, as a shopper would tap it (each carries its label as its title).
  const options = await screen.findAllByTitle(name);
  await user.click(options.find((option) => option.classList.contains('ant-select-item-option'))!);
}

describe('Catalogue page (SPEC §2, §9)', () => {
  test('without a stored category shows the first one, page 1, 9 per page', async () => {
    const productCalls = catalogueNetwork({ Мишки: [products(9)] });
    renderShop({ route: '/catalog', preloadedState: visitor() });
    expect(await screen.findByText('Игрушка 9')).toBeInTheDocument();
    expect(shownCategory()).toHaveTextContent('Мишки');
    expect(screen.getByText('Категория', { selector: 'label' })).toBeInTheDocument();
    expect(screen.getByText('Страница 1')).toBeInTheDocument();
    expect(asked(productCalls.calls[0]!)).toEqual({ category: 'Мишки', skip: '0', limit: '9' });
    expect(forward()).toBeEnabled();
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

  test('Forward is enabled only with exactly 9 and turns the page; Back returns', async () => {
    const productCalls = catalogueNetwork({ Мишки: [products(9), products(8, 10)] });
    const user = userEvent.setup();
    renderShop({ route: '/catalog', preloadedState: visitor() });
    await screen.findByText('Игрушка 1');
    await user.click(forward());
    expect(await screen.findByText('Игрушка 10')).toBeInTheDocument();
    expect(screen.getByText('Страница 2')).toBeInTheDocument();
    expect(asked(productCalls.last!)).toEqual({ category: 'Мишки', skip: '9', limit: '9' });
    expect(forward()).toBeDisabled();
    await user.click(back());
    expect(await screen.findByText('Игрушка 1')).toBeInTheDocument();
    expect(screen.getByText('Страница 1')).toBeInTheDocument();
  });

  test('changing the category returns to page 1 and stores the choice', async () => {
    const productCalls = catalogueNetwork({ Мишки: [products(9), products(9, 10)], Лисы: [products(3, 40)] });
    const user = userEvent.setup();
    const { store } = renderShop({ route: '/catalog', preloadedState: visitor() });
    await screen.findByText('Игрушка 1');
    await user.click(forward());
    await screen.findByText('Страница 2');
    await chooseCategory(user, 'Лисы');
    expect(await screen.findByText('Игрушка 40')).toBeInTheDocument();
    expect(screen.getByText('Страница 1')).toBeInTheDocument();
    expect(shownCategory()).toHaveTextContent('Лисы');
    expect(asked(productCalls.last!)).toEqual({ category: 'Лисы', skip: '0', limit: '9' });
    expect(localStorage.getItem('selectedCategory')).toBe('Лисы');
    expect(store.getState().selectedCategory).toBe('Лисы');
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
