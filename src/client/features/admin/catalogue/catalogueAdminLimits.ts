/**
 * The server's bounds for the catalogue's fields (src/shared/schemas/admin-catalogue.ts), for the
 * forms' rules. Spelled again here because that module builds TypeBox schemas at run time, and
 * importing it would put TypeBox into the back office's chunk for a few numbers.
 */
export const CATALOGUE_LIMITS = {
  colorMax: 100,
  sizeMin: 1,
  sizeMax: 10_000,
  priceMax: 9_999_999_999.99,
  stockMax: 1_000_000_000,
  textMax: 10_000,
  categoryNameMax: 200,
  positionMax: 1_000_000,
  urlMax: 2000,
} as const;
