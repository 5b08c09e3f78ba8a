// The orders' side of the 1С exchange (type=sale): which orders the next query sends, the marks a
// `success` moves, and 1С's version of an order. The rules are services/exchange-orders.ts's.
import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { OneCOrderDocument } from '../../shared/exchange';
import type { Queryable } from '../db/database';
import { exchangeRuns, legalEntities, orderLines, orders, products, users, variants } from '../db/schema';

/** The pending orders' condition, as the partial index orders_exchange_pending_idx is made. */
const pending = sql`(${orders.exchangeConfirmedAt} is null or ${orders.exchangeConfirmedAt} < ${orders.exchangeChangedAt})`;

/** An order as the query reads it, before the service makes it an OrderForExchange. */
export interface PendingOrderRow {
  id: number;
  createdAt: Date;
  status: string;
  totalPrice: string;
  address: string;
  contactName: string | null;
  contactPhone: string | null;
  companyId: number | null;
  companyName: string | null;
  companyInn: string | null;
  companyKpp: string | null;
  placerEmail: string | null;
  /** exchange_changed_at exactly as stored (microseconds and all): `success` sets it back as it was sent. */
  changedAt: string;
  entity: { id: string; kind: string; name: string; inn: string; kpp: string | null; address: string } | null;
}

export interface PendingLineRow {
  orderId: number;
  externalId: string | null;
  article: string;
  name: string;
  color: string;
  size: number;
  price: string;
  quantity: number;
}

