// The orders' SQL: what placing an order reads and writes, a change of status's statements, and the
// orders as the buyer's and the managers' pages read them. The rules that decide between these
// statements (the buyer's limits, the stock share, the replay of an Idempotency-Key, the workflow)
// are the order service's (services/orders.ts), which runs them in its transactions.
import { and, asc, count, desc, eq, gte, ilike, inArray, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type {
  AdminOrder,
  AdminOrderList,
  BuyerOrder,
  InvoiceRef,
  ManagerContact,
  OrderItemPayload,
  PlacedBy,
  OrderStatusAnswer,
  OrderSummary,
  BuyerOrdersFilter,
  OneCDocumentView,
} from '../../shared/api';
import type { OrderStatus } from '../../shared/order-statuses';
import type { OneCOrderDocument } from '../../shared/exchange';
import type { ADMIN_ORDER_SORTS } from '../../shared/schemas/admin';
import { MAX_ID } from '../../shared/schemas/common';
import { DELETED_PERSONAL_DATA } from '../../shared/account';
import { trackingOf } from '../../shared/carriers';
import type { AppConfig, BuyerLimits } from '../config';
import type { Queryable } from '../db/database';
import { PREPARED } from '../db/prepared-statements';
import { escapeLike } from '../db/like';
import { announceCatalogueChange, catalogueChangeNotice, mailQueuedNotice } from '../db/notifications';
import {
  cartItems,
  cartRevisions,
  companies,
  invoices,
  legalEntities,
  orderLines,
  orderStatusHistory,
  orders,
  priceTiers,
  priceTypes,
  products,
  users,
  variantPrices,
  variants,
} from '../db/schema';
import {
  allowedNextStatuses,
  AWAITING_PAYMENT_STATUS,
  buyerMayCancel,
  NEW_ORDER_STATUS,
  UNPAID_STATUSES,
} from '../domain/order-workflow';
import type { BuyerStanding } from '../domain/buyer-standing';
import type { StockedVariant } from '../domain/on-sale';
import type { PricedLine, PricedOrder } from '../domain/order-pricing';
import type { TierRow } from '../domain/wholesale-price';
import { decimalToKopecks, kopecksToRubles } from '../../shared/money';
import { managerContactOf } from './companies';
import { orderDetailColumns, orderLineRows } from './order-lines';
import { mailInsert, type OutgoingMail } from './outbox';
import { stockedVariantColumns } from './products';

export interface NewOrder {
  /** Who places it. */
  userId: number;
  /** Whose it is: the placing employee's company. */
  companyId: number;
  /** The company's legal entity it is made out to (its details are in company_*), or null. */
  legalEntityId: string | null;
  /** The placing employee's name (or e-mail) as the order keeps it. */
  placedByName: string;
  address: string;
  contactName: string | null;
  contactPhone: string | null;
  companyName: string | null;
  companyInn: string | null;
  companyKpp: string | null;
  items: OrderItemPayload[];
  /** The server cart's version the checkout was made from: another one now refuses the order. */
  cartVersion?: number;
  /** The client's Idempotency-Key and a digest of the request: a repeat returns the first order. */
  idempotency?: { key: string; digest: string };
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
    placed_by: sql<PlacedBy | null>`case when ${orders.placedByName} is null then null
      else json_build_object('user_id', ${orders.userId}, 'name', ${orders.placedByName}) end`,
    legal_entity_id: orders.legalEntityId,
  };
}

type SummaryRow = {
  id: number;
  total_price: string;
  status: string;
  created_at: Date;
  items_count: number;
  invoice: InvoiceRef | null;
  placed_by: PlacedBy | null;
  legal_entity_id: string | null;
};

function toSummary(row: SummaryRow): OrderSummary {
  return {
    id: row.id,
    total_price: Number(row.total_price),
    status: row.status as OrderStatus,
    created_at: row.created_at.toISOString(),
    items_count: Number(row.items_count),
    invoice: row.invoice,
    placed_by: row.placed_by,
    legal_entity_id: row.legal_entity_id,
  };
}

/** An issued invoice as the order's answers name it (see summaryColumns for the same in SQL). */
export const invoiceRefColumns = { number: invoices.number, date: invoices.issuedOn };

