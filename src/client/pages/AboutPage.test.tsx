import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { json, refreshFails, visitor } from '@/test/fixtures';
import { renderShop } from '@/test/render';
import { API, server } from '@/test/server';

describe('About page (SPEC §2)', () => {
  test('describes the company, with payment and delivery, and the image from the API host', async () => {
    renderShop({ route: '/about', preloadedState: visitor() });
    expect(await screen.findByRole('heading', { name: 'О компании' })).toBeInTheDocument();
    expect(screen.getByText(/полная предоплата или безналичный расчёт по счёту/)).toBeInTheDocument();
    expect(screen.getByText(/Доставка транспортными компаниями по всей России/)).toBeInTheDocument();
    const image = screen.getByRole('img', { name: /Мягкий Опт/ });
    expect(image.getAttribute('src')).toMatch(/\/api\/v1\/image\/about\.svg$/);
    expect(image).toHaveAttribute('src', 'http://shop.test/api/v1/image/about.svg');
  });

  test('its button opens the catalogue', async () => {
    server.use(
      refreshFails(),
      http.get(`${API}/products/categories/all`, () => json([])),
    );
    const user = userEvent.setup();
    const { router } = renderShop({ route: '/about', preloadedState: visitor() });
    await user.click(await screen.findByRole('link', { name: 'Перейти в каталог' }));
    expect(router.state.location.pathname).toBe('/catalog');
    expect(await screen.findByRole('heading', { name: 'Каталог' })).toBeInTheDocument();
  });
});

describe('Order success page (SPEC §2)', () => {
  test("says 'Заказ принят!', mentions the manager's invoice and links home and to /profile", async () => {
    renderShop({ route: '/order-success', preloadedState: visitor() });
    expect(await screen.findByRole('heading', { name: 'Заказ принят!' })).toBeInTheDocument();
    expect(screen.getByText(/отправлен в обработку.*выставит счёт/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'На главную' })).toHaveAttribute('href', '/');
    expect(screen.getByRole('link', { name: 'Мои заказы' })).toHaveAttribute('href', '/profile');
  });
});

describe('Privacy policy page', () => {
  test('names the operator, the data, the purposes, how long, and how to withdraw the consent', async () => {
    renderShop({ route: '/privacy', preloadedState: visitor() });
    expect(await screen.findByRole('heading', { name: 'Политика обработки персональных данных' })).toBeInTheDocument();
    for (const heading of ['Оператор', 'Какие данные мы обрабатываем', 'Зачем', 'Сколько хранятся']) {
      expect(screen.getByRole('heading', { name: heading })).toBeInTheDocument();
    }
    expect(screen.getByText(/402-ФЗ «О бухгалтерском учёте»/)).toBeInTheDocument();
    expect(screen.getByText(/«Удалить аккаунт»/)).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: /@/ })[0]).toHaveAttribute('href', expect.stringMatching(/^mailto:/));
    expect(screen.getByRole('link', { name: 'личном кабинете' })).toHaveAttribute('href', '/profile');
  });

  test('the footer links to it', async () => {
    renderShop({ route: '/privacy', preloadedState: visitor() });
    const footer = await screen.findByRole('contentinfo');
    expect(within(footer).getByRole('link', { name: 'Политика конфиденциальности' })).toHaveAttribute(
      'href',
      '/privacy',
    );
  });
});
