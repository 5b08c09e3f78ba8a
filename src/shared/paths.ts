import { PAGE_SIZE } from './limits';

/**
 * The storefront's page addresses (SPEC §2), one list for the client's router and links and for
 * the server, which serves the shell under them and preloads each page's first reads and scripts.
 */
export const PAGE_PATHS = {
  home: '/',
  catalogue: '/catalog',
  product: '/product/:art',
  cart: '/cart',
  checkout: '/checkout',
  orderSuccess: '/order-success',
  profile: '/profile',
  /** One of the buyer's orders, opened from the profile's list. */
  order: '/profile/orders/:id',
  about: '/about',
  /** Search results for `?q=` (LIST_PARAMS.query), paged like the catalogue. */
  search: '/search',
  /** Quick order: lines pasted or a spreadsheet uploaded into the cart. */
  quickOrder: '/quick-order',
  /** The new password, from the link of a reset e-mail: `?token=…`. */
  resetPassword: '/reset-password',
  /** The confirmation of the buyer's e-mail address, from the link of its letter: `?token=…`. */
  confirmEmail: '/confirm-email',
  /**
   * The invitation to a buyer's company, the link of its letter: `#<token>` follows, in the
   * fragment, which the browser sends to no server and no Referer carries.
   */
  invitation: '/invite',
  /** The policy on personal data (152-ФЗ), linked from the sign-up consent and the footer. */
  privacy: '/privacy',
  /** The back office (features/admin), for managers only; its pages are under it. */
  admin: '/admin',
} as const;

/**
 * The webpack chunk of each page whose first render the server preloads. The client names its
 * chunks in `webpackChunkName` comments, which cannot read a constant, so app/router.tsx spells
 * the same strings.
 */
export const PAGE_CHUNKS = {
  home: 'page-home',
  catalogue: 'page-catalogue',
  product: 'page-product',
} as const;

/**
 * The query parameters of the paged lists: the page (1-based, absent on page 1) on the home page,
 * the catalogue and the search results, the catalogue's category and the searched text. In the address, Back from a product and a reload
 * return to the same page.
 */
export const LIST_PARAMS = { page: 'page', category: 'category', query: 'q' } as const;

/**
 * The zero-based page a list's `page` parameter names. Anything but a whole number from 1 whose
 * products the API can reach (0, -1, abc, 1e9) is the first page.
 */
export function listPageIndex(param: string | null, pageSize: number): number {
  if (param === null || !/^[1-9]\d*$/.test(param)) return 0;
  const index = Number(param) - 1;
  return index * pageSize <= PAGE_SIZE.skipMax ? index : 0;
}

/** A product page's address; the article is encoded, so one with '/' or '?' in it stays one segment. */
export function productPath(art: string): string {
  return `/product/${encodeURIComponent(art)}`;
}

/** The page of one of the buyer's orders. */
export function orderPath(id: number): string {
  return PAGE_PATHS.order.replace(':id', String(id));
}

export interface CheckoutItem {
  art: string;
  variantId: number;
  count: number;
}

/**
 * The checkout page's address for `items` (SPEC §2: `items=art:variant_id:count,...`). Each
 * article is encoded on its own before the address encodes it again, so an article with ',' or '%'
 * in it comes back whole, while an ordinary one (MO-1001) reads as itself in the address bar.
 */
export function checkoutPath(items: CheckoutItem[]): string {
  const entries = items.map(
    ({ art, variantId, count }) => `${encodeURIComponent(encodeURIComponent(art))}:${variantId}:${count}`,
  );
  return `${PAGE_PATHS.checkout}?items=${entries.join(',')}`;
}

/**
 * The longest checkout address the cart sends as `items=` (SPEC §2): 4 KB, well inside the 8 KB
 * request line of nginx's default buffers and the server's 16 KB of headers, with room for the
 * rest of the request. A larger cart checks out the server cart, at `/checkout` without `items`.
 */
export const CHECKOUT_ADDRESS_MAX = 4 * 1024;

/** Where the cart's «Оформить заказ» goes: SPEC's `items=` while the address is short enough, else the server cart. */
export function cartCheckoutPath(items: CheckoutItem[]): string {
  const path = checkoutPath(items);
  return path.length < CHECKOUT_ADDRESS_MAX ? path : PAGE_PATHS.checkout;
}
