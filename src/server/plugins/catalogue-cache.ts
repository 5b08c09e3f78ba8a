import fp from 'fastify-plugin';
import { CATALOGUE_CHANNEL } from '../db/notifications';
import { CatalogueCache } from '../services/catalogue-cache';
import { PriceViews } from '../services/price-views';

declare module 'fastify' {
  interface FastifyInstance {
    catalogueCache: CatalogueCache;
    /** Which prices each caller of the catalogue sees, forgotten with the cached answers. */
    priceViews: PriceViews;
    /**
     * Calls `follower` after every catalogue change heard, and when listening is back after a loss
     * (changes may have gone unheard): for what keeps its own copy of the catalogue (the feeds'
     * files), on this plugin's one listening connection.
     */
    followCatalogueChanges(follower: () => void): void;
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
    const followers: (() => void)[] = [];
    app.decorate('followCatalogueChanges', (follower: () => void) => {
      followers.push(follower);
    });
    const tellFollowers = () => followers.forEach((follower) => follower());
    // Orders placed by other processes (another server, the managers' command) reach this one
    // here, and so do changes of the price types and of whose company buys at which.
    const stop = await app.database.listen(CATALOGUE_CHANNEL, {
      onNotify: () => {
        cache.invalidate();
        views.invalidate();
        tellFollowers();
      },
      onLost: () => {
        cache.suspend();
        views.suspend();
      },
      onRestored: () => {
        cache.resume();
        views.resume();
        tellFollowers();
      },
    });
    app.addHook('preClose', stop);
  },
  { name: 'catalogue-cache', dependencies: ['config', 'database'] },
);
