import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import {
  banner,
  cart,
  cartHandler,
  json,
  loggedIn,
  makeToken,
  product,
  productPage,
  products,
  recorder,
  refreshFails,
  variant,
  visitor,
  wait,
  withSessionCookie,
} from '@/test/fixtures';
import { renderShop } from '@/test/render';
import { API, server } from '@/test/server';
import { apiReadKey, INITIAL_RESPONSES_ELEMENT_ID } from '@shared/api';

/** Popular products by page: `pages[n]` answers skip = n * 8. */
function popularNetwork(pages: ReturnType<typeof products>[], banners = [banner()]) {
  const popularCalls = recorder();
  server.use(
    refreshFails(),
    http.get(`${API}/banners/all`, () => json(banners)),
    http.get(`${API}/products/popular`, ({ request }) => {
      popularCalls.record(request);
      const skip = Number(new URL(request.url).searchParams.get('skip'));
      return json(pages[skip / 8] ?? []);
    }),
  );
  return popularCalls;
}

const query = (request: Request) => Object.fromEntries(new URL(request.url).searchParams);
const back = () => screen.getByRole('button', { name: /Назад/ });
const forward = () => screen.getByRole('button', { name: /Вперёд/ });
/** Forward once the next page has been read ahead and has toys. */
const enabledForward = async () => {
  await waitFor(() => expect(forward()).toBeEnabled());
  return forward();
};

describe('Home page: popular toys (SPEC §2, §9)', () => {
  test('asks for 8 from 0 and, with 8 back, shows them with Back disabled', async () => {
    const popularCalls = popularNetwork([products(8), products(3, 9)]);
    renderShop({ preloadedState: visitor() });
    expect(await screen.findByText('Игрушка 8')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Популярные игрушки' })).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: /Игрушка \d/ })).toHaveLength(8);
    expect(query(popularCalls.calls[0]!)).toEqual({ skip: '0', limit: '8' });
    await waitFor(() => expect(forward()).toBeEnabled());
    expect(back()).toBeDisabled();
  });

  test('the pager appears with the first page, not under its spinner (where it would be pushed down)', async () => {
    popularNetwork([products(8)]);
    // The first page is held back until the spinner has been seen: on a busy machine an instant
    // answer could replace the spinner before the test looks for it.
    let answerFirstPage = () => {};
    const firstPageAnswered = new Promise<void>((resolve) => (answerFirstPage = resolve));
    server.use(
      http.get(`${API}/products/popular`, async () => {
        await firstPageAnswered;
        return json(products(8));
      }),
    );
    renderShop({ preloadedState: visitor() });
    expect(await screen.findByRole('status', { name: 'Загрузка' })).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Страницы' })).not.toBeInTheDocument();
    answerFirstPage();
    expect(await screen.findByText('Игрушка 8')).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'Страницы' })).toBeInTheDocument();
  });

  test('fewer than 8 leaves Forward disabled and asks for no next page', async () => {
    const popularCalls = popularNetwork([products(7)]);
    renderShop({ preloadedState: visitor() });
    expect(await screen.findByText('Игрушка 7')).toBeInTheDocument();
    expect(forward()).toBeDisabled();
    expect(popularCalls.calls.map((request) => query(request).skip)).toEqual(['0']);
  });

  test('Forward opens the page read ahead, Back returns to the first page', async () => {
    const popularCalls = popularNetwork([products(8), products(8, 9), products(3, 17)]);
    const user = userEvent.setup();
    renderShop({ preloadedState: visitor() });
    await screen.findByText('Игрушка 1');
    await user.click(await enabledForward());
    expect(await screen.findByText('Игрушка 9')).toBeInTheDocument();
    expect(screen.queryByText('Игрушка 1')).not.toBeInTheDocument();
    expect(back()).toBeEnabled();
    await user.click(await enabledForward());
    expect(await screen.findByText('Игрушка 17')).toBeInTheDocument();
    expect(forward()).toBeDisabled();
    await user.click(back());
    expect(await screen.findByText('Игрушка 9')).toBeInTheDocument();
    await user.click(back());
    expect(await screen.findByText('Игрушка 1')).toBeInTheDocument();
    expect(back()).toBeDisabled();
    // Each page once: the next one while the current is shown, none after a page that is not full.
    expect(popularCalls.calls.map((request) => query(request))).toEqual([
      { skip: '0', limit: '8' },
      { skip: '8', limit: '8' },
      { skip: '16', limit: '8' },
    ]);
  });

  test('after exactly 8·n toys Forward is disabled on the last page: the next one is empty', async () => {
    const popularCalls = popularNetwork([products(8), products(8, 9)]);
    const user = userEvent.setup();
    renderShop({ preloadedState: visitor() });
    await screen.findByText('Игрушка 1');
    await user.click(await enabledForward());
    expect(await screen.findByText('Игрушка 16')).toBeInTheDocument();
    // The third page has been asked for (and is empty), and Forward stays disabled.
    await waitFor(() => expect(popularCalls.calls.map((request) => query(request).skip)).toEqual(['0', '8', '16']));
    await wait(50);
    expect(forward()).toBeDisabled();
  });

  test("a failed load shows 'Товары не найдены' with Forward disabled", async () => {
    server.use(
      refreshFails(),
      http.get(`${API}/banners/all`, () => json([])),
      http.get(`${API}/products/popular`, () => json({ detail: 'Ошибка' }, 500)),
    );
    renderShop({ preloadedState: visitor() });
    expect(await screen.findByText('Товары не найдены')).toBeInTheDocument();
    expect(forward()).toBeDisabled();
  });
});

