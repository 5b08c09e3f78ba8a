import { screen, waitFor, within } from '@testing-library/react';
import { LIMITS } from '@shared/limits';
import { MESSAGES } from '@shared/messages';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import type { Address, Cart, OrderSummary, Product, Requisites } from '@shared/api';
import { minOrderSumMessage } from '@shared/pricing';
import {
  cart,
  cartHandler,
  cartItem,
  homeHandlers,
  json,
  loggedIn,
  order,
  ORGANISATION,
  ORGANISATION_FIELDS,
  product,
  recorder,
  requisites,
  USER,
  variant,
  wait,
} from '@/test/fixtures';
import { renderShop } from '@/test/render';
import { API, CURRENT_USER, server } from '@/test/server';

const BEAR = product({ variants: [variant({ id: 101, price: 990 }), variant({ id: 102, size: 40, price: 1990 })] });
const HARE = product({ id: 2, art: 'HARE-02', name: 'Заяц', variants: [variant({ id: 202, price: 1250.5 })] });
const ITEMS = 'BEAR-01:101:2,HARE-02:202:1';
interface NetworkOptions {
  orderStatus?: number;
  /** The detail of a refused order. */
  orderDetail?: string;
  /** What POST /products/by-arts finds among. */
  catalogue?: Product[];
  orderDelayMs?: number;
  productDelayMs?: number;
  /** The first this many order requests get no answer (offline, or a connection reset). */
  unansweredOrders?: number;
  /** Only the first load of the products succeeds: every refetch fails. */
  productsFailAfterFirst?: boolean;
  saved?: Requisites;
  addresses?: Address[];
  /** The buyer's orders, as GET /order/{user_id} lists them. */
  orders?: OrderSummary[];
}

function checkoutNetwork({
  orderStatus = 201,
  orderDetail = 'Ошибка сервера',
  catalogue = [BEAR, HARE],
  orderDelayMs = 0,
  productDelayMs = 0,
  unansweredOrders = 0,
  productsFailAfterFirst = false,
  saved = requisites(),
  addresses = [],
  orders = [],
}: NetworkOptions = {}) {
  const orderCalls = recorder();
  const productCalls = recorder();
  const requisitesSaves = recorder();
  server.use(
    cartHandler(cart([])),
    ...homeHandlers(),
    http.get(`${API}/order/${USER.id}`, () => json(orders)),
    http.get(`${API}/requisites/${USER.id}`, () => json(saved)),
    http.put(`${API}/requisites/${USER.id}`, async ({ request }) => {
      requisitesSaves.record(request);
      return json(await request.json());
    }),
    http.get(`${API}/address/${USER.id}`, () => json(addresses)),
    http.post(`${API}/products/by-arts`, async ({ request }) => {
      productCalls.record(request);
      if (productDelayMs) await wait(productDelayMs);
      if (productsFailAfterFirst && productCalls.calls.length > 1) return HttpResponse.error();
      const { arts } = (await request.json()) as { arts: string[] };
      return json(catalogue.filter((candidate) => arts.includes(candidate.art)));
    }),
    http.post(`${API}/order/`, async ({ request }) => {
      orderCalls.record(request);
      if (orderDelayMs) await wait(orderDelayMs);
      if (orderCalls.calls.length <= unansweredOrders) return HttpResponse.error();
      return orderStatus < 300 ? json(order(), orderStatus) : json({ detail: orderDetail }, orderStatus);
    }),
  );
  return { orderCalls, productCalls, requisitesSaves };
}

async function openCheckout(items = ITEMS, options?: NetworkOptions) {
  const network = checkoutNetwork(options);
  const user = userEvent.setup();
  const rendered = renderShop({ route: `/checkout?items=${items}`, preloadedState: loggedIn() });
  return { user, ...network, ...rendered };
}

async function openForm(options?: NetworkOptions) {
  const opened = await openCheckout(ITEMS, options);
  await screen.findByText('Мишка Тедди x 2');
  return opened;
}

/** Optional fields' labels end with '(необязательно)' (requiredMark="optional"). */
const field = (label: string) => screen.getByLabelText(new RegExp(`^${label}\\s*(\\(необязательно\\))?$`));
const submit = () => screen.getByRole('button', { name: /Оформ/ });

