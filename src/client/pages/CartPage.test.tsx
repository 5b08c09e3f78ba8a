import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import type { CartItem } from '@shared/api';
import {
  cart,
  cartItem,
  homeHandlers,
  json,
  loggedIn,
  product,
  recorder,
  unprovenBuyer,
  USER,
  wait,
} from '@/test/fixtures';
import { catchDownloads } from '@/test/downloads';
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
 * with `failWith`, or never arrive while `network.down`). A PUT with `expected` is conditional, as
 * the server's: 409 with the line when it holds another count. `setCountElsewhere` is another tab's
 * save. Every call is recorded with the time it arrived.
 */
function cartServer(
  initial: CartItem[],
  { failWith, minOrderSum = 0 }: { failWith?: number; minOrderSum?: number } = {},
) {
  let items = initial.map((item) => ({ ...item }));
  const gets = recorder();
  const puts = recorder();
  const deletes = recorder();
  const arrivals: { method: string; at: number }[] = [];
  const network = { down: false };
  const setCount = (id: number, count: number) => {
    items = items.map((item) => (item.id === id ? { ...item, count, item_total: item.unit_price * count } : item));
  };
  server.use(
    ...homeHandlers(),
    http.get(`${API}/cart/${USER.id}`, ({ request }) => {
      if (network.down) return HttpResponse.error();
      gets.record(request);
      const total = items.reduce((sum, item) => sum + item.unit_price * item.count, 0);
      return json(cart(items, 1, { min_order_sum: minOrderSum, missing_sum: Math.max(0, minOrderSum - total) }));
    }),
    http.put(`${API}/cart/count`, ({ request }) => {
      if (network.down) return HttpResponse.error();
      puts.record(request);
      arrivals.push({ method: 'PUT', at: Date.now() });
      if (failWith) return json({ detail: 'Ошибка' }, failWith);
      const params = new URL(request.url).searchParams;
      const id = Number(params.get('item_id'));
      const expected = params.get('expected');
      const current = items.find((item) => item.id === id)!;
      if (expected !== null && Number(expected) !== current.count) {
        return json({ detail: 'Количество изменилось в другой вкладке или на другом устройстве.', item: current }, 409);
      }
      setCount(id, Number(params.get('count')));
      return json({ detail: 'Количество изменено' });
    }),
    http.delete(`${API}/cart/:itemId`, ({ request, params }) => {
      if (network.down) return HttpResponse.error();
      deletes.record(request);
      arrivals.push({ method: 'DELETE', at: Date.now() });
      if (failWith) return json({ detail: 'Ошибка' }, failWith);
      items = items.filter((item) => item.id !== Number(params.itemId));
      return new HttpResponse(null, { status: 204 });
    }),
  );
  return { gets, puts, deletes, arrivals, network, setCountElsewhere: setCount };
}

async function openCart(items: CartItem[], options?: Parameters<typeof cartServer>[1]) {
  const network = cartServer(items, options);
  const user = userEvent.setup();
  const rendered = renderShop({ route: '/cart', preloadedState: loggedIn() });
  await screen.findByRole('button', { name: 'Оформить заказ' });
  return { user, ...network, ...rendered };
}

/** A line is named by its product, colour and size; a product with one line, by its product alone. */
const lineButton = (action: string, name: string) =>
  screen.getByRole('button', { name: new RegExp(`^${action}: ${name}`) });
const plus = (name: string) => lineButton('Увеличить количество', name);
const line = (name: string) => plus(name).closest('li')!;
const countOf = (name: string) => within(line(name)).getByRole('spinbutton');
const productOf = (name: string) => screen.getByRole('heading', { name, level: 2 }).closest('li')!;
const hasLine = (name: string) => screen.queryAllByRole('link', { name }).length > 0;
const minus = (name: string) => lineButton('Уменьшить количество', name);
const summary = () => screen.getByRole('heading', { name: /Итого/ }).parentElement!;
const query = (request: Request) => Object.fromEntries(new URL(request.url).searchParams);

