import type { Product } from '../../shared/api';
import { otherLayout } from '../domain/search-query';
import type { Page, ProductsRepository } from '../repositories/products';
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
export async function searchProducts(products: ProductsRepository, query: string, page: Page): Promise<SearchAnswer> {
  const forms = await queryForms(query);
  const found = await products.search(query, forms, page);
  const asTyped = { products: found, readAs: null };
  if (found.length > 0) return asTyped;
  const other = otherLayout(query);
  if (other === null) return asTyped;
  // A page past the end of a query that finds something stays empty, as its first page decided.
  if (page.skip > 0 && (await products.search(query, forms, { skip: 0, limit: 1 })).length > 0) return asTyped;
  const inOtherLayout = await products.search(other, await queryForms(other), page);
  return { products: inOtherLayout, readAs: inOtherLayout.length > 0 ? other : null };
}