/** A line as the order pages show it: the price in rubles and the line's total, exact in kopecks. */
function lineWithTotal<Line extends { price: string; quantity: number; listPrice: string | null }>({
  listPrice,
  ...line
}: Line) {
  return {
    ...line,
    price: Number(line.price),
    list_price: listPrice === null ? null : Number(listPrice),
    item_total: kopecksToRubles(decimalToKopecks(line.price) * line.quantity),
  };
}

/**
 * Changes the variants of an order's lines by their quantities, in one statement whatever the
 * order's size: `restock` gives them back to the stock on sale, `release` takes them off what the
 * unproven buyers hold (variants.unproven_held, for an order placed unproven). The rows are locked
 * in id order first, as placing an order locks them, so that this and an order (or two of these)
 * cannot deadlock: the update then touches only rows it holds.
 */
async function adjustOrderedVariants(
  tx: Queryable,
  orderId: number,
  { restock, release }: { restock: boolean; release: boolean },
): Promise<void> {
  const changes = [
    restock ? sql`stock = stock + returned.quantity` : undefined,
    release ? sql`unproven_held = unproven_held - returned.quantity` : undefined,
  ].filter((change) => change !== undefined);
  if (changes.length === 0) return;
  await tx.execute(sql`
    with returned as (
      select variant_id as id, sum(quantity)::int as quantity from ${orderLines} where order_id = ${orderId} group by variant_id
    ), locked as materialized (
      select id from ${variants} where id in (select id from returned) order by id for no key update
    )
    update ${variants} set ${sql.join(changes, sql`, `)}
    from returned join locked using (id) where ${variants}.id = returned.id`);
}

/**
 * Gives a cancelled order's goods back (and, placed unproven, out of the unproven buyers' holding)
 * and announces the change of stock: the variants, then the products' units ordered, one statement
 * each whatever the order's size, each locking its rows in id order, variants before products, as
 * placing an order does.
 */
async function returnStock(tx: Queryable, orderId: number, unproven: boolean): Promise<void> {
  await adjustOrderedVariants(tx, orderId, { restock: true, release: unproven });
  await tx.execute(sql`
    with returned as (
      select product_id as id, sum(quantity)::int as units from ${orderLines} where order_id = ${orderId} group by product_id
    ), locked as materialized (
      select id from ${products} where id in (select id from returned) order by id for no key update
    ), uncounted as (
      update ${products} set units_ordered = greatest(units_ordered - returned.units, 0)
      from returned join locked using (id) where ${products}.id = returned.id
    )
    select ${catalogueChangeNotice}`);
}

// Advisory locks' two-key space: (this, company id) is one company's orders being placed. All of
// them queue on it, with or without an Idempotency-Key, so only the first request with a key can
// place its order, and two placements (by two employees too) cannot both pass the limits on the same count. It is taken before
// any variant lock, always in that order, so it cannot deadlock with them.
const PLACE_ORDER_LOCK = 0x6f7264; // 'ord'

type LockedVariant = StockedVariant & { art: string; unprovenHeld: number };

/** The variant columns read and locked for an order, named as LockedVariant's fields (the price as written, not a JSON number). */
const lockedVariantColumns = (companyId: number) =>
  Object.entries({
    ...stockedVariantColumns,
    price: sql`${variants.price}::text`,
    // The company's price type's own price, if it has one (null: the default type's applies).
    typePrice: sql`(select ${variantPrices.price}::text from ${variantPrices} where ${variantPrices.variantId} = ${variants.id}
      and ${variantPrices.priceTypeId} = (select ${companies.priceTypeId} from ${companies} where ${companies.id} = ${companyId}))`,
    art: products.art,
    unprovenHeld: variants.unprovenHeld,
  } satisfies Record<keyof LockedVariant, unknown>).map(
    ([field, column]) => sql`${column} as ${sql.identifier(field)}`,
  );

/** The price types an order is priced in, as placing reads them. */
export interface PlacingPriceTypes {
  /** The company's type (the default one when it has none). */
  typeId: number;
  defaultTypeId: number;
  /** Names by id, of both. */
  names: Record<string, string>;
  /** Decimal rubles: the company's type's minimum order sum. */
  minOrderSum: string;
}