describe('Cart page: contents (SPEC §2)', () => {
  test('lists the lines with name, description, count and line total, and the summary', async () => {
    await openCart([BEAR, { ...HARE, count: 2 }]);
    expect(screen.getByRole('heading', { name: 'Корзина' })).toBeInTheDocument();
    expect(within(productOf('Заяц')).getByText('Серый заяц')).toBeInTheDocument();
    expect(countOf('Заяц')).toHaveValue('2');
    expect(within(line('Заяц')).getByText('2 501,00 ₽')).toBeInTheDocument();
    expect(within(productOf('Заяц')).getByRole('img', { name: 'Заяц' })).toHaveAttribute(
      'src',
      'http://shop.test/api/v1/image/hare.svg',
    );
    // Level 2: it follows the page's h1 ('Корзина') with no level skipped.
    expect(screen.getByRole('heading', { name: /Итого/, level: 2 })).toHaveTextContent('Итого: 3 001,00 ₽');
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
    expect(screen.getByRole('link', { name: 'Перейти в каталог' })).toHaveAttribute('href', '/catalog');
    const quickOrder = within(screen.getByRole('main')).getByRole('link', { name: 'Быстрый заказ' });
    expect(quickOrder).toHaveAttribute('href', '/quick-order');
    expect(within(quickOrder).queryByRole('button')).toBeNull();
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

  test('variants of one product are lines under one product heading: article once, colour, size, prices per line', async () => {
    const pink = cartItem({
      id: 1,
      price: 500,
      variant: { price: 500, color: 'Розовый', size: 25, stock: 10, unproven_held: 0 },
    });
    const blue = cartItem({
      id: 2,
      count: 3,
      price: 700,
      variant_id: 102,
      variant: { price: 700, color: 'Голубой', size: 40, stock: 10, unproven_held: 0 },
    });
    await openCart([pink, HARE, blue]);
    // One heading per product, in the order the products first appear.
    expect(screen.getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent)).toEqual([
      'Мишка Тедди',
      'Заяц',
      expect.stringMatching(/^Итого/),
    ]);
    const bear = productOf('Мишка Тедди');
    expect(within(bear).getByText('Арт. BEAR-01')).toBeInTheDocument();
    expect(within(bear).getByText('Плюшевый мишка')).toBeInTheDocument();
    const variants = within(within(bear).getByRole('list', { name: 'Выбранные варианты: Мишка Тедди' })).getAllByRole(
      'listitem',
    );
    expect(variants).toHaveLength(2);
    expect(within(variants[0]!).getByText('Розовый · 25 см')).toBeInTheDocument();
    expect(within(variants[0]!).getByText('500,00 ₽ / шт.')).toBeInTheDocument();
    expect(within(variants[1]!).getByText('Голубой · 40 см')).toBeInTheDocument();
    expect(within(variants[1]!).getByText('700,00 ₽ / шт.')).toBeInTheDocument();
    expect(within(variants[1]!).getByText('2 100,00 ₽')).toBeInTheDocument();
    // Each line's controls say which variant they change.
    expect(
      within(variants[1]!).getByRole('spinbutton', { name: 'Количество: Мишка Тедди, Голубой, 40 см' }),
    ).toHaveValue('3');
    expect(
      within(variants[1]!).getByRole('button', { name: 'Увеличить количество: Мишка Тедди, Голубой, 40 см' }),
    ).toBeInTheDocument();
    expect(
      within(variants[0]!).getByRole('button', { name: 'Удалить: Мишка Тедди, Розовый, 25 см' }),
    ).toBeInTheDocument();
  });

  test('a line whose price changed since it was added shows the old price struck out and the new one', async () => {
    await openCart([{ ...BEAR, price_when_added: 450 }]);
    const unitPrice = within(line('Мишка Тедди')).getByLabelText(
      'Цена изменилась: было 450,00 ₽, стало 500,00 ₽ за шт.',
    );
    expect(unitPrice.querySelector('del')).toHaveTextContent('450,00 ₽');
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

describe('Cart page: a long cart', () => {
  test('the first products and the total show at once; the rest follow, and the list says when it is whole', async () => {
    const lines = Array.from({ length: 120 }, (_unused, index) =>
      cartItem({
        id: index + 1,
        variant_id: 1000 + index,
        price: 100,
        product: {
          id: index + 1,
          art: `LONG-${index + 1}`,
          name: `Игрушка ${index + 1}`,
          description: null,
          image: 'x.svg',
        },
      }),
    );
    await openCart(lines);
    // The whole cart's total before its last products are drawn.
    expect(screen.getByRole('heading', { name: /Итого/ })).toHaveTextContent('Итого: 12 000,00 ₽');
    const list = screen.getByRole('list', { name: 'Товары в корзине' });
    expect(list).toHaveAttribute('aria-busy', 'true');
    expect(screen.queryByRole('heading', { name: 'Игрушка 120', level: 2 })).not.toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Игрушка 120', level: 2 })).toBeInTheDocument();
    await waitFor(() => expect(list).toHaveAttribute('aria-busy', 'false'));
    expect(within(list).getAllByRole('heading', { level: 2 })).toHaveLength(120);
  });
});

describe('Cart page: export and quick order', () => {
  test.each([
    ['Скачать в Excel', 'xlsx', 'Корзина.xlsx'],
    ['Скачать CSV', 'csv', 'Корзина.csv'],
  ])('«%s» fetches the export in %s with the bearer token and saves the file', async (label, format, fileName) => {
    const exports = recorder();
    const downloads = catchDownloads();
    try {
      server.use(
        http.get(`${API}/cart/${USER.id}/export`, ({ request }) => {
          exports.record(request);
          return new HttpResponse('Артикул;Цвет;Размер;Количество', {
            headers: {
              'content-disposition': `attachment; filename="cart.${format}"; filename*=UTF-8''${encodeURIComponent(fileName)}`,
            },
          });
        }),
      );
      const { user } = await openCart([BEAR]);
      await user.click(screen.getByRole('button', { name: label }));
      await waitFor(() => expect(downloads.saved).toEqual([fileName]));
      expect(exports.calls).toHaveLength(1);
      expect(new URL(exports.last!.url).searchParams.get('format')).toBe(format);
      expect(exports.last!.headers.get('authorization')).toBe(`Bearer ${sessionStorage.getItem('access_token')}`);
    } finally {
      downloads.restore();
    }
  });

  test("a refused export shows the server's detail", async () => {
    server.use(http.get(`${API}/cart/${USER.id}/export`, () => json({ detail: 'Корзина пуста' }, 422)));
    const { user } = await openCart([BEAR]);
    await user.click(screen.getByRole('button', { name: 'Скачать в Excel' }));
    expect(await screen.findByText('Корзина пуста')).toBeInTheDocument();
  });

  test('«Карточки для маркетплейсов» follows a download link to the cart’s kit', async () => {
    const followed: string[] = [];
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      followed.push(this.href);
    });
    try {
      server.use(
        http.post(`${API}/download-links`, async ({ request }) => {
          const { path } = (await request.json()) as { path: string };
          return json({ url: `${path}?link=signed` });
        }),
      );
      const { user } = await openCart([BEAR]);
      await user.click(screen.getByRole('button', { name: /Карточки для маркетплейсов/ }));
      await waitFor(() =>
        expect(followed).toEqual([`http://shop.test/api/v1/cart/${USER.id}/marketplace-kit?link=signed`]),
      );
    } finally {
      click.mockRestore();
    }
  });

  test('«Быстрый заказ» leads to /quick-order', async () => {
    const { user, router } = await openCart([BEAR]);
    await user.click(within(screen.getByRole('main')).getByRole('link', { name: 'Быстрый заказ' }));
    expect(router.state.location.pathname).toBe('/quick-order');
  });
});

describe('Cart page: a product taken off sale', () => {
  test('its line says «Товар снят с продажи», cannot be changed, and stays out of the total and the checkout', async () => {
    // Over the stock too: an off-sale line blocks nothing, it is simply not ordered.
    const { user, router } = await openCart([
      BEAR,
      { ...HARE, count: 3, available: false, variant: { ...HARE.variant, stock: 0 } },
    ]);
    server.use(http.get(`${API}/products/BEAR-01`, () => json(product())));
    const hare = line('Заяц');
    expect(within(hare).getByText('Товар снят с продажи')).toBeInTheDocument();
    expect(within(hare).queryByText('Нет в наличии')).not.toBeInTheDocument();
    expect(plus('Заяц')).toBeDisabled();
    expect(within(hare).getByRole('button', { name: /^Удалить: Заяц/ })).toBeEnabled();
    expect(within(line('Мишка Тедди')).queryByText('Товар снят с продажи')).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { name: /Итого/ })).toHaveTextContent('Итого: 500,00 ₽');
    expect(screen.getByText('Товары, снятые с продажи, не войдут в заказ.')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Оформить заказ' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/checkout'));
    expect(new URLSearchParams(router.state.location.search).get('items')).toBe('BEAR-01:101:1');
  });

  test('with nothing left on sale, the checkout is off', async () => {
    await openCart([{ ...BEAR, available: false }]);
    expect(screen.getByRole('button', { name: 'Оформить заказ' })).toBeDisabled();
    expect(screen.getByRole('heading', { name: /Итого/ })).toHaveTextContent('Итого: 0,00 ₽');
  });
});

