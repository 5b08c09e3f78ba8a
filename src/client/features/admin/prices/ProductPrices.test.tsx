import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App } from 'antd';
import { http } from 'msw';
import type { AdminProduct, AdminVariant, ProductPrices, VariantPrices } from '@shared/api';
import { adminProduct, adminVariant, MANAGER, PRICE_TYPES } from '@/test/adminFixtures';
import { json, loggedIn, recorder } from '@/test/fixtures';
import { renderShop } from '@/test/render';
import { API, server } from '@/test/server';
import ProductFormPage from '../catalogue/ProductFormPage';

// A product form and a dialog are filled: a few seconds on a busy 2-core machine.
jest.setTimeout(20_000);

const routes = [
  {
    path: '/admin/products/:id',
    element: (
      <App>
        <ProductFormPage />
      </App>
    ),
  },
];

type TestUser = ReturnType<typeof userEvent.setup>;

/** Бежевый: 990 ₽ by default, 900 ₽ in «Крупный опт» with a tier; Белый: only the default price. */
const PRODUCT = adminProduct({
  variants: [
    adminVariant({
      id: 51,
      color: 'Бежевый',
      size: 30,
      price: 990,
      stock: 12,
      prices: [
        { price_type_id: 1, price: 990, tiers: [] },
        { price_type_id: 2, price: 900, tiers: [{ from: 10, price: 850 }] },
      ],
    }),
    adminVariant({ id: 52, color: 'Белый', size: 30, price: 950, stock: 3, prices: [] }),
  ],
  tiers: [{ price_type_id: 2, tiers: [{ from: 50, price: 820 }] }],
});

/**
 * Opens the product's page; a PUT of prices answers as the server would. Every read of the product
 * is counted: a save of prices must not read it again (the form above would lose what was typed).
 */
function openProduct() {
  const reads = recorder();
  const variantPuts = recorder();
  const productPuts = recorder();
  server.use(
    http.get(`${API}/admin/categories`, () => json([{ id: 1, name: 'Мишки', position: 0, products_count: 1 }])),
    http.get(`${API}/admin/price-types`, () => json(PRICE_TYPES)),
    http.get(`${API}/admin/products/5`, ({ request }) => {
      reads.record(request);
      return json(PRODUCT);
    }),
    http.put(`${API}/admin/variants/:id/prices`, async ({ request, params }) => {
      variantPuts.record(request);
      const variant = PRODUCT.variants.find(({ id }) => id === Number(params.id))!;
      const [entry] = (await request.json()) as VariantPrices;
      const saved: AdminVariant = {
        ...variant,
        prices: [
          ...variant.prices.filter(({ price_type_id }) => price_type_id !== entry!.price_type_id),
          { price_type_id: entry!.price_type_id, price: entry!.price!, tiers: entry!.tiers ?? [] },
        ],
      };
      return json(saved);
    }),
    http.put(`${API}/admin/products/5/prices`, async ({ request }) => {
      productPuts.record(request);
      const saved: AdminProduct = { ...PRODUCT, tiers: (await request.json()) as ProductPrices };
      return json(saved);
    }),
  );
  const user = userEvent.setup({ delay: null });
  const rendered = renderShop({ route: '/admin/products/5', routes, preloadedState: loggedIn(MANAGER) });
  return { user, reads, variantPuts, productPuts, ...rendered };
}

/** Replaces a box's text at once, as pasting does. */
async function enter(user: TestUser, input: HTMLElement, text: string) {
  await user.clear(input);
  await user.paste(text);
}

const pricesSection = () => screen.getByRole('region', { name: 'Цены' });

