import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import type { CartItem } from '@shared/api';
import { cart, cartItem, homeHandlers, json, loggedIn, product, recorder, USER } from '@/test/fixtures';
import { renderShop } from '@/test/render';
import { API, server } from '@/test/server';

const BEAR = cartItem({ id: 1, count: 1, price: 500, variant_id: 101 });
const HARE = cartItem({
  id: 2,
  count: 1,
  price: 1250.5,
  variant_id: 202,
  product: { id: 2, art: 'HARE-02', name: 'Заяц', description: 'Серый заяц', image: 'hare.svg' },
});

/**
 * A server-side cart: GET answers what is stored, PUT /cart/count and DELETE change it (or fail
 * with `failWith`). Every call is recorded with the time it arrived.
 */
function cartServer(initial: CartItem[], { failWith }: { failWith?: number } = {}) {
  let items = initial.map((item) => ({ ...item }));
  const gets = recorder();
  const puts = recorder();
  const deletes = recorder();
  const arrivals: { method: string; at: number }[] = [];
  server.use(
    ...homeHandlers(),
    http.get(`${API}/cart/${USER.id}`, ({ request }) => {
      gets.record(request);
      return json(cart(items));
    }),
    http.put(`${API}/cart/count`, ({ request }) => {
      puts.record(request);
      arrivals.push({ method: 'PUT', at: Date.now() });
      if (failWith) return json({ detail: 'Ошибка' }, failWith);
      const params = new URL(request.url).searchParams;
      const id = Number(params.get('item_id'));
      const count = Number(params.get('count'));
      items = items.map((item) => (item.id === id ? { ...item, count, item_total: item.variant.price * count } : item));
      return new HttpResponse(null, { status: 204 });
    }),
    http.delete(`${API}/cart/:itemId`, ({ request, params }) => {
      deletes.record(request);
      arrivals.push({ method: 'DELETE', at: Date.now() });
      if (failWith) return json({ detail: 'Ошибка' }, failWith);
      items = items.filter((item) => item.id !== Number(params.itemId));
      return new HttpResponse(null, { status: 204 });
    }),
  );
  return { gets, puts, deletes, arrivals };
}

async function openCart(items: CartItem[], options?: { failWith?: number }) {
  const network = cartServer(items, options);
  const user = userEvent.setup();
  const rendered = renderShop({ route: '/cart', preloadedState: loggedIn() });
  await screen.findByRole('button', { name: 'Оформить заказ' });
  return { user, ...network, ...rendered };
}

const plus = (name: string) => screen.getByRole('button', { name: `Увеличить количество: ${name}` });
const line = (name: string) => plus(name).closest('li')!;
const countOf = (name: string) => within(line(name)).getByLabelText('Количество');
const hasLine = (name: string) => screen.queryAllByRole('link', { name }).length > 0;
const minus = (name: string) => screen.getByRole('button', { name: `Уменьшить количество: ${name}` });
const summary = () => screen.getByRole('heading', { name: /Итого/ }).parentElement!;
const query = (request: Request) => Object.fromEntries(new URL(request.url).searchParams);

