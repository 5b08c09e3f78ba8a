import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import type { ProductPage } from '@shared/api';
import {
  cart,
  cartItem,
  json,
  loggedIn,
  makeToken,
  productPage,
  recorder,
  refreshFails,
  unprovenBuyer,
  USER,
  variantCard,
  visitor,
} from '@/test/fixtures';
import { renderShop } from '@/test/render';
import { API, server } from '@/test/server';

// Sorted by size as the server sends them; the first one is selected at load.
const BEAR: ProductPage = productPage({
  big_description: 'Высота 25 см.\nНаполнитель: синтепон.\nУпаковка <b>подарочная</b>.',
  variants: [
    variantCard({ id: 101, color: 'Розовый', size: 25, price: 990, stock: 5 }),
    variantCard({ id: 102, color: 'Розовый', size: 40, price: 1990, stock: 0 }),
    variantCard({ id: 103, color: 'Голубой', size: 40, price: 2100, stock: 3 }),
    variantCard({ id: 104, color: 'Голубой', size: 60, price: 12500.5, stock: 1 }),
  ],
});

function productNetwork(answer: ProductPage = BEAR) {
  server.use(http.get(`${API}/products/${encodeURIComponent(answer.art)}`, () => json(answer)));
}

/** A logged-in user's product page, with a cart that gains an item on POST /cart/add. */
function userNetwork(initialItems = [] as ReturnType<typeof cartItem>[]) {
  const addCalls = recorder();
  const cartCalls = recorder();
  const items = [...initialItems];
  server.use(
    http.get(`${API}/cart/${USER.id}`, ({ request }) => (cartCalls.record(request), json(cart(items)))),
    http.post(`${API}/cart/add`, async ({ request }) => {
      addCalls.record(request);
      const body = (await request.json()) as { variant_id: number; count: number };
      items.push(cartItem({ id: 50, variant_id: body.variant_id, count: body.count }));
      return json({ id: 50 }, 201);
    }),
  );
  return { addCalls, cartCalls };
}

const price = () => screen.getByLabelText('Цена');
const colour = (name: string) => within(screen.getByRole('radiogroup', { name: 'Цвет' })).getByRole('radio', { name });
const size = (name: string) => within(screen.getByRole('radiogroup', { name: 'Размер' })).getByRole('radio', { name });
const isChosen = (radio: HTMLElement) => (radio as HTMLInputElement).checked;
const buyButton = () => screen.getByRole('button', { name: 'Купить' });
const cartButton = () => screen.getByRole('button', { name: /^В корзин/ });

async function openAsUser(answer: ProductPage = BEAR, items: ReturnType<typeof cartItem>[] = []) {
  productNetwork(answer);
  const network = userNetwork(items);
  const user = userEvent.setup();
  const rendered = renderShop({ route: `/product/${encodeURIComponent(answer.art)}`, preloadedState: loggedIn() });
  await screen.findByRole('heading', { name: answer.name });
  // The controls load after the picture and text.
  await screen.findByRole('button', { name: 'Купить' });
  return { user, ...network, ...rendered };
}