describe('Home page: banners', () => {
  test("each banner links to its url, or to '#' without one", async () => {
    popularNetwork(
      [[]],
      [
        banner({ id: 1, image: 'sale.svg', url: 'https://example.ru/sale' }),
        banner({ id: 2, url: null }),
        banner({ id: 3, url: '/catalog' }),
      ],
    );
    renderShop({ preloadedState: visitor() });
    const carousel = await screen.findByRole('region', { name: 'Акции и новинки' });
    // The first banner is drawn at once, the others when the carousel's code has arrived.
    await within(carousel).findAllByRole('link', { name: 'Баннер 3', hidden: true });
    const hrefOf = (alt: string) => {
      // The looped carousel clones slides; every copy must link to the same place.
      const links = within(carousel).getAllByRole('link', { name: alt, hidden: true });
      return [...new Set(links.map((link) => link.getAttribute('href')))];
    };
    expect(hrefOf('Баннер 1')).toEqual(['https://example.ru/sale']);
    expect(hrefOf('Баннер 2')).toEqual(['#']);
    expect(hrefOf('Баннер 3')).toEqual(['/catalog']);
    const image = within(carousel).getAllByRole('img', { name: 'Баннер 1', hidden: true })[0];
    expect(image).toHaveAttribute('src', 'http://shop.test/api/v1/image/sale.svg');
  });

  test('no banners: no carousel', async () => {
    popularNetwork([[]], []);
    renderShop({ preloadedState: visitor() });
    await screen.findByText('Товары не найдены');
    expect(screen.queryByRole('region', { name: 'Акции и новинки' })).not.toBeInTheDocument();
  });
});

