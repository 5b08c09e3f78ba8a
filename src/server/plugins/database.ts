import fp from 'fastify-plugin';
import { openDatabase, type DatabaseHandle, type Queryable } from '../db/database';
import { seedDemoCatalogue } from '../db/seed/seed';
import { createAddressesRepository } from '../repositories/addresses';
import { createAdminProductsRepository } from '../repositories/admin-products';
import { createAuditRepository } from '../repositories/audit';
import { createBannersRepository } from '../repositories/banners';
import { createCartRepository } from '../repositories/cart';
import { createEmailConfirmationsRepository } from '../repositories/email-confirmations';
import { createImagesRepository } from '../repositories/images';
import { createProductCardsRepository } from '../repositories/product-cards';
import { createInvoicesRepository } from '../repositories/invoices';
import { createCategoriesRepository } from '../repositories/categories';
import { createCompaniesRepository } from '../repositories/companies';
import { createOrdersRepository } from '../repositories/orders';
import { createOutboxRepository } from '../repositories/outbox';
import { createPriceListRepository } from '../repositories/price-list';
import { createProductsRepository } from '../repositories/products';
import { createProductPageRepository } from '../repositories/product-page';
import { createPasswordResetsRepository } from '../repositories/password-resets';
import { createRefreshTokensRepository } from '../repositories/refresh-tokens';
import { createRequisitesRepository } from '../repositories/requisites';
import { createQuickOrderImportsRepository } from '../repositories/quick-order-imports';
import { searchProducts } from '../services/product-search';
import { createResetRequestsRepository } from '../repositories/reset-requests';
import { createRevokedSessionsRepository } from '../repositories/revoked-sessions';
import { createPriceTypesRepository } from '../repositories/price-types';
import { HIDDEN_PRICES } from '../domain/wholesale-price';
import { createSettingsRepository } from '../repositories/settings';
import { createSignInAttemptsRepository } from '../repositories/sign-in-attempts';
import { createSitemapRepository } from '../repositories/sitemap';
import { createSupplierRequisitesRepository } from '../repositories/supplier-requisites';
import { createUsersRepository } from '../repositories/users';

/** Every repository over one handle: the app's set over the database (a transaction's own are made where it runs). */
function createRepositories(db: Queryable) {
  return {
    addresses: createAddressesRepository(db),
    adminProducts: createAdminProductsRepository(db),
    audit: createAuditRepository(db),
    banners: createBannersRepository(db),
    cart: createCartRepository(db),
    emailConfirmations: createEmailConfirmationsRepository(db),
    images: createImagesRepository(db),
    invoices: createInvoicesRepository(db),
    categories: createCategoriesRepository(db),
    companies: createCompaniesRepository(db),
    orders: createOrdersRepository(db),
    outbox: createOutboxRepository(db),
    passwordResets: createPasswordResetsRepository(db),
    priceList: createPriceListRepository(db),
    priceTypes: createPriceTypesRepository(db),
    productCards: createProductCardsRepository(db),
    products: createProductsRepository(db),
    productPage: createProductPageRepository(db),
    quickOrderImports: createQuickOrderImportsRepository(db),
    refreshTokens: createRefreshTokensRepository(db),
    requisites: createRequisitesRepository(db),
    resetRequests: createResetRequestsRepository(db),
    revokedSessions: createRevokedSessionsRepository(db),
    settings: createSettingsRepository(db),
    signInAttempts: createSignInAttemptsRepository(db),
    sitemap: createSitemapRepository(db),
    supplierRequisites: createSupplierRequisitesRepository(db),
    users: createUsersRepository(db),
  };
}

export type Repositories = ReturnType<typeof createRepositories>;

declare module 'fastify' {
  interface FastifyInstance {
    database: DatabaseHandle;
    repositories: Repositories;
  }
}

const MAINTENANCE_INTERVAL_MS = 60 * 60 * 1000;

/** Opens the database, brings its schema up to date, seeds an empty shop, and closes it last. */
export default fp(
  async (app) => {
    const { databaseUrl, dataDir, seedDemoCatalogue: seed } = app.config;
    const database = await openDatabase({ databaseUrl, dataDir, onQuery: app.metrics.queryObserver });
    try {
      await database.withStartupLock(async (db) => {
        await database.migrate(db);
        if (seed && (await seedDemoCatalogue(db))) app.log.info('demo catalogue seeded');
      });
    } catch (error) {
      await database.close();
      throw error;
    }
    const maintain = () =>
      database.maintain().catch((error: unknown) => app.log.warn({ err: error }, 'database maintenance failed'));
    await maintain();
    const upkeep = setInterval(maintain, MAINTENANCE_INTERVAL_MS).unref();
    const repositories = createRepositories(database.db);
    // The first search of a connection loads the Russian stemmer, pg_trgm and the search indexes'
    // first pages (≈100 ms on the embedded database, ≈20 ms on a new PostgreSQL connection), and the
    // first of the process the morphology's dictionaries (services/word-forms.ts): paid here, not
    // by the first shoppers. On PostgreSQL one search a pooled connection, at once, so
    // that the pool opens all of them, and keeps them (database.ts).
    const connections = database.poolUse()?.max ?? 1;
    await Promise.all(
      Array.from({ length: connections }, () =>
        searchProducts(repositories.products, 'мишка', { skip: 0, limit: 1 }, HIDDEN_PRICES),
      ),
    ).catch((error: unknown) => app.log.warn({ err: error }, 'search warm-up failed'));
    app.decorate('database', database);
    app.decorate('repositories', repositories);
    app.addHook('onClose', async () => {
      clearInterval(upkeep);
      await database.close();
    });
  },
  { name: 'database', dependencies: ['config', 'metrics'] },
);
