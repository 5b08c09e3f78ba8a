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
  about: '/about',
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

/** A product page's address; the article is encoded, so one with '/' or '?' in it stays one segment. */
export function productPath(art: string): string {
  return `/product/${encodeURIComponent(art)}`;
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
