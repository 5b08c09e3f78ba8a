import type { Product } from '../../shared/api';
import { otherLayout } from '../domain/search-query';
import type { Page, ProductsRepository } from '../repositories/products';
import type { PriceView } from '../domain/wholesale-price';
import { queryForms } from './word-forms';

export interface SearchAnswer {
  products: Product[];
  /** The text searched instead of the query, when it was read in the other keyboard layout; else null. */
  readAs: string | null;
}

/**
 * The storefront's search: the query's words in every dictionary form (services/word-forms.ts),
 * and, when that finds nothing at all, the same keys in the other keyboard layout («vbirf» is
 * «мишка», «ЬЩ-1001» MO-1001), which the answer names. A query that finds something is never
 * read in the other layout.
 */
export async function searchProducts(
  products: ProductsRepository,
  query: string,
  page: Page,
  view: PriceView,
): Promise<SearchAnswer> {
  const found = await products.search(query, await queryForms(query), page, view);
  const asTyped = { products: found.products, readAs: null };
  // A page past the end of a query that finds something stays empty (the count of its ranked
  // matches says so, without searching its first page again).
  if (found.ranked > 0) return asTyped;
  const other = otherLayout(query);
  if (other === null) return asTyped;
  const inOtherLayout = await products.search(other, await queryForms(other), page, view);
  return { products: inOtherLayout.products, readAs: inOtherLayout.products.length > 0 ? other : null };
}