export function createExchangeOrdersRepository(db: Queryable) {
  return {
    /** The run's row, locked until the transaction ends: a query and a success of one run queue. */
    async lockRun(runId: string): Promise<{ sentOrders: { id: number; changedAt: string }[] | null } | null> {
      const [run] = await db
        .select({ sentOrders: exchangeRuns.sentOrders })
        .from(exchangeRuns)
        .where(eq(exchangeRuns.id, runId))
        .for('update');
      return run ?? null;
    },

    /** Up to `limit` orders 1С has not confirmed as they are now, in id order. */
    async pendingOrders(limit: number): Promise<PendingOrderRow[]> {
      const rows = await db
        .select({
          id: orders.id,
          createdAt: orders.createdAt,
          status: orders.status,
          totalPrice: orders.totalPrice,
          address: orders.address,
          contactName: orders.contactName,
          contactPhone: orders.contactPhone,
          companyId: orders.companyId,
          companyName: orders.companyName,
          companyInn: orders.companyInn,
          companyKpp: orders.companyKpp,
          placerEmail: users.email,
          changedAt: sql<string>`to_json(${orders.exchangeChangedAt}) #>> '{}'`,
          entity: sql<PendingOrderRow['entity']>`case when ${legalEntities.id} is null then null else json_build_object(
            'id', ${legalEntities.id}, 'kind', ${legalEntities.kind}, 'name', ${legalEntities.name},
            'inn', ${legalEntities.inn}, 'kpp', ${legalEntities.kpp}, 'address', ${legalEntities.address}) end`,
        })
        .from(orders)
        .leftJoin(users, eq(users.id, orders.userId))
        .leftJoin(legalEntities, eq(legalEntities.id, orders.legalEntityId))
        .where(pending)
        .orderBy(asc(orders.id))
        .limit(limit);
      return rows;
    },

    /** The lines of `orderIds`, in each order's own order, with 1С's Ид of the variant when it came from 1С. */
    lines(orderIds: number[]): Promise<PendingLineRow[]> {
      if (orderIds.length === 0) return Promise.resolve([]);
      return db
        .select({
          orderId: orderLines.orderId,
          externalId: variants.externalId,
          article: products.art,
          name: orderLines.productName,
          color: orderLines.color,
          size: orderLines.size,
          price: orderLines.price,
          quantity: orderLines.quantity,
        })
        .from(orderLines)
        .innerJoin(products, eq(products.id, orderLines.productId))
        .leftJoin(variants, eq(variants.id, orderLines.variantId))
        .where(inArray(orderLines.orderId, orderIds))
        .orderBy(asc(orderLines.orderId), asc(orderLines.id));
    },

    /** Records what the run's query sent (replacing an earlier query's of the same run) and how many. */
    async recordSent(runId: string, sent: { id: number; changedAt: string }[]): Promise<void> {
      await db
        .update(exchangeRuns)
        .set({
          sentOrders: sent,
          stats: sql`${exchangeRuns.stats} || jsonb_build_object('ordersSent', ${sent.length}::int)`,
        })
        .where(eq(exchangeRuns.id, runId));
    },

    /**
     * Marks the orders sent as 1С has them: confirmed at the change they were sent at (never moved
     * back by a late success of an older run). Returns how many.
     */
    async confirmSent(sent: { id: number; changedAt: string }[]): Promise<number> {
      if (sent.length === 0) return 0;
      const { rows } = (await db.execute(sql`
        update ${orders} set exchange_confirmed_at = greatest(${orders.exchangeConfirmedAt}, sent."changedAt")
        from jsonb_to_recordset(${JSON.stringify(sent)}::jsonb) as sent(id int, "changedAt" timestamptz)
        where ${orders}.id = sent.id
        returning ${orders}.id`)) as { rows: unknown[] };
      return rows.length;
    },

    /** Makes the orders pending again, as changed now; returns the ids of those that exist. */
    async markChanged(orderIds: number[]): Promise<number[]> {
      if (orderIds.length === 0) return [];
      const rows = await db
        .update(orders)
        .set({ exchangeChangedAt: sql`now()` })
        .where(inArray(orders.id, orderIds))
        .returning({ id: orders.id });
      return rows.map((row) => row.id).sort((a, b) => a - b);
    },

    /** An order as 1С's file names it: its status and 1С's version kept so far; null when there is none. */
    async findForOneC(orderId: number): Promise<{ id: number; oneCDocument: OneCOrderDocument | null } | null> {
      const [row] = await db
        .select({ id: orders.id, oneCDocument: orders.oneCDocument })
        .from(orders)
        .where(eq(orders.id, orderId));
      return row ?? null;
    },

    /** The order's lines as 1С's are compared with them. */
    placedLines(orderId: number) {
      return db
        .select({ externalId: variants.externalId, price: orderLines.price, quantity: orderLines.quantity })
        .from(orderLines)
        .leftJoin(variants, eq(variants.id, orderLines.variantId))
        .where(eq(orderLines.orderId, orderId))
        .orderBy(asc(orderLines.id));
    },

    /** 1С's version of the order (null: it agrees with what was placed); not a change the shop sends back. */
    async setOneCDocument(orderId: number, document: OneCOrderDocument | null): Promise<void> {
      await db.update(orders).set({ oneCDocument: document }).where(eq(orders.id, orderId));
    },

    /** `success`: the exchange of orders is over, having sent `ordersSent`. */
    async finishRun(runId: string, ordersSent: number): Promise<void> {
      await db
        .update(exchangeRuns)
        .set({
          status: 'done',
          finishedAt: new Date(),
          stats: sql`${exchangeRuns.stats} || jsonb_build_object('ordersSent', ${ordersSent}::int)`,
        })
        .where(eq(exchangeRuns.id, runId));
    },

    /** Adds a file's counts to the run's. */
    async addStats(runId: string, ordersUpdated: number, errors: string[]): Promise<void> {
      await db
        .update(exchangeRuns)
        .set({
          stats: sql`${exchangeRuns.stats} || jsonb_build_object(
            'ordersUpdated', coalesce((${exchangeRuns.stats} ->> 'ordersUpdated')::int, 0) + ${ordersUpdated}::int,
            'errors', coalesce(${exchangeRuns.stats} -> 'errors', '[]'::jsonb) || ${JSON.stringify(errors)}::jsonb)`,
        })
        .where(eq(exchangeRuns.id, runId));
    },
  };
}
