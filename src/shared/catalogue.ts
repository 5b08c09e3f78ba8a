// Rules of the back office's catalogue that a shape alone cannot say, for its forms and the server alike.

/**
 * A product's fields as the back office's API and forms, the price list and the storefront's
 * category parameter take them. Not in api.ts: the shell's first load carries that module whole.
 */
export const CATALOGUE_LIMITS = {
  colorMax: 100,
  sizeMin: 1,
  sizeMax: 10_000,
  /** numeric(12,2), in rubles. */
  priceMax: 9_999_999_999.99,
  stockMax: 1_000_000_000,
  textMax: 10_000,
  categoryNameMax: 200,
  positionMax: 1_000_000,
  urlMax: 2000,
} as const;

/** What is wrong with a price, or null: more than zero, in whole kopecks (numeric(12,2) in the database). */
export function priceProblem(price: number): string | null {
  if (!Number.isFinite(price) || price <= 0) return 'Цена должна быть больше нуля';
  // Exact: a price with two decimals survives the round trip through its two-decimal text.
  if (Number(price.toFixed(2)) !== price) return `Цена ${price} ₽: не больше двух знаков после запятой (копейки)`;
  return null;
}

const BANNER_URL_PROBLEM = 'Ссылка баннера: путь на сайте, начинающийся с «/», или адрес http:// либо https://';

/**
 * What is wrong with a banner's link, or null. A path on the shop's own site ('/catalog') or an
 * http(s) address; anything else (javascript:, data:, a protocol-relative //host that leaves the
 * site while looking like a path) is refused, since the home page turns it into a link.
 */
export function bannerUrlProblem(url: string): string | null {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (/[\s\u0000-\u001f\u007f]/.test(url)) return BANNER_URL_PROBLEM;
  if (url.startsWith('/')) return /^\/[/\\]/.test(url) ? BANNER_URL_PROBLEM : null;
  try {
    const { protocol, host } = new URL(url);
    return (protocol === 'http:' || protocol === 'https:') && host ? null : BANNER_URL_PROBLEM;
  } catch {
    return BANNER_URL_PROBLEM;
  }
}
