// The orders' side of the 1С exchange (type=sale): which orders the next query sends, the orders as
// the document describes them, the marks `success` moves, and 1С's version of an order.
import { and, asc, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { ExchangeRunStats, OneCOrderDocument } from '../../shared/exchange';
import type { OrderStatus } from '../../shared/order-statuses';
import type { Queryable } from '../db/database';
import { companies, exchangeRuns, legalEntities, orderLines, orders, products, users, variants } from '../db/schema';

/** An order the query sends, with the exchange_changed_at it is sent at (what `success` confirms). */
export interface SentOrder {
  id: number;
  changedAt: string;
}

const pending = or(isNull(orders.exchangeConfirmedAt), lt(orders.exchangeConfirmedAt, orders.exchangeChangedAt));

export function createExchangeOrdersRepository(db: Queryable) {
  return {
    /** The orders the next query sends, oldest first, at most `limit`. */
    async pending(limit: number): Promise<SentOrder[]> {
      // As text: a JavaScript Date keeps milliseconds, the column microseconds, and `success` must
      // confirm the very moment that was sent.
      return db
        .select({ id: orders.id, changedAt: sql<string>`${orders.exchangeChangedAt}::text` })
        .from(orders)
        .where(pending)
        .orderBy(asc(orders.id))
        .limit(limit);
    },

    pendingCount: async (): Promise<number> => {
      const [row] = await db
        .select({ count: sql<number>`count(*)::int` })
        .from(orders)
        .where(pending);
      return row!.count;
    },

    /** The orders `ids` with their legal entity, company and placer's e-mail, in id order. */
    async findForDocument(ids: number[]) {
      if (ids.length === 0) return [];
      return db
        .select({
          id: orders.id,
          createdAt: orders.createdAt,
          status: orders.status,
          total: orders.totalPrice,
          address: orders.address,
          contactName: orders.contactName,
          contactPhone: orders.contactPhone,
          email: users.email,
          companyName: sql<string>`coalesce(${orders.companyName}, ${companies.name}, '')`,
          companyInn: orders.companyInn,
          companyKpp: orders.companyKpp,
          entityId: legalEntities.id,
          entityName: legalEntities.name,
          entityInn: legalEntities.inn,
          entityKpp: legalEntities.kpp,
          entityAddress: legalEntities.address,
        })
        .from(orders)
        .leftJoin(users, eq(users.id, orders.userId))
        .leftJoin(companies, eq(companies.id, orders.companyId))
        .leftJoin(legalEntities, eq(legalEntities.id, orders.legalEntityId))
        .where(inArray(orders.id, ids))
        .orderBy(asc(orders.id));
    },

    /** The lines of the orders `ids`, with 1С's Ид of the variant where it came from 1С. */
    linesOf(ids: number[]) {
      if (ids.length === 0) return Promise.resolve([]);
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
        .innerJoin(variants, eq(variants.id, orderLines.variantId))
        .where(inArray(orderLines.orderId, ids))
        .orderBy(asc(orderLines.orderId), asc(orderLines.id));
    },

    async sentOrders(runId: string): Promise<SentOrder[] | null> {
      const [row] = await db
        .select({ sent: exchangeRuns.sentOrders })
        .from(exchangeRuns)
        .where(eq(exchangeRuns.id, runId));
      return row?.sent ?? null;
    },

    async recordSent(runId: string, sent: SentOrder[]): Promise<void> {
      await db.update(exchangeRuns).set({ sentOrders: sent }).where(eq(exchangeRuns.id, runId));
    },

    /**
     * 1С has the orders `sent` as they were when sent: each is confirmed at the exchange_changed_at
     * it was sent with, so one changed since stays pending. Returns how many were confirmed.
     */
    async confirm(sent: SentOrder[]): Promise<number> {
      if (sent.length === 0) return 0;
      const sentAt = sql`sent.changed_at`;
      const confirmed = await db
        .update(orders)
        .set({ exchangeConfirmedAt: sentAt })
        .from(
          sql`unnest(${sql.param(sent.map((order) => order.id))}::int[], ${sql.param(sent.map((order) => order.changedAt))}::timestamptz[]) as sent(id, changed_at)`,
        )
        .where(
          and(
            sql`${orders.id} = sent.id`,
            or(isNull(orders.exchangeConfirmedAt), lt(orders.exchangeConfirmedAt, sentAt)),
          ),
        )
        .returning({ id: orders.id });
      return confirmed.length;
    },

    /** The order a document of 1С's file names by its Ид or Номер (the shop's order number as sent). */
    async findByNumber(
      numbers: string[],
    ): Promise<{ id: number; status: OrderStatus; oneC: OneCOrderDocument | null } | null> {
      const ids = numbers.filter((text) => /^\d{1,9}$/.test(text)).map(Number);
      if (ids.length === 0) return null;
      const [row] = await db
        .select({ id: orders.id, status: orders.status, oneC: orders.oneCDocument })
        .from(orders)
        .where(inArray(orders.id, ids))
        .limit(1);
      return row ? { id: row.id, status: row.status as OrderStatus, oneC: row.oneC } : null;
    },

    /** 1С's version of the order (its lines and sum), beside what was placed; not sent back to 1С. */
    async setOneCDocument(orderId: number, document: OneCOrderDocument | null): Promise<void> {
      await db.update(orders).set({ oneCDocument: document }).where(eq(orders.id, orderId));
    },

    /** Adds what the exchange did to its run (the back office's «Обмен с 1С» lists it); `done` ends it. */
    async recordRun(runId: string, stats: ExchangeRunStats, done: boolean): Promise<void> {
      await db
        .update(exchangeRuns)
        .set({
          stats: sql`${exchangeRuns.stats} || ${JSON.stringify(stats)}::jsonb`,
          ...(done ? { status: 'done' as const, finishedAt: new Date() } : {}),
        })
        .where(eq(exchangeRuns.id, runId));
    },

    /** The back office's «send again»: the orders go with the next query. Returns the ids found. */
    async resend(ids: number[]): Promise<number[]> {
      if (ids.length === 0) return [];
      const rows = await db
        .update(orders)
        .set({ exchangeConfirmedAt: null })
        .where(and(inArray(orders.id, ids)))
        .returning({ id: orders.id });
      return rows.map((row) => row.id);
    },
  };
}

export type ExchangeOrdersRepository = ReturnType<typeof createExchangeOrdersRepository>;