describe('Cart page: changing quantities (SPEC §4, §9)', () => {
  test('plus and minus change the count, line total and summary at once, before any request', async () => {
    const { user, puts } = await openCart([BEAR, HARE]);
    await user.click(plus('Мишка Тедди'));
    await user.click(plus('Мишка Тедди'));
    expect(countOf('Мишка Тедди')).toHaveValue('3');
    expect(within(line('Мишка Тедди')).getByText('1 500,00 ₽')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: /Итого/ })).toHaveTextContent('Итого: 2 750,50 ₽');
    expect(within(summary()).getByText('4 товара')).toBeInTheDocument();
    await user.click(minus('Мишка Тедди'));
    expect(countOf('Мишка Тедди')).toHaveValue('2');
    expect(puts.calls).toHaveLength(0);
    // Let the debounced save finish inside this test.
    await waitFor(() => expect(puts.calls).toHaveLength(1), { timeout: 2000 });
    expect(query(puts.last!)).toEqual({ item_id: '1', count: '2', expected: '1' });
  });

  test('several quick clicks send one PUT, about 500 ms after the last, with the final count', async () => {
    const { user, puts, gets, arrivals } = await openCart([BEAR, HARE]);
    const getsBefore = gets.calls.length;
    await user.click(plus('Мишка Тедди'));
    await user.click(plus('Мишка Тедди'));
    // Taken before the last click starts, not after it resolves: under load a click resolves some
    // time after its edit started the 500 ms wait, and the gap measured from then came out short.
    const lastClickStarted = Date.now();
    await user.click(plus('Мишка Тедди'));
    expect(countOf('Мишка Тедди')).toHaveValue('4');
    await waitFor(() => expect(puts.calls).toHaveLength(1), { timeout: 2000 });
    expect(query(puts.last!)).toEqual({ item_id: '1', count: '4', expected: '1' });
    // 490: Date.now() counts whole milliseconds on both ends.
    expect(arrivals[0]!.at - lastClickStarted).toBeGreaterThanOrEqual(490);
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
    await user.click(lineButton('Удалить', 'Мишка Тедди'));
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
    expect(screen.getByRole('heading', { name: /Итого/ })).toHaveTextContent('Итого: 1 750,50 ₽');
  });

  test('a failed delete brings the line back', async () => {
    const { user } = await openCart([BEAR, HARE], { failWith: 500 });
    await user.click(minus('Заяц'));
    expect(hasLine('Заяц')).toBe(false);
    await waitFor(() => expect(hasLine('Заяц')).toBe(true), { timeout: 3000 });
    expect(countOf('Заяц')).toHaveValue('1');
  });
});

