import { and, asc, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { OrderItemPayload, OrderStatus, OrderStatusAnswer, OrderSummary } from '../../shared/api';
import type { Database, Transaction } from '../db/database';
import { cartItems, orderLines, orders, products, variants } from '../db/schema';
import {
  IdempotencyConflictError,
  OrderCancelledError,
  OrderNotCancellableError,
  OrderNotFoundError,
} from '../domain/errors';
import { mergeLines, priceOrder, type PricedOrder, type StockedVariant } from '../domain/order-pricing';
import { kopecksToDecimal, kopecksToRubles } from '../money';
import { CATALOGUE_CHANNEL } from '../services/catalogue-cache';
import { variantColumns } from './products';

export interface NewOrder {
  userId: number;
  address: string;
  contactName: string | null;
  contactPhone: string | null;
  companyName: string | null;
  companyInn: string | null;
  companyKpp: string | null;
  items: OrderItemPayload[];
  /** The client's Idempotency-Key and a digest of the request: a repeat returns the first order. */
  idempotency?: { key: string; digest: string };
}

export interface PlacedOrder {
  order: OrderSummary;
  /** True when the Idempotency-Key had already placed this order. */
  replayed: boolean;
}

const NEW_ORDER_STATUS: OrderStatus = 'Создан';
/** Once goods have left the warehouse the order can no longer be cancelled. */
const CANCELLABLE: readonly OrderStatus[] = ['Создан', 'Ожидает оплаты', 'Оплачен'];
const CANCELLED: OrderStatus = 'Отменён';

function summaryColumns() {
  return {
    id: orders.id,
    total_price: orders.totalPrice,
    status: orders.status,
    created_at: orders.createdAt,
    // Table-qualified by hand: drizzle prints a one-table select's columns unqualified, and inside
    // the subquery a bare "id" meant order_lines.id, so every order got the wrong count.
    items_count: sql<number>`coalesce((select sum(ol.quantity) from ${orderLines} as ol where ol.order_id = ${orders}.id), 0)::int`,
  };
}

type SummaryRow = { id: number; total_price: string; status: string; created_at: Date; items_count: number };

function toSummary(row: SummaryRow): OrderSummary {
  return {
    id: row.id,
    total_price: Number(row.total_price),
    status: row.status as OrderStatus,
    created_at: row.created_at.toISOString(),
    items_count: Number(row.items_count),
  };
}

/** Tells every process of the shop, once the transaction commits, that stock has changed. */
async function announceStockChange(tx: Transaction): Promise<void> {
  await tx.execute(sql`select pg_notify(${CATALOGUE_CHANNEL}, '')`);
}

async function returnStock(tx: Transaction, orderId: number): Promise<void> {
  const lines = await tx
    .select({ variantId: orderLines.variantId, productId: orderLines.productId, quantity: orderLines.quantity })
    .from(orderLines)
    .where(eq(orderLines.orderId, orderId))
    .orderBy(asc(orderLines.variantId));
  for (const line of lines) {
    await tx
      .update(variants)
      .set({ stock: sql`${variants.stock} + ${line.quantity}` })
      .where(eq(variants.id, line.variantId));
  }
  for (const line of [...lines].sort((a, b) => a.productId - b.productId)) {
    await tx
      .update(products)
      .set({ unitsOrdered: sql`greatest(${products.unitsOrdered} - ${line.quantity}, 0)` })
      .where(eq(products.id, line.productId));
  }
}

/**
 * The order an Idempotency-Key already placed, if any. Requests with one key queue on its lock, so
 * only the first can place the order; the lock is taken before any variant lock, always in that
 * order, so it cannot deadlock with them.
 */
async function findEarlierOrder(
  tx: Transaction,
  userId: number,
  { key, digest }: { key: string; digest: string },
): Promise<OrderSummary | null> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`${userId}:${key}`}, 0))`);
  const [earlier] = await tx
    .select({ ...summaryColumns(), requestDigest: orders.requestDigest })
    .from(orders)
    .where(and(eq(orders.userId, userId), eq(orders.idempotencyKey, key)));
  if (!earlier) return null;
  if (earlier.requestDigest !== digest) throw new IdempotencyConflictError();
  return toSummary(earlier);
}

/** Locks the ordered variants in id order, so that concurrent orders cannot deadlock. */
async function lockVariants(tx: Transaction, variantIds: number[]): Promise<Map<number, StockedVariant>> {
  const locked = await tx
    .select({ ...variantColumns, productName: products.name })
    .from(variants)
    .innerJoin(products, eq(products.id, variants.productId))
    .where(inArray(variants.id, variantIds))
    .orderBy(asc(variants.id))
    .for('update', { of: variants });
  return new Map(locked.map((variant) => [variant.id, variant]));
}

/** Takes the priced lines off the stock, records the order and empties those lines from the cart. */
async function writeOrder(
  tx: Transaction,
  order: NewOrder,
  variantIds: number[],
  priced: PricedOrder,
): Promise<OrderSummary> {
  for (const { variant, quantity } of priced.lines) {
    await tx
      .update(variants)
      .set({ stock: sql`${variants.stock} - ${quantity}` })
      .where(eq(variants.id, variant.id));
  }
  for (const [productId, units] of priced.unitsByProduct) {
    await tx
      .update(products)
      .set({ unitsOrdered: sql`${products.unitsOrdered} + ${units}` })
      .where(eq(products.id, productId));
  }
  const [created] = await tx
    .insert(orders)
    .values({
      userId: order.userId,
      status: NEW_ORDER_STATUS,
      address: order.address,
      contactName: order.contactName,
      contactPhone: order.contactPhone,
      companyName: order.companyName,
      companyInn: order.companyInn,
      companyKpp: order.companyKpp,
      totalPrice: kopecksToDecimal(priced.totalKopecks),
      idempotencyKey: order.idempotency?.key ?? null,
      requestDigest: order.idempotency?.digest ?? null,
    })
    .returning({ id: orders.id, createdAt: orders.createdAt });
  await tx.insert(orderLines).values(
    priced.lines.map(({ variant, quantity }) => ({
      orderId: created!.id,
      productId: variant.productId,
      variantId: variant.id,
      productName: variant.productName,
      color: variant.color,
      size: variant.size,
      price: variant.price,
      quantity,
    })),
  );
  await tx.delete(cartItems).where(and(eq(cartItems.userId, order.userId), inArray(cartItems.variantId, variantIds)));
  await announceStockChange(tx);
  return {
    id: created!.id,
    total_price: kopecksToRubles(priced.totalKopecks),
    status: NEW_ORDER_STATUS,
    created_at: created!.createdAt.toISOString(),
    items_count: priced.itemsCount,
  };
}

export function createOrdersRepository(db: Database) {
  async function cancelLocked(tx: Transaction, orderId: number, userId: number | null): Promise<OrderStatusAnswer> {
    const [order] = await tx
      .select({ id: orders.id, userId: orders.userId, status: orders.status })
      .from(orders)
      .where(eq(orders.id, orderId))
      .for('update');
    if (!order || (userId !== null && order.userId !== userId)) throw new OrderNotFoundError();
    if (!CANCELLABLE.includes(order.status as OrderStatus)) {
      throw new OrderNotCancellableError(order.id, order.status);
    }
    await returnStock(tx, order.id);
    await announceStockChange(tx);
    await tx.update(orders).set({ status: CANCELLED, updatedAt: new Date() }).where(eq(orders.id, order.id));
    return { id: order.id, status: CANCELLED };
  }

  return {
    /**
     * Places an order in one transaction: the variants are locked in id order (so concurrent
     * orders cannot deadlock), priced from the database and checked against the stock, then the
     * stock is decremented and the ordered variants leave the buyer's cart.
     */
    async place(order: NewOrder): Promise<PlacedOrder> {
      const ordered = mergeLines(order.items);
      const variantIds = [...ordered.keys()].sort((a, b) => a - b);
      return db.transaction(async (tx) => {
        const earlier = order.idempotency && (await findEarlierOrder(tx, order.userId, order.idempotency));
        if (earlier) return { order: earlier, replayed: true };
        const priced = priceOrder(variantIds, ordered, await lockVariants(tx, variantIds));
        return { order: await writeOrder(tx, order, variantIds, priced), replayed: false };
      });
    },

    /** Newest first. */
    async listForUser(userId: number): Promise<OrderSummary[]> {
      const rows = await db
        .select(summaryColumns())
        .from(orders)
        .where(eq(orders.userId, userId))
        .orderBy(desc(orders.id));
      return rows.map(toSummary);
    },

    /** `null` unless the order exists and belongs to the user. */
    async statusFor(userId: number, orderId: number): Promise<OrderStatusAnswer | null> {
      const [row] = await db
        .select({ id: orders.id, status: orders.status })
        .from(orders)
        .where(and(eq(orders.id, orderId), eq(orders.userId, userId)));
      return row ? { id: row.id, status: row.status as OrderStatus } : null;
    },

    /** Cancels the buyer's own order and puts its goods back on the shelf. */
    cancel(userId: number, orderId: number): Promise<OrderStatusAnswer> {
      return db.transaction((tx) => cancelLocked(tx, orderId, userId));
    },

    /** The managers' command: any order, any known status; cancelling returns the stock. */
    async setStatus(orderId: number, status: OrderStatus): Promise<OrderStatusAnswer> {
      if (status === CANCELLED) return db.transaction((tx) => cancelLocked(tx, orderId, null));
      // A cancelled order has already given its stock back, so it cannot come back to life.
      const rows = await db
        .update(orders)
        .set({ status, updatedAt: new Date() })
        .where(and(eq(orders.id, orderId), ne(orders.status, CANCELLED)))
        .returning({ id: orders.id, status: orders.status });
      if (rows[0]) return { id: rows[0].id, status: rows[0].status as OrderStatus };
      const [existing] = await db.select({ id: orders.id }).from(orders).where(eq(orders.id, orderId));
      throw existing ? new OrderCancelledError(orderId) : new OrderNotFoundError();
    },
  };
}

export type OrdersRepository = ReturnType<typeof createOrdersRepository>;