/** What placing an order reads, in one statement (readForPlacing), as JSON. */
export interface PlacingFacts {
  /** The order the Idempotency-Key already placed, if it was given and has. */
  earlier: { id: number; digest: string | null } | null;
  /** The buyer's standing and whether the company is blocked (null for an account deleted meanwhile). */
  buyer: (BuyerStanding & { blocked: boolean }) | null;
  /** The company's unpaid orders, counted up to the larger of the two limits. */
  unpaid: number;
  /** The company's maxOrdersPerDay-th newest order, if there are that many. */
  nthNewest: { withinDay: boolean; freedAt: string } | null;
  /** The ordered variants there are, locked, in id order. */
  variants: LockedVariant[];
  priceTypes: PlacingPriceTypes;
  /** The tiers of the ordered variants and of their products, in the company's type and the default. */
  tiers: TierRow[];
  recipients: OrderPlacedRecipients;
  /** The buyer's cart's revision now (cart_revisions; 0 without a row). */
  cartRevision: number;
  /** The new order's id, taken from the sequence now, so that its letters can name it before it is written. */
  orderId: number;
  /** The transaction's start: what the order's created_at will be. */
  createdAt: string;
}

/** The buyer's standing, from the account's row and its company's, as a subquery of the placing read. */
const buyerStanding = (userId: number): SQL =>
  sql`(select json_build_object('confirmed', ${users.emailConfirmedAt} is not null,
    'proven', ${companies.firstPaidAt} is not null or ${companies.trustedAt} is not null,
    'blocked', ${companies.blockedAt} is not null)
    from ${users} join ${companies} on ${companies.id} = ${users.companyId} where ${users.id} = ${userId})`;

/**
 * Reads, under the buyer's lock, everything placing an order needs: the statement's snapshot is taken
 * after the lock, so the counts include every earlier placement of the buyer's. The ordered variants
 * are locked in id order (so that concurrent orders cannot deadlock) with the prices and stock the
 * order is made from. Both limit reads stop after at most the limit's rows of an index, however many
 * orders the buyer has placed over the years. The order's id is taken here, before the checks: an
 * order refused, or a retry that turns out to replay an earlier one (its variants locked for nothing
 * until the commit), leaves a gap in the order numbers, as any rolled-back transaction always has.
 */