describe('Product page: variants (SPEC §4)', () => {
  test('selects the first variant at load: its colour, size, price and stock', async () => {
    await openAsUser();
    expect(isChosen(colour('Розовый'))).toBe(true);
    expect(isChosen(size('25 см'))).toBe(true);
    expect(price()).toHaveTextContent('990,00 ₽');
    expect(screen.getByText('В наличии: 5 шт.')).toBeInTheDocument();
    expect(
      within(screen.getByRole('radiogroup', { name: 'Размер' }))
        .getAllByRole('radio')
        .map((radio) => radio.closest('label')!.textContent),
    ).toEqual(['25 см', '40 см — нет в наличии']);
    expect(screen.getByRole('img', { name: 'Мишка Тедди' })).toHaveAttribute(
      'src',
      'http://shop.test/api/v1/image/bear.svg',
    );
  });

  test('changing the size updates the price and the stock status', async () => {
    const { user } = await openAsUser();
    await user.click(size('40 см — нет в наличии'));
    expect(isChosen(size('40 см — нет в наличии'))).toBe(true);
    expect(price()).toHaveTextContent('1 990,00 ₽');
    expect(screen.getByText('Нет в наличии')).toBeInTheDocument();
    expect(screen.queryByText(/^В наличии/)).not.toBeInTheDocument();
  });

  test('changing the colour keeps the size when the new colour has it', async () => {
    const { user } = await openAsUser();
    await user.click(size('40 см — нет в наличии'));
    await user.click(colour('Голубой'));
    expect(isChosen(colour('Голубой'))).toBe(true);
    expect(isChosen(size('40 см'))).toBe(true);
    expect(price()).toHaveTextContent('2 100,00 ₽');
    expect(screen.getByText('В наличии: 3 шт.')).toBeInTheDocument();
  });

  test('changing the colour selects its smallest size when the new colour lacks the size', async () => {
    const { user } = await openAsUser();
    await user.click(colour('Голубой'));
    expect(isChosen(size('40 см'))).toBe(true);
    expect(
      within(screen.getByRole('radiogroup', { name: 'Размер' })).queryByRole('radio', { name: '25 см' }),
    ).not.toBeInTheDocument();
    await user.click(size('60 см'));
    expect(price()).toHaveTextContent('12 500,50 ₽');
    await user.click(colour('Розовый'));
    expect(isChosen(size('25 см'))).toBe(true);
    expect(price()).toHaveTextContent('990,00 ₽');
  });
});

describe('Product page: what is out of stock', () => {
  const WITH_A_SOLD_OUT_COLOUR: ProductPage = {
    ...BEAR,
    variants: [...BEAR.variants, variantCard({ id: 105, color: 'Белый', size: 25, stock: 0 })],
  };
  const labelOf = (radio: HTMLElement) => radio.closest('label')!;

  test('a size with no stock in the chosen colour, and a colour with none at all, are marked before a click', async () => {
    await openAsUser(WITH_A_SOLD_OUT_COLOUR);
    const soldOutSize = size('40 см — нет в наличии');
    expect(labelOf(soldOutSize)).toHaveClass('choice-unavailable');
    expect(labelOf(soldOutSize)).toHaveAttribute('title', 'Нет в наличии');
    expect(labelOf(size('25 см'))).not.toHaveClass('choice-unavailable');
    expect(labelOf(colour('Белый — нет в наличии'))).toHaveClass('choice-unavailable');
    // A colour with one size in stock is available, even if another of its sizes is not.
    expect(labelOf(colour('Розовый'))).not.toHaveClass('choice-unavailable');
    expect(labelOf(colour('Голубой'))).not.toHaveClass('choice-unavailable');
  });

  test('the marks follow the chosen colour, and a marked choice can still be chosen (SPEC §4)', async () => {
    const { user } = await openAsUser(WITH_A_SOLD_OUT_COLOUR);
    await user.click(colour('Голубой'));
    expect(labelOf(size('40 см'))).not.toHaveClass('choice-unavailable');
    await user.click(colour('Белый — нет в наличии'));
    expect(isChosen(colour('Белый — нет в наличии'))).toBe(true);
    expect(isChosen(size('25 см — нет в наличии'))).toBe(true);
    expect(screen.getByText('Нет в наличии', { selector: '.ant-tag' })).toBeInTheDocument();
    expect(buyButton()).toBeDisabled();
  });
});