describe('Cart page: contents (SPEC §2)', () => {
  test('lists the lines with name, description, count and line total, and the summary', async () => {
    await openCart([BEAR, { ...HARE, count: 2 }]);
    expect(screen.getByRole('heading', { name: 'Корзина' })).toBeInTheDocument();
    expect(within(line('Заяц')).getByText('Серый заяц')).toBeInTheDocument();
    expect(countOf('Заяц')).toHaveValue('2');
    expect(within(line('Заяц')).getByText('2 501 ₽')).toBeInTheDocument();
    expect(within(line('Заяц')).getByRole('img', { name: 'Заяц' })).toHaveAttribute(
      'src',
      'http://shop.test/api/v1/image/hare.svg',
    );
    // Level 2: it follows the page's h1 ('Корзина') with no level skipped.
    expect(screen.getByRole('heading', { name: /Итого/, level: 2 })).toHaveTextContent('Итого: 3 001₽');
    expect(within(summary()).getByText('3 товара')).toBeInTheDocument();
  });

  test.each([
    [1, '1 товар'],
    [2, '2 товара'],
    [4, '4 товара'],
    [5, '5 товаров'],
    [11, '11 товаров'],
    [21, '21 товар'],
    [22, '22 товара'],
  ])('%i units read "%s"', async (count, text) => {
    await openCart([{ ...BEAR, count }]);
    expect(within(summary()).getByText(text)).toBeInTheDocument();
  });

  test("an empty cart says 'Ваша корзина пуста' and links to the catalogue", async () => {
    cartServer([]);
    renderShop({ route: '/cart', preloadedState: loggedIn() });
    expect(await screen.findByText('Ваша корзина пуста')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Перейти в каталог' }).closest('a')).toHaveAttribute('href', '/catalog');
  });

  test('a cart that cannot be loaded says so and can be asked for again', async () => {
    let fail = true;
    server.use(
      ...homeHandlers(),
      http.get(`${API}/cart/${USER.id}`, () => (fail ? json({ detail: 'Ошибка' }, 500) : json(cart([BEAR])))),
    );
    const user = userEvent.setup();
    renderShop({ route: '/cart', preloadedState: loggedIn() });
    expect(await screen.findByText('Не удалось загрузить корзину')).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Повторить' }));
    expect(await screen.findByRole('button', { name: 'Оформить заказ' })).toBeInTheDocument();
    expect(countOf('Мишка Тедди')).toHaveValue('1');
  });

  test('each line says what was chosen: article, colour, size and unit price', async () => {
    await openCart([
      cartItem({ id: 1, price: 500, variant: { price: 500, color: 'Розовый', size: 25, stock: 10 } }),
      cartItem({ id: 2, price: 700, variant_id: 102, variant: { price: 700, color: 'Голубой', size: 40, stock: 10 } }),
    ]);
    const [pink, blue] = screen.getAllByRole('listitem');
    expect(within(pink!).getByText('Арт. BEAR-01 · Розовый · 25 см')).toBeInTheDocument();
    expect(within(pink!).getByText('500 ₽ / шт.')).toBeInTheDocument();
    expect(within(blue!).getByText('Арт. BEAR-01 · Голубой · 40 см')).toBeInTheDocument();
    expect(within(blue!).getByText('700 ₽ / шт.')).toBeInTheDocument();
  });

  test('a line whose price changed since it was added shows the old price struck out and the new one', async () => {
    await openCart([{ ...BEAR, price_when_added: 450 }]);
    const unitPrice = within(line('Мишка Тедди')).getByLabelText('Цена изменилась: было 450 ₽, стало 500 ₽ за шт.');
    expect(unitPrice.querySelector('del')).toHaveTextContent('450 ₽');
  });

  test('a line over the stock says how many there are, blocks the checkout, and «Уменьшить до N» fixes it', async () => {
    const { user, puts } = await openCart([
      { ...BEAR, count: 50, variant: { ...BEAR.variant, stock: 9 } },
      { ...HARE, count: 2 },
    ]);
    expect(within(line('Мишка Тедди')).getByText('Доступно 9 шт.')).toBeInTheDocument();
    expect(within(line('Заяц')).queryByText(/Доступно/)).not.toBeInTheDocument();
    const checkout = screen.getByRole('button', { name: 'Оформить заказ' });
    expect(checkout).toBeDisabled();
    expect(checkout).toHaveAccessibleDescription(/больше товара, чем есть на складе/);

    await user.click(within(line('Мишка Тедди')).getByRole('button', { name: 'Уменьшить до 9' }));
    expect(countOf('Мишка Тедди')).toHaveValue('9');
    expect(screen.queryByText('Доступно 9 шт.')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Оформить заказ' })).toBeEnabled();
    await waitFor(() => expect(puts.calls).toHaveLength(1));
    expect(query(puts.last!)).toMatchObject({ item_id: '1', count: '9' });
  });

  test('a failed reload keeps the cart on screen instead of an error page', async () => {
    const { user, gets } = await openCart([BEAR]);
    server.use(http.get(`${API}/cart/${USER.id}`, () => HttpResponse.error()));
    await user.click(plus('Мишка Тедди'));
    await waitFor(() => expect(gets.calls.length).toBeGreaterThanOrEqual(1));
    // The save goes through, the reload after it fails: the line stays.
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(screen.queryByText('Не удалось загрузить корзину')).not.toBeInTheDocument();
    expect(countOf('Мишка Тедди')).toBeInTheDocument();
  });

  test("'Оформить заказ' goes to /checkout?items=ART:VID:COUNT for every line", async () => {
    const { user, router } = await openCart([BEAR, { ...HARE, count: 3 }]);
    server.use(
      http.get(`${API}/products/BEAR-01`, () => json(product())),
      http.get(`${API}/products/HARE-02`, () => json(product({ id: 2, art: 'HARE-02', name: 'Заяц' }))),
    );
    await user.click(screen.getByRole('button', { name: 'Оформить заказ' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/checkout'));
    expect(new URLSearchParams(router.state.location.search).get('items')).toBe('BEAR-01:101:1,HARE-02:202:3');
  });
});

describe('Cart page: changing quantities (SPEC §4, §9)', () => {
  test('plus and minus change the count, line total and summary at once, before any request', async () => {
    const { user, puts } = await openCart([BEAR, HARE]);
    await user.click(plus('Мишка Тедди'));
    await user.click(plus('Мишка Тедди'));
    expect(countOf('Мишка Тедди')).toHaveValue('3');
    expect(within(line('Мишка Тедди')).getByText('1 500 ₽')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: /Итого/ })).toHaveTextContent('Итого: 2 750,5₽');
    expect(within(summary()).getByText('4 товара')).toBeInTheDocument();
    await user.click(minus('Мишка Тедди'));
    expect(countOf('Мишка Тедди')).toHaveValue('2');
    expect(puts.calls).toHaveLength(0);
    // Let the debounced save finish inside this test.
    await waitFor(() => expect(puts.calls).toHaveLength(1), { timeout: 2000 });
    expect(query(puts.last!)).toEqual({ item_id: '1', count: '2' });
  });

  test('several quick clicks send one PUT, about 500 ms after the last, with the final count', async () => {
    const { user, puts, gets, arrivals } = await openCart([BEAR, HARE]);
    const getsBefore = gets.calls.length;
    await user.click(plus('Мишка Тедди'));
    await user.click(plus('Мишка Тедди'));
    await user.click(plus('Мишка Тедди'));
    const lastClick = Date.now();
    expect(countOf('Мишка Тедди')).toHaveValue('4');
    await waitFor(() => expect(puts.calls).toHaveLength(1), { timeout: 2000 });
    expect(query(puts.last!)).toEqual({ item_id: '1', count: '4' });
    expect(arrivals[0]!.at - lastClick).toBeGreaterThanOrEqual(450);
    // The cart is reloaded afterwards and shows the saved number; nothing else is sent.
    await waitFor(() => expect(gets.calls.length).toBeGreaterThan(getsBefore));
    expect(countOf('Мишка Тедди')).toHaveValue('4');
    expect(puts.calls).toHaveLength(1);
  });

  test('minus at 1 removes the line at once and sends a DELETE, not a PUT', async () => {
    const { user, puts, deletes } = await openCart([BEAR, HARE]);
    await user.click(minus('Мишка Тедди'));
    expect(hasLine('Мишка Тедди')).toBe(false);
    expect(within(summary()).getByText('1 товар')).toBeInTheDocument();
    await waitFor(() => expect(deletes.calls).toHaveLength(1), { timeout: 2000 });
    expect(new URL(deletes.last!.url).pathname).toBe('/api/v1/cart/1');
    expect(puts.calls).toHaveLength(0);
  });

  test('the delete button removes the line and sends a DELETE', async () => {
    const { user, deletes } = await openCart([{ ...BEAR, count: 4 }]);
    await user.click(screen.getByRole('button', { name: 'Удалить: Мишка Тедди' }));
    expect(await screen.findByText('Ваша корзина пуста')).toBeInTheDocument();
    await waitFor(() => expect(deletes.calls).toHaveLength(1), { timeout: 2000 });
    // After the reload the server agrees: the cart stays empty.
    expect(screen.getByText('Ваша корзина пуста')).toBeInTheDocument();
  });

  test('a failed save rolls the count back to the server number and shows a message', async () => {
    const { user, puts } = await openCart([BEAR, HARE], { failWith: 500 });
    await user.click(plus('Мишка Тедди'));
    expect(countOf('Мишка Тедди')).toHaveValue('2');
    expect(
      await screen.findByText(
        'Не удалось сохранить изменения корзины. Показаны последние сохранённые данные.',
        {},
        { timeout: 3000 },
      ),
    ).toBeInTheDocument();
    expect(puts.calls).toHaveLength(1);
    expect(countOf('Мишка Тедди')).toHaveValue('1');
    expect(screen.getByRole('heading', { name: /Итого/ })).toHaveTextContent('Итого: 1 750,5₽');
  });

  test('a failed delete brings the line back', async () => {
    const { user } = await openCart([BEAR, HARE], { failWith: 500 });
    await user.click(minus('Заяц'));
    expect(hasLine('Заяц')).toBe(false);
    await waitFor(() => expect(hasLine('Заяц')).toBe(true), { timeout: 3000 });
    expect(countOf('Заяц')).toHaveValue('1');
  });
});
