/**
 * Broken access control: another user's cart, orders and addresses, reached with a valid token of
 * one's own and every odd spelling of their ids. (The attack catalogue's scene and its rules:
 * test/server/helpers/attack-scene.ts.)
 */
import type { LightMyRequestResponse } from 'fastify';
import type { Address, Cart, OrderSummary } from '../../../../src/shared/api';
import { json } from '../../helpers/test-app';
import {
  ADDRESS_FIELDS,
  attackScene,
  inStock,
  itLogsNoSecret,
  refusalProblems,
  REFUSED,
} from '../../helpers/attack-scene';

const scene = attackScene();

describe("1. Broken access control: another user's cart, orders and addresses, with a valid token of one's own", () => {
  /** The odd spellings of an id: for `n` (the victim's) and the literal ones of the issue. */
  const oddForms = (n: number) => [
    ...new Set([
      '0',
      '-1',
      `-${n}`,
      `${n}.0`,
      '1.0',
      `${n} OR 1=1`,
      '1 OR 1=1',
      `${n};DROP TABLE users`,
      '1;DROP TABLE users',
      '99999999999999999999',
      `0x${n.toString(16)}`,
      '0x1',
      ` ${n}`,
      ' 1',
      `${n}e0`,
      '\u0000',
      `${n}\u0000`,
      `${n}/../${scene.attacker.id}`,
      `${scene.attacker.id},${n}`,
      '',
    ]),
  ];

  type Target = 'user' | 'line' | 'order' | 'address';
  const idOf = (target: Target): number =>
    ({
      user: scene.victim.id,
      line: scene.victimLines[0]!,
      order: scene.victimOrder.id,
      address: scene.victimAddresses[0]!.id,
    })[target];

  const path = (id: string) => encodeURIComponent(id);
  // [name, what the id names, the status for the victim's plain id, the request]
  const inPath: [string, Target, number, (id: string) => Promise<LightMyRequestResponse>][] = [
    [
      'read the cart: GET /cart/{victim}',
      'user',
      403,
      (id) =>
        scene.shop.app.inject({ method: 'GET', url: `/api/v1/cart/${path(id)}`, headers: scene.attacker.headers }),
    ],
    [
      'read the orders: GET /order/{victim}',
      'user',
      403,
      (id) =>
        scene.shop.app.inject({ method: 'GET', url: `/api/v1/order/${path(id)}`, headers: scene.attacker.headers }),
    ],
    [
      'read the addresses: GET /address/{victim}',
      'user',
      403,
      (id) =>
        scene.shop.app.inject({ method: 'GET', url: `/api/v1/address/${path(id)}`, headers: scene.attacker.headers }),
    ],
    [
      "read an order's status: GET /order/{victimOrder}/status",
      'order',
      404,
      (id) =>
        scene.shop.app.inject({
          method: 'GET',
          url: `/api/v1/order/${path(id)}/status`,
          headers: scene.attacker.headers,
        }),
    ],
    [
      'change a count: PUT /cart/count?item_id={victimLine}',
      'line',
      404,
      (id) =>
        scene.shop.app.inject({
          method: 'PUT',
          url: '/api/v1/cart/count',
          query: { item_id: id, count: '9999' },
          headers: scene.attacker.headers,
        }),
    ],
    [
      'delete a cart line: DELETE /cart/{victimLine}',
      'line',
      404,
      (id) =>
        scene.shop.app.inject({ method: 'DELETE', url: `/api/v1/cart/${path(id)}`, headers: scene.attacker.headers }),
    ],
    [
      'cancel an order: DELETE /order/{victimOrder}',
      'order',
      404,
      (id) =>
        scene.shop.app.inject({ method: 'DELETE', url: `/api/v1/order/${path(id)}`, headers: scene.attacker.headers }),
    ],
    [
      'delete an address: DELETE /address/{victimAddress}',
      'address',
      404,
      (id) =>
        scene.shop.app.inject({
          method: 'DELETE',
          url: `/api/v1/address/${path(id)}`,
          headers: scene.attacker.headers,
        }),
    ],
    [
      'edit an address: PUT /address/{victimAddress} (own user_id)',
      'address',
      404,
      (id) =>
        scene.shop.app.inject({
          method: 'PUT',
          url: `/api/v1/address/${path(id)}`,
          headers: scene.attacker.headers,
          payload: { ...ADDRESS_FIELDS, city: 'Взломанск', user_id: scene.attacker.id },
        }),
    ],
  ];

  it.each(inPath.map(([name, target, status, send]) => ({ name, target, status, send })))(
    "$name → refused in its plain form and in every odd form; the victim's data unchanged",
    async ({ target, status, send }) => {
      await scene.changesNothing(async () => {
        const problems = refusalProblems('plain id', await send(String(idOf(target))), [status]);
        for (const form of oddForms(idOf(target)))
          problems.push(...refusalProblems(JSON.stringify(form), await send(form), REFUSED));
        expect(problems).toEqual([]);
      });
    },
  );

  /** user_id spelled in JSON: the victim's as a number, and everything odd around it. */
  const jsonForms = (n: number) => [
    `${n}.0`,
    `${n}e0`,
    `"${n}"`,
    `[${n}]`,
    `{"$eq":${n}}`,
    `"${n} OR 1=1"`,
    '"1;DROP TABLE users"',
    '-1',
    '0',
    '99999999999999999999',
    '9007199254740993',
    'null',
    'true',
    `"0x${n.toString(16)}"`,
  ];
  const inBody: [string, (userId: string) => Promise<LightMyRequestResponse>][] = [
    [
      'add to their cart: POST /cart/add with user_id=victim',
      (userId) => {
        const product = scene.catalogue.find((candidate) => inStock(candidate).length > 0)!;
        const v1 = inStock(product)[0]!;
        return scene.shop.app.inject({
          method: 'POST',
          url: '/api/v1/cart/add',
          headers: { ...scene.attacker.headers, 'content-type': 'application/json' },
          payload: `{"user_id":${userId},"product_id":${product.id},"variant_id":${v1.id},"count":1}`,
        });
      },
    ],
    [
      'order in their name: POST /order/ with user_id=victim',
      (userId) => {
        const product = scene.catalogue.find((candidate) => inStock(candidate).length > 0)!;
        return scene.shop.app.inject({
          method: 'POST',
          url: '/api/v1/order/',
          headers: { ...scene.attacker.headers, 'content-type': 'application/json' },
          payload: `{"user_id":${userId},"address":"г. Тверь","items":[{"product_id":${product.id},"variant_id":${inStock(product)[0]!.id},"quantity":1}]}`,
        });
      },
    ],
    [
      'add an address for them: POST /address/ with user_id=victim',
      (userId) =>
        scene.shop.app.inject({
          method: 'POST',
          url: '/api/v1/address/',
          headers: { ...scene.attacker.headers, 'content-type': 'application/json' },
          payload: `{"user_id":${userId},"country":"Россия","city":"Взломанск","street":"ул. Ложная","home_number":"1"}`,
        }),
    ],
    [
      'edit their address: PUT /address/{victimAddress} with user_id=victim',
      (userId) =>
        scene.shop.app.inject({
          method: 'PUT',
          url: `/api/v1/address/${scene.victimAddresses[0]!.id}`,
          headers: { ...scene.attacker.headers, 'content-type': 'application/json' },
          payload: `{"user_id":${userId},"country":"Россия","city":"Взломанск","street":"ул. Ложная","home_number":"1"}`,
        }),
    ],
  ];

  it.each(inBody.map(([name, send]) => ({ name, send })))(
    '$name → 403 as a plain number, 403/422 in every odd JSON form; nothing stored for anyone',
    async ({ send }) => {
      await scene.changesNothing(async () => {
        const problems = refusalProblems('plain user_id', await send(String(scene.victim.id)), [403]);
        for (const form of jsonForms(scene.victim.id))
          problems.push(...refusalProblems(form, await send(form), [403, 422]));
        expect(problems).toEqual([]);
      });
    },
  );

  it("the same calls with the victim's own token succeed (the attacks above fail for the right reason)", async () => {
    const cart = await scene.shop.app.inject({
      method: 'GET',
      url: `/api/v1/cart/${scene.victim.id}`,
      headers: scene.victim.headers,
    });
    expect(cart.statusCode).toBe(200);
    expect(json<Cart>(cart).items.map((item) => item.id)).toEqual(scene.victimLines);
    const list = await scene.shop.app.inject({
      method: 'GET',
      url: `/api/v1/order/${scene.victim.id}`,
      headers: scene.victim.headers,
    });
    expect(json<OrderSummary[]>(list)).toEqual([scene.victimOrder]);
    const status = await scene.shop.app.inject({
      method: 'GET',
      url: `/api/v1/order/${scene.victimOrder.id}/status`,
      headers: scene.victim.headers,
    });
    expect(status.json()).toEqual({ id: scene.victimOrder.id, status: 'Создан' });
    const mine = await scene.shop.app.inject({
      method: 'GET',
      url: `/api/v1/address/${scene.victim.id}`,
      headers: scene.victim.headers,
    });
    expect(json<Address[]>(mine)).toEqual(scene.victimAddresses);
  });
});

itLogsNoSecret(scene);