describe('Product page: buying', () => {
  test("'Купить' goes to /checkout?items=ART:VID:QTY without touching the cart", async () => {
    const { user, router, addCalls, cartCalls } = await openAsUser();
    productNetwork();
    server.use(http.post(`${API}/products/by-arts`, () => json([BEAR])));
    await user.click(colour('Голубой'));
    const quantity = screen.getByRole('spinbutton', { name: 'Количество' });
    await user.clear(quantity);
    await user.type(quantity, '3');
    await user.click(buyButton());
    await waitFor(() => expect(router.state.location.pathname).toBe('/checkout'));
    expect(router.state.location.search).toBe('?items=BEAR-01:103:3');
    expect(await screen.findByText('Мишка Тедди x 3')).toBeInTheDocument();
    expect(addCalls.calls).toHaveLength(0);
    expect(cartCalls.calls).toHaveLength(1);
  });

  test('a quantity beyond the stock is kept and said, buying waits until it is corrected (never lowered silently)', async () => {
    const { user, router } = await openAsUser();
    const quantity = screen.getByRole('spinbutton', { name: 'Количество' });
    await user.click(colour('Голубой'));
    await user.clear(quantity);
    await user.type(quantity, '50');
    await user.tab();
    expect(quantity).toHaveValue('50');
    expect(quantity).toHaveAccessibleDescription('В наличии только 3 шт.');
    expect(quantity).toHaveAttribute('aria-invalid', 'true');
    expect(buyButton()).toBeDisabled();
    expect(cartButton()).toBeDisabled();

    await user.clear(quantity);
    await user.type(quantity, '3');
    expect(quantity).not.toHaveAccessibleDescription();
    productNetwork();
    await user.click(buyButton());
    await waitFor(() => expect(router.state.location.search).toBe('?items=BEAR-01:103:3'));
  });

  test('the quantity starts at 1 and cannot go below 1', async () => {
    const { user, router } = await openAsUser();
    const quantity = screen.getByRole('spinbutton', { name: 'Количество' });
    expect(quantity).toHaveValue('1');
    await user.clear(quantity);
    await user.type(quantity, '0');
    await user.tab();
    expect(quantity).toHaveValue('1');
    productNetwork();
    await user.click(buyButton());
    await waitFor(() => expect(router.state.location.search).toBe('?items=BEAR-01:101:1'));
  });

  test("'В корзину' posts the variant and count, then shows a disabled 'В корзине'", async () => {
    const { user, addCalls } = await openAsUser();
    expect(cartButton()).toHaveTextContent('В корзину');
    await user.click(cartButton());
    expect(await screen.findByRole('button', { name: 'В корзине' })).toBeDisabled();
    expect(await addCalls.last!.json()).toEqual({ user_id: USER.id, product_id: BEAR.id, variant_id: 101, count: 1 });
    expect(await screen.findByText('Товар добавлен в корзину')).toBeInTheDocument();
    // Another variant is not in the cart yet.
    await user.click(colour('Голубой'));
    expect(cartButton()).toHaveTextContent('В корзину');
    expect(cartButton()).toBeEnabled();
  });

  test("a variant already in the cart shows a disabled 'В корзине' at once", async () => {
    await openAsUser(BEAR, [cartItem({ variant_id: 101 })]);
    expect(await screen.findByRole('button', { name: 'В корзине' })).toBeDisabled();
    expect(buyButton()).toBeEnabled();
  });

  test('a failed add shows the server detail and keeps the button', async () => {
    const { user } = await openAsUser();
    server.use(http.post(`${API}/cart/add`, () => json({ detail: 'Недостаточно товара на складе' }, 409)));
    await user.click(cartButton());
    expect(await screen.findByText('Недостаточно товара на складе')).toBeInTheDocument();
    expect(cartButton()).toHaveTextContent('В корзину');
  });

  test('both buttons are disabled for an out-of-stock variant', async () => {
    const { user } = await openAsUser();
    expect(buyButton()).toBeEnabled();
    expect(cartButton()).toBeEnabled();
    await user.click(size('40 см — нет в наличии'));
    expect(buyButton()).toBeDisabled();
    expect(cartButton()).toBeDisabled();
  });

  test('both buttons are disabled for a visitor, with a hint to log in', async () => {
    server.use(refreshFails());
    productNetwork();
    renderShop({ route: '/product/BEAR-01', preloadedState: visitor() });
    await screen.findByRole('heading', { name: 'Мишка Тедди' });
    expect(await screen.findByRole('button', { name: 'Купить' })).toBeDisabled();
    expect(cartButton()).toBeDisabled();
    expect(screen.getByText('Войдите, чтобы купить или добавить товар в корзину.')).toBeInTheDocument();
  });
});