describe('Cart page: typed quantities', () => {
  test('a typed quantity is saved once, 500 ms after the last keystroke', async () => {
    const { user, puts, arrivals } = await openCart([BEAR, HARE]);
    await user.clear(countOf('Мишка Тедди'));
    await user.type(countOf('Мишка Тедди'), '100');
    const lastKey = Date.now();
    expect(within(line('Мишка Тедди')).getByText('50 000,00 ₽')).toBeInTheDocument();
    await waitFor(() => expect(puts.calls).toHaveLength(1), { timeout: 2000 });
    expect(query(puts.last!)).toEqual({ item_id: '1', count: '100', expected: '1' });
    expect(arrivals[0]!.at - lastKey).toBeGreaterThanOrEqual(450);
  });

  test('the field takes no quantity below 1: a typed 0 neither deletes the line nor is sent', async () => {
    const { user, puts, deletes } = await openCart([{ ...BEAR, count: 5 }, HARE]);
    await user.clear(countOf('Мишка Тедди'));
    await user.type(countOf('Мишка Тедди'), '0');
    await user.tab();
    expect(hasLine('Мишка Тедди')).toBe(true);
    expect(countOf('Мишка Тедди')).toHaveValue('1');
    await waitFor(() => expect(puts.calls).toHaveLength(1), { timeout: 2000 });
    expect(query(puts.last!)).toMatchObject({ count: '1' });
    expect(deletes.calls).toHaveLength(0);
  });
});

