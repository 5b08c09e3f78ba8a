// The catalogue's filters and order: one reading of the /catalog address for the page and
// for the server that preloads its first answer, and the rules the API checks beyond their shapes.

import { type CatalogueFilters, type Variant } from './api';
import { CATALOGUE_LIMITS } from './catalogue';
import { CATALOGUE_SORTS, type CatalogueSort } from './catalogue-sorts';

/** The parameters' names, the same in the API's query and in the /catalog address. */
export const FILTER_PARAMS = ['sort', 'color', 'size_min', 'size_max', 'price_min', 'price_max', 'in_stock'] as const;

/** What is wrong with filters of valid shapes taken together, or null: a range that ends before it starts. */
export function catalogueFiltersProblem(filters: CatalogueFilters): string | null {
  const { size_min, size_max, price_min, price_max } = filters;
  if (size_min !== undefined && size_max !== undefined && size_min > size_max)
    return 'Некорректные данные: «Размер от» больше, чем «Размер до»';
  if (price_min !== undefined && price_max !== undefined && price_min > price_max)
    return 'Некорректные данные: «Цена от» больше, чем «Цена до»';
  return null;
}

const WHOLE = /^\d{1,9}$/;
const MONEY = /^\d{1,10}(\.\d{1,2})?$/;

/** The number `text` spells, when it matches `pattern` and is at most `max`. */
function numberIn(text: string | null, pattern: RegExp, max: number): number | undefined {
  if (text === null || !pattern.test(text)) return undefined;
  const value = Number(text);
  return value <= max ? value : undefined;
}

/**
 * The filters a /catalog address names, with only the keys it sets. A value the API would refuse
 * (a stale or hand-edited link) is left out, and a range that ends before it starts is dropped
 * whole, so such an address still shows a page rather than an error.
 */
export function catalogueFiltersFrom(query: URLSearchParams): CatalogueFilters {
  const filters: CatalogueFilters = {};
  const sort = query.get('sort');
  if (CATALOGUE_SORTS.includes(sort as CatalogueSort)) filters.sort = sort as CatalogueSort;
  const color = query.get('color');
  if (color && color.length <= CATALOGUE_LIMITS.colorMax) filters.color = color;
  const sizes = {
    size_min: numberIn(query.get('size_min'), WHOLE, CATALOGUE_LIMITS.sizeMax),
    size_max: numberIn(query.get('size_max'), WHOLE, CATALOGUE_LIMITS.sizeMax),
  };
  const prices = {
    price_min: numberIn(query.get('price_min'), MONEY, CATALOGUE_LIMITS.priceMax),
    price_max: numberIn(query.get('price_max'), MONEY, CATALOGUE_LIMITS.priceMax),
  };
  for (const range of [sizes, prices]) {
    if (catalogueFiltersProblem(range)) continue;
    for (const [name, value] of Object.entries(range))
      if (value !== undefined) Object.assign(filters, { [name]: value });
  }
  if (query.get('in_stock') === 'true') filters.in_stock = true;
  return filters;
}

/** `query` with `filters` in place of the filter parameters it had; the others (category, page) kept. */
export function withCatalogueFilters(query: URLSearchParams, filters: CatalogueFilters): URLSearchParams {
  const next = new URLSearchParams(query);
  for (const name of FILTER_PARAMS) {
    const value = filters[name];
    if (value === undefined || value === false || value === '') next.delete(name);
    else next.set(name, String(value));
  }
  return next;
}

/**
 * Whether `variant` passes every variant filter at once (the API lists a product when one of its
 * variants does). A price hidden from a visitor is the server's to filter by: it passes here.
 */
export function variantMatches(variant: Variant, filters: CatalogueFilters): boolean {
  const { price } = variant;
  return (
    (filters.color === undefined || variant.color === filters.color) &&
    (filters.size_min === undefined || variant.size >= filters.size_min) &&
    (filters.size_max === undefined || variant.size <= filters.size_max) &&
    (filters.price_min === undefined || price === null || price >= filters.price_min) &&
    (filters.price_max === undefined || price === null || price <= filters.price_max) &&
    (!filters.in_stock || variant.stock > 0)
  );
}
