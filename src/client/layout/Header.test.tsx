import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { cart, cartItem, loggedIn, installUserNetwork, installVisitorNetwork, visitor } from '@/test/fixtures';
import { setViewportWidth } from '@/test/media';
import { renderShop } from '@/test/render';

const THREE_UNITS = cart([cartItem({ id: 1, count: 2 }), cartItem({ id: 2, count: 1, variant_id: 102 })]);

const mainNav = () => screen.getByRole('navigation', { name: 'Основное меню' });

describe('Header at 1440px', () => {
  test('a visitor sees the catalogue and about links, an empty cart, the colour switch and Войти', async () => {
    installVisitorNetwork();
    renderShop({ preloadedState: visitor() });
    const nav = mainNav();
    expect(within(nav).getByRole('link', { name: 'Каталог' })).toHaveAttribute('href', '/catalog');
    expect(within(nav).getByRole('link', { name: 'Быстрый заказ' })).toHaveAttribute('href', '/quick-order');
    expect(within(nav).getByRole('link', { name: 'О компании' })).toHaveAttribute('href', '/about');
    expect(within(nav).getByRole('button', { name: 'Корзина, товаров: 0' })).toBeInTheDocument();
    expect(within(nav).getByRole('button', { name: /Войти/ })).toBeEnabled();
    const colours = await within(nav).findByRole('radiogroup', { name: 'Цветовая тема' });
    expect(within(colours).getAllByRole('radio')).toHaveLength(3);
    expect(within(colours).getByRole('radio', { name: 'Как в системе' })).toBeChecked();
    expect(screen.queryByRole('button', { name: 'Меню' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Мягкий Опт — на главную' })).toHaveAttribute('href', '/');
    await screen.findByText('Товары не найдены');
  });

  test('the colour switch is one radio group: Tab reaches the chosen mode, the arrow keys choose another', async () => {
    installVisitorNetwork();
    const user = userEvent.setup();
    const { store } = renderShop({ preloadedState: visitor() });
    const colours = await within(mainNav()).findByRole('radiogroup', { name: 'Цветовая тема' });
    const system = within(colours).getByRole('radio', { name: 'Как в системе' });
    system.focus();
    await user.keyboard('{ArrowLeft}');
    expect(within(colours).getByRole('radio', { name: 'Тёмная тема' })).toBeChecked();
    expect(store.getState().colourMode).toBe('dark');
    await user.keyboard('{ArrowRight}');
    expect(system).toBeChecked();
    expect(store.getState().colourMode).toBe('system');
    await screen.findByText('Товары не найдены');
  });

  test('a user sees the badge with the units in GET /cart/{id} and the e-mail prefix leading to /profile', async () => {
    installUserNetwork(THREE_UNITS);
    const user = userEvent.setup();
    const { router } = renderShop({ preloadedState: loggedIn() });
    const nav = mainNav();
    const cartButton = await within(nav).findByRole('button', { name: 'Корзина, товаров: 3' });
    expect(within(cartButton).getByText('3')).toBeVisible();
    const userButton = within(nav).getByRole('button', { name: /ivan\.petrov/ });
    // Cut short with an ellipsis where the header is narrow: the whole prefix on hover.
    expect(userButton).toHaveAttribute('title', 'ivan.petrov');
    expect(within(nav).queryByRole('button', { name: /Войти/ })).not.toBeInTheDocument();
    await user.click(cartButton);
    expect(router.state.location.pathname).toBe('/cart');
    await user.click(userButton);
    expect(router.state.location.pathname).toBe('/profile');
  });

  test('the cart button opens the login dialog for a visitor', async () => {
    installVisitorNetwork();
    const user = userEvent.setup();
    const { router } = renderShop({ preloadedState: visitor() });
    await user.click(within(mainNav()).getByRole('button', { name: 'Корзина, товаров: 0' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('tab', { name: 'Вход', selected: true })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
  });

  test('folds into the hamburger menu when the window narrows below 600px', async () => {
    installVisitorNetwork();
    renderShop({ preloadedState: visitor() });
    expect(mainNav()).toBeInTheDocument();
    act(() => setViewportWidth(599));
    expect(await screen.findByRole('button', { name: 'Меню' })).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Основное меню' })).not.toBeInTheDocument();
    act(() => setViewportWidth(600));
    expect(await screen.findByRole('navigation', { name: 'Основное меню' })).toBeInTheDocument();
  });
});

describe('Header at 375px', () => {
  beforeEach(() => setViewportWidth(375));

  test("a visitor's hamburger menu has the same items, and its cart item opens the login dialog", async () => {
    installVisitorNetwork();
    const user = userEvent.setup();
    const { router } = renderShop({ preloadedState: visitor() });
    expect(screen.queryByRole('navigation', { name: 'Основное меню' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Меню' }));
    const menu = await screen.findByRole('menu');
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((item) => item.textContent),
    ).toEqual(['Каталог', 'Быстрый заказ', 'О компании', 'Корзина', 'Войти']);
    const colours = screen.getByRole('radiogroup', { name: 'Цветовая тема' });
    expect(within(colours).getByRole('radio', { name: 'Тёмная тема' })).not.toBeChecked();
    await user.click(within(menu).getByRole('menuitem', { name: 'Корзина' }));
    expect(await screen.findByRole('dialog')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
  });

  test("a user's menu shows the cart count, the e-mail prefix and Выйти, and its items navigate", async () => {
    installUserNetwork(THREE_UNITS);
    const user = userEvent.setup();
    const { router } = renderShop({ preloadedState: loggedIn() });
    await user.click(screen.getByRole('button', { name: /^Меню/ }));
    const menu = await screen.findByRole('menu');
    await waitFor(() =>
      expect(
        within(menu)
          .getAllByRole('menuitem')
          .map((item) => item.textContent),
      ).toEqual(['Каталог', 'Быстрый заказ', 'О компании', 'Корзина (3)', 'ivan.petrov', 'Выйти']),
    );
    await user.click(within(menu).getByRole('menuitem', { name: 'Корзина (3)' }));
    expect(router.state.location.pathname).toBe('/cart');
  });

  test("the cart is in the phone's header beside the menu, with its count", async () => {
    installUserNetwork(THREE_UNITS);
    const user = userEvent.setup();
    const { router } = renderShop({ preloadedState: loggedIn() });
    const cartButton = await within(screen.getByRole('banner')).findByRole('button', { name: 'Корзина, товаров: 3' });
    expect(within(cartButton).getByText('3')).toBeVisible();
    await user.click(cartButton);
    expect(router.state.location.pathname).toBe('/cart');
  });

  test("a visitor's phone header has the cart with no count, and the menu", async () => {
    installVisitorNetwork();
    renderShop({ preloadedState: visitor() });
    await screen.findByText('Товары не найдены');
    const header = screen.getByRole('banner');
    expect(within(header).getByRole('button', { name: 'Меню' })).toBeInTheDocument();
    expect(
      within(within(header).getByRole('button', { name: 'Корзина, товаров: 0' })).queryByText(/\d/),
    ).not.toBeInTheDocument();
  });

  test('the catalogue and about items navigate', async () => {
    installVisitorNetwork();
    const user = userEvent.setup();
    const { router } = renderShop({ preloadedState: visitor() });
    await user.click(screen.getByRole('button', { name: 'Меню' }));
    await user.click(within(await screen.findByRole('menu')).getByRole('menuitem', { name: 'О компании' }));
    expect(router.state.location.pathname).toBe('/about');
    await user.click(screen.getByRole('button', { name: 'Меню' }));
    await user.click(within(await screen.findByRole('menu')).getByRole('menuitem', { name: 'Каталог' }));
    expect(router.state.location.pathname).toBe('/catalog');
  });
});

describe('contact strip and footer', () => {
  test('the contact strip shows Moscow, the mail link and the opening hours', async () => {
    installVisitorNetwork();
    renderShop({ preloadedState: visitor() });
    const strip = screen.getByLabelText('Контакты');
    expect(within(strip).getByText(/Москва/)).toBeInTheDocument();
    const mail = within(strip).getByRole('link', { name: /@/ });
    expect(mail.getAttribute('href')).toMatch(/^mailto:[^\s@]+@[^\s@]+\.[^\s@]+$/);
    expect(mail).toHaveTextContent(mail.getAttribute('href')!.slice('mailto:'.length));
    expect(within(strip).getByText(/10:00.20:00/)).toBeInTheDocument();
  });

  test('the footer shows the current year and the shop name', async () => {
    installVisitorNetwork();
    renderShop({ preloadedState: visitor() });
    expect(screen.getByRole('contentinfo')).toHaveTextContent(`© ${new Date().getFullYear()} Мягкий Опт`);
  });
});
