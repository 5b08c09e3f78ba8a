import type { FastifyInstance, HTTPMethods } from 'fastify';
import type { AuditList } from '../../../src/shared/api';
import { createTestApp, quickShoppers, type Shopper, type TestApp } from './test-app';

/** A new account made a manager, as the command line makes one. */
export async function newManager(app: FastifyInstance): Promise<Shopper> {
  const [manager] = (await quickShoppers(app, 1)) as [Shopper];
  await app.repositories.users.setRole(manager.email, 'manager');
  return manager;
}

/** A fresh shop with a buyer and a manager: what every back-office suite starts from (in its beforeAll). */
export async function openBackOffice(): Promise<{ shop: TestApp; buyer: Shopper; manager: Shopper }> {
  const shop = await createTestApp();
  const [buyer] = (await quickShoppers(shop.app, 1)) as [Shopper];
  return { shop, buyer, manager: await newManager(shop.app) };
}

export type Route = readonly [method: HTTPMethods, url: string, payload?: object];

/** Each route answers 401 {detail} without a token and 403 {detail} to a buyer, before reading the body. */
export async function expectManagersOnly(app: FastifyInstance, buyer: Shopper, routes: readonly Route[]) {
  for (const [method, url, payload] of routes) {
    const anonymous = await app.inject({ method, url, payload });
    expect([method, url, anonymous.statusCode]).toEqual([method, url, 401]);
    expect(anonymous.json()).toEqual({ detail: expect.stringMatching(/[а-яё]/i) });
    const asBuyer = await app.inject({ method, url, payload, headers: buyer.headers });
    expect([method, url, asBuyer.statusCode]).toEqual([method, url, 403]);
    expect(asBuyer.json()).toEqual({ detail: 'Раздел доступен только менеджерам магазина' });
  }
}

/** The newest audit entries, through the API. */
export async function latestAudit(app: FastifyInstance, manager: Shopper, limit = 1): Promise<AuditList['items']> {
  const response = await app.inject({
    method: 'GET',
    url: '/api/v1/admin/audit',
    query: { limit: String(limit) },
    headers: manager.headers,
  });
  if (response.statusCode !== 200) throw new Error(`audit: ${response.statusCode} ${response.body}`);
  return (response.json() as AuditList).items;
}