async function readForPlacing(
  tx: Queryable,
  { userId, companyId, idempotency }: NewOrder,
  variantIds: number[],
  limits: BuyerLimits,
): Promise<PlacingFacts> {
  const ofBuyer = eq(orders.userId, userId);
  const ofCompany = eq(orders.companyId, companyId);
  // FOR UPDATE cannot sit beside the aggregate: the variants are locked in a CTE of their own,
  // materialized and read whole by json_agg, its rows locked in the order they are sorted in.
  // nthNewest is the max-th newest order: while it is less than a day old, the day's orders are
  // used up, and the next may be placed when it turns a day old. Ids follow the moments of placing.
  const { rows } = (await tx.execute(sql`${PREPARED}
    with locked as materialized (
      select ${sql.join(lockedVariantColumns(companyId), sql`, `)}
      from ${variants} join ${products} on ${products.id} = ${variants.productId}
      where ${variants.id} = any(${sql.param(variantIds)}::int[])
      order by ${variants.id}
      for update of ${variants}
    )
    select json_build_object(
      'earlier', ${
        idempotency
          ? sql`(select json_build_object('id', ${orders.id}, 'digest', ${orders.requestDigest}) from ${orders}
              where ${and(ofBuyer, eq(orders.idempotencyKey, idempotency.key))})`
          : sql`null`
      },
      'buyer', ${buyerStanding(userId)},
      'unpaid', (select count(*) from (select from ${orders}
        where ${and(ofCompany, inArray(orders.status, UNPAID_STATUSES))}
        limit ${Math.max(limits.maxUnpaidOrders, limits.maxUnpaidOrdersTrusted)}) as unpaid),
      'nthNewest', (select json_build_object(
          'withinDay', ${orders.createdAt} > now() - interval '1 day', 'freedAt', ${orders.createdAt} + interval '1 day')
        from ${orders} where ${ofCompany} order by ${orders.id} desc offset ${limits.maxOrdersPerDay - 1} limit 1),
      'variants', coalesce((select json_agg(locked order by locked.id) from locked), '[]'),
      'priceTypes', (with types as (select
          (select ${priceTypes.id} from ${priceTypes} where ${priceTypes.isDefault}) as default_id,
          (select ${companies.priceTypeId} from ${companies} where ${companies.id} = ${companyId}) as own_id)
        select json_build_object('typeId', coalesce(own_id, default_id), 'defaultTypeId', default_id,
          'names', (select json_object_agg(${priceTypes.id}, ${priceTypes.name}) from ${priceTypes}
            where ${priceTypes.id} in (own_id, default_id)),
          'minOrderSum', (select ${priceTypes.minOrderSum}::text from ${priceTypes}
            where ${priceTypes.id} = coalesce(own_id, default_id)))
        from types),
      'tiers', coalesce((select json_agg(json_build_object('priceTypeId', ${priceTiers.priceTypeId},
          'productId', ${priceTiers.productId}, 'variantId', ${priceTiers.variantId},
          'from', ${priceTiers.fromQuantity}, 'price', ${priceTiers.price}::text))
        from ${priceTiers} where ${priceTiers.priceTypeId} in (select ${priceTypes.id} from ${priceTypes}
            where ${priceTypes.isDefault} or ${priceTypes.id} = (select ${companies.priceTypeId} from ${companies}
              where ${companies.id} = ${companyId}))
          and (${priceTiers.variantId} = any(${sql.param(variantIds)}::int[])
            or ${priceTiers.productId} in (select "productId" from locked))), '[]'),
      'recipients', ${orderPlacedRecipients(userId, companyId)},
      'cartRevision', coalesce((select ${cartRevisions.revision} from ${cartRevisions} where ${cartRevisions.userId} = ${userId}), 0),
      'orderId', nextval(pg_get_serial_sequence('orders', 'id')),
      'createdAt', now()
    ) as facts`)) as { rows: [{ facts: PlacingFacts }] };
  return rows[0].facts;
}

/**
 * Who hears of a new order: the buyer, and the company's personal manager — or, for a company
 * without one, every account with the manager role (services/order-mail.ts).
 */
export interface OrderPlacedRecipients {
  buyer: string;
  managerAccounts: string[];
  /** The company's personal manager as the buyer's letter names them. */
  manager: ManagerContact | null;
}

/**
 * The recipients as a JSON scalar subquery (OrderPlacedRecipients), for the statement that reads
 * all that placing an order needs while its variants are locked.
 */
const orderPlacedRecipients = (buyerId: number, companyId: number): SQL =>
  sql`(with manager as (select ${managerContactOf(companyId)} as contact)
    select json_build_object(
    'buyer', max(${users.email}) filter (where ${users.id} = ${buyerId}),
    'managerAccounts', coalesce((select json_build_array(contact ->> 'email') from manager where contact is not null),
      coalesce(json_agg(${users.email} order by ${users.id}) filter (where ${users.role} = 'manager'), '[]')),
    'manager', (select contact from manager)
  ) from ${users} where ${or(eq(users.id, buyerId), eq(users.role, 'manager'))})`;

/**
 * Locks one unpaid order whose reservation has lapsed, skipping any another transaction holds
 * (another process's sweep, the buyer's cancel, a manager's change): it is placed more than
 * `hours` ago and, once invoiced, the invoice's payment term has passed too, so the server never
 * cancels an order before the day its invoice promised. The oldest first.
 */
