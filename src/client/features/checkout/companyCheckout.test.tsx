import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import type { Company, Requisites } from '@shared/api';
import { COMPANY_MESSAGES, type CompanyRole } from '@shared/company';
import {
  cart,
  cartHandler,
  cartItem,
  companyNetwork,
  homeHandlers,
  json,
  legalEntity,
  loggedIn,
  order,
  product,
  recorder,
  requisites,
  SOLE_TRADER,
  USER,
  variant,
} from '@/test/fixtures';
import { renderShop } from '@/test/render';
import { choose } from '@/test/select';
import { API, server } from '@/test/server';

const BEAR = product({ variants: [variant({ id: 101, price: 990 })] });

/** The last used legal entity (the API lists it first) and the company's default one. */
const LAST_USED = { ...SOLE_TRADER, last_used_at: '2026-11-20T10:00:00.000Z' };
const DEFAULT_ENTITY = legalEntity();

function network(role: CompanyRole, company: Partial<Company> = {}, saved: Requisites = requisites()) {
  companyNetwork(role, company);
  const orders = recorder();
  const requisitesSaves = recorder();
  server.use(
    cartHandler(cart([cartItem()])),
    ...homeHandlers(),
    http.get(`${API}/order/${USER.id}`, () => json([])),
    http.get(`${API}/requisites/${USER.id}`, () => json(saved)),
    http.put(`${API}/requisites/${USER.id}`, async ({ request }) => {
      requisitesSaves.record(request);
      return json(saved);
    }),
    http.get(`${API}/address/${USER.id}`, () => json([])),
    http.post(`${API}/products/by-arts`, () => json([BEAR])),
    http.post(`${API}/order/`, ({ request }) => (orders.record(request), json(order(), 201))),
  );
  return { orders, requisitesSaves };
}

function openCheckout(role: CompanyRole, company: Partial<Company> = {}, saved?: Requisites) {
  const calls = network(role, company, saved);
  const user = userEvent.setup({ delay: null });
  return { user, ...calls, ...renderShop({ route: '/checkout?items=BEAR-01:101:2', preloadedState: loggedIn() }) };
}

const field = (label: string) => screen.getByLabelText(new RegExp(`^${label}\\s*(\\(необязательно\\))?$`));

async function fillContact(user: ReturnType<typeof userEvent.setup>) {
  await user.type(field('Имя'), 'Иван');
  await user.type(field('Телефон'), '+7 900 000-00-00');
  await user.type(field('Адрес доставки'), 'Москва, ул. Тверская, 1');
}

describe('Checkout for a company with legal entities', () => {
  test('offers them, the last used chosen, its details read-only, and sends its id instead of typed details', async () => {
    const { user, orders, requisitesSaves } = openCheckout('purchaser', {
      legal_entities: [LAST_USED, DEFAULT_ENTITY],
    });
    await screen.findByText('Мишка Тедди x 2');
    const entity = screen.getByRole('combobox', { name: /^Юрлицо/ });
    expect(screen.getByTitle(/^ИП Петров Иван Сергеевич/)).toBeInTheDocument();
    expect(field('ИНН')).toHaveValue(SOLE_TRADER.inn);
    expect(field('ИНН')).toHaveAttribute('readonly');
    expect(screen.queryByLabelText(/^КПП/)).not.toBeInTheDocument();

    await choose(user, entity, `${DEFAULT_ENTITY.name} (Организация, ИНН ${DEFAULT_ENTITY.inn})`);
    await waitFor(() => expect(field('ИНН')).toHaveValue(DEFAULT_ENTITY.inn));
    expect(field('КПП')).toHaveValue(DEFAULT_ENTITY.kpp);
    expect(field('Название компании')).toHaveValue(DEFAULT_ENTITY.name);

    await fillContact(user);
    await user.click(screen.getByRole('checkbox', { name: 'Сохранить реквизиты для следующих заказов' }));
    await user.click(screen.getByRole('button', { name: 'Оформить заказ' }));
    await screen.findByRole('heading', { name: 'Заказ принят!' });
    const sent = (await orders.last!.json()) as Record<string, unknown>;
    expect(sent).toMatchObject({
      legal_entity_id: DEFAULT_ENTITY.id,
      contact_name: 'Иван',
      contact_phone: '+7 900 000-00-00',
      address: 'Москва, ул. Тверская, 1',
    });
    for (const typed of ['company_name', 'company_inn', 'company_kpp']) expect(sent).not.toHaveProperty(typed);
    // Saving the details makes the chosen entity the default.
    await waitFor(() => expect(requisitesSaves.calls).toHaveLength(1));
    expect(await requisitesSaves.last!.json()).toEqual({
      contact_name: 'Иван',
      contact_phone: '+7 900 000-00-00',
      legal_entity_id: DEFAULT_ENTITY.id,
    });
  });

  test('the last used is chosen over the default the saved requisites name', async () => {
    openCheckout(
      'purchaser',
      { legal_entities: [LAST_USED, DEFAULT_ENTITY] },
      requisites({ legal_entity_id: DEFAULT_ENTITY.id, company_inn: DEFAULT_ENTITY.inn }),
    );
    await screen.findByText('Мишка Тедди x 2');
    expect(field('ИНН')).toHaveValue(SOLE_TRADER.inn);
  });

  test('what the buyer chose at this checkout before is chosen again', async () => {
    localStorage.setItem(`checkoutFields:${USER.id}`, JSON.stringify({ legal_entity_id: DEFAULT_ENTITY.id }));
    openCheckout('purchaser', { legal_entities: [LAST_USED, DEFAULT_ENTITY] });
    await screen.findByText('Мишка Тедди x 2');
    expect(field('ИНН')).toHaveValue(DEFAULT_ENTITY.inn);
  });

  test('none used yet: the default one is chosen', async () => {
    openCheckout('owner', { legal_entities: [SOLE_TRADER, DEFAULT_ENTITY] });
    await screen.findByText('Мишка Тедди x 2');
    expect(field('ИНН')).toHaveValue(DEFAULT_ENTITY.inn);
  });

  test('a company without legal entities types its details as before', async () => {
    const { user, orders } = openCheckout('owner', { legal_entities: [] });
    await screen.findByText('Мишка Тедди x 2');
    expect(screen.queryByRole('combobox', { name: /^Юрлицо/ })).not.toBeInTheDocument();
    await fillContact(user);
    await user.type(field('ИНН'), '7707083893');
    await user.click(screen.getByRole('button', { name: 'Оформить заказ' }));
    await screen.findByRole('heading', { name: 'Заказ принят!' });
    const sent = (await orders.last!.json()) as Record<string, unknown>;
    expect(sent).toMatchObject({ company_inn: '7707083893' });
    expect(sent).not.toHaveProperty('legal_entity_id');
  });
});

describe('Checkout refused', () => {
  test('an accountant is told why, and no «Оформить заказ» is anywhere', async () => {
    const { orders } = openCheckout('accountant', { legal_entities: [DEFAULT_ENTITY] });
    expect(await screen.findByText(COMPANY_MESSAGES.accountantCannotOrder)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Оформ/ })).not.toBeInTheDocument();
    expect(screen.queryByLabelText(/^Адрес доставки/)).not.toBeInTheDocument();
    expect(orders.calls).toHaveLength(0);
  });

  test('a company the shop blocked is told so', async () => {
    openCheckout('owner', { blocked: true });
    expect(await screen.findByText(COMPANY_MESSAGES.companyBlocked)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Оформ/ })).not.toBeInTheDocument();
  });
});
