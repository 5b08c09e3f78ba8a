// What the back office's «Обмен с 1С» reads and sets: the accounts that may exchange, 1С's price
// types and warehouses as the exchanges named them, the runs with their files, the orders waiting.
import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Queryable } from '../db/database';
import {
  exchangeFiles,
  exchangePriceTypes,
  exchangeRuns,
  exchangeWarehouses,
  orders,
  priceTypes,
  staffProfiles,
  users,
} from '../db/schema';

export type ExchangePriceTypeRow = typeof exchangePriceTypes.$inferSelect;
export type ExchangeWarehouseRow = typeof exchangeWarehouses.$inferSelect;
export type ExchangeRunRow = Omit<typeof exchangeRuns.$inferSelect, 'sentOrders' | 'byUserId'> & {
  byEmail: string | null;
};
export type ExchangeRunFileRow = Pick<
  typeof exchangeFiles.$inferSelect,
  'runId' | 'name' | 'bytes' | 'stage' | 'failure'
>;

export interface ExchangeAccountRow {
  id: number;
  email: string;
  name: string | null;
  role: string;
}

export function createExchangeAdminRepository(db: Queryable) {
  return {
    async accounts(): Promise<ExchangeAccountRow[]> {
      return db
        .select({ id: users.id, email: users.email, name: staffProfiles.name, role: users.role })
        .from(users)
        .leftJoin(staffProfiles, eq(staffProfiles.userId, users.id))
        .where(eq(users.exchangeAccess, true))
        .orderBy(asc(users.email));
    },

    async account(userId: number): Promise<ExchangeAccountRow | null> {
      const [row] = await db
        .select({ id: users.id, email: users.email, name: staffProfiles.name, role: users.role })
        .from(users)
        .leftJoin(staffProfiles, eq(staffProfiles.userId, users.id))
        .where(eq(users.id, userId));
      return row ?? null;
    },

    async priceTypes(): Promise<ExchangePriceTypeRow[]> {
      return db
        .select()
        .from(exchangePriceTypes)
        .orderBy(asc(exchangePriceTypes.name), asc(exchangePriceTypes.externalId));
    },

    /** Sets the shop type a 1С type fills, as a manager's choice the exchanges keep; null when there is no such 1С type. */
    async mapPriceType(
      externalId: string,
      priceTypeId: number | null,
    ): Promise<{ before: ExchangePriceTypeRow; after: ExchangePriceTypeRow } | null> {
      const [before] = await db
        .select()
        .from(exchangePriceTypes)
        .where(eq(exchangePriceTypes.externalId, externalId))
        .for('update');
      if (!before) return null;
      const [after] = await db
        .update(exchangePriceTypes)
        .set({ priceTypeId, mappedByManager: true })
        .where(eq(exchangePriceTypes.externalId, externalId))
        .returning();
      return { before, after: after! };
    },

    async shopPriceTypeExists(priceTypeId: number): Promise<boolean> {
      const [row] = await db.select({ id: priceTypes.id }).from(priceTypes).where(eq(priceTypes.id, priceTypeId));
      return row !== undefined;
    },

    async warehouses(): Promise<ExchangeWarehouseRow[]> {
      return db
        .select()
        .from(exchangeWarehouses)
        .orderBy(asc(exchangeWarehouses.name), asc(exchangeWarehouses.externalId));
    },

    async setWarehouseUsed(
      externalId: string,
      used: boolean,
    ): Promise<{ before: ExchangeWarehouseRow; after: ExchangeWarehouseRow } | null> {
      const [before] = await db
        .select()
        .from(exchangeWarehouses)
        .where(eq(exchangeWarehouses.externalId, externalId))
        .for('update');
      if (!before) return null;
      const [after] = await db
        .update(exchangeWarehouses)
        .set({ used })
        .where(eq(exchangeWarehouses.externalId, externalId))
        .returning();
      return { before, after: after! };
    },

    /** How many orders the next `query` sends (the pending condition of orders_exchange_pending_idx). */
    async pendingOrders(): Promise<number> {
      const [row] = await db
        .select({ count: count() })
        .from(orders)
        .where(
          sql`(${orders.exchangeConfirmedAt} is null or ${orders.exchangeConfirmedAt} < ${orders.exchangeChangedAt})`,
        );
      return row?.count ?? 0;
    },

    /** The runs newest first, a page of them, and how many there are. */
    async runs(skip: number, limit: number): Promise<{ rows: ExchangeRunRow[]; total: number }> {
      const rows = await db
        .select({
          id: exchangeRuns.id,
          kind: exchangeRuns.kind,
          startedAt: exchangeRuns.startedAt,
          finishedAt: exchangeRuns.finishedAt,
          status: exchangeRuns.status,
          failure: exchangeRuns.failure,
          stats: exchangeRuns.stats,
          filesRemovedAt: exchangeRuns.filesRemovedAt,
          byEmail: users.email,
        })
        .from(exchangeRuns)
        .leftJoin(users, eq(users.id, exchangeRuns.byUserId))
        .orderBy(desc(exchangeRuns.startedAt), desc(exchangeRuns.id))
        .offset(skip)
        .limit(limit);
      const [all] = await db.select({ count: count() }).from(exchangeRuns);
      return { rows, total: all?.count ?? 0 };
    },

    async runFiles(runIds: string[]): Promise<ExchangeRunFileRow[]> {
      if (runIds.length === 0) return [];
      return db
        .select({
          runId: exchangeFiles.runId,
          name: exchangeFiles.name,
          bytes: exchangeFiles.bytes,
          stage: exchangeFiles.stage,
          failure: exchangeFiles.failure,
        })
        .from(exchangeFiles)
        .where(inArray(exchangeFiles.runId, runIds))
        .orderBy(asc(exchangeFiles.name));
    },

    /** A file the run received or unpacked, while the run's files are kept; null otherwise. */
    async keptFile(runId: string, name: string): Promise<{ name: string } | null> {
      const [row] = await db
        .select({ name: exchangeFiles.name })
        .from(exchangeFiles)
        .innerJoin(exchangeRuns, eq(exchangeRuns.id, exchangeFiles.runId))
        .where(
          and(
            eq(exchangeFiles.runId, runId),
            eq(exchangeFiles.name, name),
            sql`${exchangeRuns.filesRemovedAt} is null`,
          ),
        );
      return row ?? null;
    },
  };
}

export type ExchangeAdminRepository = ReturnType<typeof createExchangeAdminRepository>;