async function fillRequired(user: ReturnType<typeof userEvent.setup>) {
  await user.type(field('Имя'), 'Иван');
  await user.type(field('Телефон'), '+7 900 000-00-00');
  await user.type(field('Адрес доставки'), 'Москва, ул. Тверская, 1');
}

describe('Checkout: the order lines (SPEC §2)', () => {
  test("reads items and shows 'name x count' lines with their totals and the sum", async () => {
    await openForm();
    expect(screen.getByRole('heading', { name: 'Оформление заказа' })).toBeInTheDocument();
    const bearLine = screen.getByText('Мишка Тедди x 2').closest('li')!;
    expect(within(bearLine).getByText('1 980,00 ₽')).toBeInTheDocument();
    const hareLine = screen.getByText('Заяц x 1').closest('li')!;
    expect(within(hareLine).getByText('1 250,50 ₽')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: /Итого/ })).toHaveTextContent('Итого: 3 230,50 ₽');
    for (const label of ['Имя', 'Телефон', 'Название компании', 'ИНН', 'КПП', 'Адрес доставки'])
      expect(field(label)).toBeInTheDocument();
    expect(field('Адрес доставки').tagName).toBe('TEXTAREA');
    expect(submit()).toHaveTextContent('Оформить заказ');
  });

  test('two variants of one product are two lines, loading the product once', async () => {
    const { productCalls } = await openCheckout('BEAR-01:101:1,BEAR-01:102:3');
    expect(await screen.findByText('Мишка Тедди x 1')).toBeInTheDocument();
    expect(screen.getByText('Мишка Тедди x 3')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: /Итого/ })).toHaveTextContent('Итого: 6 960,00 ₽');
    expect(productCalls.calls).toHaveLength(1);
    expect(await productCalls.last!.json()).toEqual({ arts: ['BEAR-01'] });
  });

  test('lines at a price by quantity: a model’s tiers count its lines together, a size’s its own line', async () => {
    const FOX = product({
      id: 6,
      art: 'FOX-06',
      name: 'Лиса',
      variants: [
        variant({ id: 601, price: 500, tiers: [{ from: 12, price: 450 }], tiers_scope: 'product' }),
        variant({ id: 602, size: 50, price: 500, tiers: [{ from: 12, price: 450 }], tiers_scope: 'product' }),
      ],
    });
    const OWL = product({
      id: 7,
      art: 'OWL-07',
      name: 'Сова',
      variants: [
        variant({ id: 701, price: 300, tiers: [{ from: 10, price: 250 }] }),
        variant({ id: 702, size: 50, price: 300, tiers: [{ from: 10, price: 250 }] }),
      ],
    });
    await openCheckout('FOX-06:601:6,FOX-06:602:6,OWL-07:701:6,OWL-07:702:6', { catalogue: [FOX, OWL] });
    const [fox25, fox50] = (await screen.findAllByText('Лиса x 6')).map((name) => name.closest('li')!);
    expect(fox25).toHaveTextContent(/450,00\s₽ \/ шт\. · цена от 12 шт\./);
    expect(within(fox50!).getByText('2 700,00 ₽')).toBeInTheDocument();
    const owl = screen.getAllByText('Сова x 6')[0]!.closest('li')!;
    expect(owl).toHaveTextContent(/300,00\s₽ \/ шт\.1\s800,00\s₽$/);
    // 12 × 450 + 12 × 300
    expect(screen.getByRole('heading', { name: /Итого/ })).toHaveTextContent('Итого: 9 000,00 ₽');
  });

  test('every product of the lines in one request', async () => {
    const { productCalls } = await openCheckout(ITEMS);
    expect(await screen.findByText('Заяц x 1')).toBeInTheDocument();
    expect(productCalls.calls).toHaveLength(1);
    expect(await productCalls.last!.json()).toEqual({ arts: ['BEAR-01', 'HARE-02'] });
  });

  test("shows 'Загрузка товаров...' while the products load", async () => {
    await openCheckout(ITEMS, { productDelayMs: 150 });
    expect(await screen.findByText('Загрузка товаров...')).toBeInTheDocument();
    expect(await screen.findByText('Заяц x 1')).toBeInTheDocument();
    expect(screen.queryByText('Загрузка товаров...')).not.toBeInTheDocument();
  });

  test('a missing variant says which one, with a way back to the cart instead of loading for ever', async () => {
    const { user, router } = await openCheckout('BEAR-01:999:1');
    expect(await screen.findByText('Не удалось найти вариант с id=999 для продукта BEAR-01')).toBeInTheDocument();
    expect(screen.queryByText('Загрузка товаров...')).not.toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Вернуться в корзину' }));
    expect(router.state.location.pathname).toBe('/cart');
  });

  test('a product not on sale is named, with the way back to the cart', async () => {
    await openCheckout('NOPE:1:1');
    expect(await screen.findByText('Не удалось найти вариант с id=1 для продукта NOPE')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Вернуться в корзину' })).toHaveAttribute('href', '/cart');
  });

  test('products that cannot be loaded offer the way back to the cart', async () => {
    checkoutNetwork();
    server.use(http.post(`${API}/products/by-arts`, () => HttpResponse.error()));
    renderShop({ route: `/checkout?items=${ITEMS}`, preloadedState: loggedIn() });
    expect(await screen.findByText('Не удалось загрузить товары заказа')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Вернуться в корзину' })).toHaveAttribute('href', '/cart');
  });

  test('malformed items show that the order is empty', async () => {
    await openCheckout('BEAR-01:x:1');
    expect(await screen.findByText('В заказе нет товаров')).toBeInTheDocument();
  });
});