async function lockLapsedOrder(
  tx: Queryable,
  { hours, unprovenHours }: Pick<AppConfig['reservation'], 'hours' | 'unprovenHours'>,
): Promise<{ id: number; status: OrderStatus; unproven: boolean } | undefined> {
  const paymentDays = sql`(${invoices.supplier} ->> 'payment_days')::int`;
  const olderThan = (hoursAgo: SQL | number) => lt(orders.createdAt, sql`now() - make_interval(hours => ${hoursAgo})`);
  const [order] = await tx
    .select({ id: orders.id, status: orders.status, unproven: orders.unproven })
    .from(orders)
    .leftJoin(invoices, eq(invoices.orderId, orders.id))
    .where(
      and(
        inArray(orders.status, UNPAID_STATUSES),
        // The shorter term on its own first, so that the index on (status, created_at) narrows the look.
        olderThan(Math.min(hours, unprovenHours)),
        olderThan(sql`case when ${orders.unproven} then ${unprovenHours}::int else ${hours}::int end`),
        or(isNull(invoices.orderId), lt(sql`${invoices.issuedAt} + make_interval(days => ${paymentDays})`, sql`now()`)),
      ),
    )
    .orderBy(asc(orders.createdAt), asc(orders.id))
    .limit(1)
    .for('update', { of: orders, skipLocked: true });
  return order && { id: order.id, status: order.status as OrderStatus, unproven: order.unproven };
}

/** The order as placing writes it: the id and the moment readForPlacing took, the total in rubles as stored. */
export interface OrderToWrite {
  id: number;
  createdAt: Date;
  totalPrice: string;
}

/**
 * Writes the order in one statement whatever its size (the lines go as arrays, one parameter a
 * column): takes the priced lines off the stock (their variants are locked already), adds them to
 * their products' units ordered, records the order and its lines, empties those lines from the
 * buyer's cart, queues the letters, and announces the change of stock and the mail at commit.
 */
async function writeOrder(
  tx: Queryable,
  order: NewOrder,
  written: OrderToWrite & { unproven: boolean },
  priced: PricedOrder,
  mail: OutgoingMail[],
): Promise<void> {
  const lineColumn = (value: (line: PricedLine) => unknown) => sql.param(priced.lines.map(value));
  const productIds = sql.param(priced.unitsByProduct.map(([productId]) => productId));
  const units = sql.param(priced.unitsByProduct.map(([, productUnits]) => productUnits));
  // The products are locked here, in id order, before their update touches them (it touches only
  // rows that CTE has locked, and it locks them in the order it sorts them in), after the variants
  // that readForPlacing locked: every order and every cancellation (returnStock) takes variants
  // first, then products, each in id order, so none of them can wait for another in a circle.
  await tx.execute(sql`${PREPARED}
    with line as (
      select * from unnest(${lineColumn(({ variant }) => variant.id)}::int[],
        ${lineColumn(({ variant }) => variant.productId)}::int[], ${lineColumn(({ quantity }) => quantity)}::int[],
        ${lineColumn(({ variant }) => variant.productName)}::text[], ${lineColumn(({ variant }) => variant.color)}::text[],
        ${lineColumn(({ variant }) => variant.size)}::int[], ${lineColumn(({ unitPrice }) => unitPrice)}::numeric[],
        ${lineColumn(({ listPrice }) => listPrice)}::numeric[], ${lineColumn(({ priceTypeId }) => priceTypeId)}::int[],
        ${lineColumn(({ priceTypeName }) => priceTypeName)}::text[], ${lineColumn(({ tierFrom }) => tierFrom)}::int[])
        with ordinality as line(variant_id, product_id, quantity, product_name, color, size, price, list_price,
          price_type_id, price_type_name, tier_from, position)
    ), taken as (
      update ${variants} set stock = stock - line.quantity,
        unproven_held = unproven_held + case when ${written.unproven}::boolean then line.quantity else 0 end
      from line where ${variants}.id = line.variant_id
    ), ordered as (
      select * from unnest(${productIds}::int[], ${units}::int[]) as ordered(id, units)
    ), locked_products as materialized (
      select id from ${products} where id in (select id from ordered) order by id for no key update
    ), counted as (
      update ${products} set units_ordered = units_ordered + ordered.units
      from ordered join locked_products using (id) where ${products}.id = ordered.id
    ), placed as (
      insert into ${orders} (id, user_id, company_id, legal_entity_id, placed_by_name, status, address, contact_name,
        contact_phone, company_name, company_inn, company_kpp, total_price, idempotency_key, request_digest, unproven, created_at)
      overriding system value
      values (${written.id}, ${order.userId}, ${order.companyId}, ${order.legalEntityId}::uuid, ${order.placedByName},
        ${NEW_ORDER_STATUS}, ${order.address}, ${order.contactName},
        ${order.contactPhone}, ${order.companyName}, ${order.companyInn}, ${order.companyKpp}, ${written.totalPrice},
        ${order.idempotency?.key ?? null}, ${order.idempotency?.digest ?? null}, ${written.unproven}::boolean, now())
    ), used_entity as (
      update ${legalEntities} set last_used_at = now() where id = ${order.legalEntityId}::uuid
    ), placed_lines as (
      insert into ${orderLines} (order_id, variant_id, product_id, quantity, product_name, color, size, price,
        list_price, price_type_id, price_type_name, tier_from)
      select ${written.id}, variant_id, product_id, quantity, product_name, color, size, price,
        list_price, price_type_id, price_type_name, tier_from from line order by position
    ), uncarted as (
      delete from ${cartItems} where user_id = ${order.userId} and variant_id in (select variant_id from line)
    ), queued as (${mailInsert(mail)})
    select ${catalogueChangeNotice}, ${mailQueuedNotice}`);
}

