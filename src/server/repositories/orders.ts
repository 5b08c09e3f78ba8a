import { and, asc, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { OrderItemPayload, OrderStatus, OrderStatusAnswer, OrderSummary } from '../../shared/api';
import type { Database, Transaction } from '../db/database';
import { cartItems, orderLines, orders, products, variants } from '../db/schema';
import { conflict, notFound, unprocessable } from '../errors';
import { kopecksToDecimal, kopecksToRubles, toKopecks } from '../money';
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

/** One line per variant: a buyer who lists a variant twice is ordering the sum. */
function mergeLines(items: OrderItemPayload[]): Map<number, { productId: number; quantity: number }> {
  const merged = new Map<number, { productId: number; quantity: number }>();
  for (const item of items) {
    const existing = merged.get(item.variant_id);
    if (existing && existing.productId !== item.product_id) {
      throw unprocessable(`Вариант с id=${item.variant_id} указан для разных товаров`);
    }
    merged.set(item.variant_id, {
      productId: item.product_id,
      quantity: (existing?.quantity ?? 0) + item.quantity,
    });
  }
  return merged;
}

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

export function createOrdersRepository(db: Database) {
  async function cancelLocked(tx: Transaction, orderId: number, userId: number | null): Promise<OrderStatusAnswer> {
    const [order] = await tx
      .select({ id: orders.id, userId: orders.userId, status: orders.status })
      .from(orders)
      .where(eq(orders.id, orderId))
      .for('update');
    if (!order || (userId !== null && order.userId !== userId)) throw notFound('Заказ не найден');
    if (!CANCELLABLE.includes(order.status as OrderStatus)) {
      throw conflict(`Заказ #${order.id} в статусе «${order.status}» нельзя отменить`);
    }
    await returnStock(tx, order.id);
    await announceStockChange(tx);
    await tx.update(orders).set({ status: CANCELLED, updatedAt: new Date() }).where(eq(orders.id, order.id));
    return { id: order.id, status: CANCELLED };
  }

  return {
    /**
     * Places an order in one transaction: the variants are locked in id order (so concurrent
     * orders cannot deadlock), stock is checked and decremented, prices come from the database,
     * and the ordered variants leave the buyer's cart.
     */
    async place(order: NewOrder): Promise<PlacedOrder> {
      const lines = mergeLines(order.items);
      const variantIds = [...lines.keys()].sort((a, b) => a - b);
      return db.transaction(async (tx) => {
        if (order.idempotency) {
          const { key, digest } = order.idempotency;
          // Requests with one key queue here, so only the first can place the order; the lock is
          // taken before any variant lock, always in that order, so it cannot deadlock with them.
          await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`${order.userId}:${key}`}, 0))`);
          const [earlier] = await tx
            .select({ ...summaryColumns(), requestDigest: orders.requestDigest })
            .from(orders)
            .where(and(eq(orders.userId, order.userId), eq(orders.idempotencyKey, key)));
          if (earlier) {
            if (earlier.requestDigest !== digest) throw unprocessable('Ключ Idempotency-Key уже использован для другого заказа');
            return { order: toSummary(earlier), replayed: true };
          }
        }
        const locked = await tx
          .select({ ...variantColumns, productName: products.name })
          .from(variants)
          .innerJoin(products, eq(products.id, variants.productId))
          .where(inArray(variants.id, variantIds))
          .orderBy(asc(variants.id))
          .for('update', { of: variants });
        const byId = new Map(locked.map((variant) => [variant.id, variant]));

        let totalKopecks = 0;
        const frozenLines = variantIds.map((variantId) => {
          const line = lines.get(variantId)!;
          const variant = byId.get(variantId);
          if (!variant || variant.productId !== line.productId) {
            throw unprocessable(`Не удалось найти вариант с id=${variantId} для продукта ${line.productId}`);
          }
          if (variant.stock < line.quantity) {
            throw conflict(
              `Недостаточно товара «${variant.productName}» (${variant.color}, ${variant.size} см): ` +
                `в наличии ${variant.stock} шт., заказано ${line.quantity} шт.`,
            );
          }
          totalKopecks += toKopecks(variant.price) * line.quantity;
          return { variant, quantity: line.quantity };
        });

        for (const { variant, quantity } of frozenLines) {
          await tx
            .update(variants)
            .set({ stock: sql`${variants.stock} - ${quantity}` })
            .where(eq(variants.id, variant.id));
        }
        const unitsByProduct = new Map<number, number>();
        for (const { variant, quantity } of frozenLines) {
          unitsByProduct.set(variant.productId, (unitsByProduct.get(variant.productId) ?? 0) + quantity);
        }
        for (const [productId, units] of [...unitsByProduct].sort(([a], [b]) => a - b)) {
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
            totalPrice: kopecksToDecimal(totalKopecks),
            idempotencyKey: order.idempotency?.key ?? null,
            requestDigest: order.idempotency?.digest ?? null,
          })
          .returning({ id: orders.id, createdAt: orders.createdAt });
        await tx.insert(orderLines).values(
          frozenLines.map(({ variant, quantity }) => ({
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
        await tx
          .delete(cartItems)
          .where(and(eq(cartItems.userId, order.userId), inArray(cartItems.variantId, variantIds)));
        await announceStockChange(tx);

        return {
          order: {
            id: created!.id,
            total_price: kopecksToRubles(totalKopecks),
            status: NEW_ORDER_STATUS,
            created_at: created!.createdAt.toISOString(),
            items_count: frozenLines.reduce((sum, line) => sum + line.quantity, 0),
          },
          replayed: false,
        };
      });
    },

    /** Newest first. */
    async listForUser(userId: number): Promise<OrderSummary[]> {
      const rows = await db.select(summaryColumns()).from(orders).where(eq(orders.userId, userId)).orderBy(desc(orders.id));
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
      throw existing ? conflict(`Заказ #${orderId} отменён, его статус нельзя изменить`) : notFound('Заказ не найден');
    },
  };
}

export type OrdersRepository = ReturnType<typeof createOrdersRepository>;
