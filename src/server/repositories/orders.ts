import { and, asc, count, desc, eq, gte, ilike, inArray, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type {
  AdminOrder,
  AdminOrderList,
  BuyerOrder,
  InvoiceRef,
  OrderItemPayload,
  OrderStatus,
  OrderStatusAnswer,
  OrderSummary,
} from '../../shared/api';
import type { ADMIN_ORDER_SORTS } from '../../shared/schemas/admin';
import { MAX_ID } from '../../shared/schemas/common';
import { DELETED_PERSONAL_DATA } from '../../shared/account';
import type { AppConfig, BuyerLimits } from '../config';
import type { Database, Transaction } from '../db/database';
import { escapeLike } from '../db/like';
import { cartItems, invoices, orderLines, orderStatusHistory, orders, products, users, variants } from '../db/schema';
import {
  DailyOrdersLimitError,
  IdempotencyConflictError,
  OrderNotFoundError,
  UnpaidOrdersLimitError,
} from '../domain/errors';
import {
  allowedNextStatuses,
  assertStatusChange,
  AWAITING_PAYMENT_STATUS,
  buyerMayCancel,
  CANCELLED_STATUS,
  NEW_ORDER_STATUS,
  type StatusChangeSource,
  UNPAID_STATUSES,
} from '../domain/order-workflow';
import type { StockedVariant } from '../domain/on-sale';
import { assertWithinStockShare, mergeLines, priceOrder, type PricedOrder } from '../domain/order-pricing';
import { kopecksToDecimal, kopecksToRubles, toKopecks } from '../money';
import { announceCatalogueChange } from '../services/catalogue-cache';
import type { ShopMail } from '../mail/letter';
import { orderDetailColumns, orderLineRows } from './order-lines';
import { queueOrderPlaced, queueStatusChanged } from './order-mail';
import { stockedVariantColumns } from './products';

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

export interface StatusChange {
  to: OrderStatus;
  source: StatusChangeSource;
  /** The account that asked (null from the command line). */
  byUserId: number | null;
  comment?: string | null;
  /** Why the server itself made the change, for the buyer (the history and the letter say it). */
  reason?: string;
  /** Set for the buyer's own cancel: anyone else's order is "not found". */
  ownerId?: number;
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
    // The date as json_build_object writes a date: YYYY-MM-DD, whatever the session's DateStyle.
    invoice: sql<InvoiceRef | null>`(select json_build_object('number', i.number, 'date', i.issued_on) from ${invoices} as i where i.order_id = ${orders}.id)`,
  };
}

type SummaryRow = {
  id: number;
  total_price: string;
  status: string;
  created_at: Date;
  items_count: number;
  invoice: InvoiceRef | null;
};

function toSummary(row: SummaryRow): OrderSummary {
  return {
    id: row.id,
    total_price: Number(row.total_price),
    status: row.status as OrderStatus,
    created_at: row.created_at.toISOString(),
    items_count: Number(row.items_count),
    invoice: row.invoice,
  };
}

/** An issued invoice as the order's answers name it (see summaryColumns for the same in SQL). */
export const invoiceRefColumns = { number: invoices.number, date: invoices.issuedOn };