describe('Checkout: validation (SPEC §5)', () => {
  test('name, phone and address are required; nothing is sent without them', async () => {
    const { user, orderCalls } = await openForm();
    await user.click(submit());
    expect(await screen.findByText('Пожалуйста, заполните имя, телефон и адрес доставки.')).toBeInTheDocument();
    await user.type(field('Имя'), 'Иван');
    await user.type(field('Адрес доставки'), 'Москва');
    await user.click(submit());
    expect(await screen.findByText('Пожалуйста, заполните имя, телефон и адрес доставки.')).toBeInTheDocument();
    expect(orderCalls.calls).toHaveLength(0);
  });

  test('blank-only fields count as empty', async () => {
    const { user, orderCalls } = await openForm();
    await user.type(field('Имя'), '   ');
    await user.type(field('Телефон'), '+7 900');
    await user.type(field('Адрес доставки'), 'Москва');
    await user.click(submit());
    expect(await screen.findByText('Пожалуйста, заполните имя, телефон и адрес доставки.')).toBeInTheDocument();
    expect(orderCalls.calls).toHaveLength(0);
  });

  test.each([
    ['fewer than 10 digits', '77070838', '', MESSAGES.innLength],
    ['11 digits', '77070838931', '', MESSAGES.innLength],
    ['a letter', '77070838a3', '', MESSAGES.innLength],
    ['a wrong check digit', '7707083894', '', MESSAGES.innChecksum],
    ["a КПП beside an ИП's 12-digit ИНН", '500100732259', '773601001', MESSAGES.kppWithPersonalInn],
    ['a КПП that is not 9 characters', '7707083893', '7701', MESSAGES.kppLength],
  ])('%s is refused with its message and nothing is sent', async (_case, inn, kpp, message) => {
    const { user, orderCalls } = await openForm();
    await fillRequired(user);
    await user.type(field('ИНН'), inn);
    if (kpp) await user.type(field('КПП'), kpp);
    await user.click(submit());
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(orderCalls.calls).toHaveLength(0);
  });

  test('each line names the colour and size as well as name x count', async () => {
    await openForm();
    const bearLine = screen.getByText('Мишка Тедди x 2').closest('li')!;
    expect(within(bearLine).getByText(/^Розовый, 25 см · арт\. BEAR-01 · 990,00 ₽ \/ шт\.$/)).toBeInTheDocument();
  });

  test("name and phone stop at the server's limits", async () => {
    const { user } = await openForm();
    await user.click(field('Телефон'));
    await user.paste('9'.repeat(LIMITS.phoneMax + 5));
    expect(field('Телефон')).toHaveValue('9'.repeat(LIMITS.phoneMax));
    expect(field('Имя')).toHaveAttribute('maxlength', String(LIMITS.nameMax));
  });

  test('INN is capped at 12 characters and KPP at 9', async () => {
    const { user } = await openForm();
    await user.type(field('ИНН'), '123456789012345');
    await user.type(field('КПП'), '123456789012');
    expect(field('ИНН')).toHaveValue('123456789012');
    expect(field('КПП')).toHaveValue('123456789');
  });
});