describe('product card', () => {
  test('shows the lowest variant price formatted for ru-RU with ₽, or Нет данных, and links to the product', async () => {
    popularNetwork([
      [
        product({
          id: 1,
          art: 'BIG BEAR/1',
          name: 'Большой мишка',
          variants: [
            variant({ id: 1, price: 15000 }),
            variant({ id: 2, price: 12345.5 }),
            variant({ id: 3, price: 99999 }),
          ],
        }),
        product({ id: 2, art: 'HARE', name: 'Заяц', variants: [variant({ id: 4, price: 990 })] }),
        product({ id: 3, art: 'FOX', name: 'Лиса', variants: [] }),
      ],
    ]);
    renderShop({ preloadedState: visitor() });
    const bear = await screen.findByRole('link', { name: /Большой мишка/ });
    // ru-RU groups thousands with a no-break space, uses a decimal comma, always two kopeck digits and a
    // no-break space before ₽.
    expect(within(bear).getByText(/₽/).textContent).toBe('12\u00a0345,50\u00a0₽');
    expect(bear).toHaveAttribute('href', '/product/BIG%20BEAR%2F1');
    expect(within(bear).getByRole('img', { name: 'Большой мишка' })).toHaveAttribute(
      'src',
      'http://shop.test/api/v1/image/bear.svg',
    );
    expect(within(screen.getByRole('link', { name: /Заяц/ })).getByText('990,00 ₽')).toBeInTheDocument();
    expect(within(screen.getByRole('link', { name: /Лиса/ })).getByText('Нет данных')).toBeInTheDocument();
  });

  test('a price shown only after signing in says so: no roubles, no «0 ₽»', async () => {
    popularNetwork([[product({ variants: [variant({ id: 1, price: null }), variant({ id: 2, price: null })] })]]);
    renderShop({ preloadedState: visitor() });
    const card = await screen.findByRole('link', { name: /Мишка Тедди/ });
    expect(within(card).getByText('Цена после входа')).toBeInTheDocument();
    expect(card).not.toHaveTextContent(/₽|NaN/);
  });

  test('opens the product page', async () => {
    popularNetwork([[product()]]);
    server.use(http.get(`${API}/products/BEAR-01`, () => json(productPage())));
    const user = userEvent.setup();
    const { router } = renderShop({ preloadedState: visitor() });
    await user.click(await screen.findByRole('link', { name: /Мишка Тедди/ }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/product/BEAR-01'));
    expect(await screen.findByRole('heading', { name: 'Мишка Тедди' })).toBeInTheDocument();
  });
});

describe('Home page with the answers the server wrote into it', () => {
  test('shows them, the page and the one read ahead, without asking the API; later pages come from the API', async () => {
    const popularCalls = popularNetwork([products(8, 100), products(8, 200), products(2, 17)]);
    const served = document.createElement('script');
    served.type = 'application/json';
    served.id = INITIAL_RESPONSES_ELEMENT_ID;
    served.textContent = JSON.stringify({
      [apiReadKey('api/v1/products/popular', { skip: 0, limit: 8 })]: products(8),
      [apiReadKey('api/v1/products/popular', { skip: 8, limit: 8 })]: products(8, 9),
    });
    document.head.append(served);
    const user = userEvent.setup();
    renderShop({ preloadedState: visitor() });
    expect(await screen.findByText('Игрушка 8')).toBeInTheDocument();
    await user.click(await enabledForward());
    expect(await screen.findByText('Игрушка 9')).toBeInTheDocument();
    expect(document.getElementById(INITIAL_RESPONSES_ELEMENT_ID)).toBeNull();
    await waitFor(() => expect(popularCalls.calls.map((request) => query(request).skip)).toEqual(['16']));
  });
});

describe('Home page with the answers the server wrote into it, for a buyer with a session', () => {
  /** The visitor's answers (the shop's default prices, or none) as the server writes them into the page. */
  function serveVisitorsAnswers() {
    const served = document.createElement('script');
    served.type = 'application/json';
    served.id = INITIAL_RESPONSES_ELEMENT_ID;
    served.textContent = JSON.stringify({
      [apiReadKey('api/v1/products/popular', { skip: 0, limit: 8 })]: [
        product({ name: 'Витрина для гостей', variants: [variant({ price: null })] }),
      ],
    });
    document.head.append(served);
  }

  test('a signed-in tab asks the API for its own prices, and the visitor’s never show', async () => {
    const popularCalls = popularNetwork([
      [product({ name: 'Мишка по цене компании', variants: [variant({ price: 777 })] })],
    ]);
    server.use(cartHandler(cart([])));
    serveVisitorsAnswers();
    renderShop({ preloadedState: loggedIn() });
    const card = await screen.findByRole('link', { name: /Мишка по цене компании/ });
    expect(within(card).getByText('777,00 ₽')).toBeInTheDocument();
    expect(screen.queryByText('Витрина для гостей')).not.toBeInTheDocument();
    expect(screen.queryByText('Цена после входа')).not.toBeInTheDocument();
    expect(popularCalls.calls.map((request) => query(request).skip)).toEqual(['0']);
  });

  test('a new tab with the session cookie only renews its token and asks the API, not the page', async () => {
    withSessionCookie();
    const popularCalls = popularNetwork([
      [product({ name: 'Мишка по цене компании', variants: [variant({ price: 777 })] })],
    ]);
    const token = makeToken();
    server.use(
      cartHandler(cart([])),
      http.post(`${API}/auth/refresh`, () => json({ access_token: token, token_type: 'bearer' })),
    );
    serveVisitorsAnswers();
    renderShop({ preloadedState: visitor() });
    expect(await screen.findByRole('link', { name: /Мишка по цене компании/ })).toBeInTheDocument();
    expect(screen.queryByText('Витрина для гостей')).not.toBeInTheDocument();
    expect(popularCalls.last!.headers.get('authorization')).toBe(`Bearer ${token}`);
  });
});

describe('Home page: the page lives in the address', () => {
  test('Forward and Back write ?page=N (none on page 1)', async () => {
    popularNetwork([products(8), products(8, 9), products(1, 17)]);
    const user = userEvent.setup();
    const { router } = renderShop({ preloadedState: visitor() });
    await screen.findByText('Игрушка 1');
    await user.click(await enabledForward());
    await screen.findByText('Игрушка 9');
    expect(router.state.location.search).toBe('?page=2');
    await user.click(back());
    await screen.findByText('Игрушка 1');
    expect(router.state.location.search).toBe('');
  });

  test('opens at the page the address names', async () => {
    const popularCalls = popularNetwork([products(8), products(8, 9)]);
    renderShop({ route: '/?page=2', preloadedState: visitor() });
    expect(await screen.findByText('Игрушка 9')).toBeInTheDocument();
    expect(query(popularCalls.calls[0]!)).toEqual({ skip: '8', limit: '8' });
    expect(back()).toBeEnabled();
  });

  test.each(['0', '-1', 'abc', '1e9', '2.5', String(10 ** 6)])(
    'a page that is not one (?page=%s) shows the first page and drops the parameter',
    async (bad) => {
      const popularCalls = popularNetwork([products(3)]);
      const { router } = renderShop({ route: `/?page=${bad}`, preloadedState: visitor() });
      expect(await screen.findByText('Игрушка 3')).toBeInTheDocument();
      await waitFor(() => expect(router.state.location.search).toBe(''));
      expect(popularCalls.calls.map((request) => query(request).skip)).toEqual(['0']);
    },
  );

  test('a page past the last one (a stale link) goes to the first page', async () => {
    popularNetwork([products(3)]);
    const { router } = renderShop({ route: '/?page=4', preloadedState: visitor() });
    expect(await screen.findByText('Игрушка 3')).toBeInTheDocument();
    expect(router.state.location.search).toBe('');
  });

  test('names the page in the document title', async () => {
    popularNetwork([products(8), products(8, 9)]);
    renderShop({ preloadedState: visitor() });
    await screen.findByText('Игрушка 1');
    expect(document.title).toBe('Мягкий Опт — мягкие игрушки оптом');
    await userEvent.setup().click(await enabledForward());
    await screen.findByText('Игрушка 9');
    expect(document.title).toBe('Популярные игрушки, страница 2 — Мягкий Опт');
  });
});
