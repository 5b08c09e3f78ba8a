import type { FastifyInstance, HTTPMethods } from 'fastify';
import type { AuditList } from '../../../src/shared/api';
import { quickShoppers, type Shopper } from './test-app';

/** A buyer and a manager (made as the command line makes one). */
export async function buyerAndManager(app: FastifyInstance): Promise<{ buyer: Shopper; manager: Shopper }> {
  const [buyer, manager] = (await quickShoppers(app, 2)) as [Shopper, Shopper];
  await app.repositories.users.setRole(manager.email, 'manager');
  return { buyer, manager };
}

export type Route = readonly [method: HTTPMethods, url: string, payload?: Record<string, unknown>];

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