/** The managers' queue filter; the dates are instants already (the route reads the days). */
export interface ManagerOrderFilter {
  status?: OrderStatus;
  /** Only the orders of the companies this manager looks after («мои клиенты»). */
  managerId?: number;
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

/** Of the variants of products off sale among `variants`, those not in the buyer's cart; none read when none is hidden. */
async function hiddenVariantsNotInCart(
  tx: Queryable,
  userId: number,
  variants: readonly { id: number; productHidden: boolean }[],
): Promise<Set<number>> {
  const hidden = variants.filter((variant) => variant.productHidden).map((variant) => variant.id);
  if (hidden.length === 0) return new Set();
  const inCart = await tx
    .select({ variantId: cartItems.variantId })
    .from(cartItems)
    .where(and(eq(cartItems.userId, userId), inArray(cartItems.variantId, hidden)));
  const kept = new Set(inCart.map((line) => line.variantId));
  return new Set(hidden.filter((id) => !kept.has(id)));
}

/** The order whole as its buyer sees it (its page, its spreadsheet); `null` when `where` finds none. */
async function buyerOrder(db: Queryable, where: SQL): Promise<BuyerOrder | null> {
  const [order] = await db
    .select({
      ...summaryColumns(),
      contact_name: orders.contactName,
      contact_phone: orders.contactPhone,
      address: orders.address,
      company_name: orders.companyName,
      company_inn: orders.companyInn,
      company_kpp: orders.companyKpp,
      one_c: orders.oneCDocument,
    })
    .from(orders)
    .where(where);
  if (!order) return null;
  const [lines, changes] = await Promise.all([
    orderLineRows(db, order.id),
    db
      .select({
        at: orderStatusHistory.at,
        status: orderStatusHistory.toStatus,
        reason: orderStatusHistory.reason,
        comment: orderStatusHistory.comment,
        carrier: orderStatusHistory.carrier,
        trackingNumber: orderStatusHistory.trackingNumber,
      })
      .from(orderStatusHistory)
      .where(eq(orderStatusHistory.orderId, order.id))
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
        ...(change.comment === null ? {} : { comment: change.comment }),
        ...optionalTracking(change.carrier, change.trackingNumber),
      })),
    ],
    can_cancel: buyerMayCancel(summary.status),
    one_c: oneCView(order.one_c),
  };
}

/** 1С's version of the order as the order pages show it (1С's own line Ид is of no use to them). */
function oneCView(document: OneCOrderDocument | null): OneCDocumentView | null {
  return (
    document && {
      received_at: document.receivedAt,
      number: document.number,
      sum: document.sum,
      lines: document.lines.map(({ article, name, price, quantity, sum }) => ({ article, name, price, quantity, sum })),
    }
  );
}

/** `{tracking}` for a change that named a carrier, else nothing (the answers of other changes stay as they were). */
function optionalTracking(carrier: string | null, trackingNumber: string | null) {
  const tracking = trackingOf(carrier, trackingNumber);
  return tracking ? { tracking } : {};
}

