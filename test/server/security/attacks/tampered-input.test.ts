/**
 * Tampered counts, quantities, prices and ids: refused, or ignored in favour of what the database
 * says. (The attack catalogue's scene and its rules: test/server/helpers/attack-scene.ts.)
 */
import { asc, eq, sql } from 'drizzle-orm';
import type { Address, Cart, OrderSummary } from '../../../../src/shared/api';
import { addresses, cartItems, orderLines, orders } from '../../../../src/server/db/schema';
import { json, setVariant } from '../../helpers/test-app';
import { ADDRESS_FIELDS, attackScene, inStock, itLogsNoSecret, refusalProblems } from '../../helpers/attack-scene';

const scene = attackScene();

describe('3. Tampered counts, quantities, prices and ids', () => {
  const BAD_COUNTS: [string, string][] = [
    ['0', '0'],
    ['negative', '-3'],
    ['fractional', '1.5'],
    ['1e9', '1e9'],
    ['2^53', String(2 ** 53)],
    ['2^53 + 1 as text', '9007199254740993'],
    ['huge', '1e308'],
    ['a string', '"5"'],
    ['a word', '"много"'],
    ['true', 'true'],
    ['false', 'false'],
    ['null', 'null'],
    ['an array', '[1]'],
    ['an object', '{"$gt":0}'],
    ['NaN as text', '"NaN"'],
  ];

  it.each(BAD_COUNTS)('cart add with count %s → 422, nothing added', async (_name, count) => {
    const { product, v1 } = { product: scene.spare[0]!, v1: inStock(scene.spare[0]!)[0]! };
    await scene.changesNothing(async () => {
      const response = await scene.shop.app.inject({
        method: 'POST',
        url: '/api/v1/cart/add',
        headers: { ...scene.attacker.headers, 'content-type': 'application/json' },
        payload: `{"user_id":${scene.attacker.id},"product_id":${product.id},"variant_id":${v1.id},"count":${count}}`,
      });
      expect(refusalProblems(count, response, [422])).toEqual([]);
    });
  });

  it.each(BAD_COUNTS)('order with quantity %s → 422, no order and no stock taken', async (_name, quantity) => {
    const { product, v1 } = { product: scene.spare[0]!, v1: inStock(scene.spare[0]!)[0]! };
    await scene.changesNothing(async () => {
      const response = await scene.shop.app.inject({
        method: 'POST',
        url: '/api/v1/order/',
        headers: { ...scene.attacker.headers, 'content-type': 'application/json' },
        payload: `{"user_id":${scene.attacker.id},"address":"г. Тула","items":[{"product_id":${product.id},"variant_id":${v1.id},"quantity":${quantity}}]}`,
      });
      expect(refusalProblems(quantity, response, [422])).toEqual([]);
    });
  });

  it('PUT /cart/count with a bad count in the query → 422, the line keeps its count', async () => {
    const attackerLine = (
      await scene.shop.app.database.db.select().from(cartItems).where(eq(cartItems.userId, scene.attacker.id))
    )[0]!;
    await scene.changesNothing(async () => {
      const problems: string[] = [];
      for (const count of [
        '0',
        '-1',
        '1.5',
        '1e9',
        String(2 ** 53),
        '10001',
        'true',
        'null',
        '',
        'Infinity',
        ' ',
        '1,5',
        '1 OR 1=1',
      ]) {
        const response = await scene.shop.app.inject({
          method: 'PUT',
          url: '/api/v1/cart/count',
          query: { item_id: String(attackerLine.id), count },
          headers: scene.attacker.headers,
        });
        problems.push(...refusalProblems(JSON.stringify(count), response, [422]));
      }
      for (const url of [
        `/api/v1/cart/count?item_id=${attackerLine.id}&count=2&count=3`,
        `/api/v1/cart/count?item_id=${attackerLine.id}&count[]=2`,
        `/api/v1/cart/count?item_id=${attackerLine.id}&item_id=${scene.victimLines[0]}&count=2`,
      ]) {
        problems.push(
          ...refusalProblems(
            url,
            await scene.shop.app.inject({ method: 'PUT', url, headers: scene.attacker.headers }),
            [422],
          ),
        );
      }
      expect(problems).toEqual([]);
    });
  });

  it('more than the stock: 409 and nothing taken, even as 1000 lines of 1 000 000 units of one variant', async () => {
    const { product, v1, v2 } = scene.takeProduct();
    await setVariant(scene.shop.app, v1.id, { stock: 5 });
    await setVariant(scene.shop.app, v2.id, { stock: 5 });
    await scene.changesNothing(async () => {
      const order = (items: object[]) =>
        scene.shop.app.inject({
          method: 'POST',
          url: '/api/v1/order/',
          headers: scene.attacker.headers,
          payload: { user_id: scene.attacker.id, address: 'г. Тула', items },
        });
      expect(
        refusalProblems('6 of 5', await order([{ product_id: product.id, variant_id: v1.id, quantity: 6 }]), [409]),
      ).toEqual([]);
      const flood = Array.from({ length: 1000 }, () => ({
        product_id: product.id,
        variant_id: v1.id,
        quantity: 1_000_000,
      }));
      expect(refusalProblems('1000 × 1e6', await order(flood), [409])).toEqual([]);
      // A valid line next to an excessive one takes nothing either.
      const mixed = await order([
        { product_id: product.id, variant_id: v2.id, quantity: 1 },
        { product_id: product.id, variant_id: v1.id, quantity: 5 },
        { product_id: product.id, variant_id: v1.id, quantity: 1 },
      ]);
      expect(refusalProblems('mixed', mixed, [409])).toEqual([]);
    });
  });

  it('a variant of another product, next to a valid line → 422 and nothing taken; in the cart → 422', async () => {
    const a = scene.takeProduct();
    const b = scene.takeProduct();
    await scene.changesNothing(async () => {
      const order = await scene.shop.app.inject({
        method: 'POST',
        url: '/api/v1/order/',
        headers: scene.attacker.headers,
        payload: {
          user_id: scene.attacker.id,
          address: 'г. Тула',
          items: [
            { product_id: a.product.id, variant_id: a.v1.id, quantity: 1 },
            { product_id: a.product.id, variant_id: b.v1.id, quantity: 1 },
          ],
        },
      });
      expect(refusalProblems('order', order, [422])).toEqual([]);
      // The same variant named for two products in one order is refused too.
      const twice = await scene.shop.app.inject({
        method: 'POST',
        url: '/api/v1/order/',
        headers: scene.attacker.headers,
        payload: {
          user_id: scene.attacker.id,
          address: 'г. Тула',
          items: [
            { product_id: a.product.id, variant_id: a.v1.id, quantity: 1 },
            { product_id: b.product.id, variant_id: a.v1.id, quantity: 1 },
          ],
        },
      });
      expect(refusalProblems('twice', twice, [422])).toEqual([]);
      const cart = await scene.shop.app.inject({
        method: 'POST',
        url: '/api/v1/cart/add',
        headers: scene.attacker.headers,
        payload: { user_id: scene.attacker.id, product_id: b.product.id, variant_id: a.v2.id, count: 1 },
      });
      expect(refusalProblems('cart', cart, [422])).toEqual([]);
    });
  });

  it('extra price/total/status/id/user_id fields in an order are ignored: the total is the database price × quantity', async () => {
    const { product, v1, v2 } = scene.takeProduct();
    await setVariant(scene.shop.app, v1.id, { price: '1234.56', stock: 10 });
    await setVariant(scene.shop.app, v2.id, { price: '0.99', stock: 10 });
    const victimBefore = await scene.shop.app.database.db
      .select()
      .from(orders)
      .where(eq(orders.id, scene.victimOrder.id));
    const response = await scene.shop.app.inject({
      method: 'POST',
      url: '/api/v1/order/',
      headers: scene.attacker.headers,
      payload: {
        user_id: scene.attacker.id,
        address: 'г. Тула',
        items: [
          {
            product_id: product.id,
            variant_id: v1.id,
            quantity: 2,
            price: 0.01,
            total: 0,
            item_total: 0,
            id: scene.victimOrder.id,
          },
          { product_id: product.id, variant_id: v2.id, quantity: 3, price: -100, variant: { price: 0 } },
        ],
        id: scene.victimOrder.id,
        total_price: 1,
        total: 1,
        item_total: 1,
        status: 'Доставлен',
        price: 0,
        created_at: '2000-01-01T00:00:00.000Z',
        owner_id: scene.victim.id,
        userId: scene.victim.id,
      },
    });
    expect(response.statusCode).toBe(201);
    const order = json<OrderSummary>(response);
    expect(order.id).not.toBe(scene.victimOrder.id);
    expect(order.status).toBe('Создан');
    expect(order.total_price).toBe(2472.09); // 1234.56 × 2 + 0.99 × 3
    expect(order.items_count).toBe(5);
    expect(new Date(order.created_at).getFullYear()).toBeGreaterThan(2000);

    const { rows: stored } = (await scene.shop.app.database.db.execute(
      sql`select * from orders where id = ${order.id}`,
    )) as unknown as { rows: Record<string, unknown>[] };
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ user_id: scene.attacker.id, status: 'Создан', total_price: '2472.09' });
    for (const extra of ['price', 'total', 'item_total', 'owner_id', 'userId'])
      expect(stored[0]).not.toHaveProperty(extra);
    const lines = await scene.shop.app.database.db
      .select()
      .from(orderLines)
      .where(eq(orderLines.orderId, order.id))
      .orderBy(asc(orderLines.variantId));
    expect(lines.map((row) => [row.variantId, row.price, row.quantity])).toEqual(
      [
        [v1.id, '1234.56', 2],
        [v2.id, '0.99', 3],
      ].sort((x, y) => Number(x[0]) - Number(y[0])),
    );
    // The victim's order, whose id was in the body twice, is untouched.
    expect(await scene.shop.app.database.db.select().from(orders).where(eq(orders.id, scene.victimOrder.id))).toEqual(
      victimBefore,
    );
  });

  it('extra price/item_total/id/user_id fields in a cart add are ignored: a new line for the attacker, prices from the database', async () => {
    const { product, v1 } = scene.takeProduct();
    const victimCartBefore = await scene.shop.app.database.db
      .select()
      .from(cartItems)
      .where(eq(cartItems.userId, scene.victim.id));
    const response = await scene.shop.app.inject({
      method: 'POST',
      url: '/api/v1/cart/add',
      headers: scene.attacker.headers,
      payload: {
        user_id: scene.attacker.id,
        product_id: product.id,
        variant_id: v1.id,
        count: 2,
        id: scene.victimLines[0],
        item_id: scene.victimLines[0],
        price: 0.01,
        item_total: 0.02,
        total_price: 0,
        variant: { price: 0 },
        userId: scene.victim.id,
      },
    });
    expect(response.statusCode).toBe(201);
    const lineId = json<{ id: number }>(response).id;
    expect(scene.victimLines).not.toContain(lineId);
    const cart = json<Cart>(
      await scene.shop.app.inject({
        method: 'GET',
        url: `/api/v1/cart/${scene.attacker.id}`,
        headers: scene.attacker.headers,
      }),
    );
    const line = cart.items.find((item) => item.id === lineId)!;
    expect(line).toMatchObject({
      count: 2,
      variant_id: v1.id,
      variant: { price: v1.price },
      item_total: Math.round(v1.price! * 200) / 100,
    });
    expect(
      await scene.shop.app.database.db.select().from(cartItems).where(eq(cartItems.userId, scene.victim.id)),
    ).toEqual(victimCartBefore);
  });

  it("extra id/user_id fields in an address are ignored: the attacker's own new address, the victim's untouched", async () => {
    const before = await scene.shop.app.database.db
      .select()
      .from(addresses)
      .where(eq(addresses.userId, scene.victim.id));
    const response = await scene.shop.app.inject({
      method: 'POST',
      url: '/api/v1/address/',
      headers: scene.attacker.headers,
      payload: {
        ...ADDRESS_FIELDS,
        user_id: scene.attacker.id,
        id: scene.victimAddresses[0]!.id,
        userId: scene.victim.id,
        owner: scene.victim.id,
      },
    });
    expect(response.statusCode).toBe(201);
    const created = json<Address>(response);
    expect(created.id).not.toBe(scene.victimAddresses[0]!.id);
    expect(created.user_id).toBe(scene.attacker.id);
    // PUT with an id in the body does not move the update to that address.
    const own = (
      await scene.shop.app.database.db.select().from(addresses).where(eq(addresses.userId, scene.attacker.id))
    )[0]!;
    const moved = await scene.shop.app.inject({
      method: 'PUT',
      url: `/api/v1/address/${own.id}`,
      headers: scene.attacker.headers,
      payload: { ...ADDRESS_FIELDS, city: 'Взломанск', user_id: scene.attacker.id, id: scene.victimAddresses[0]!.id },
    });
    expect(moved.statusCode).toBe(200);
    expect(json<Address>(moved).id).toBe(own.id);
    expect(
      await scene.shop.app.database.db.select().from(addresses).where(eq(addresses.userId, scene.victim.id)),
    ).toEqual(before);
  });
});

itLogsNoSecret(scene);
