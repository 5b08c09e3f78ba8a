import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { installVisitorNetwork, json, product, recorder, visitor, wait } from '@/test/fixtures';
import { renderShop } from '@/test/render';
import { API } from '@/test/server';

const BEAR = product({ id: 1, art: 'MO-1008', name: 'Мишка Тедди' });
const BUNNY = product({ id: 2, art: 'MO-2001', name: 'Мишка-заяц' });

/** The search API, answering every query with the two products; the products' own pages too. */
function searchNetwork() {
  const searches = recorder();
  installVisitorNetwork(
    http.get(`${API}/products/search`, ({ request }) => {
      searches.record(request);
      return json([BEAR, BUNNY]);
    }),
    http.get(`${API}/products/:art`, ({ params }) => json(params.art === BUNNY.art ? BUNNY : BEAR)),
  );
  return searches;
}

const asked = (request: Request) => Object.fromEntries(new URL(request.url).searchParams);

/** The header's field once its suggestions have loaded (the plain one stands in before). */
async function suggestField(user: ReturnType<typeof userEvent.setup>) {
  await user.click(await screen.findByRole('searchbox', { name: 'Поиск товаров' }));
  return screen.findByRole('combobox', { name: 'Поиск товаров' });
}

describe('The header search', () => {
  test('asks for suggestions once typing pauses, and shows them', async () => {
    const searches = searchNetwork();
    const user = userEvent.setup();
    renderShop({ preloadedState: visitor() });
    const field = await suggestField(user);
    await user.type(field, 'мишка');
    // Still within the pause after the last letter: nothing asked yet.
    await wait(100);
    expect(searches.calls).toHaveLength(0);
    expect(await screen.findByText('Мишка Тедди')).toBeInTheDocument();
    expect(screen.getByText('MO-2001')).toBeInTheDocument();
    expect(searches.calls.map(asked)).toEqual([{ q: 'мишка', skip: '0', limit: '8' }]);
  });

  test('the arrows and Enter open the chosen suggestion’s product page', async () => {
    searchNetwork();
    const user = userEvent.setup();
    const { router } = renderShop({ preloadedState: visitor() });
    const field = await suggestField(user);
    await user.type(field, 'миш');
    await screen.findByText('Мишка-заяц');
    // rc-select reads the legacy `which`, which user-event leaves out.
    fireEvent.keyDown(field, { key: 'ArrowDown', keyCode: 40, which: 40 });
    fireEvent.keyDown(field, { key: 'ArrowDown', keyCode: 40, which: 40 });
    fireEvent.keyDown(field, { key: 'Enter', keyCode: 13, which: 13 });
    await waitFor(() => expect(router.state.location.pathname).toBe('/product/MO-2001'));
    expect(screen.getByRole('combobox', { name: 'Поиск товаров' })).toHaveValue('');
  });

  test('Enter without a chosen suggestion opens the results for the text', async () => {
    searchNetwork();
    const user = userEvent.setup();
    const { router } = renderShop({ preloadedState: visitor() });
    await user.type(await suggestField(user), ' мишка тедди {Enter}');
    expect(router.state.location.pathname).toBe('/search');
    expect(new URLSearchParams(router.state.location.search).get('q')).toBe('мишка тедди');
  });

  test('«Найти» opens the results; an empty field goes nowhere', async () => {
    searchNetwork();
    const user = userEvent.setup();
    const { router } = renderShop({ preloadedState: visitor(), route: '/about' });
    const field = await suggestField(user);
    await user.click(screen.getByRole('button', { name: 'Найти' }));
    expect(router.state.location.pathname).toBe('/about');
    await user.type(field, 'MO-10');
    await user.click(screen.getByRole('button', { name: 'Найти' }));
    expect(router.state.location.pathname).toBe('/search');
    expect(router.state.location.search).toBe('?q=MO-10');
  });

  // The suggestions arrive after the pause: a list asked to close before then stayed open and then
  // covered the results (an e2e journey found it).
  test('a search submitted before its suggestions arrive opens no list over the results', async () => {
    const searches = searchNetwork();
    const user = userEvent.setup();
    const { router } = renderShop({ preloadedState: visitor() });
    const field = await suggestField(user);
    await user.type(field, 'мишка{Enter}');
    expect(router.state.location.pathname).toBe('/search');
    await waitFor(() => expect(searches.calls.map(asked)).toContainEqual({ q: 'мишка', skip: '0', limit: '8' }));
    await wait(100);
    expect(field).toHaveAttribute('aria-expanded', 'false');
  });

  test('a field left before its suggestions arrive opens no list', async () => {
    const searches = searchNetwork();
    const user = userEvent.setup();
    renderShop({ preloadedState: visitor() });
    const field = await suggestField(user);
    await user.type(field, 'мишка');
    await user.click(document.body);
    await waitFor(() => expect(searches.calls).toHaveLength(1));
    await wait(100);
    expect(field).toHaveAttribute('aria-expanded', 'false');
    // Back in the field, the suggestions are there.
    await user.type(field, ' ');
    await waitFor(() => expect(field).toHaveAttribute('aria-expanded', 'true'));
  });
});
