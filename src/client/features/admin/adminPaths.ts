import { PAGE_PATHS } from '@shared/paths';

const at = (page: string) => `${PAGE_PATHS.admin}/${page}`;

/** The back office's pages, relative to /admin as its routes name them and absolute for links. */
export const ADMIN_PAGES = {
  orders: 'orders',
  order: 'orders/:id',
  products: 'products',
  productNew: 'products/new',
  product: 'products/:id',
  categories: 'categories',
  banners: 'banners',
  priceList: 'price-list',
  priceTypes: 'price-types',
  exchange: 'exchange',
  documents: 'conformity-documents',
  companies: 'companies',
  company: 'companies/:id',
  staff: 'staff',
  requisites: 'requisites',
  audit: 'audit',
} as const;

export const adminPath = (page: Exclude<keyof typeof ADMIN_PAGES, 'order' | 'product' | 'company'>) =>
  at(ADMIN_PAGES[page]);
export const adminOrderPath = (id: number) => at(`orders/${id}`);
export const adminProductPath = (id: number) => at(`products/${id}`);
export const adminCompanyPath = (id: number) => at(`companies/${id}`);
