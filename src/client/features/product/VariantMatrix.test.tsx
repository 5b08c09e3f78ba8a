import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import type { CartItem, ProductPage } from '@shared/api';
import {
  cart,
  cartItem,
  json,
  loggedIn,
  unprovenBuyer,
  productPage,
  recorder,
  refreshFails,
  USER,
  variantCard,
  visitor,
  wait,
} from '@/test/fixtures';
import { renderShop } from '@/test/render';
import { API, server } from '@/test/server';

// Three colours, three sizes: white comes only in 60 cm, grey 40 cm is sold out.
const BEAR: ProductPage = productPage({
  variants: [
    variantCard({ id: 201, color: 'бежевый', size: 25, price: 990, stock: 5 }),
    variantCard({ id: 203, color: 'серый', size: 25, price: 990, stock: 10 }),
    variantCard({ id: 202, color: 'бежевый', size: 40, price: 1990.5, stock: 3 }),
    variantCard({ id: 204, color: 'серый', size: 40, price: 1990.5, stock: 0 }),
    variantCard({ id: 205, color: 'белый', size: 60, price: 12500, stock: 2 }),
  ],
});

const cell = (colour: string, size: number) =>
  screen.getByRole('spinbutton', { name: `Количество, ${colour}, ${size} см` });
const addButton = () => screen.getByRole('button', { name: 'Добавить в корзину' });
const total = () => screen.getByText(/^Итого:/);

/** The product, and a cart that the bulk call fills as the server would. */
function network(answer: ProductPage = BEAR) {
  const bulkCalls = recorder();
  const items: CartItem[] = [];
  server.use(
    http.get(`${API}/products/${answer.art}`, () => json(answer)),
    http.get(`${API}/cart/${USER.id}`, () => json(cart(items))),
    http.post(`${API}/cart/bulk`, async ({ request }) => {
      bulkCalls.record(request);
      const body = (await request.json()) as { items: { variant_id: number; count: number }[] };
      body.items.forEach((line, index) =>
        items.push(cartItem({ id: 60 + index, variant_id: line.variant_id, count: line.count })),
      );
      return json(cart(items));
    }),
  );
  return { bulkCalls };
}

async function openMatrix(preloadedState = loggedIn(), answer: ProductPage = BEAR) {
  const calls = network(answer);
  const user = userEvent.setup();
  const rendered = renderShop({ route: `/product/${answer.art}`, preloadedState });
  // The matrix is a chunk of its own, loaded after the page.
  await screen.findByRole('table');
  return { user, ...calls, ...rendered };
}

