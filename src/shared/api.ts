// The contract between the storefront and the API server (SPEC §3, §5, §9): both halves import
// these types and constants so that a change to the wire format is one change, seen by both.

export const API_PREFIX = 'api/v1/';

export const PAGE_SIZE = {
  home: 8,
  catalogue: 9,
  serviceDefault: 10,
  serviceMax: 100,
} as const;

export const LIMITS = {
  innLength: 12,
  kppLength: 9,
  minQuantity: 1,
  maxCartCount: 10_000,
  passwordMin: 8,
  passwordMax: 128,
  emailMax: 254,
  artMax: 64,
  addressMax: 1000,
  nameMax: 200,
  companyNameMax: 300,
} as const;

export const TIMINGS = {
  bannerSlideMs: 5000,
  bannerTransitionMs: 500,
  // SPEC §9 also says the cart reloads about 600 ms after a change: the reload follows the save
  // that the debounce sends (see features/cart/cartEditsSlice.ts), so it needs no timer of its own.
  cartDebounceMs: 500,
} as const;

export const STORAGE_KEYS = {
  accessToken: 'access_token',
  selectedCategory: 'selectedCategory',
  colourMode: 'colourMode',
} as const;

/** The basic e-mail shape of SPEC §5: something@domain.zone, no spaces. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * A cookie readable by the storefront that lives exactly as long as the HttpOnly refresh cookie:
 * its presence tells the storefront a refresh can succeed, so visitors never send one that must fail.
 */
export const SESSION_HINT_COOKIE = 'session_hint';

export const ORDER_STATUSES = ['Создан', 'Ожидает оплаты', 'Оплачен', 'Отправлен', 'Доставлен', 'Отменён'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
export const DELIVERED_STATUS: OrderStatus = 'Доставлен';

/** Texts of SPEC §5 and §8 that the server may send and the storefront shows as they are. */
export const MESSAGES = {
  emailRequired: 'Email обязателен',
  emailInvalid: 'Некорректный формат email',
  passwordsDiffer: 'Пароли не совпадают',
  loginFailed: 'Неверный email или пароль',
  registrationFailed: 'Ошибка при регистрации',
  emailTaken: 'Пользователь с таким email уже существует',
  checkoutRequired: 'Пожалуйста, заполните имя, телефон и адрес доставки.',
  innLength: 'ИНН должен содержать ровно 12 символов.',
  kppLength: 'КПП должен содержать ровно 9 символов.',
  orderFailed: 'Что-то пошло не так...',
  artInvalid: 'Некорректный формат артикула',
} as const;

export interface Variant {
  id: number;
  color: string;
  size: number;
  price: number;
  stock: number;
}

export interface Product {
  id: number;
  art: string;
  name: string;
  description: string | null;
  big_description: string | null;
  image: string;
  variants: Variant[];
}

export interface Banner {
  id: number;
  image: string;
  url: string | null;
}

export interface CartItem {
  id: number;
  count: number;
  item_total: number;
  product: Pick<Product, 'id' | 'art' | 'name' | 'description' | 'image'>;
  variant: Pick<Variant, 'price'>;
  variant_id: number;
}

export interface Cart {
  items: CartItem[];
  total_price: number;
}

export interface CartAddPayload {
  user_id: number;
  product_id: number;
  variant_id: number;
  count: number;
}

export interface User {
  id: number;
  email: string;
}

export interface TokenResponse {
  access_token: string;
  token_type: 'bearer';
}

export interface OrderItemPayload {
  product_id: number;
  variant_id: number;
  quantity: number;
}

export interface OrderCreatePayload {
  user_id: number;
  address: string;
  items: OrderItemPayload[];
  company_name: string | null;
  company_inn: string | null;
  company_kpp: string | null;
  /** Not in SPEC §3: the checkout's name and phone, kept with the order for the manager. */
  contact_name?: string | null;
  contact_phone?: string | null;
}

export interface OrderSummary {
  id: number;
  total_price: number;
  status: OrderStatus;
  created_at: string;
  items_count: number;
}

export interface OrderStatusAnswer {
  id: number;
  status: OrderStatus;
}

export interface AddressFields {
  country: string;
  city: string;
  street: string;
  home_number: string;
  apartment_number: string | null;
  user_id: number;
}

export interface Address extends AddressFields {
  id: number;
}

export interface ErrorAnswer {
  detail: string;
}

/** Every image (products, banners, the about page) is served by the API under this path. */
/**
 * The element in which the server hands a page the API answers its first render asks for
 * (the storefront plugin writes it, the client's base query reads it): one round trip less.
 */
export const INITIAL_RESPONSES_ELEMENT_ID = 'initial-responses';

/**
 * An API read named by its path under the API host and its query parameters in a fixed order,
 * so the server and the client name the same request the same way.
 */
export function apiReadKey(path: string, params: Record<string, string | number> = {}): string {
  const query = new URLSearchParams(
    Object.entries(params)
      .map(([name, value]): [string, string] => [name, String(value)])
      .sort(([a], [b]) => (a < b ? -1 : 1)),
  ).toString();
  return query ? `${path}?${query}` : path;
}

export function imageUrl(host: string, image: string): string {
  return `${host}${API_PREFIX}image/${encodeURIComponent(image)}`;
}