describe('Product page: texts', () => {
  test('shows the article', async () => {
    await openAsUser();
    expect(screen.getByText(`Артикул: ${BEAR.art}`)).toBeInTheDocument();
  });

  test('keeps the lines of big_description and shows HTML in it as text', async () => {
    await openAsUser();
    const more = screen.getByRole('heading', { name: 'Подробнее о товаре' }).closest('section')!;
    const paragraph = within(more).getByText(/Наполнитель/);
    expect(paragraph.textContent).toBe('Высота 25 см.\nНаполнитель: синтепон.\nУпаковка <b>подарочная</b>.');
    expect(paragraph).toHaveClass('preserve-lines');
    expect(more.querySelector('b')).toBeNull();
    expect(screen.getByText('Плюшевый мишка')).toBeInTheDocument();
  });

  test("without a description shows 'Описание отсутствует' and no 'Подробнее' section", async () => {
    await openAsUser(productPage({ description: null, big_description: null }));
    expect(screen.getByText('Описание отсутствует')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Подробнее о товаре' })).not.toBeInTheDocument();
  });

  test("a product without variants shows 'Нет данных' and cannot be bought", async () => {
    await openAsUser(productPage({ variants: [] }));
    expect(price()).toHaveTextContent('Нет данных');
    expect(screen.getByText('Нет в наличии')).toBeInTheDocument();
    expect(buyButton()).toBeDisabled();
  });
});

describe('Product page: addressing', () => {
  test('an article with a space and a slash is requested URL-encoded and shown', async () => {
    const odd = productPage({ art: 'BIG BEAR/1', name: 'Большой мишка' });
    const calls = recorder();
    server.use(
      refreshFails(),
      http.get(`${API}/products/:art`, ({ request }) => (calls.record(request), json(odd))),
    );
    renderShop({ route: `/product/${encodeURIComponent(odd.art)}`, preloadedState: visitor() });
    expect(await screen.findByRole('heading', { name: 'Большой мишка' })).toBeInTheDocument();
    expect(new URL(calls.last!.url).pathname).toBe('/api/v1/products/BIG%20BEAR%2F1');
  });
});

describe('Product page: load failure', () => {
  test('an unknown article goes to the 404 page', async () => {
    server.use(
      refreshFails(),
      http.get(`${API}/products/NOPE`, () => json({ detail: 'Товар не найден' }, 404)),
    );
    const { router } = renderShop({ route: '/product/NOPE', preloadedState: visitor() });
    expect(await screen.findByRole('heading', { name: 'Упс... Страница не найдена' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/404');
  });

  test('a server error goes to the 404 page too', async () => {
    server.use(
      refreshFails(),
      http.get(`${API}/products/BEAR-01`, () => json({ detail: 'Ошибка' }, 500)),
    );
    const { router } = renderShop({ route: '/product/BEAR-01', preloadedState: visitor() });
    expect(await screen.findByRole('heading', { name: 'Упс... Страница не найдена' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/404');
  });
});

describe('Product page: the limit of one order', () => {
  test('a buyer who has not paid an order yet is told the limit under the quantity, as it is typed', async () => {
    server.use(http.get(`${API}/auth/user`, () => json(unprovenBuyer())));
    const { user } = await openAsUser();
    const quantity = screen.getByRole('spinbutton', { name: 'Количество' });
    await user.clear(quantity);
    await user.type(quantity, '2');
    expect(quantity).not.toHaveAccessibleDescription();
    await user.clear(quantity);
    await user.type(quantity, '3');
    await waitFor(() =>
      expect(quantity).toHaveAccessibleDescription(
        'Не больше 2 шт. за один заказ, пока у вас нет оплаченных заказов: для большего объёма напишите менеджеру',
      ),
    );
  });
});

// Sold by cartons of 6, at least 12 in a line; the model's tiers count all its sizes together.
const FOX: ProductPage = productPage({
  id: 6,
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
      rrp: 990,
      stock: 100,
      tiers: [
        { from: 12, price: 450 },
        { from: 48, price: 400 },
      ],
      tiers_scope: 'product',
    }),
    variantCard({ id: 602, color: 'рыжий', size: 50, price: 800, stock: 10, tiers: [{ from: 12, price: 450 }] }),
  ],
});

/** FOX as a visitor is shown it when the shop shows prices after signing in only. */
const HIDDEN_FOX: ProductPage = {
  ...FOX,
  variants: FOX.variants.map((shown) => ({ ...shown, price: null, tiers: [], rrp: null })),
};

const quantityField = () => screen.getByRole('spinbutton', { name: 'Количество' });

async function typeQuantity(user: ReturnType<typeof userEvent.setup>, count: string) {
  await user.clear(quantityField());
  await user.type(quantityField(), count);
  await user.tab();
}

describe('Product page: wholesale prices', () => {
  test('the prices by quantity, the recommended retail price and the packaging are shown beside the price', async () => {
    const { user } = await openAsUser(FOX);
    expect(price()).toHaveTextContent('500,00 ₽');
    expect(screen.getByTitle('Рекомендованная розничная цена').parentElement).toHaveTextContent('РРЦ 990,00 ₽');
    const tiers = screen.getByRole('list', { name: 'Цены по количеству' });
    expect(
      within(tiers)
        .getAllByRole('listitem')
        .map((row) => row.textContent!.replace(/\s/g, ' ')),
    ).toEqual(['от 12 шт. — 450,00 ₽', 'от 48 шт. — 400,00 ₽']);
    expect(screen.getByText('Для этих цен цвета и размеры модели считаются вместе')).toBeInTheDocument();
    expect(screen.getByText('Продаётся упаковками по 6 шт., минимум 12 шт.')).toBeInTheDocument();

    // A size of its own tiers and no РРЦ: the note of the model counted together goes, and the РРЦ.
    await user.click(size('50 см'));
    expect(price()).toHaveTextContent('800,00 ₽');
    expect(screen.queryByTitle('Рекомендованная розничная цена')).not.toBeInTheDocument();
    expect(within(screen.getByRole('list', { name: 'Цены по количеству' })).getByRole('listitem')).toHaveTextContent(
      'от 12 шт. — 450,00 ₽',
    );
    expect(screen.queryByText(/считаются вместе/)).not.toBeInTheDocument();
  });

  test('a product sold by the piece has no prices by quantity and says nothing of packaging', async () => {
    await openAsUser();
    expect(screen.queryByRole('list', { name: 'Цены по количеству' })).not.toBeInTheDocument();
    expect(screen.queryByText(/Продаётся/)).not.toBeInTheDocument();
    expect(screen.queryByText(/РРЦ/)).not.toBeInTheDocument();
  });

  test('the quantity starts at the minimum; a count the packaging does not take is raised, and the buyer is told', async () => {
    const { user, addCalls } = await openAsUser(FOX);
    expect(quantityField()).toHaveValue('12');

    await typeQuantity(user, '14');
    expect(quantityField()).toHaveValue('18');
    expect(screen.getByText('Округлено до 18 шт.: товар продаётся упаковками по 6 шт.')).toHaveRole('status');
    expect(quantityField()).toHaveAccessibleDescription('Округлено до 18 шт.: товар продаётся упаковками по 6 шт.');

    await typeQuantity(user, '6');
    expect(quantityField()).toHaveValue('12');
    expect(screen.getByText('Округлено до 12 шт.: минимальный заказ — 12 шт.')).toHaveRole('status');

    await user.click(cartButton());
    expect(await screen.findByRole('button', { name: 'В корзине' })).toBeDisabled();
    expect(await addCalls.last!.json()).toMatchObject({ variant_id: 601, count: 12 });
  });

  test('a count the packaging takes is kept as typed, and so is the whole stock left', async () => {
    const { user, router } = await openAsUser(FOX);
    await typeQuantity(user, '24');
    expect(quantityField()).toHaveValue('24');
    expect(screen.queryByText(/^Округлено/)).not.toBeInTheDocument();

    // 10 left of the 50 cm size: less than the minimum, and not a whole carton, but all there is.
    await user.click(size('50 см'));
    await typeQuantity(user, '10');
    expect(quantityField()).toHaveValue('10');
    expect(screen.queryByText(/^Округлено/)).not.toBeInTheDocument();
    productNetwork(FOX);
    await user.click(buyButton());
    await waitFor(() => expect(router.state.location.search).toBe('?items=FOX-06:602:10'));
  });

  test('the whole stock of one size, kept for another, is raised before anything is ordered', async () => {
    const { user, addCalls } = await openAsUser(FOX);
    await user.click(size('50 см'));
    await typeQuantity(user, '10');
    await user.click(size('30 см'));
    await user.click(cartButton());
    expect(quantityField()).toHaveValue('12');
    expect(screen.getByText('Округлено до 12 шт.: товар продаётся упаковками по 6 шт.')).toBeInTheDocument();
    expect(addCalls.calls).toHaveLength(0);

    await user.click(cartButton());
    await waitFor(() => expect(addCalls.calls).toHaveLength(1));
    expect(await addCalls.last!.json()).toMatchObject({ variant_id: 601, count: 12 });
  });

  test('a buyer who has not paid an order yet is told the limit of one order in whole cartons', async () => {
    server.use(http.get(`${API}/auth/user`, () => json(unprovenBuyer())));
    const { user } = await openAsUser(FOX);
    // Half of the stock of 100 is 50 pieces: eight cartons, 48.
    await typeQuantity(user, '54');
    await waitFor(() => expect(quantityField()).toHaveAccessibleDescription(/^Не больше 48 шт\. за один заказ/));
  });
});

describe('Product page: prices shown after signing in only', () => {
  test('a visitor is told so, with the way in, and is offered no way to buy at a price not shown', async () => {
    server.use(refreshFails());
    productNetwork(HIDDEN_FOX);
    const user = userEvent.setup();
    renderShop({ route: '/product/FOX-06', preloadedState: visitor() });
    await screen.findByRole('heading', { name: 'Лиса' });
    expect(await screen.findByText('Цена после входа')).toBeInTheDocument();
    // The choice of colour and size stays: a visitor may look around.
    expect(screen.getByRole('radiogroup', { name: 'Размер' })).toBeInTheDocument();
    expect(screen.queryByRole('spinbutton', { name: 'Количество' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Купить' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^В корзин/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Цены по количеству' })).not.toBeInTheDocument();
    expect(screen.getByRole('article')).not.toHaveTextContent(/₽|NaN/);

    await user.click(screen.getByRole('button', { name: 'Войти, чтобы увидеть цены' }));
    expect(await screen.findByRole('dialog')).toBeInTheDocument();
  });

  test('a session that ends reads the product again: the buyer’s price does not stay on a visitor’s screen', async () => {
    const token = makeToken();
    server.use(
      refreshFails(),
      http.get(`${API}/products/FOX-06`, ({ request }) =>
        json(request.headers.get('authorization') === `Bearer ${token}` ? FOX : HIDDEN_FOX),
      ),
      http.get(`${API}/cart/${USER.id}`, () => json(cart([]))),
      // The session was ended elsewhere (a password change): the token is refused, the refresh too.
      http.post(`${API}/cart/add`, () => json({ detail: 'Не авторизован' }, 401)),
    );
    const user = userEvent.setup();
    renderShop({ route: '/product/FOX-06', preloadedState: loggedIn(USER, token) });
    expect(await screen.findByLabelText('Цена')).toHaveTextContent('500,00 ₽');
    await user.click(await screen.findByRole('button', { name: 'В корзину' }));
    expect(await screen.findByText('Цена после входа')).toBeInTheDocument();
    expect(screen.queryByLabelText('Цена')).not.toBeInTheDocument();
  });

  test('signing in reads the product again: the company’s price shows where «Цена после входа» was', async () => {
    const token = makeToken();
    const productCalls = recorder();
    server.use(
      refreshFails(),
      http.get(`${API}/products/FOX-06`, ({ request }) => {
        productCalls.record(request);
        return json(request.headers.get('authorization') === `Bearer ${token}` ? FOX : HIDDEN_FOX);
      }),
      http.post(`${API}/auth/token`, () => json({ access_token: token, token_type: 'bearer' })),
      http.get(`${API}/cart/${USER.id}`, () => json(cart([]))),
    );
    const user = userEvent.setup();
    renderShop({ route: '/product/FOX-06', preloadedState: visitor() });
    await user.click(await screen.findByRole('button', { name: 'Войти, чтобы увидеть цены' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText('Email'), USER.email);
    await user.type(within(dialog).getByLabelText('Пароль'), 'secret-password');
    await user.click(within(dialog).getByRole('button', { name: 'Войти' }));

    expect(await screen.findByLabelText('Цена')).toHaveTextContent('500,00 ₽');
    expect(screen.queryByText('Цена после входа')).not.toBeInTheDocument();
    expect(productCalls.calls).toHaveLength(2);
  });
});

describe('Product page: photos and characteristics (issue 41)', () => {
  const CARD_BEAR: ProductPage = {
    ...BEAR,
    photos: [
      { color: null, images: ['u-own-1.webp', 'u-own-2.webp'] },
      { color: 'Голубой', images: ['u-blue-1.webp', 'u-blue-2.webp', 'u-blue-3.webp'] },
    ],
    brand: 'Тедди-Тойс',
    material: 'Плюш',
    filler: 'Синтепон',
    age_from: 3,
    country_of_origin: 'Россия',
    tnved: '9503004100',
    conformity_document: {
      kind: 'certificate',
      regulation: 'ТР ТС 008/2011',
      number: 'ЕАЭС RU С-RU.АБ12.В.00001/26',
      valid_from: '2026-01-15',
      valid_to: '2031-01-14',
    },
    variants: BEAR.variants.map((one, index) =>
      index === 0
        ? {
            ...one,
            barcode: '4601234567893',
            marked: true,
            package: { length_cm: 30, width_cm: 20, height_cm: 15.5 },
            weight_g: 350,
          }
        : one,
    ),
  };
  const shownPhoto = () => screen.getByRole('img', { name: /^Мишка Тедди, фото/ });
  const thumbnails = () => within(screen.getByRole('radiogroup', { name: 'Фото товара' })).getAllByRole('radio');

  test('the product’s own photos, a thumbnail chosen shows its photo; a colour with its own photos shows them', async () => {
    const { user } = await openAsUser(CARD_BEAR);
    expect(shownPhoto()).toHaveAttribute('alt', 'Мишка Тедди, фото 1 из 2');
    expect(shownPhoto().getAttribute('src')).toContain('u-own-1.webp');
    expect(thumbnails()).toHaveLength(2);
    await user.click(screen.getByRole('radio', { name: 'Фото 2' }));
    expect(shownPhoto().getAttribute('src')).toContain('u-own-2.webp');
    expect(shownPhoto()).toHaveAttribute('alt', 'Мишка Тедди, фото 2 из 2');

    await user.click(colour('Голубой'));
    expect(thumbnails()).toHaveLength(3);
    expect(shownPhoto().getAttribute('src')).toContain('u-blue-1.webp');
  });

  test('«Открыть фото крупно» opens the preview; Esc closes it', async () => {
    const { user } = await openAsUser(CARD_BEAR);
    await user.click(screen.getByRole('button', { name: 'Открыть фото крупно' }));
    const preview = await screen.findByRole('dialog');
    expect(within(preview).getByRole('img', { name: 'Мишка Тедди, фото 1 из 2' })).toBeInTheDocument();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  test('a product with only its cover shows it alone, with no thumbnails and no characteristics', async () => {
    await openAsUser();
    expect(screen.getByRole('img', { name: 'Мишка Тедди' }).getAttribute('src')).toContain('bear.svg');
    expect(screen.queryByRole('radiogroup', { name: 'Фото товара' })).not.toBeInTheDocument();
    expect(screen.queryByText('Характеристики')).not.toBeInTheDocument();
  });

  test('the characteristics of the product and of the chosen variant', async () => {
    const { user } = await openAsUser(CARD_BEAR);
    const row = (label: string) => screen.getByText(label).closest('tr')!;
    expect(row('Бренд')).toHaveTextContent('Тедди-Тойс');
    expect(row('Возраст')).toHaveTextContent('от 3 лет');
    expect(row('ТН ВЭД')).toHaveTextContent('9503004100');
    expect(row('Сертификат соответствия')).toHaveTextContent(
      '№ ЕАЭС RU С-RU.АБ12.В.00001/26, ТР ТС 008/2011, действует до 14.01.2031',
    );
    expect(row('Штрихкод')).toHaveTextContent('4601234567893');
    expect(row('Упаковка')).toHaveTextContent('30 × 20 × 15,5 см');
    expect(row('Вес в упаковке')).toHaveTextContent('350 г');
    expect(row('Маркировка')).toHaveTextContent('Подлежит маркировке «Честный знак»');

    await user.click(size('40 см — нет в наличии'));
    expect(screen.queryByText('Штрихкод')).not.toBeInTheDocument();
    expect(screen.queryByText('Маркировка')).not.toBeInTheDocument();
    expect(row('Бренд')).toHaveTextContent('Тедди-Тойс');
  });
});