describe('Product page: the colour × size matrix', () => {
  test('a row per colour and a column per size; each cell shows price and stock; a missing one «—»', async () => {
    await openMatrix();
    const table = screen.getByRole('table');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Цвет', '25 см', '40 см', '60 см']);
    expect(
      within(table)
        .getAllByRole('rowheader')
        .map((header) => header.textContent),
    ).toEqual(['бежевый', 'серый', 'белый']);
    const beige40 = cell('бежевый', 40).closest('td')!;
    expect(beige40).toHaveTextContent(/1\s990,50\s₽/);
    expect(beige40).toHaveTextContent('остаток: 3 шт.');
    expect(cell('белый', 60).closest('td')).toHaveTextContent(/12\s500,00\s₽/);
    // White has no 25 and 40 cm, beige and grey no 60 cm.
    expect(within(table).getAllByText('—')).toHaveLength(4);
    expect(within(table).getAllByRole('spinbutton')).toHaveLength(5);
    expect(total()).toHaveTextContent(/^Итого: 0 шт\. на 0,00\s₽$/);
    expect(addButton()).toBeDisabled();
  });

  test('an out-of-stock cell is disabled and says so', async () => {
    await openMatrix();
    expect(cell('серый', 40)).toBeDisabled();
    expect(cell('серый', 40).closest('td')).toHaveTextContent('нет на складе');
    expect(cell('серый', 25)).toBeEnabled();
  });

  test("a quantity beyond a cell's stock is kept and said, never lowered silently; nothing is added until it is changed", async () => {
    const { user, bulkCalls } = await openMatrix();
    const beige25 = cell('бежевый', 25);
    await user.type(beige25, '40');
    await user.tab();
    expect(beige25).toHaveValue('40');
    expect(beige25).toHaveAccessibleDescription('В наличии только 5 шт.');
    expect(addButton()).toBeDisabled();
    expect(addButton()).toHaveAccessibleDescription('Где указано больше, чем в наличии, уменьшите количество');

    await user.clear(beige25);
    await user.type(beige25, '5');
    expect(beige25).not.toHaveAccessibleDescription();
    expect(addButton()).toBeEnabled();
    expect(total()).toHaveTextContent(/^Итого: 5 шт\. на 4\s950,00\s₽$/);
    expect(bulkCalls.calls).toHaveLength(0);
  });

  test('a buyer who has not paid an order yet is told the limit of one order in the cell, before the cart', async () => {
    server.use(http.get(`${API}/auth/user`, () => json(unprovenBuyer())));
    const { user } = await openMatrix();
    const grey25 = cell('серый', 25);
    await user.type(grey25, '5');
    expect(grey25).not.toHaveAccessibleDescription();
    await user.type(grey25, '{Backspace}6');
    await waitFor(() =>
      expect(grey25).toHaveAccessibleDescription(
        'Не больше 5 шт. за один заказ, пока у вас нет оплаченных заказов: для большего объёма напишите менеджеру',
      ),
    );
    // The cart may hold it; the limit is the order's.
    expect(addButton()).toBeEnabled();
  });

  test('the running total adds up pieces and roubles across cells', async () => {
    const { user } = await openMatrix();
    await user.type(cell('бежевый', 25), '2');
    expect(total()).toHaveTextContent(/^Итого: 2 шт\. на 1\s980,00\s₽$/);
    await user.type(cell('бежевый', 40), '3');
    await user.type(cell('белый', 60), '1');
    // 2 × 990 + 3 × 1 990,5 + 12 500
    expect(total()).toHaveTextContent(/^Итого: 6 шт\. на 20\s451,50\s₽$/);
    expect(addButton()).toBeEnabled();
    await user.clear(cell('белый', 60));
    expect(total()).toHaveTextContent(/^Итого: 5 шт\. на 7\s951,50\s₽$/);
  });

  test('«Добавить в корзину» sends one bulk request, says what was added, empties the cells, updates the badge', async () => {
    const { user, bulkCalls } = await openMatrix();
    expect(await screen.findByRole('button', { name: 'Корзина, товаров: 0' })).toBeInTheDocument();
    await user.type(cell('белый', 60), '1');
    await user.type(cell('бежевый', 25), '2');
    await user.click(addButton());

    expect(
      await screen.findByText(/^Добавлено в корзину: 3 шт\. на 14\s480,00\s₽ \(2 варианта\)$/),
    ).toBeInTheDocument();
    expect(bulkCalls.calls).toHaveLength(1);
    // In the order the matrix shows the cells: row by row.
    expect(await bulkCalls.last!.json()).toEqual({
      user_id: USER.id,
      items: [
        { product_id: BEAR.id, variant_id: 201, count: 2 },
        { product_id: BEAR.id, variant_id: 205, count: 1 },
      ],
    });
    expect(cell('бежевый', 25)).toHaveValue('');
    expect(cell('белый', 60)).toHaveValue('');
    expect(total()).toHaveTextContent(/^Итого: 0 шт\./);
    expect(addButton()).toBeDisabled();
    expect(await screen.findByRole('button', { name: 'Корзина, товаров: 3' })).toBeInTheDocument();
  });

  test('a refused line is named by its cell, and what was typed stays', async () => {
    const { user } = await openMatrix();
    server.use(
      http.post(`${API}/cart/bulk`, () => json({ detail: 'Строка 2: товара «Мишка Тедди» нет в наличии' }, 409)),
    );
    await user.type(cell('бежевый', 25), '1');
    await user.type(cell('белый', 60), '2');
    await user.click(addButton());
    expect(await screen.findByText('белый, 60 см: товара «Мишка Тедди» нет в наличии')).toBeInTheDocument();
    expect(cell('белый', 60)).toHaveValue('2');
    expect(total()).toHaveTextContent(/^Итого: 3 шт\./);
  });

  test('a visitor is asked to log in, and nothing is sent', async () => {
    server.use(refreshFails());
    const { user, bulkCalls } = await openMatrix(visitor());
    await user.type(cell('бежевый', 25), '2');
    await user.click(addButton());
    expect(await screen.findByRole('dialog')).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Вход', selected: true })).toBeInTheDocument();
    expect(bulkCalls.calls).toHaveLength(0);
    expect(cell('бежевый', 25)).toHaveValue('2');
  });

  test('a product with one variant has no matrix: the controls above say it all', async () => {
    network();
    server.use(http.get(`${API}/products/${BEAR.art}`, () => json({ ...BEAR, variants: [BEAR.variants[0]!] })));
    renderShop({ route: `/product/${BEAR.art}`, preloadedState: loggedIn() });
    await waitFor(() => expect(screen.getByRole('button', { name: 'В корзину' })).toBeEnabled());
    // Time for a lazy chunk to arrive, were it asked for.
    await wait(100);
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });
});