describe('Cart page: nothing is lost', () => {
  test('+ here while another tab saved +1 from 26: rebased on the 409, the line ends at 28', async () => {
    const { user, puts, setCountElsewhere } = await openCart([{ ...BEAR, count: 26 }]);
    await user.click(plus('Мишка Тедди'));
    setCountElsewhere(BEAR.id, 27);
    await waitFor(() => expect(puts.calls).toHaveLength(2), { timeout: 2000 });
    expect(query(puts.calls[0]!)).toEqual({ item_id: '1', count: '27', expected: '26' });
    expect(query(puts.calls[1]!)).toEqual({ item_id: '1', count: '28', expected: '27' });
    await waitFor(() => expect(countOf('Мишка Тедди')).toHaveValue('28'));
    // The reload after the save agrees, and nothing more is sent.
    await act(() => wait(700));
    expect(countOf('Мишка Тедди')).toHaveValue('28');
    expect(puts.calls).toHaveLength(2);
  });

  test('a typed quantity while another tab changed the line is sent again as typed, from the new count', async () => {
    const { user, puts, setCountElsewhere } = await openCart([{ ...BEAR, count: 26 }]);
    await user.clear(countOf('Мишка Тедди'));
    await user.type(countOf('Мишка Тедди'), '40');
    setCountElsewhere(BEAR.id, 30);
    await waitFor(() => expect(puts.calls).toHaveLength(2), { timeout: 2000 });
    expect(query(puts.calls[0]!)).toEqual({ item_id: '1', count: '40', expected: '26' });
    expect(query(puts.calls[1]!)).toEqual({ item_id: '1', count: '40', expected: '30' });
    await act(() => wait(700));
    expect(countOf('Мишка Тедди')).toHaveValue('40');
  });

  test('a pending change goes at once, with keepalive, when the page is hidden or closed', async () => {
    const { user, puts, arrivals } = await openCart([BEAR, HARE]);
    await user.click(plus('Заяц'));
    const hidden = Date.now();
    window.dispatchEvent(new Event('pagehide'));
    await waitFor(() => expect(puts.calls).toHaveLength(1));
    expect(arrivals[0]!.at - hidden).toBeLessThan(300);
    expect(query(puts.last!)).toEqual({ item_id: '2', count: '2', expected: '1' });
    expect(puts.last!.keepalive).toBe(true);
    expect(puts.last!.headers.get('Authorization')).toMatch(/^Bearer /);
    // The debounce that follows finds nothing left to send.
    await act(() => wait(700));
    expect(puts.calls).toHaveLength(1);
  });

  test('offline: the edit stays on screen marked «Не сохранено», a toast says so, and it is sent when the connection returns', async () => {
    const { user, puts, network } = await openCart([BEAR, HARE]);
    network.down = true;
    await user.click(plus('Мишка Тедди'));
    await user.click(plus('Мишка Тедди'));
    expect(
      await screen.findByText('Нет связи с сервером. Изменения корзины сохранятся, когда связь вернётся.'),
    ).toBeInTheDocument();
    expect(within(line('Мишка Тедди')).getByText('Не сохранено')).toBeInTheDocument();
    expect(countOf('Мишка Тедди')).toHaveValue('3');
    expect(screen.queryByText('Не удалось загрузить корзину')).not.toBeInTheDocument();
    expect(puts.calls).toHaveLength(0);

    network.down = false;
    const back = Date.now();
    window.dispatchEvent(new Event('online'));
    await waitFor(() => expect(puts.calls).toHaveLength(1));
    // Sent because the browser said the connection is back, not by the back-off's first retry (1 s).
    expect(Date.now() - back).toBeLessThan(500);
    expect(query(puts.last!)).toEqual({ item_id: '1', count: '3', expected: '1' });
    await waitFor(() => expect(screen.queryByText('Не сохранено')).not.toBeInTheDocument());
    expect(countOf('Мишка Тедди')).toHaveValue('3');
  });

  /** Whether the browser would ask before closing the tab (a cancelled beforeunload). */
  const closingAsks = () => !window.dispatchEvent(new Event('beforeunload', { cancelable: true }));

  test('closing the tab asks first while an edit waits without a connection, and not once it is saved', async () => {
    const { user, puts, network } = await openCart([BEAR, HARE]);
    expect(closingAsks()).toBe(false);
    network.down = true;
    await user.click(plus('Мишка Тедди'));
    expect(await within(line('Мишка Тедди')).findByText('Не сохранено')).toBeInTheDocument();
    expect(closingAsks()).toBe(true);

    network.down = false;
    window.dispatchEvent(new Event('online'));
    await waitFor(() => expect(screen.queryByText('Не сохранено')).not.toBeInTheDocument());
    expect(puts.calls).toHaveLength(1);
    expect(closingAsks()).toBe(false);
  });

  test('closing the tab does not ask for an edit that is sent as the page goes (online)', async () => {
    const { user } = await openCart([BEAR, HARE]);
    await user.click(plus('Заяц'));
    expect(closingAsks()).toBe(false);
  });

  test('a save is announced to the other tabs with the saved counts', async () => {
    const { user } = await openCart([BEAR, HARE]);
    const otherTab = new BroadcastChannel('myagkiy-opt:cart');
    try {
      const announcements: unknown[] = [];
      otherTab.onmessage = (message) => announcements.push(message.data);
      await user.click(plus('Мишка Тедди'));
      await user.click(minus('Заяц'));
      await waitFor(() => expect(announcements).toHaveLength(1), { timeout: 2000 });
      expect(announcements[0]).toMatchObject({ saved: { 1: 2, 2: 0 } });
    } finally {
      otherTab.close();
    }
  });

  test("another tab's save shows at once, and the cart reloads", async () => {
    const { gets, setCountElsewhere } = await openCart([BEAR, HARE, { ...BEAR, id: 3, variant_id: 103 }]);
    const otherTab = new BroadcastChannel('myagkiy-opt:cart');
    let answerReload = () => {};
    try {
      server.use(
        http.get(`${API}/cart/${USER.id}`, async () => {
          await new Promise<void>((resolve) => {
            answerReload = resolve;
          });
          // No answer of its own: the cart server's handler answers.
          return undefined;
        }),
      );
      setCountElsewhere(HARE.id, 9);
      otherTab.postMessage({ from: 'another tab', saved: { 2: 9, 3: 0 } });
      // Before the reload has answered.
      await waitFor(() => expect(countOf('Заяц')).toHaveValue('9'));
      expect(screen.getAllByRole('spinbutton')).toHaveLength(2);
      const getsBefore = gets.calls.length;
      answerReload();
      await waitFor(() => expect(gets.calls.length).toBe(getsBefore + 1));
      expect(countOf('Заяц')).toHaveValue('9');
    } finally {
      answerReload();
      otherTab.close();
    }
  });

  test('the cart reloads when the tab is looked at again', async () => {
    const { gets, setCountElsewhere } = await openCart([BEAR]);
    setCountElsewhere(BEAR.id, 6);
    window.dispatchEvent(new Event('focus'));
    await waitFor(() => expect(countOf('Мишка Тедди')).toHaveValue('6'));
    expect(gets.calls.length).toBeGreaterThanOrEqual(2);
  });
});

