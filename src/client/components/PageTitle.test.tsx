import { screen, waitFor } from '@testing-library/react';
import { http } from 'msw';
import {
  cart,
  installUserNetwork,
  installVisitorNetwork,
  json,
  loggedIn,
  productPage,
  USER,
  visitor,
} from '@/test/fixtures';
import { renderShop } from '@/test/render';
import { API } from '@/test/server';

// Every route names itself in the tab, the history and bookmarks.
describe('document title per route', () => {
  test.each([
    ['/', 'Мягкий Опт — мягкие игрушки оптом'],
    ['/about', 'О компании — Мягкий Опт'],
    ['/no/such/page', 'Страница не найдена — Мягкий Опт'],
    ['/order-success', 'Заказ принят — Мягкий Опт'],
  ])('a visitor at %s reads «%s»', async (route, title) => {
    installVisitorNetwork();
    renderShop({ route, preloadedState: visitor() });
    await waitFor(() => expect(document.title).toBe(title));
  });

  test.each([
    ['/cart', 'Корзина — Мягкий Опт'],
    ['/checkout', 'Оформление заказа — Мягкий Опт'],
    ['/profile', 'Личный кабинет — Мягкий Опт'],
  ])('a buyer at %s reads «%s»', async (route, title) => {
    installUserNetwork(
      cart([]),
      http.get(`${API}/order/${USER.id}`, () => json([])),
    );
    renderShop({ route, preloadedState: loggedIn() });
    await waitFor(() => expect(document.title).toBe(title));
  });

  test("a product's page is titled with the product's name", async () => {
    const bear = productPage({ art: 'MO-1001', name: 'Большой медведь Михалыч' });
    installVisitorNetwork(http.get(`${API}/products/MO-1001`, () => json(bear)));
    renderShop({ route: '/product/MO-1001', preloadedState: visitor() });
    await screen.findByRole('heading', { name: 'Большой медведь Михалыч' });
    expect(document.title).toBe('Большой медведь Михалыч — Мягкий Опт');
  });

  test('one title at a time: moving to another page replaces it', async () => {
    installVisitorNetwork();
    const { router } = renderShop({ route: '/about', preloadedState: visitor() });
    await waitFor(() => expect(document.title).toBe('О компании — Мягкий Опт'));
    router.navigate('/no/such/page');
    await waitFor(() => expect(document.title).toBe('Страница не найдена — Мягкий Опт'));
    expect(document.head.querySelectorAll('title')).toHaveLength(1);
  });
});