// Cartons of 6, at least 12 in a line. Orange counts its tiers over the model, white per size.
const FOX: ProductPage = productPage({
  art: 'FOX-06',
  name: 'Лиса',
  multiple: 6,
  min_quantity: 12,
  variants: [
    variantCard({
      id: 601,
      color: 'рыжий',
      size: 30,
      price: 500,
      stock: 100,
      tiers: [{ from: 24, price: 450 }],
      tiers_scope: 'product',
    }),
    variantCard({
      id: 602,
      color: 'рыжий',
      size: 50,
      price: 800,
      stock: 100,
      tiers: [{ from: 24, price: 450 }],
      tiers_scope: 'product',
    }),
    variantCard({ id: 603, color: 'белый', size: 30, price: 500, stock: 100, tiers: [{ from: 24, price: 400 }] }),
  ],
});

describe('Product page: the matrix of a product sold by cartons, with prices by quantity', () => {
  test('a cell’s count the packaging does not take is raised as the buyer leaves it, and the cell says so', async () => {
    const { user } = await openMatrix(loggedIn(), FOX);
    const orange30 = cell('рыжий', 30);
    await user.type(orange30, '13');
    await user.tab();
    expect(orange30).toHaveValue('18');
    expect(orange30).toHaveAccessibleDescription('Округлено до 18 шт.: товар продаётся упаковками по 6 шт.');
    await user.clear(orange30);
    await user.type(orange30, '6');
    await user.tab();
    expect(orange30).toHaveValue('12');
    expect(orange30).toHaveAccessibleDescription('Округлено до 12 шт.: минимальный заказ — 12 шт.');
  });

  test('the total is at the prices by quantity the cells reach: the model’s over all its cells, a size’s on its own', async () => {
    const { user } = await openMatrix(loggedIn(), FOX);
    await user.type(cell('рыжий', 30), '12');
    expect(total()).toHaveTextContent(/^Итого: 12 шт\. на 6\s000,00\s₽$/);
    // 24 pieces of the model reach orange's 450 ₽; white's own 12 do not reach its 400 ₽: 12 × 450 + 12 × 500.
    await user.type(cell('белый', 30), '12');
    expect(total()).toHaveTextContent(/^Итого: 24 шт\. на 11\s400,00\s₽$/);
    // White's 24 reach its own: 12 × 450 + 24 × 400.
    await user.clear(cell('белый', 30));
    await user.type(cell('белый', 30), '24');
    expect(total()).toHaveTextContent(/^Итого: 36 шт\. на 15\s000,00\s₽$/);
  });

  test('«Добавить в корзину» sends the fitted counts', async () => {
    const { user, bulkCalls } = await openMatrix(loggedIn(), FOX);
    await user.type(cell('белый', 30), '20');
    await user.click(addButton());
    await waitFor(() => expect(bulkCalls.calls).toHaveLength(1));
    expect((await bulkCalls.last!.json()).items).toEqual([{ product_id: FOX.id, variant_id: 603, count: 24 }]);
  });

  test('prices shown after signing in only: no matrix to order from', async () => {
    server.use(refreshFails());
    network({ ...FOX, variants: FOX.variants.map((shown) => ({ ...shown, price: null, tiers: [] })) });
    renderShop({ route: `/product/${FOX.art}`, preloadedState: visitor() });
    expect(await screen.findByText('Цена после входа')).toBeInTheDocument();
    await wait(100);
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });
});