/** A line as the order pages show it: the price in rubles and the line's total, exact in kopecks. */
function lineWithTotal<Line extends { price: string; quantity: number }>(line: Line) {
  return { ...line, price: Number(line.price), item_total: kopecksToRubles(toKopecks(line.price) * line.quantity) };
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

// Advisory locks' two-key space: (this, user id) is one buyer's orders being placed.
const PLACE_ORDER_LOCK = 0x6f7264; // 'ord'

/**
 * Refuses a new order when the buyer already has the most unpaid orders allowed, or placed the
 * most allowed in the last 24 hours. The buyer's placements queue on a lock of their own for the
 * rest of the transaction, so two at once cannot both pass on the same count. Both reads stop
 * after at most `max` rows of an index, however many orders the buyer has placed over the years.
 */
async function assertWithinOrderLimits(
  tx: Transaction,
  userId: number,
  limits: BuyerLimits,
  contactEmail: string,
): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${PLACE_ORDER_LOCK}::int, ${userId}::int)`);
  const unpaid = await tx
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.userId, userId), inArray(orders.status, UNPAID_STATUSES)))
    .limit(limits.maxUnpaidOrders);
  if (unpaid.length >= limits.maxUnpaidOrders) throw new UnpaidOrdersLimitError(limits.maxUnpaidOrders);
  // The max-th newest order: while it is less than a day old, the day's orders are used up, and
  // the next may be placed when it turns a day old. Ids follow the moments of placing.
  const [nthNewest] = await tx
    .select({
      withinDay: sql<boolean>`${orders.createdAt} > now() - interval '1 day'`,
      freedAt: sql<Date>`${orders.createdAt} + interval '1 day'`.mapWith(orders.createdAt),
    })
    .from(orders)
    .where(eq(orders.userId, userId))
    .orderBy(desc(orders.id))
    .offset(limits.maxOrdersPerDay - 1)
    .limit(1);
  if (nthNewest?.withinDay) throw new DailyOrdersLimitError(limits.maxOrdersPerDay, nthNewest.freedAt, contactEmail);
}

/**
 * What the buyer reads in the order's history and the letter when the server cancels it: an
 * invoiced order's term was the invoice's, an uninvoiced one's RESERVATION_HOURS.
 */
function lapseReason(status: OrderStatus, hours: number): string {
  const late =
    status === AWAITING_PAYMENT_STATUS
      ? 'счёт не оплачен в срок'
      : `заказ не оплачен в течение ${hours} ч после оформления`;
  return (
    `Срок резерва истёк: ${late}. Заказ отменён автоматически, товары вернулись в продажу; ` +
    'если они ещё нужны, оформите заказ заново.'
  );
}

/**
 * Locks one unpaid order whose reservation has lapsed, skipping any another transaction holds
 * (another process's sweep, the buyer's cancel, a manager's change): it is placed more than
 * `hours` ago and, once invoiced, the invoice's payment term has passed too, so the server never
 * cancels an order before the day its invoice promised. The oldest first.
 */
async function lockLapsedOrder(
  tx: Transaction,
  hours: number,
): Promise<{ id: number; status: OrderStatus } | undefined> {
  const paymentDays = sql`(${invoices.supplier} ->> 'payment_days')::int`;
  const [order] = await tx
    .select({ id: orders.id, status: orders.status })
    .from(orders)
    .leftJoin(invoices, eq(invoices.orderId, orders.id))
    .where(
      and(
        inArray(orders.status, UNPAID_STATUSES),
        lt(orders.createdAt, sql`now() - make_interval(hours => ${hours})`),
        or(isNull(invoices.orderId), lt(sql`${invoices.issuedAt} + make_interval(days => ${paymentDays})`, sql`now()`)),
      ),
    )
    .orderBy(asc(orders.createdAt), asc(orders.id))
    .limit(1)
    .for('update', { of: orders, skipLocked: true });
  return order && { id: order.id, status: order.status as OrderStatus };
}

type LockedVariant = StockedVariant & { art: string };

/** Locks the ordered variants in id order, so that concurrent orders cannot deadlock. */
async function lockVariants(tx: Transaction, variantIds: number[]): Promise<Map<number, LockedVariant>> {
  const locked = await tx
    .select({ ...stockedVariantColumns, art: products.art })
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
  await announceCatalogueChange(tx);
  return {
    id: created!.id,
    total_price: kopecksToRubles(priced.totalKopecks),
    status: NEW_ORDER_STATUS,
    created_at: created!.createdAt.toISOString(),
    items_count: priced.itemsCount,
    invoice: null,
  };
}

/**
 * Moves an order one step along the state machine inside the caller's transaction (issuing an
 * invoice runs it inside its own): the order row is locked, so concurrent changes queue and each
 * sees the status the previous one left. Cancelling gives the goods back; every change is
 * written to the history and told to the buyer by e-mail (an invoice's own message tells its change).
 */
export async function changeStatusLocked(
  tx: Transaction,
  orderId: number,
  change: StatusChange,
  shop: ShopMail,
): Promise<OrderStatusAnswer> {
  const [order] = await tx
    .select({ id: orders.id, userId: orders.userId, status: orders.status })
    .from(orders)
    .where(eq(orders.id, orderId))
    .for('update');
  if (!order || (change.ownerId !== undefined && order.userId !== change.ownerId)) throw new OrderNotFoundError();
  const from = order.status as OrderStatus;
  assertStatusChange(order.id, from, change.to, change.source);
  if (change.to === CANCELLED_STATUS) {
    await returnStock(tx, order.id);
    await announceCatalogueChange(tx);
  }
  await tx.update(orders).set({ status: change.to, updatedAt: new Date() }).where(eq(orders.id, order.id));
  await tx.insert(orderStatusHistory).values({
    orderId: order.id,
    fromStatus: from,
    toStatus: change.to,
    byUserId: change.byUserId,
    comment: change.comment?.trim() || null,
    reason: change.reason ?? null,
  });
  if (change.source !== 'invoice') await queueStatusChanged(tx, shop, order.id, change.to, change.reason);
  return { id: order.id, status: change.to };
}

/** The managers' queue filter; the dates are instants already (the route reads the days). */
export interface ManagerOrderFilter {
  status?: OrderStatus;
  q?: string;
  from?: Date;
  /** Exclusive. */
  to?: Date;
  sort: (typeof ADMIN_ORDER_SORTS)[number];
  skip: number;
  limit: number;
}

/** The buyer's e-mail in the managers' list; a deleted buyer's orders stay in it, anonymised. */
const buyerEmail = sql<string>`coalesce(${users.email}, ${DELETED_PERSONAL_DATA})`;

/** `q` is an order number (with or without «#»), or part of an e-mail, a company name or an ИНН. */
function searchCondition(q: string): SQL | undefined {
  const text = q.trim().replace(/^(№|#)\s*/, '');
  if (!text) return undefined;
  const pattern = `%${escapeLike(text)}%`;
  const number = /^\d{1,10}$/.test(text) ? Number(text) : 0;
  return or(
    number >= 1 && number <= MAX_ID ? eq(orders.id, number) : undefined,
    ilike(users.email, pattern),
    ilike(orders.companyName, pattern),
    ilike(orders.companyInn, pattern),
  );
}

const managerSortOrder = {
  created_at_desc: [desc(orders.createdAt), desc(orders.id)],
  created_at_asc: [asc(orders.createdAt), asc(orders.id)],
  total_desc: [desc(orders.totalPrice), desc(orders.id)],
  total_asc: [asc(orders.totalPrice), asc(orders.id)],
} satisfies Record<ManagerOrderFilter['sort'], SQL[]>;

/** What a manager may set from the status route: «Ожидает оплаты» comes with the invoice. */
const managerNextStatuses = (from: OrderStatus) =>
  allowedNextStatuses(from).filter((status) => status !== AWAITING_PAYMENT_STATUS);

export function createOrdersRepository(
  db: Database,
  shop: ShopMail,
  { buyerLimits, reservation }: Pick<AppConfig, 'buyerLimits' | 'reservation'>,
) {
  return {
    /**
     * Places an order in one transaction: the buyer's limits are checked (unpaid orders, orders a
     * day), the variants are locked in id order (so concurrent orders cannot deadlock), priced
     * from the database and checked against the stock and the share of it one order may take,
     * then the stock is decremented and the ordered variants leave the buyer's cart. A retry with
     * the Idempotency-Key of an order already placed gets that order, whatever the limits say now.
     */
    async place(order: NewOrder): Promise<PlacedOrder> {
      const ordered = mergeLines(order.items);
      const variantIds = [...ordered.keys()].sort((a, b) => a - b);
      return db.transaction(async (tx) => {
        const earlier = order.idempotency && (await findEarlierOrder(tx, order.userId, order.idempotency));
        if (earlier) return { order: earlier, replayed: true };
        await assertWithinOrderLimits(tx, order.userId, buyerLimits, shop.contactEmail);
        const locked = await lockVariants(tx, variantIds);
        const priced = priceOrder(variantIds, ordered, locked);
        assertWithinStockShare(priced.lines, buyerLimits.maxStockSharePercent, shop.contactEmail);
        const placed = await writeOrder(tx, order, variantIds, priced);
        // The messages are made from what is at hand: the variants stay locked until commit.
        await queueOrderPlaced(tx, shop, order.userId, {
          ...order,
          id: placed.id,
          createdAt: new Date(placed.created_at),
          totalPrice: kopecksToDecimal(priced.totalKopecks),
          lines: priced.lines.map(({ variant, quantity }) => ({
            art: locked.get(variant.id)!.art,
            name: variant.productName,
            color: variant.color,
            size: variant.size,
            price: variant.price,
            quantity,
          })),
        });
        return { order: placed, replayed: false };
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

    /** The buyer's own cancel (while the order is unpaid): the goods go back on the shelf. */
    cancel(userId: number, orderId: number): Promise<OrderStatusAnswer> {
      return db.transaction((tx) =>
        changeStatusLocked(
          tx,
          orderId,
          { to: CANCELLED_STATUS, source: 'buyer', byUserId: userId, ownerId: userId },
          shop,
        ),
      );
    },

    /** A manager's step along the state machine (the back office and the command line). */
    changeStatus(orderId: number, change: StatusChange): Promise<OrderStatusAnswer> {
      return db.transaction((tx) => changeStatusLocked(tx, orderId, change, shop));
    },

    /**
     * Cancels one unpaid order whose reservation has lapsed (RESERVATION_HOURS, see
     * lockLapsedOrder) in a transaction of its own, as the buyer's cancel would: the goods go back
     * on the shelf, the history and the buyer's letter say why. Returns its id, or null when no
     * lapsed order is left. Several processes may sweep at once: an order one of them holds is
     * skipped by the others, and once cancelled it is no longer unpaid, so each order is cancelled
     * and its stock returned once.
     */
    cancelLapsedReservation(): Promise<number | null> {
      return db.transaction(async (tx) => {
        const order = await lockLapsedOrder(tx, reservation.hours);
        if (!order) return null;
        const reason = lapseReason(order.status, reservation.hours);
        await changeStatusLocked(
          tx,
          order.id,
          { to: CANCELLED_STATUS, source: 'expiry', byUserId: null, reason },
          shop,
        );
        return order.id;
      });
    },

    /** The managers' queue: one page and the number of orders the filter finds. */
    async listForManagers(filter: ManagerOrderFilter): Promise<AdminOrderList> {
      const where = and(
        filter.status ? eq(orders.status, filter.status) : undefined,
        filter.from ? gte(orders.createdAt, filter.from) : undefined,
        filter.to ? lt(orders.createdAt, filter.to) : undefined,
        filter.q ? searchCondition(filter.q) : undefined,
      );
      const [rows, [counted]] = await Promise.all([
        db
          .select({
            ...summaryColumns(),
            user_email: buyerEmail,
            company_name: orders.companyName,
            company_inn: orders.companyInn,
          })
          .from(orders)
          .leftJoin(users, eq(users.id, orders.userId))
          .where(where)
          .orderBy(...managerSortOrder[filter.sort])
          .offset(filter.skip)
          .limit(filter.limit),
        // The buyer's e-mail is only needed to count what `q` finds.
        filter.q
          ? db.select({ total: count() }).from(orders).leftJoin(users, eq(users.id, orders.userId)).where(where)
          : db.select({ total: count() }).from(orders).where(where),
      ]);
      return {
        items: rows.map((row) => ({
          ...toSummary(row),
          user_email: row.user_email,
          company_name: row.company_name,
          company_inn: row.company_inn,
        })),
        total: counted?.total ?? 0,
      };
    },

    /** The buyer's own order, whole; `null` when there is none or it is someone else's. */
    async findForBuyer(userId: number, orderId: number): Promise<BuyerOrder | null> {
      const [order] = await db
        .select({
          ...summaryColumns(),
          contact_name: orders.contactName,
          contact_phone: orders.contactPhone,
          address: orders.address,
          company_name: orders.companyName,
          company_inn: orders.companyInn,
          company_kpp: orders.companyKpp,
        })
        .from(orders)
        .where(and(eq(orders.id, orderId), eq(orders.userId, userId)));
      if (!order) return null;
      const [lines, changes] = await Promise.all([
        orderLineRows(db, orderId),
        db
          .select({ at: orderStatusHistory.at, status: orderStatusHistory.toStatus, reason: orderStatusHistory.reason })
          .from(orderStatusHistory)
          .where(eq(orderStatusHistory.orderId, orderId))
          .orderBy(asc(orderStatusHistory.id)),
      ]);
      const summary = toSummary(order);
      return {
        ...summary,
        contact_name: order.contact_name,
        contact_phone: order.contact_phone,
        address: order.address,
        company_name: order.company_name,
        company_inn: order.company_inn,
        company_kpp: order.company_kpp,
        lines: lines.map(lineWithTotal),
        // The history records changes; the order's creation is its first entry.
        history: [
          { at: summary.created_at, status: NEW_ORDER_STATUS },
          ...changes.map((change) => ({
            at: change.at.toISOString(),
            status: change.status as OrderStatus,
            ...(change.reason === null ? {} : { reason: change.reason }),
          })),
        ],
        can_cancel: buyerMayCancel(summary.status),
      };
    },

    /** The whole order as a manager sees it; `null` when there is none. */
    async findForManager(orderId: number): Promise<AdminOrder | null> {
      const [order] = await db
        .select({
          ...orderDetailColumns,
          userId: users.id,
          userEmail: users.email,
        })
        .from(orders)
        .leftJoin(users, eq(users.id, orders.userId))
        .where(eq(orders.id, orderId));
      if (!order) return null;
      const [lines, history, [invoice]] = await Promise.all([
        orderLineRows(db, orderId),
        db
          .select({
            at: orderStatusHistory.at,
            from: orderStatusHistory.fromStatus,
            to: orderStatusHistory.toStatus,
            comment: orderStatusHistory.comment,
            reason: orderStatusHistory.reason,
            byId: users.id,
            byEmail: users.email,
          })
          .from(orderStatusHistory)
          .leftJoin(users, eq(users.id, orderStatusHistory.byUserId))
          .where(eq(orderStatusHistory.orderId, orderId))
          .orderBy(asc(orderStatusHistory.id)),
        db.select(invoiceRefColumns).from(invoices).where(eq(invoices.orderId, orderId)),
      ]);
      const status = order.status as OrderStatus;
      return {
        id: order.id,
        created_at: order.createdAt.toISOString(),
        status,
        total_price: Number(order.totalPrice),
        lines: lines.map(lineWithTotal),
        contact_name: order.contactName,
        contact_phone: order.contactPhone,
        address: order.address,
        company_name: order.companyName,
        company_inn: order.companyInn,
        company_kpp: order.companyKpp,
        user: order.userId === null || order.userEmail === null ? null : { id: order.userId, email: order.userEmail },
        history: history.map((entry) => ({
          at: entry.at.toISOString(),
          from: entry.from as OrderStatus,
          to: entry.to as OrderStatus,
          by: entry.byId === null || entry.byEmail === null ? null : { id: entry.byId, email: entry.byEmail },
          comment: entry.comment,
          ...(entry.reason === null ? {} : { reason: entry.reason }),
        })),
        next_statuses: managerNextStatuses(status),
        invoice: invoice ?? null,
      };
    },
  };
}

export type OrdersRepository = ReturnType<typeof createOrdersRepository>;
