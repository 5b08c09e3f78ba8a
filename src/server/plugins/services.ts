import type { FastifyBaseLogger } from 'fastify';
import fp from 'fastify-plugin';
import type { AppConfig } from '../config';
import type { Database } from '../db/database';
import { shopMail } from '../mail/letter';
import { createAddressService } from '../services/addresses';
import { createAdminProductService } from '../services/admin-products';
import { createBannerService } from '../services/banners';
import { createCartService } from '../services/cart';
import { createPriceTypeService } from '../services/price-types';
import { createCategoryService } from '../services/categories';
import { createCompanyService } from '../services/companies';
import { createCompanyFeedService } from '../services/feeds';
import { createConformityDocumentService } from '../services/conformity-documents';
import { createEmailConfirmationService } from '../services/email-confirmation';
import { createExchangeAdmin } from '../services/exchange-admin';
import { createExchangeCatalogue } from '../services/exchange-catalogue';
import { createExchangeEndpoint } from '../services/exchange-endpoint';
import { createExchangeOrders } from '../services/exchange-orders';
import { createInvoiceService } from '../services/invoices';
import { createMarketplacePhotoService } from '../services/marketplace-photos';
import { createOrderService } from '../services/orders';
import { createPasswordResetService } from '../services/password-reset';
import { createPriceListImportService } from '../services/price-list-import';
import { createImageUploadService } from '../services/uploaded-images';

/** The services whose rules run in transactions of their own, over the repositories they open in them. */
export function createServices(db: Database, config: AppConfig, log: FastifyBaseLogger) {
  const shop = shopMail(config);
  const exchangeOrders = createExchangeOrders(db, shop);
  return {
    addresses: createAddressService(db, config.buyerLimits),
    adminProducts: createAdminProductService(db),
    banners: createBannerService(db),
    cart: createCartService(db, config.buyerLimits),
    priceTypes: createPriceTypeService(db),
    categories: createCategoryService(db),
    companies: createCompanyService(db, shop, config.buyerLimits),
    companyFeeds: createCompanyFeedService(db),
    conformityDocuments: createConformityDocumentService(db),
    imageUploads: createImageUploadService(db),
    emailConfirmations: createEmailConfirmationService(db, shop),
    exchangeEndpoint: createExchangeEndpoint(db, config, log.child({ part: 'exchange' })),
    exchangeCatalogue: createExchangeCatalogue(db, { budgetMs: config.exchange.importStepMs }),
    exchangeOrders,
    exchangeAdmin: createExchangeAdmin(db, config.exchange, exchangeOrders),
    invoices: createInvoiceService(db, shop),
    marketplacePhotos: createMarketplacePhotoService(db),
    orders: createOrderService(db, shop, config),
    passwordResets: createPasswordResetService(db, shop),
    priceListImport: createPriceListImportService(db),
  };
}

export type Services = ReturnType<typeof createServices>;

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
  }
}

export default fp(
  async (app) => {
    app.decorate('services', createServices(app.database.db, app.config, app.log));
  },
  { name: 'services', dependencies: ['config', 'database'] },
);