describe('Checkout: sending the order', () => {
  test('sends the lines and sends empty company fields as null, then shows the success page', async () => {
    const { user, orderCalls, router } = await openForm();
    await fillRequired(user);
    await user.click(submit());
    expect(await screen.findByRole('heading', { name: 'Заказ принят!' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/order-success');
    expect(orderCalls.calls).toHaveLength(1);
    expect(await orderCalls.last!.json()).toEqual({
      user_id: USER.id,
      address: 'Москва, ул. Тверская, 1',
      items: [
        { product_id: 1, variant_id: 101, quantity: 2 },
        { product_id: 2, variant_id: 202, quantity: 1 },
      ],
      company_name: null,
      company_inn: null,
      company_kpp: null,
      contact_name: 'Иван',
      contact_phone: '+7 900 000-00-00',
    });
  });

  test('sends the company details when they are given', async () => {
    const { user, orderCalls } = await openForm();
    await fillRequired(user);
    await user.type(field('Название компании'), 'ООО «Игрушки»');
    await user.type(field('ИНН'), '7707083893');
    await user.type(field('КПП'), '770101001');
    await user.click(submit());
    await screen.findByRole('heading', { name: 'Заказ принят!' });
    expect(await orderCalls.last!.json()).toMatchObject({
      company_name: 'ООО «Игрушки»',
      company_inn: '7707083893',
      company_kpp: '770101001',
    });
  });

  test("reads 'Оформление...' and is disabled while sending", async () => {
    const { user } = await openForm({ orderDelayMs: 300 });
    await fillRequired(user);
    await user.click(submit());
    expect(await screen.findByRole('button', { name: 'Оформление...' })).toBeDisabled();
    expect(await screen.findByRole('heading', { name: 'Заказ принят!' })).toBeInTheDocument();
  });

  test("a failure shows 'Что-то пошло не так...' and keeps the form", async () => {
    const { user, router } = await openForm({ orderStatus: 500 });
    await fillRequired(user);
    await user.click(submit());
    expect(await screen.findByText('Что-то пошло не так...')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/checkout');
    await waitFor(() => expect(submit()).toHaveTextContent('Оформить заказ'));
    expect(submit()).toBeEnabled();
    expect(field('Имя')).toHaveValue('Иван');
  });
});

const keyOf = (request: Request | undefined) => request?.headers.get('Idempotency-Key');

describe('Checkout: one order per intent', () => {
  test('a retry after a lost answer carries the same Idempotency-Key; the next checkout gets a new one', async () => {
    const { user, orderCalls, router } = await openForm({ unansweredOrders: 1 });
    await fillRequired(user);
    await user.click(submit());
    expect(await screen.findByText(MESSAGES.orderFailed)).toBeInTheDocument();
    await user.click(submit());
    expect(await screen.findByRole('heading', { name: 'Заказ принят!' })).toBeInTheDocument();
    const [first, retry] = orderCalls.calls.map(keyOf);
    expect(first).toMatch(/^[\x21-\x7E]{16,}$/);
    expect(retry).toBe(first);

    router.navigate(`/checkout?items=${ITEMS}`);
    await screen.findByText('Мишка Тедди x 2');
    expect(field('Имя')).toHaveValue('');
    await fillRequired(user);
    await user.click(submit());
    await waitFor(() => expect(orderCalls.calls).toHaveLength(3));
    expect(keyOf(orderCalls.calls[2])).not.toBe(first);
  });

  test('what was typed and the key survive a reload of the same checkout', async () => {
    const before = await openForm({ unansweredOrders: 1 });
    await fillRequired(before.user);
    await before.user.type(field('ИНН'), '7707083893');
    await before.user.click(submit());
    await screen.findByText(MESSAGES.orderFailed);
    before.unmount();

    const after = await openForm();
    expect(field('Имя')).toHaveValue('Иван');
    expect(field('ИНН')).toHaveValue('7707083893');
    expect(field('Адрес доставки')).toHaveValue('Москва, ул. Тверская, 1');
    await after.user.click(submit());
    expect(await screen.findByRole('heading', { name: 'Заказ принят!' })).toBeInTheDocument();
    expect(keyOf(after.orderCalls.last)).toBe(keyOf(before.orderCalls.last));
  });

  test("a refused order shows the server's detail and keeps the lines though their refetch fails", async () => {
    const { user, productCalls } = await openForm({ orderStatus: 409, productsFailAfterFirst: true });
    await fillRequired(user);
    await user.click(submit());
    expect(await screen.findByText(MESSAGES.orderFailed)).toBeInTheDocument();
    expect(screen.getByText('Ошибка сервера')).toBeInTheDocument();
    // The order's failure refetches the products (their stock may have changed), and that fails.
    await waitFor(() => expect(productCalls.calls).toHaveLength(2));
    await wait(100);
    expect(screen.queryByText('Не удалось загрузить товары заказа')).not.toBeInTheDocument();
    expect(screen.getByText('Мишка Тедди x 2')).toBeInTheDocument();
    expect(screen.getByText(MESSAGES.orderFailed)).toBeInTheDocument();
    expect(field('Имя')).toHaveValue('Иван');
  });

  test('an order below the minimum order sum is refused with what is missing, said as the server says it', async () => {
    const { user } = await openForm({ orderStatus: 422, orderDetail: minOrderSumMessage(5000, 1769.5) });
    await fillRequired(user);
    await user.click(submit());
    expect(await screen.findByText(MESSAGES.orderFailed)).toBeInTheDocument();
    expect(
      screen.getByText(/^Минимальная сумма заказа — 5\s000,00\s₽: добавьте товаров ещё на 1\s769,50\s₽$/),
    ).toBeInTheDocument();
    expect(screen.getByText('Мишка Тедди x 2')).toBeInTheDocument();
  });

  test('offline: the alert says the data is kept, and the form and lines stay', async () => {
    const { user, router } = await openForm({ unansweredOrders: 1 });
    await fillRequired(user);
    await user.click(submit());
    expect(await screen.findByText(MESSAGES.orderFailed)).toBeInTheDocument();
    expect(screen.getByText(/Нет связи с сервером/)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/checkout');
    expect(screen.getByText('Заяц x 1')).toBeInTheDocument();
    expect(field('Адрес доставки')).toHaveValue('Москва, ул. Тверская, 1');
  });
});

const address = (overrides: Partial<Address> = {}): Address => ({
  id: 1,
  country: 'Россия',
  city: 'Москва',
  street: 'ул. Тверская',
  home_number: '7',
  apartment_number: null,
  user_id: USER.id,
  ...overrides,
});

describe('Checkout: the saved details', () => {
  test('the form opens with the saved requisites, and they are sent with the order', async () => {
    const { user, orderCalls, requisitesSaves } = await openForm({ saved: ORGANISATION });
    expect(field('Имя')).toHaveValue('Иван Петров');
    expect(field('Телефон')).toHaveValue('+7 900 000-00-00');
    expect(field('Название компании')).toHaveValue('ООО «Игрушки»');
    expect(field('ИНН')).toHaveValue('7707083893');
    expect(field('КПП')).toHaveValue('770101001');
    await user.type(field('Адрес доставки'), 'Москва');
    await user.click(submit());
    await screen.findByRole('heading', { name: 'Заказ принят!' });
    expect(await orderCalls.last!.json()).toMatchObject(ORGANISATION_FIELDS);
    expect(requisitesSaves.calls).toHaveLength(0);
  });

  test('picking a saved address fills the delivery address', async () => {
    const { user, orderCalls } = await openForm({
      addresses: [
        address(),
        address({ id: 2, city: 'Казань', street: 'ул. Баумана', home_number: '5', apartment_number: '12' }),
      ],
    });
    await fillRequired(user);
    await user.click(await screen.findByRole('combobox', { name: /^Сохранённый адрес/ }));
    const options = await screen.findAllByTitle('Россия, Казань, ул. Баумана, д. 5, кв. 12');
    await user.click(options.find((option) => option.classList.contains('ant-select-item-option'))!);
    expect(field('Адрес доставки')).toHaveValue('Россия, Казань, ул. Баумана, д. 5, кв. 12');
    await user.click(submit());
    await screen.findByRole('heading', { name: 'Заказ принят!' });
    expect(await orderCalls.last!.json()).toMatchObject({ address: 'Россия, Казань, ул. Баумана, д. 5, кв. 12' });
  });

  test('«Сохранить реквизиты для следующих заказов» saves what was typed once the order is placed', async () => {
    const { user, requisitesSaves } = await openForm();
    await fillRequired(user);
    await user.type(field('ИНН'), '500100732259');
    await user.click(screen.getByRole('checkbox', { name: 'Сохранить реквизиты для следующих заказов' }));
    await user.click(submit());
    await screen.findByRole('heading', { name: 'Заказ принят!' });
    expect(requisitesSaves.calls).toHaveLength(1);
    expect(await requisitesSaves.last!.json()).toEqual({
      company_name: null,
      company_inn: '500100732259',
      company_kpp: null,
      contact_name: 'Иван',
      contact_phone: '+7 900 000-00-00',
    });
  });
});

describe('Order success: the number of the order just placed', () => {
  test('shows «Номер заказа: N» after placing order N', async () => {
    const { user, router } = await openForm({ orders: [order({ id: 14 }), order({ id: 15 })] });
    await fillRequired(user);
    await user.click(submit());
    expect(await screen.findByText('Номер заказа: 15')).toBeInTheDocument();
    expect(router.state.location.search).toBe('?order=15');
    expect(screen.getByRole('heading', { name: 'Заказ принят!' })).toBeInTheDocument();
    expect(screen.getByText(/Ваш заказ отправлен в обработку/)).toBeInTheDocument();
  });

  test("an order that is not the buyer's shows no number", async () => {
    checkoutNetwork({ orders: [order({ id: 15 })] });
    const { store } = renderShop({ route: '/order-success?order=16', preloadedState: loggedIn() });
    expect(await screen.findByRole('heading', { name: 'Заказ принят!' })).toBeInTheDocument();
    await waitFor(() =>
      expect(store.getState().api.queries[`getOrders({"userId":${USER.id}})`]?.status).toBe('fulfilled'),
    );
    expect(screen.queryByText(/Номер заказа/)).not.toBeInTheDocument();
  });
});

describe('Checkout: an address not confirmed yet', () => {
  test('says what to do before the order, with «Отправить письмо ещё раз»; a confirmed buyer sees nothing of it', async () => {
    server.use(
      http.get(`${API}/auth/user`, () =>
        json({ ...CURRENT_USER, email_confirmed: false, must_confirm_email: true, proven: false }),
      ),
    );
    await openForm();
    expect(await screen.findByText('Подтвердите адрес почты')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Отправить письмо ещё раз' })).toBeInTheDocument();
  });

  test('a confirmed buyer is not told to confirm', async () => {
    await openForm();
    await wait(50);
    expect(screen.queryByText('Подтвердите адрес почты')).not.toBeInTheDocument();
  });
});

describe('Checkout: what was typed is kept per account', () => {
  test('after a line was fixed in the cart the six fields come back as typed, with a new Idempotency-Key', async () => {
    const before = await openForm({ orderStatus: 409 });
    await fillRequired(before.user);
    await before.user.type(field('Название компании'), 'ООО Ромашка');
    await before.user.type(field('ИНН'), '7707083893');
    await before.user.type(field('КПП'), '773601001');
    await before.user.click(submit());
    await screen.findByText(MESSAGES.orderFailed);
    before.unmount();

    // The buyer lowered the bear's count in the cart: another set of items.
    const after = await openCheckout('BEAR-01:101:1,HARE-02:202:1');
    await screen.findByText('Мишка Тедди x 1');
    expect(field('Имя')).toHaveValue('Иван');
    expect(field('Телефон')).toHaveValue('+7 900 000-00-00');
    expect(field('Название компании')).toHaveValue('ООО Ромашка');
    expect(field('ИНН')).toHaveValue('7707083893');
    expect(field('КПП')).toHaveValue('773601001');
    expect(field('Адрес доставки')).toHaveValue('Москва, ул. Тверская, 1');
    await after.user.click(submit());
    expect(await screen.findByRole('heading', { name: 'Заказ принят!' })).toBeInTheDocument();
    expect(keyOf(after.orderCalls.last)).not.toBe(keyOf(before.orderCalls.last));
    // Placed: the next checkout opens with the saved details, not with what was typed for this one.
    expect(localStorage.getItem(`checkoutFields:${USER.id}`)).toBeNull();
  });

  test('another account at the same browser does not see them', async () => {
    localStorage.setItem('checkoutFields:8', JSON.stringify({ contact_name: 'Пётр', address: 'Тверь' }));
    await openForm({ saved: requisites() });
    expect(field('Имя')).toHaveValue('');
    expect(field('Адрес доставки')).toHaveValue('');
  });
});

describe('Checkout of the server cart: /checkout without items', () => {
  const LINES = [
    cartItem({ id: 1, count: 2, price: 990 }),
    cartItem({
      id: 2,
      variant_id: 202,
      price: 1250.5,
      product: { id: 2, art: 'HARE-02', name: 'Заяц', description: null, image: 'hare.svg' },
    }),
    cartItem({
      id: 3,
      variant_id: 303,
      available: false,
      product: { ...cartItem().product, id: 3, art: 'OFF-03', name: 'Снятый' },
    }),
  ];

  async function openCartCheckout(answers: Cart[], options?: NetworkOptions) {
    const network = checkoutNetwork(options);
    const cartCalls = recorder();
    let reads = 0;
    server.use(
      http.get(`${API}/cart/${USER.id}`, ({ request }) => {
        cartCalls.record(request);
        return json(answers[Math.min(reads++, answers.length - 1)]!);
      }),
    );
    const user = userEvent.setup();
    const rendered = renderShop({ route: '/checkout', preloadedState: loggedIn() });
    await screen.findByText('Мишка Тедди x 2');
    return { user, cartCalls, ...network, ...rendered };
  }

  test('shows the cart’s lines on sale, read in one request, and the order carries the cart’s version', async () => {
    const { user, orderCalls, productCalls, cartCalls } = await openCartCheckout([cart(LINES, 41)]);
    expect(screen.getByText('Заяц x 1')).toBeInTheDocument();
    expect(screen.queryByText(/Снятый/)).not.toBeInTheDocument();
    expect(productCalls.calls).toHaveLength(0);
    expect(cartCalls.calls).toHaveLength(1);
    await fillRequired(user);
    await user.click(submit());
    expect(await screen.findByRole('heading', { name: 'Заказ принят!' })).toBeInTheDocument();
    expect(await orderCalls.last!.json()).toMatchObject({
      cart_version: 41,
      items: [
        { product_id: 1, variant_id: 101, quantity: 2 },
        { product_id: 2, variant_id: 202, quantity: 1 },
      ],
    });
  });

  test('a cart changed in another tab: the 409 is said, the lines reload and the next order carries the new version', async () => {
    const changed = cart([LINES[0]!], 42);
    const { user, orderCalls } = await openCartCheckout([cart(LINES, 41), changed], { orderStatus: 409 });
    await fillRequired(user);
    await user.click(submit());
    expect(await screen.findByText(MESSAGES.orderFailed)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('Заяц x 1')).not.toBeInTheDocument());
    server.use(http.post(`${API}/order/`, async ({ request }) => (orderCalls.record(request), json(order(), 201))));
    await user.click(submit());
    expect(await screen.findByRole('heading', { name: 'Заказ принят!' })).toBeInTheDocument();
    const [first, second] = orderCalls.calls;
    expect(await second!.json()).toMatchObject({ cart_version: 42, items: [{ variant_id: 101, quantity: 2 }] });
    expect(keyOf(second)).not.toBe(keyOf(first));
  });

  test('a line at a price by quantity shows the price the cart applies', async () => {
    const tiered = cartItem({ id: 1, count: 12, price: 990, unit_price: 900, tier: { from: 12, price: 900 } });
    checkoutNetwork();
    server.use(http.get(`${API}/cart/${USER.id}`, () => json(cart([tiered]))));
    renderShop({ route: '/checkout', preloadedState: loggedIn() });
    const bear = (await screen.findByText('Мишка Тедди x 12')).closest('li')!;
    expect(bear).toHaveTextContent(/900,00\s₽ \/ шт\. · цена от 12 шт\./);
    expect(screen.getByRole('heading', { name: /Итого/ })).toHaveTextContent('Итого: 10 800,00 ₽');
  });

  test('an empty cart: nothing to order', async () => {
    checkoutNetwork();
    renderShop({ route: '/checkout', preloadedState: loggedIn() });
    expect(await screen.findByText('В заказе нет товаров')).toBeInTheDocument();
  });
});
