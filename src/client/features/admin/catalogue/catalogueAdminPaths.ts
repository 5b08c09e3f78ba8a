/** The back office's catalogue pages (the shell's router serves them under these addresses). */
export const CATALOGUE_ADMIN_PATHS = {
  products: '/admin/products',
  newProduct: '/admin/products/new',
  product: '/admin/products/:id',
  categories: '/admin/categories',
  banners: '/admin/banners',
  priceList: '/admin/price-list',
} as const;

export const adminProductPath = (id: number) => `/admin/products/${id}`;
