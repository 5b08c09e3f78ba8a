import { SESSION_HINT_COOKIE } from '@shared/api';
/**
 * Test data and msw handlers shared by the storefront suites. Everything here talks to the app
 * only through the HTTP layer (msw) and the browser storages, never through its modules' insides.
 */
import { http, HttpResponse, type JsonBodyType } from 'msw';
import type {
  Banner,
  Cart,
  CartItem,
  Company,
  CompanyMember,
  CurrentUser,
  LegalEntity,
  OrderSummary,
  Product,
  ProductPage,
  Requisites,
  User,
  Variant,
  VariantCard,
} from '@shared/api';
import type { RootState } from '@/app/store';
import type { CompanyRole } from '@shared/company';
import { API, CURRENT_USER, OWN_COMPANY, server } from './server';

const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** An access token the client can decode (it never checks the signature): exp is `expiresIn` seconds from now. */
export function makeToken(expiresIn = 3600, sub = '1'): string {
  const exp = Math.floor(Date.now() / 1000) + expiresIn;
  return `${base64url({ alg: 'HS256', typ: 'JWT' })}.${base64url({ sub, exp })}.signature`;
}

export const USER: User = { id: 7, email: 'ivan.petrov@example.ru', role: 'buyer' };

/**
 * A logged-in session: the user and a valid token in the preloaded state, and the token in
 * sessionStorage, where the session's listener would have put it.
 */
export function loggedIn(user: User = USER, token = makeToken()): Partial<RootState> {
  sessionStorage.setItem('access_token', token);
  return { session: { user, accessToken: token, initialised: true } };
}

/** A visitor whose session start-up has finished. */
export const visitor = (): Partial<RootState> => ({ session: { user: null, accessToken: null, initialised: true } });

export function variant(overrides: Partial<Variant> = {}): Variant {
  return {
    id: 101,
    color: 'Розовый',
    size: 25,
    price: 990,
    tiers: [],
    tiers_scope: 'variant',
    rrp: null,
    stock: 5,
    unproven_held: 0,
    ...overrides,
  };
}

export function product(overrides: Partial<Product> = {}): Product {
  return {
    id: 1,
    art: 'BEAR-01',
    name: 'Мишка Тедди',
    description: 'Плюшевый мишка',
    big_description: null,
    image: 'bear.svg',
    multiple: 1,
    min_quantity: 1,
    variants: [variant()],
    ...overrides,
  };
}

/** A variant as the product page has it: `variant`'s fields with no barcode, package or weight. */
export function variantCard(overrides: Partial<VariantCard> = {}): VariantCard {
  return { ...variant(), barcode: null, marked: false, package: null, weight_g: null, ...overrides };
}

/** The product page's answer: `product`'s fields, its picture as its only photo, no characteristics. */
export function productPage(overrides: Partial<ProductPage> = {}): ProductPage {
  const { variants: _listVariants, ...listed } = product();
  return {
    ...listed,
    variants: [variantCard()],
    photos: [{ color: null, images: [listed.image] }],
    brand: null,
    material: null,
    filler: null,
    age_from: null,
    country_of_origin: null,
    tnved: null,
    conformity_document: null,
    ...overrides,
  };
}

/** `count` distinct products, numbered from `from`. */
export function products(count: number, from = 1): Product[] {
  return Array.from({ length: count }, (_unused, index) => {
    const n = from + index;
    return product({
      id: n,
      art: `ART-${n}`,
      name: `Игрушка ${n}`,
      variants: [variant({ id: 1000 + n, price: 100 * n })],
    });
  });
}

/**
 * A cart line at `price` a piece, no price by quantity reached and no packaging (each piece on its
 * own); `product` overrides only the fields it names.
 */
export function cartItem(
  overrides: Omit<Partial<CartItem>, 'product'> & { price?: number; product?: Partial<CartItem['product']> } = {},
): CartItem {
  const { price = 500, product: productFields, ...rest } = overrides;
  const count = rest.count ?? 1;
  const unitPrice = rest.unit_price ?? price;
  return {
    id: 1,
    count,
    item_total: unitPrice * count,
    product: {
      id: 1,
      art: 'BEAR-01',
      name: 'Мишка Тедди',
      description: 'Плюшевый мишка',
      image: 'bear.svg',
      multiple: 1,
      min_quantity: 1,
      ...productFields,
    },
    variant: { price, color: 'Коричневый', size: 30, stock: 100, unproven_held: 0 },
    variant_id: 101,
    price_when_added: price,
    unit_price: unitPrice,
    tier: null,
    next_tier: null,
    tiers_scope: 'variant',
    packaging_problem: null,
    fit_count: null,
    available: true,
    ...rest,
  };
}

/** The cart of `items`; `overrides` sets the minimum order sum and what is missing to it. */
export function cart(items: CartItem[], version = 1, overrides: Partial<Cart> = {}): Cart {
  return {
    items,
    total_price: items.reduce((sum, item) => sum + item.unit_price * item.count, 0),
    min_order_sum: 0,
    missing_sum: 0,
    version,
    ...overrides,
  };
}

export function order(overrides: Partial<OrderSummary> = {}): OrderSummary {
  return {
    id: 15,
    total_price: 4500,
    status: 'Создан',
    created_at: '2025-03-01T10:00:00.000Z',
    items_count: 3,
    invoice: null,
    placed_by: null,
    legal_entity_id: null,
    ...overrides,
  };
}

export const banner = (overrides: Partial<Banner> = {}): Banner => ({
  id: 1,
  image: 'banner-1.svg',
  url: null,
  ...overrides,
});

/** The refresh cookie is missing: every refresh attempt answers 401. */
export const refreshFails = () =>
  http.post(`${API}/auth/refresh`, () => HttpResponse.json({ detail: 'Нет сессии' }, { status: 401 }));

