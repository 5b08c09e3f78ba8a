import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { SEARCH_READ_AS_HEADER } from '@shared/search';
import { installVisitorNetwork, json, products, recorder, visitor } from '@/test/fixtures';
import { renderShop } from '@/test/render';
import { API } from '@/test/server';

/** Found: a full first page of 9 and 2 more on the second. */
function searchNetwork() {
  const searches = recorder();
  const pages = [products(9), products(2, 10)];
  installVisitorNetwork(
    http.get(`${API}/products/search`, ({ request }) => {
      searches.record(request);
      const skip = Number(new URL(request.url).searchParams.get('skip'));
      return json(pages[skip / 9] ?? []);
    }),
  );
  return searches;
}

const asked = (request: Request) => Object.fromEntries(new URL(request.url).searchParams);

describe('SearchPage', () => {
  test('shows the products found for q, with their articles, a catalogue page at a time', async () => {
    const searches = searchNetwork();
    const user = userEvent.setup();
    const { router } = renderShop({ preloadedState: visitor(), route: '/search?q=%D0%BC%D0%B8%D1%88%D0%BA%D0%B0' });
    expect(await screen.findByRole('heading', { name: 'Поиск: «мишка»' })).toBeInTheDocument();
    expect(await screen.findByText('Игрушка 9')).toBeInTheDocument();
    expect(screen.getByText('ART-1')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: /Вперёд/ })).toBeEnabled());
    await user.click(screen.getByRole('button', { name: /Вперёд/ }));
    expect(await screen.findByText('Игрушка 11')).toBeInTheDocument();
    expect(new URLSearchParams(router.state.location.search).get('q')).toBe('мишка');
    expect(new URLSearchParams(router.state.location.search).get('page')).toBe('2');
    expect(searches.calls.map(asked)).toEqual(
      expect.arrayContaining([
        { q: 'мишка', skip: '0', limit: '9' },
        { q: 'мишка', skip: '9', limit: '9' },
      ]),
    );
    expect(screen.getByRole('button', { name: /Вперёд/ })).toBeDisabled();
  });

  test('without q asks nothing and says what to type', async () => {
    const searches = searchNetwork();
    renderShop({ preloadedState: visitor(), route: '/search' });
    expect(await screen.findByText(/Введите в поле поиска/)).toBeInTheDocument();
    expect(searches.calls).toHaveLength(0);
  });
});

describe('SearchPage, found nothing or a whole article', () => {
  test('says what was searched, offers the catalogue and shows no paging', async () => {
    installVisitorNetwork(http.get(`${API}/products/search`, () => json([])));
    renderShop({ preloadedState: visitor(), route: '/search?q=zzz' });
    expect(await screen.findByText(/По запросу «zzz» товары не найдены/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Открыть каталог' })).toHaveAttribute('href', '/catalog');
    expect(screen.queryByRole('button', { name: /Вперёд/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Назад/ })).not.toBeInTheDocument();
  });

  test('a whole article, typed in any case and without its hyphen, opens its product', async () => {
    installVisitorNetwork(
      http.get(`${API}/products/search`, () => json(products(3))),
      http.get(`${API}/products/ART-1`, () => json(products(1)[0])),
    );
    const { router } = renderShop({ preloadedState: visitor(), route: '/search?q=art1' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/product/ART-1'));
  });

  test('an article’s beginning lists the series', async () => {
    installVisitorNetwork(http.get(`${API}/products/search`, () => json(products(3))));
    const { router } = renderShop({ preloadedState: visitor(), route: '/search?q=art-' });
    expect(await screen.findByText('ART-1')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/search');
  });

  test('says so when the server read the query in the other keyboard layout', async () => {
    installVisitorNetwork(
      http.get(`${API}/products/search`, () =>
        HttpResponse.json(products(3), { headers: { [SEARCH_READ_AS_HEADER]: encodeURIComponent('мишка') } }),
      ),
    );
    renderShop({ preloadedState: visitor(), route: '/search?q=vbirf' });
    expect(await screen.findByText('Игрушка 3')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent(
      'По запросу «vbirf» ничего не нашлось. Показаны результаты по запросу «мишка»: похоже, он набран в другой раскладке клавиатуры.',
    );
  });

  test('found as typed: no word of another layout', async () => {
    installVisitorNetwork(http.get(`${API}/products/search`, () => json(products(3))));
    renderShop({ preloadedState: visitor(), route: '/search?q=art-' });
    expect(await screen.findByText('Игрушка 3')).toBeInTheDocument();
    expect(screen.queryByText(/другой раскладке/)).not.toBeInTheDocument();
  });

  test('a whole article typed in the other layout opens its product', async () => {
    installVisitorNetwork(
      http.get(`${API}/products/search`, () =>
        HttpResponse.json(products(3), { headers: { [SEARCH_READ_AS_HEADER]: encodeURIComponent('art-1') } }),
      ),
      http.get(`${API}/products/ART-1`, () => json(products(1)[0])),
    );
    const { router } = renderShop({ preloadedState: visitor(), route: '/search?q=ФКЕ-1' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/product/ART-1'));
  });
});