/** The order as its buyer's letters tell it; null when the buyer has deleted the account (nobody to write to). */
async function orderForLetter(db: Queryable, orderId: number) {
  const [order] = await db
    .select({
      ...orderDetailColumns,
      buyerEmail: users.email,
      manager: managerContactOf(sql`${orders}.company_id`),
    })
    .from(orders)
    .innerJoin(users, eq(users.id, orders.userId))
    .where(eq(orders.id, orderId));
  return order ? { ...order, lines: await orderLineRows(db, orderId) } : null;
}

/** A change of status as the order's history records it. */
export interface StatusChangeEntry {
  orderId: number;
  fromStatus: OrderStatus;
  toStatus: OrderStatus;
  byUserId: number | null;
  comment: string | null;
  reason: string | null;
  carrier: string | null;
  trackingNumber: string | null;
}

export function createOrdersRepository(db: Queryable) {
  return {
    /** Queues this company's placements behind one another until the transaction ends (PLACE_ORDER_LOCK). */
    async lockCompany(companyId: number): Promise<void> {
      await db.execute(sql`select pg_advisory_xact_lock(${PLACE_ORDER_LOCK}::int, ${companyId}::int)`);
    },

    readForPlacing: (order: NewOrder, variantIds: number[], limits: BuyerLimits) =>
      readForPlacing(db, order, variantIds, limits),

    /** One order as the buyer's list shows it; null when there is none. */
    async findSummary(orderId: number): Promise<OrderSummary | null> {
      const [order] = await db.select(summaryColumns()).from(orders).where(eq(orders.id, orderId));
      return order ? toSummary(order) : null;
    },

    hiddenVariantsNotInCart: (userId: number, variants: readonly { id: number; productHidden: boolean }[]) =>
      hiddenVariantsNotInCart(db, userId, variants),

    write: (
      order: NewOrder,
      written: OrderToWrite & { unproven: boolean },
      priced: PricedOrder,
      mail: OutgoingMail[],
    ) => writeOrder(db, order, written, priced, mail),

    /**
     * The order's row, locked until the transaction ends, so that concurrent changes of its status
     * queue and each sees the status the previous one left; null when there is none.
     */
    async lockForChange(
      orderId: number,
    ): Promise<{ id: number; companyId: number | null; status: OrderStatus; unproven: boolean } | null> {
      const [order] = await db
        .select({ id: orders.id, companyId: orders.companyId, status: orders.status, unproven: orders.unproven })
        .from(orders)
        .where(eq(orders.id, orderId))
        .for('update');
      return order ? { ...order, status: order.status as OrderStatus } : null;
    },

    returnStock: (orderId: number, unproven: boolean) => returnStock(db, orderId, unproven),

    /**
     * Takes a paid order placed unproven off what the unproven buyers hold. The catalogue's answers
     * say what they hold (unproven_held), so the change is announced.
     */
    async releaseUnprovenHold(orderId: number): Promise<void> {
      await adjustOrderedVariants(db, orderId, { restock: false, release: true });
      await announceCatalogueChange(db);
    },

    /** The moment of the company's first paid order, kept once set. */
    async markCompanyPaid(companyId: number): Promise<void> {
      await db
        .update(companies)
        .set({ firstPaidAt: sql`coalesce(${companies.firstPaidAt}, now())` })
        .where(eq(companies.id, companyId));
    },

    /**
     * A paid order holds nothing for an unproven buyer any more. `exchangeChanged`: the shop's own
     * change, which the next 1С exchange sends (orders.exchange_changed_at).
     */
    async setStatus(
      orderId: number,
      status: OrderStatus,
      { paid, exchangeChanged }: { paid: boolean; exchangeChanged: boolean },
    ): Promise<void> {
      await db
        .update(orders)
        .set({
          status,
          updatedAt: new Date(),
          ...(paid ? { unproven: false } : {}),
          ...(exchangeChanged ? { exchangeChangedAt: sql`now()` } : {}),
        })
        .where(eq(orders.id, orderId));
    },

    async recordChange(entry: StatusChangeEntry): Promise<void> {
      await db.insert(orderStatusHistory).values(entry);
    },

    lockLapsed: (terms: Pick<AppConfig['reservation'], 'hours' | 'unprovenHours'>) => lockLapsedOrder(db, terms),

    findForLetter: (orderId: number) => orderForLetter(db, orderId),

    /** The company's orders, newest first, one page of those the filter finds and how many it finds. */
    async listForCompany(
      companyId: number,
      filter: BuyerOrdersFilter,
    ): Promise<{ items: OrderSummary[]; total: number }> {
      const where = and(
        eq(orders.companyId, companyId),
        filter.status ? eq(orders.status, filter.status) : undefined,
        filter.legal_entity_id ? eq(orders.legalEntityId, filter.legal_entity_id) : undefined,
        filter.placed_by ? eq(orders.userId, filter.placed_by) : undefined,
      );
      const page = db
        .select(summaryColumns())
        .from(orders)
        .where(where)
        .orderBy(desc(orders.id))
        .offset(filter.skip ?? 0);
      const [rows, [counted]] = await Promise.all([
        filter.limit === undefined ? page : page.limit(filter.limit),
        db.select({ total: count() }).from(orders).where(where),
      ]);
      return { items: rows.map(toSummary), total: counted?.total ?? 0 };
    },

    /** `null` unless the order exists and is the company's. */
    async statusFor(companyId: number, orderId: number): Promise<OrderStatusAnswer | null> {
      const [row] = await db
        .select({ id: orders.id, status: orders.status })
        .from(orders)
        .where(and(eq(orders.id, orderId), eq(orders.companyId, companyId)));
      return row ? { id: row.id, status: row.status as OrderStatus } : null;
    },

    /** The managers' queue: one page and the number of orders the filter finds. */
    async listForManagers(filter: ManagerOrderFilter): Promise<AdminOrderList> {
      const where = and(
        filter.status ? eq(orders.status, filter.status) : undefined,
        filter.managerId === undefined
          ? undefined
          : sql`${orders.companyId} in (select ${companies.id} from ${companies} where ${companies.managerId} = ${filter.managerId})`,
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

    /** The company's order, whole; `null` when there is none or it is another company's. */
    findForBuyer: (companyId: number, orderId: number) =>
      buyerOrder(db, and(eq(orders.id, orderId), eq(orders.companyId, companyId))!),

    /** The order as its buyer sees it, whoever asks: the spreadsheet a letter carries (services/outbox-sender). */
    findForSheet: (orderId: number) => buyerOrder(db, eq(orders.id, orderId)),

    /** The whole order as a manager sees it; `null` when there is none. */
    async findForManager(orderId: number): Promise<AdminOrder | null> {
      const [order] = await db
        .select({
          ...orderDetailColumns,
          userId: users.id,
          userEmail: users.email,
          userTrusted: sql<boolean>`${companies.trustedAt} is not null`,
          userHasPaidOrder: sql<boolean>`${companies.firstPaidAt} is not null`,
          buyerCompanyId: companies.id,
          buyerCompanyName: companies.name,
          placedByName: orders.placedByName,
          oneCDocument: orders.oneCDocument,
        })
        .from(orders)
        .leftJoin(users, eq(users.id, orders.userId))
        .leftJoin(companies, eq(companies.id, orders.companyId))
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
            carrier: orderStatusHistory.carrier,
            trackingNumber: orderStatusHistory.trackingNumber,
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
        user:
          order.userId === null || order.userEmail === null
            ? null
            : {
                id: order.userId,
                email: order.userEmail,
                trusted: order.userTrusted,
                has_paid_order: order.userHasPaidOrder,
              },
        history: history.map((entry) => ({
          at: entry.at.toISOString(),
          from: entry.from as OrderStatus,
          to: entry.to as OrderStatus,
          by: entry.byId === null || entry.byEmail === null ? null : { id: entry.byId, email: entry.byEmail },
          comment: entry.comment,
          ...(entry.reason === null ? {} : { reason: entry.reason }),
          ...optionalTracking(entry.carrier, entry.trackingNumber),
        })),
        next_statuses: managerNextStatuses(status),
        invoice: invoice ?? null,
        company: order.buyerCompanyId === null ? null : { id: order.buyerCompanyId, name: order.buyerCompanyName! },
        placed_by: order.placedByName,
        one_c: oneCView(order.oneCDocument),
      };
    },
  };
}

export type OrdersRepository = ReturnType<typeof createOrdersRepository>;
