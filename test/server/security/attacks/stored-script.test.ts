/**
 * Stored script in text fields: kept verbatim, served only as JSON. (The attack catalogue's scene
 * and its rules: test/server/helpers/attack-scene.ts.)
 */
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import type { Address, OrderSummary } from '../../../../src/shared/api';
import { MESSAGES } from '../../../../src/shared/messages';
import { addresses, orders } from '../../../../src/server/db/schema';
import { json } from '../../helpers/test-app';
import { attackScene, itLogsNoSecret, refusalProblems } from '../../helpers/attack-scene';

const scene = attackScene();

describe('6. Stored script in text fields: kept verbatim, served only as JSON', () => {
  const PAYLOADS = [
    '<script>alert(1)</script>',
    '<img src=x onerror=alert(1)>',
    '"><svg/onload=alert(document.cookie)>',
    "javascript:alert('x')",
    '{{constructor.constructor("alert(1)")()}}',
    '</script><script>alert(1)</script>',
    '&lt;b&gt; &amp; «ёлки» \u202Eevil',
  ];

  const expectJsonAnswer = (response: LightMyRequestResponse) => {
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  };

  it.each(PAYLOADS)('address fields %j: stored and answered byte for byte, as JSON with nosniff', async (payload) => {
    const body = {
      country: payload,
      city: `${payload} city`,
      street: payload,
      home_number: payload.slice(0, 50),
      apartment_number: payload.slice(0, 50),
      user_id: scene.victim.id,
    };
    const created = await scene.shop.app.inject({
      method: 'POST',
      url: '/api/v1/address/',
      headers: scene.victim.headers,
      payload: body,
    });
    expect(created.statusCode).toBe(201);
    expectJsonAnswer(created);
    const address = json<Address>(created);
    expect(address).toEqual({ id: expect.any(Number), ...body });
    // In the raw answer it is a JSON string: quotes escaped as JSON does, nothing HTML-escaped or dropped.
    expect(created.body).toContain(JSON.stringify(payload).slice(1, -1));

    const listed = await scene.shop.app.inject({
      method: 'GET',
      url: `/api/v1/address/${scene.victim.id}`,
      headers: scene.victim.headers,
    });
    expectJsonAnswer(listed);
    expect(json<Address[]>(listed).find((candidate) => candidate.id === address.id)).toEqual(address);
    const [row] = await scene.shop.app.database.db.select().from(addresses).where(eq(addresses.id, address.id));
    expect(row).toMatchObject({ country: payload, street: payload, homeNumber: payload.slice(0, 50) });

    const updated = await scene.shop.app.inject({
      method: 'PUT',
      url: `/api/v1/address/${address.id}`,
      headers: scene.victim.headers,
      payload: { ...body, city: payload },
    });
    expectJsonAnswer(updated);
    expect(json<Address>(updated).city).toBe(payload);
  });

  it('order address, company and contact fields with script: stored verbatim; the answers are JSON with nosniff', async () => {
    const { product, v1 } = scene.takeProduct();
    const fields = {
      address: PAYLOADS.join('\n'),
      company_name: '<img src=x onerror=alert(1)> ООО «<b>Ромашка</b>»',
      // ИНН and КПП hold digits only (checked below): script there is refused, not stored.
      company_inn: '7707083893',
      company_kpp: '773601001',
      contact_name: '<script>alert(1)</script>',
      contact_phone: '"><svg/onload=alert(1)>',
    };
    const placeWith = (overrides: Record<string, string>) =>
      scene.shop.app.inject({
        method: 'POST',
        url: '/api/v1/order/',
        headers: scene.attacker.headers,
        payload: {
          user_id: scene.attacker.id,
          items: [{ product_id: product.id, variant_id: v1.id, quantity: 1 }],
          ...fields,
          ...overrides,
        },
      });
    for (const [overrides, detail] of [
      [{ company_inn: '<b>x</b>12' }, MESSAGES.innLength],
      [{ company_kpp: '<i>x</i>1' }, MESSAGES.kppLength],
    ] as const) {
      const refused = await placeWith(overrides);
      expect(refused.statusCode).toBe(422);
      expect(refused.json()).toEqual({ detail });
    }
    const placed = await placeWith({});
    expect(placed.statusCode).toBe(201);
    expectJsonAnswer(placed);
    const order = json<OrderSummary>(placed);
    const [row] = await scene.shop.app.database.db.select().from(orders).where(eq(orders.id, order.id));
    expect(row).toMatchObject({
      address: fields.address,
      companyName: fields.company_name,
      companyInn: fields.company_inn,
      companyKpp: fields.company_kpp,
      contactName: fields.contact_name,
      contactPhone: fields.contact_phone,
    });
    for (const url of [`/api/v1/order/${scene.attacker.id}`, `/api/v1/order/${order.id}/status`]) {
      const response = await scene.shop.app.inject({ method: 'GET', url, headers: scene.attacker.headers });
      expect(response.statusCode).toBe(200);
      expectJsonAnswer(response);
    }
  });

  it('script in a path is never reflected: unknown category, art and image names answer without echoing it', async () => {
    const problems: string[] = [];
    for (const payload of PAYLOADS) {
      for (const url of [
        `/api/v1/products/categories/${encodeURIComponent(payload)}`,
        `/api/v1/products/${encodeURIComponent(payload.slice(0, 60))}`,
        `/api/v1/image/${encodeURIComponent(payload)}`,
        `/api/v1/${encodeURIComponent(payload)}`,
      ]) {
        const response = await scene.shop.app.inject({ method: 'GET', url });
        problems.push(...refusalProblems(url, response, [404, 422]));
        if (/<script|<img|<svg|onerror|javascript:/i.test(response.body)) problems.push(`${url} reflects the payload`);
      }
    }
    expect(problems).toEqual([]);
  });
});

itLogsNoSecret(scene);
