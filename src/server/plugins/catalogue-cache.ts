import fp from 'fastify-plugin';
import { CATALOGUE_CHANNEL } from '../db/notifications';
import { CatalogueCache } from '../services/catalogue-cache';

declare module 'fastify' {
  interface FastifyInstance {
    catalogueCache: CatalogueCache;
  }
}

export default fp(
  async (app) => {
    const cache = new CatalogueCache(app.config.catalogueCache);
    app.decorate('catalogueCache', cache);
    // Orders placed by other processes (another server, the managers' command) reach this one here.
    const stop = await app.database.listen(CATALOGUE_CHANNEL, {
      onNotify: () => cache.invalidate(),
      onLost: () => cache.suspend(),
      onRestored: () => cache.resume(),
    });
    app.addHook('preClose', stop);
  },
  { name: 'catalogue-cache', dependencies: ['config', 'database'] },
);