/** The cart of `user`, answered from a function so a test can change it between calls. */
export function cartHandler(answer: Cart | (() => Cart), user: User = USER) {
  return http.get(`${API}/cart/${user.id}`, () => HttpResponse.json(typeof answer === 'function' ? answer() : answer));
}

/** What the home page asks for, empty by default. */
export function homeHandlers(popular: Product[] = [], banners: Banner[] = []) {
  return [
    http.get(`${API}/products/popular`, () => HttpResponse.json(popular)),
    http.get(`${API}/banners/all`, () => HttpResponse.json(banners)),
  ];
}

/** Installs the handlers a visitor's shop needs (refresh fails, empty home page) plus any extra ones first. */
export function installVisitorNetwork(...extra: Parameters<typeof server.use>): void {
  server.use(...extra, refreshFails(), ...homeHandlers());
}

/** Installs the handlers a logged-in user's shop needs (cart, empty home page) plus any extra ones first. */
export function installUserNetwork(userCart: Cart = cart([]), ...extra: Parameters<typeof server.use>): void {
  server.use(...extra, cartHandler(userCart), ...homeHandlers());
}

/** Collects the requests that reach a handler: `calls` for counting, `last` for inspecting. */
export function recorder() {
  const calls: Request[] = [];
  return {
    calls,
    record(request: Request) {
      calls.push(request.clone());
    },
    get last(): Request | undefined {
      return calls.at(-1);
    },
  };
}

export const json = (body: JsonBodyType, status = 200) => HttpResponse.json(body, { status });

/** Resolves after `ms` milliseconds of real time (msw answers that should take a while). */
export const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The readable twin of the refresh cookie, as the server sets it at login (see SESSION_HINT_COOKIE). */
export function withSessionCookie(): void {
  document.cookie = `${SESSION_HINT_COOKIE}=1; path=/`;
}

export function withoutSessionCookie(): void {
  document.cookie = `${SESSION_HINT_COOKIE}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
}

/** A buyer's saved requisites: nothing saved unless overridden. */
export function requisites(overrides: Partial<Requisites> = {}): Requisites {
  return {
    company_name: null,
    company_inn: null,
    company_kpp: null,
    contact_name: null,
    contact_phone: null,
    legal_entity_id: null,
    ...overrides,
  };
}

/** An organisation's details as a form sends them: a valid 10-digit ИНН and its КПП, and the contact. */
export const ORGANISATION_FIELDS = {
  company_name: 'ООО «Игрушки»',
  company_inn: '7707083893',
  company_kpp: '770101001',
  contact_name: 'Иван Петров',
  contact_phone: '+7 900 000-00-00',
};

/** The same as saved requisites (no legal entity of the company named). */
export const ORGANISATION = requisites(ORGANISATION_FIELDS);

/** GET /auth/user for a buyer who has never paid, with the shop's default limits; `overrides` change it. */
export function unprovenBuyer(overrides: Partial<CurrentUser> = {}): CurrentUser {
  return {
    ...CURRENT_USER,
    proven: false,
    order_limits: { line_share_percent: 50, unproven_pool_percent: 50, max_unpaid_orders: 3 },
    ...overrides,
  };
}

/** An organisation of the company with a valid ИНН, КПП, ОГРН and bank details. */
export function legalEntity(overrides: Partial<LegalEntity> = {}): LegalEntity {
  return {
    id: '0b6f8c2e-8d1a-4f57-9a51-3c2d7e9b1a01',
    kind: 'org',
    name: 'ООО «Игрушки»',
    inn: '7707083893',
    kpp: '770101001',
    ogrn: '1027700132195',
    address: 'Москва, ул. Вавилова, 19',
    bank_name: 'ПАО Сбербанк',
    bik: '044525225',
    account: '40702810938000000001',
    corr_account: '30101810400000000225',
    is_default: true,
    last_used_at: null,
    ...overrides,
  };
}

/** An ИП of the company (a 12-digit ИНН, no КПП). */
export const SOLE_TRADER = legalEntity({
  id: '0b6f8c2e-8d1a-4f57-9a51-3c2d7e9b1a02',
  kind: 'ip',
  name: 'ИП Петров Иван Сергеевич',
  inn: '500100732259',
  kpp: null,
  ogrn: null,
  is_default: false,
});

export const member = (overrides: Partial<CompanyMember> = {}): CompanyMember => ({
  user_id: 8,
  email: 'olga.smirnova@example.ru',
  role: 'purchaser',
  name: 'Ольга Смирнова',
  ...overrides,
});

/**
 * GET /company for the signed-in buyer in `role`, with another owner beside them (or, when the
 * buyer is the owner, a second one they may act on), changed by `overrides`.
 */
export const companyOf = (role: CompanyRole, overrides: Partial<Company> = {}): Company => ({
  ...OWN_COMPANY,
  role,
  members: [
    { ...OWN_COMPANY.members[0]!, role },
    member({ user_id: 9, role: 'owner', email: 'boss@example.ru', name: 'Анна Власова' }),
  ],
  ...overrides,
});

/** Installs GET /auth/user and GET /company for the buyer in `role` of the company (they agree on it). */
export function companyNetwork(role: CompanyRole, overrides: Partial<Company> = {}): Company {
  const answer = companyOf(role, overrides);
  server.use(
    http.get(`${API}/auth/user`, () =>
      HttpResponse.json({
        ...CURRENT_USER,
        company: { id: answer.id, name: answer.name, role, blocked: answer.blocked },
      }),
    ),
    http.get(`${API}/company`, () => HttpResponse.json(answer)),
  );
  return answer;
}
