import fp from 'fastify-plugin';
import { FeedFiles } from '../services/feeds';

declare module 'fastify' {
  interface FastifyInstance {
    feedFiles: FeedFiles;
  }
}

/**
 * The product feeds' files (services/feeds.ts): every catalogue change, this process's or
 * another's, heard on the catalogue's channel marks them out of date, and their rebuilds are
 * scheduled. A change that went unheard while the listening connection was lost is made up for
 * when it is back.
 */
export default fp(
  async (app) => {
    const feeds = new FeedFiles(app.database.db, { ...app.config.feeds, log: app.log.child({ part: 'feeds' }) });
    app.decorate('feedFiles', feeds);
    app.followCatalogueChanges(() => feeds.catalogueChanged());
    // Feeds left out of date by the previous run are rebuilt as due.
    app.addHook('onReady', async () => feeds.schedule());
    // Before the database closes (onClose hooks run in reverse order of registration).
    app.addHook('onClose', () => feeds.stop());
  },
  { name: 'feeds', dependencies: ['config', 'database', 'catalogue-cache'] },
);