describe('Cart page: what a buyer who has not paid an order yet is told', () => {
  const SHARE_NOTE =
    'Не больше 50 шт. за один заказ, пока у вас нет оплаченных заказов: для большего объёма напишите менеджеру';

  test('a line above one order’s share says the limit beside its quantity, as it is typed; within it, nothing', async () => {
    server.use(http.get(`${API}/auth/user`, () => json(unprovenBuyer())));
    const { user } = await openCart([{ ...BEAR, count: 50 }]);
    expect(countOf('Мишка Тедди')).not.toHaveAccessibleDescription();
    await user.click(plus('Мишка Тедди'));
    await waitFor(() => expect(countOf('Мишка Тедди')).toHaveAccessibleDescription(SHARE_NOTE));
    expect(within(line('Мишка Тедди')).getByText(SHARE_NOTE)).toBeInTheDocument();
  });

  test('what is left of the new buyers’ pool bounds a line below its own share, and an exhausted pool says so', async () => {
    server.use(http.get(`${API}/auth/user`, () => json(unprovenBuyer())));
    // 60 free + 40 held by new buyers' unpaid orders: a pool of 50, 10 of it left (one order's share: 30).
    const pooled = { ...BEAR, count: 10, variant: { ...BEAR.variant, stock: 60, unproven_held: 40 } };
    const { user } = await openCart([pooled]);
    await wait(50);
    expect(countOf('Мишка Тедди')).not.toHaveAccessibleDescription();
    await user.click(plus('Мишка Тедди'));
    await waitFor(() =>
      expect(countOf('Мишка Тедди')).toHaveAccessibleDescription(
        'Не больше 10 шт. за один заказ, пока у вас нет оплаченных заказов: для большего объёма напишите менеджеру',
      ),
    );
  });

  test('a variant whose pool new buyers hold whole: the line says it cannot be ordered yet', async () => {
    server.use(http.get(`${API}/auth/user`, () => json(unprovenBuyer())));
    await openCart([{ ...BEAR, count: 1, variant: { ...BEAR.variant, stock: 30, unproven_held: 30 } }]);
    expect(
      await within(line('Мишка Тедди')).findByText(
        /^Пока у вас нет оплаченных заказов, этот вариант сейчас заказать нельзя/,
      ),
    ).toBeInTheDocument();
  });

  test('a proven buyer sees no limit however much of the stock a line takes', async () => {
    await openCart([{ ...BEAR, count: 100 }]);
    // The default answer of GET /auth/user: a buyer with a paid order.
    await wait(50);
    expect(countOf('Мишка Тедди')).not.toHaveAccessibleDescription();
    expect(screen.queryByText(/за один заказ/)).not.toBeInTheDocument();
  });

  test('an unconfirmed address: what to do, and «Отправить письмо ещё раз» sends the letter', async () => {
    const resent = recorder();
    server.use(
      http.get(`${API}/auth/user`, () => json(unprovenBuyer({ email_confirmed: false, must_confirm_email: true }))),
      http.post(`${API}/auth/email-confirmation`, ({ request }) => {
        resent.record(request);
        return json({ detail: 'Письмо отправлено. Ссылка в нём действует 24 часа.' }, 202);
      }),
    );
    const { user } = await openCart([BEAR]);
    expect(await screen.findByText('Подтвердите адрес почты')).toBeInTheDocument();
    expect(screen.getByText(/^Подтвердите адрес почты по ссылке из письма/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Отправить письмо ещё раз' }));
    expect(await screen.findByText('Письмо отправлено. Ссылка в нём действует 24 часа.')).toBeInTheDocument();
    expect(resent.calls).toHaveLength(1);
  });
});

// Sold by cartons of 6, at least 12 in a line; 500 ₽ a piece, 450 ₽ from 12 pieces of the model, 400 ₽ from 48.
const FOX = cartItem({
  id: 6,
  count: 12,
  price: 500,
  unit_price: 450,
  tier: { from: 12, price: 450 },
  next_tier: { from: 48, price: 400, missing: 36 },
  tiers_scope: 'product',
  variant_id: 601,
  product: { id: 6, art: 'FOX-06', name: 'Лиса', description: null, multiple: 6, min_quantity: 12 },
});

describe('Cart page: wholesale prices', () => {
  test('a line at a price by quantity shows the price applied, the tier reached and what more pieces would bring', async () => {
    await openCart([FOX]);
    const fox = line('Лиса');
    expect(within(fox).getByText('450,00 ₽')).toBeInTheDocument();
    expect(within(fox).getByText('Цена от 12 шт.')).toBeInTheDocument();
    expect(
      within(fox).getByText('Ещё 36 шт. — и цена 400,00 ₽ (цвета и размеры модели считаются вместе)'),
    ).toBeInTheDocument();
    expect(within(fox).getByText('5 400,00 ₽')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: /Итого/ })).toHaveTextContent('Итого: 5 400,00 ₽');
  });

  test('a size’s own tiers say nothing of the model; a line below every tier names none', async () => {
    await openCart([
      { ...FOX, tiers_scope: 'variant', next_tier: { from: 24, price: 420, missing: 12 } },
      { ...BEAR, count: 2 },
    ]);
    expect(within(line('Лиса')).getByText('Ещё 12 шт. — и цена 420,00 ₽')).toBeInTheDocument();
    expect(within(line('Мишка Тедди')).queryByText(/Цена от|Ещё/)).not.toBeInTheDocument();
  });

  test('a line the packaging does not take says why, and «Округлить до N» sets the count', async () => {
    const { user, puts } = await openCart([
      {
        ...FOX,
        count: 10,
        tier: null,
        unit_price: 500,
        next_tier: null,
        packaging_problem: 'Товар продаётся упаковками по 6 шт.: количество должно быть кратно 6',
        fit_count: 12,
      },
    ]);
    const fox = line('Лиса');
    expect(within(fox).getByRole('alert')).toHaveTextContent(
      'Товар продаётся упаковками по 6 шт.: количество должно быть кратно 6',
    );
    await user.click(within(fox).getByRole('button', { name: 'Округлить до 12' }));
    expect(countOf('Лиса')).toHaveValue('12');
    expect(within(line('Лиса')).queryByRole('alert')).not.toBeInTheDocument();
    // Looked for by its line: a count change an earlier test left debouncing may reach this server too.
    await waitFor(
      () => expect(puts.calls.map(query)).toContainEqual(expect.objectContaining({ item_id: '6', count: '12' })),
      { timeout: 2000 },
    );
  });

  test('a typed count the packaging does not take is raised as the field is left, and the line says so', async () => {
    const { user, puts } = await openCart([FOX]);
    await user.clear(countOf('Лиса'));
    await user.type(countOf('Лиса'), '15');
    // Kept as typed while the buyer types: 1 on the way to 15 is not raised to 12.
    expect(countOf('Лиса')).toHaveValue('15');
    await user.tab();
    expect(countOf('Лиса')).toHaveValue('18');
    expect(countOf('Лиса')).toHaveAccessibleDescription('Округлено до 18 шт.: товар продаётся упаковками по 6 шт.');
    await waitFor(() => expect(puts.calls).toHaveLength(1), { timeout: 2000 });
    expect(query(puts.last!)).toMatchObject({ item_id: '6', count: '18' });
  });

  test('+ and − step by the carton, and − at the minimum deletes the line', async () => {
    const { user, deletes } = await openCart([FOX, BEAR]);
    await user.click(plus('Лиса'));
    expect(countOf('Лиса')).toHaveValue('18');
    await user.click(minus('Лиса'));
    expect(countOf('Лиса')).toHaveValue('12');
    await user.click(minus('Лиса'));
    expect(hasLine('Лиса')).toBe(false);
    await waitFor(() => expect(deletes.calls).toHaveLength(1), { timeout: 2000 });
  });

  test('below the minimum order sum the checkout is off, saying how much is missing, until the cart reaches it', async () => {
    const { user } = await openCart([{ ...BEAR, count: 9 }], { minOrderSum: 5000 });
    const checkout = screen.getByRole('button', { name: 'Оформить заказ' });
    expect(checkout).toBeDisabled();
    expect(checkout).toHaveAccessibleDescription(/^До минимальной суммы заказа \(5\s000,00\s₽\) не хватает 500,00\s₽$/);
    await user.click(plus('Мишка Тедди'));
    expect(screen.getByRole('button', { name: 'Оформить заказ' })).toBeEnabled();
    expect(screen.queryByText(/До минимальной суммы заказа/)).not.toBeInTheDocument();
  });
});
