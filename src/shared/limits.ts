// The sizes and bounds of the API's wire format, which the schemas in src/shared/schemas/ validate
// with and the storefront's forms check before sending. Apart from api.ts, whose types are derived
// from those schemas, so that the schemas import nothing that imports them.

export const PAGE_SIZE = {
  home: 8,
  catalogue: 9,
  serviceDefault: 10,
  serviceMax: 100,
  /** The furthest offset the API reads from. */
  skipMax: 1_000_000,
} as const;

export const LIMITS = {
  /** An organisation's ИНН has 10 digits, an ИП's or a person's 12 (see src/shared/requisites.ts). */
  innLengths: [10, 12],
  innMax: 12,
  kppLength: 9,
  minQuantity: 1,
  maxCartCount: 10_000,
  passwordMin: 8,
  passwordMax: 128,
  emailMax: 254,
  artMax: 64,
  searchQueryMax: 200,
  addressMax: 1000,
  nameMax: 200,
  phoneMax: 32,
  companyNameMax: 300,
  /** An address's country, city and street; its house and apartment numbers (SPEC §7 address calls). */
  addressPartMax: 200,
  houseNumberMax: 50,
} as const;

/**
 * Lines of one bulk addition to the cart (POST /api/v1/cart/bulk: the product page's matrix, a
 * reorder). Not in LIMITS: the storefront's shell carries that object whole, and never needs this.
 */
export const CART_BULK_MAX_LINES = 500;

/** The most lines one order may have: a whole cart at its largest (MAX_CART_LINES may not exceed it). */
export const ORDER_MAX_LINES = 5_000;
