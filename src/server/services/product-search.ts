import type { Product } from '../../shared/api';
import { otherLayout } from '../domain/search-query';
import type { Page, ProductsRepository } from '../repositories/products';
import { queryForms } from './word-forms';

/**
 * The storefront's search: the query's words in every dictionary form (services/word-forms.ts),
 * and, when that finds nothing at all, the same keys in the other keyboard layout («vbirf» is
 * «мишка», «ЬЩ-1001» MO-1001). A query that finds something is never read in the other layout.
 */
export async function searchProducts(products: ProductsRepository, query: string, page: Page): Promise<Product[]> {
  const forms = await queryForms(query);
  const found = await products.search(query, forms, page);
  if (found.length > 0) return found;
  const other = otherLayout(query);
  if (other === null) return found;
  // A page past the end of a query that finds something stays empty, as its first page decided.
  if (page.skip > 0 && (await products.search(query, forms, { skip: 0, limit: 1 })).length > 0) return found;
  return products.search(other, await queryForms(other), page);
}