describe('a product’s prices by type (back office)', () => {
  test('shows each variant’s price in each type with its tiers; «—» where it has none', async () => {
    openProduct();
    await screen.findByRole('heading', { level: 2, name: 'Цены' });
    const prices = pricesSection();
    await within(prices).findByRole('columnheader', { name: 'Крупный опт' });
    expect(within(prices).getByRole('columnheader', { name: 'Опт (по умолчанию)' })).toBeInTheDocument();
    expect(within(prices).getByRole('columnheader', { name: 'РРЦ' })).toBeInTheDocument();

    const beige = within(prices).getByRole('cell', { name: 'Бежевый, 30 см' }).closest('tr')!;
    expect(within(beige).getByText('990,00 ₽')).toBeInTheDocument();
    expect(within(beige).getByText('900,00 ₽')).toBeInTheDocument();
    expect(within(beige).getByText('от 10 шт. — 850,00 ₽')).toBeInTheDocument();
    const white = within(prices).getByRole('cell', { name: 'Белый, 30 см' }).closest('tr')!;
    expect(within(white).getByText('950,00 ₽')).toBeInTheDocument();
    expect(within(white).getAllByText('—')).toHaveLength(2);

    // The product's tiers: the sold types only (a РРЦ is never ordered by).
    const large = within(prices).getByRole('cell', { name: 'Крупный опт' }).closest('tr')!;
    expect(within(large).getByText('от 50 шт. — 820,00 ₽')).toBeInTheDocument();
    expect(
      within(within(prices).getByRole('cell', { name: 'Опт (по умолчанию)' }).closest('tr')!).getByText('Нет'),
    ).toBeInTheDocument();
    expect(within(prices).queryByRole('button', { name: /по количеству «РРЦ»/ })).not.toBeInTheDocument();
  });

  test('a variant’s tiers refuse a rising price with the server’s words, then go in one PUT; the form keeps what was typed', async () => {
    const { user, reads, variantPuts } = openProduct();
    // Typed in the form above and not saved: a save of prices must leave it.
    await enter(user, await screen.findByRole('textbox', { name: 'Название' }), 'Мишка Тедди большой');

    await user.click(await screen.findByRole('button', { name: 'Изменить цены «Крупный опт»: Бежевый, 30 см' }));
    const dialog = await screen.findByRole('dialog', { name: 'Крупный опт: Бежевый, 30 см' });
    expect(within(dialog).getByRole('spinbutton', { name: 'Цена за штуку, ₽' })).toHaveValue('900');
    expect(within(dialog).getByRole('spinbutton', { name: 'Количество, строка 1' })).toHaveValue('10');
    await user.click(within(dialog).getByRole('button', { name: 'Добавить цену по количеству' }));
    await enter(user, within(dialog).getByRole('spinbutton', { name: 'Количество, строка 2' }), '20');
    await enter(user, within(dialog).getByRole('spinbutton', { name: 'Цена за штуку, строка 2' }), '870');
    await user.click(within(dialog).getByRole('button', { name: 'Сохранить' }));
    expect(
      await within(dialog).findByText('Цена от 20 шт. (870,00 ₽) должна быть ниже цены за меньшее количество'),
    ).toBeInTheDocument();

    // Below the one-piece price too: 900 ₽, as typed now.
    await enter(user, within(dialog).getByRole('spinbutton', { name: 'Цена за штуку, ₽' }), '840');
    await enter(user, within(dialog).getByRole('spinbutton', { name: 'Цена за штуку, строка 2' }), '800');
    await user.click(within(dialog).getByRole('button', { name: 'Сохранить' }));
    expect(
      await within(dialog).findByText('Цена от 10 шт. (850,00 ₽) должна быть ниже цены за меньшее количество'),
    ).toBeInTheDocument();
    expect(variantPuts.calls).toHaveLength(0);

    await enter(user, within(dialog).getByRole('spinbutton', { name: 'Цена за штуку, ₽' }), '880,5');
    await user.click(within(dialog).getByRole('button', { name: 'Сохранить' }));
    await waitFor(() => expect(variantPuts.calls).toHaveLength(1));
    expect(new URL(variantPuts.last!.url).pathname).toBe('/api/v1/admin/variants/51/prices');
    expect(await variantPuts.last!.json()).toEqual([
      {
        price_type_id: 2,
        price: 880.5,
        tiers: [
          { from: 10, price: 850 },
          { from: 20, price: 800 },
        ],
      },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const beige = within(pricesSection()).getByRole('cell', { name: 'Бежевый, 30 см' }).closest('tr')!;
    expect(within(beige).getByText('880,50 ₽')).toBeInTheDocument();
    expect(within(beige).getByText('от 20 шт. — 800,00 ₽')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Название' })).toHaveValue('Мишка Тедди большой');
    expect(reads.calls).toHaveLength(1);
  });

  test('the default type’s price is the variant’s own: its dialog changes only the tiers', async () => {
    const { user, variantPuts } = openProduct();
    await user.click(await screen.findByRole('button', { name: 'Изменить цены «Опт»: Белый, 30 см' }));
    const dialog = await screen.findByRole('dialog', { name: 'Опт: Белый, 30 см' });
    expect(dialog).toHaveTextContent('Цена за штуку: 950,00 ₽ — цена варианта, меняется в таблице вариантов.');
    expect(within(dialog).queryByRole('spinbutton', { name: 'Цена за штуку, ₽' })).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Добавить цену по количеству' }));
    await enter(user, within(dialog).getByRole('spinbutton', { name: 'Количество, строка 1' }), '24');
    await enter(user, within(dialog).getByRole('spinbutton', { name: 'Цена за штуку, строка 1' }), '900');
    await user.click(within(dialog).getByRole('button', { name: 'Сохранить' }));
    await waitFor(() => expect(variantPuts.calls).toHaveLength(1));
    expect(await variantPuts.last!.json()).toEqual([
      { price_type_id: 1, price: 950, tiers: [{ from: 24, price: 900 }] },
    ]);
  });

  test('the product’s tiers of a type: a row from 1 piece is refused; saved, the other types’ go along', async () => {
    const { user, productPuts } = openProduct();
    await user.click(await screen.findByRole('button', { name: 'Изменить цены по количеству «Опт» для всего товара' }));
    const dialog = await screen.findByRole('dialog', { name: 'Опт: цены по количеству для всего товара' });
    await user.click(within(dialog).getByRole('button', { name: 'Добавить цену по количеству' }));
    await enter(user, within(dialog).getByRole('spinbutton', { name: 'Количество, строка 1' }), '1');
    await enter(user, within(dialog).getByRole('spinbutton', { name: 'Цена за штуку, строка 1' }), '940');
    await user.click(within(dialog).getByRole('button', { name: 'Добавить цену по количеству' }));
    await user.click(within(dialog).getByRole('button', { name: 'Сохранить' }));
    expect(await within(dialog).findByText('Укажите количество')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Удалить строку 2' }));
    await user.click(within(dialog).getByRole('button', { name: 'Сохранить' }));
    expect(await within(dialog).findByText('Цена по количеству начинается от 2 шт. и более')).toBeInTheDocument();
    expect(productPuts.calls).toHaveLength(0);

    await enter(user, within(dialog).getByRole('spinbutton', { name: 'Количество, строка 1' }), '100');
    await user.click(within(dialog).getByRole('button', { name: 'Сохранить' }));
    await waitFor(() => expect(productPuts.calls).toHaveLength(1));
    expect(await productPuts.last!.json()).toEqual([
      { price_type_id: 2, tiers: [{ from: 50, price: 820 }] },
      { price_type_id: 1, tiers: [{ from: 100, price: 940 }] },
    ]);
    const opt = within(pricesSection()).getByRole('cell', { name: 'Опт (по умолчанию)' }).closest('tr')!;
    expect(await within(opt).findByText('от 100 шт. — 940,00 ₽')).toBeInTheDocument();
  });
});
