import { startShop } from './shop-server';

export default async function globalSetup(): Promise<() => Promise<void>> {
  const shop = await startShop();
  process.env.SHOP_URL = shop.url;
  // Read by the journeys that open the shop's letters (e2e/mailbox.ts); workers inherit it.
  process.env.SHOP_DATA_DIR = shop.dataDir;
  return () => shop.stop();
}
