import { startShop } from './shop-server';

export default async function globalSetup(): Promise<() => Promise<void>> {
  const shop = await startShop();
  process.env.SHOP_URL = shop.url;
  return () => shop.stop();
}
