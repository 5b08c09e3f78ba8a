import fp from 'fastify-plugin';
import { openDatabase, type Database, type DatabaseHandle } from '../db/database';
import { seedDemoCatalogue } from '../db/seed/seed';
import { shopMail, type ShopMail } from '../mail/letter';
import { createAddressesRepository } from '../repositories/addresses';
import { createAdminProductsRepository } from '../repositories/admin-products';
import { createAuditRepository } from '../repositories/audit';
import { createBannersRepository } from '../repositories/banners';
import { createCartRepository } from '../repositories/cart';
import { createInvoicesRepository } from '../repositories/invoices';
import { createCategoriesRepository } from '../repositories/categories';
import { createOrdersRepository } from '../repositories/orders';
import { createOutboxRepository } from '../repositories/outbox';
import { createProductsRepository } from '../repositories/products';
import { createPasswordResetsRepository } from '../repositories/password-resets';
import { createRefreshTokensRepository } from '../repositories/refresh-tokens';
import { createRequisitesRepository } from '../repositories/requisites';
import { createSettingsRepository } from '../repositories/settings';
import { createSignInAttemptsRepository } from '../repositories/sign-in-attempts';
import { createSupplierRequisitesRepository } from '../repositories/supplier-requisites';
import { createUsersRepository } from '../repositories/users';

function createRepositories(db: Database, shop: ShopMail) {
  return {
    addresses: createAddressesRepository(db),
    adminProducts: createAdminProductsRepository(db),
    audit: createAuditRepository(db),
    banners: createBannersRepository(db),
    cart: createCartRepository(db),
    invoices: createInvoicesRepository(db, shop),
    categories: createCategoriesRepository(db),
    orders: createOrdersRepository(db, shop),
    outbox: createOutboxRepository(db),
    passwordResets: createPasswordResetsRepository(db, shop),
    products: createProductsRepository(db),
    refreshTokens: createRefreshTokensRepository(db),
    requisites: createRequisitesRepository(db),
    settings: createSettingsRepository(db),
    signInAttempts: createSignInAttemptsRepository(db),
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
    const database = await openDatabase({ databaseUrl, dataDir });
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
    app.decorate('database', database);
    app.decorate('repositories', createRepositories(database.db, shopMail(app.config)));
    app.addHook('onClose', async () => {
      clearInterval(upkeep);
      await database.close();
    });
  },
  { name: 'database', dependencies: ['config'] },
);
