/**
 * The shop's data agreeing with itself, whatever requests came before: every cart's total is the
 * sum of its lines and each line is the database's price × its count; no stock is below 0; the
 * stock plus the units sold in live orders stays what it was (and the products' popularity counters
 * move with the units sold); every order's total is the sum of its lines.
 */
import { asc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Cart } from '../src/shared/api';
import { orderLines, orders, products, users, variants } from '../src/server/db/schema';
import { decimalToKopecks } from '../src/shared/money';
import { bearer, sessionTokenOf } from '../test/server/helpers/test-app';

export const CANCELLED = 'Отменён';

/** What orders and cancels cannot change: per variant, its stock + units in live orders; per product, its counter − those units. */
export interface Ledger {
  stockAndSold: Map<number, number>;
  unitsLessSold: Map<number, number>;
}

/** Units in orders not cancelled, per variant. */
async function unitsSold(app: FastifyInstance): Promise<Map<number, number>> {
  const rows = await app.database.db
    .select({ variantId: orderLines.variantId, units: sql<number>`sum(${orderLines.quantity})::int` })
    .from(orderLines)
    .innerJoin(orders, eq(orders.id, orderLines.orderId))
    .where(ne(orders.status, CANCELLED))
    .groupBy(orderLines.variantId);
  return new Map(rows.map((row) => [row.variantId, Number(row.units)]));
}

async function balances(app: FastifyInstance) {
  const db = app.database.db;
  const sold = await unitsSold(app);
  const soldByProduct = new Map<number, number>();
  const stockAndSold = new Map<number, number>();
  const stocks = await db
    .select({ id: variants.id, productId: variants.productId, stock: variants.stock })
    .from(variants);
  for (const row of stocks) {
    const units = sold.get(row.id) ?? 0;
    soldByProduct.set(row.productId, (soldByProduct.get(row.productId) ?? 0) + units);
    stockAndSold.set(row.id, row.stock + units);
  }
  const unitsLessSold = new Map<number, number>();
  for (const row of await db.select({ id: products.id, units: products.unitsOrdered }).from(products)) {
    unitsLessSold.set(row.id, row.units - (soldByProduct.get(row.id) ?? 0));
  }
  return { stocks, ledger: { stockAndSold, unitsLessSold } };
}

/** The ledger as it stands: take it after setting stocks by hand, before the requests to check. */
export async function ledgerOf(app: FastifyInstance): Promise<Ledger> {
  return (await balances(app)).ledger;
}

/** Every way the shop's data disagrees with itself or with `since`, as readable lines (empty when consistent). */
export async function inconsistencies(app: FastifyInstance, since: Ledger): Promise<string[]> {
  const db = app.database.db;
  const problems: string[] = [];

  const prices = new Map(
    (await db.select({ id: variants.id, price: variants.price }).from(variants)).map((row) => [
      row.id,
      decimalToKopecks(row.price),
    ]),
  );
  for (const { id } of await db.select({ id: users.id }).from(users).orderBy(asc(users.id))) {
    const response = await app.inject({
      method: 'GET',
      url: `/api/v1/cart/${id}`,
      headers: bearer(await sessionTokenOf(app, id)),
    });
    if (response.statusCode !== 200) {
      problems.push(`cart of user ${id}: ${response.statusCode} ${response.body}`);
      continue;
    }
    const cart = response.json() as Cart;
    let sum = 0;
    for (const item of cart.items) {
      const price = Math.round(item.variant.price * 100);
      if (price !== prices.get(item.variant_id))
        problems.push(`user ${id} line ${item.id}: price ${item.variant.price} is not the database's`);
      if (!Number.isInteger(item.count) || item.count < 1 || item.count > 10_000)
        problems.push(`user ${id} line ${item.id}: count ${item.count}`);
      if (Math.round(item.item_total * 100) !== price * item.count)
        problems.push(`user ${id} line ${item.id}: ${item.item_total} ≠ ${item.variant.price} × ${item.count}`);
      sum += Math.round(item.item_total * 100);
    }
    if (Math.round(cart.total_price * 100) !== sum)
      problems.push(`user ${id}: total ${cart.total_price} ≠ sum of lines ${sum / 100}`);
  }

  const { stocks, ledger } = await balances(app);
  for (const row of stocks) {
    if (row.stock < 0) problems.push(`variant ${row.id}: stock ${row.stock} below 0`);
    const now = ledger.stockAndSold.get(row.id);
    if (now !== since.stockAndSold.get(row.id)) {
      problems.push(`variant ${row.id}: stock + sold ${now}, was ${since.stockAndSold.get(row.id)}`);
    }
  }
  for (const [id, now] of ledger.unitsLessSold) {
    const before = since.unitsLessSold.get(id) ?? 0;
    if (now !== before) problems.push(`product ${id}: units ordered − sold ${now}, was ${before}`);
  }

  const lines = await db
    .select({ orderId: orderLines.orderId, price: orderLines.price, quantity: orderLines.quantity })
    .from(orderLines);
  const totals = new Map<number, number>();
  for (const line of lines)
    totals.set(line.orderId, (totals.get(line.orderId) ?? 0) + decimalToKopecks(line.price) * line.quantity);
  for (const order of await db.select({ id: orders.id, total: orders.totalPrice }).from(orders)) {
    if (!totals.has(order.id)) problems.push(`order ${order.id} has no lines`);
    if (decimalToKopecks(order.total) !== totals.get(order.id))
      problems.push(`order ${order.id}: total ${order.total} ≠ sum of lines ${(totals.get(order.id) ?? 0) / 100}`);
  }
  return problems;
}

/** Per variant of `ids`: its stock + units in live orders, the part of the ledger one step can be checked against. */
export async function stockAndSoldOf(app: FastifyInstance, ids: number[]): Promise<Map<number, number>> {
  const sold = await unitsSold(app);
  const rows = await app.database.db
    .select({ id: variants.id, stock: variants.stock })
    .from(variants)
    .where(inArray(variants.id, ids));
  return new Map(rows.map((row) => [row.id, row.stock + (sold.get(row.id) ?? 0)]));
}
