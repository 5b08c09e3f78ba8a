import fp from 'fastify-plugin';
import { CATALOGUE_CHANNEL } from '../db/notifications';
import { CatalogueCache } from '../services/catalogue-cache';
import { PriceViews } from '../services/price-views';

declare module 'fastify' {
  interface FastifyInstance {
    catalogueCache: CatalogueCache;
    /** Which prices each caller of the catalogue sees, forgotten with the cached answers. */
    priceViews: PriceViews;
  }
}

export default fp(
  async (app) => {
    const cache = new CatalogueCache(app.config.catalogueCache);
    app.decorate('catalogueCache', cache);
    const { priceTypes, settings, companies } = app.repositories;
    const views = new PriceViews({
      priceTypes,
      settings,
      companyPriceTypeOf: async (userId) => (await companies.membershipOf(userId))?.priceTypeId,
    });
    app.decorate('priceViews', views);
    // Orders placed by other processes (another server, the managers' command) reach this one
    // here, and so do changes of the price types and of whose company buys at which.
    const stop = await app.database.listen(CATALOGUE_CHANNEL, {
      onNotify: () => {
        cache.invalidate();
        views.invalidate();
      },
      onLost: () => {
        cache.suspend();
        views.suspend();
      },
      onRestored: () => {
        cache.resume();
        views.resume();
      },
    });
    app.addHook('preClose', stop);
  },
  { name: 'catalogue-cache', dependencies: ['config', 'database'] },
);
