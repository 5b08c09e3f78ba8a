// The marketplace kit's download paths (issue 41), for the storefront's buttons and the server's
// routes alike: a download link (POST /api/v1/download-links) is asked for one of these.

/** The most products one marketplace kit takes (a large order's). */
export const MARKETPLACE_KIT_MAX_PRODUCTS = 300;

export const marketplaceKitPaths = {
  order: (userId: number, orderId: number) => `/api/v1/order/${userId}/${orderId}/marketplace-kit`,
  cart: (userId: number) => `/api/v1/cart/${userId}/marketplace-kit`,
  selection: (productIds: readonly number[]) => `/api/v1/marketplace-kit?products=${productIds.join(',')}`,
};
