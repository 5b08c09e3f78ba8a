import fp from 'fastify-plugin';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import auditRoutes from './audit';
import bannersRoutes from './banners';
import buyersRoutes from './buyers';
import catalogueRoutes from './catalogue';
import categoriesRoutes from './categories';
import { companiesRoutes, staffRoutes } from './companies';
import conformityDocumentsRoutes from './conformity-documents';
import exchangeRoutes from './exchange';
import imagesRoutes from './images';
import ordersRoutes from './orders';
import priceTypesRoutes from './price-types';
import productsRoutes from './products';
import settingsRoutes from './settings';
import variantsRoutes from './variants';

/**
 * The back office's API. Every route under it is for managers only: the hook runs before the body
 * is parsed, and reads the role from the database on each request.
 */
const adminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('onRequest', app.authenticateManager);
  await app.register(ordersRoutes, { prefix: '/orders' });
  await app.register(buyersRoutes, { prefix: '/buyers' });
  await app.register(companiesRoutes, { prefix: '/companies' });
  await app.register(staffRoutes, { prefix: '/staff' });
  await app.register(productsRoutes, { prefix: '/products' });
  await app.register(variantsRoutes, { prefix: '/variants' });
  await app.register(categoriesRoutes, { prefix: '/categories' });
  await app.register(bannersRoutes, { prefix: '/banners' });
  await app.register(auditRoutes, { prefix: '/audit' });
  await app.register(imagesRoutes, { prefix: '/images' });
  await app.register(catalogueRoutes, { prefix: '/catalogue' });
  await app.register(settingsRoutes, { prefix: '/settings' });
  await app.register(priceTypesRoutes, { prefix: '/price-types' });
  await app.register(exchangeRoutes, { prefix: '/exchange' });
  await app.register(conformityDocumentsRoutes, { prefix: '/conformity-documents' });
};

// Encapsulated (its hook stays on its own routes), and named so that its dependencies are checked.
export default fp(adminRoutes, {
  name: 'admin-routes',
  encapsulate: true,
  dependencies: ['database', 'services', 'authentication', 'catalogue-cache', 'metrics'],
});
