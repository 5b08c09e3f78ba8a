// Placing an order and moving it along its workflow: the buyer's limits, the share of the stock one
// order may take, the replay of an Idempotency-Key and the state machine, each run inside the
// transaction whose statements the orders repository (repositories/orders.ts) holds.
import type { OrderStatusAnswer, OrderSummary } from '../../shared/api';
import type { OrderStatus } from '../../shared/order-statuses';
import { trackingOf } from '../../shared/carriers';
import type { AppConfig, BuyerLimits } from '../config';
import type { Database, Transaction } from '../db/database';
import {
  CompanyBlockedError,
  CompanyRoleError,
  DailyOrdersLimitError,
  EmailNotConfirmedError,
  CartChangedError,
  IdempotencyConflictError,
  OrderNotFoundError,
  UnpaidOrdersLimitError,
  MinOrderSumError,
} from '../domain/domain-errors';
import {
  assertShipment,
  assertStatusChange,
  AWAITING_PAYMENT_STATUS,
  CANCELLED_STATUS,
  NEW_ORDER_STATUS,
  PAID_STATUS,
  type StatusChangeSource,
} from '../domain/order-workflow';
import { lineSharePercentOf, maxUnpaidOrdersOf, type BuyerStanding } from '../domain/buyer-standing';
import { assertWithinStockShare, assertWithinUnprovenPool, mergeLines, priceOrder } from '../domain/order-pricing';
import type { ShopMail } from '../mail/letter';
import { decimalToKopecks, kopecksToDecimal, kopecksToRubles } from '../../shared/money';
import { minOrderSumMessage } from '../../shared/pricing';
import { TierIndex } from '../domain/wholesale-price';
import {
  createOrdersRepository,
  type NewOrder,
  type OrdersRepository,
  type PlacingFacts,
} from '../repositories/orders';
import { orderPlacedMail, queueStatusChanged } from './order-mail';
import { COMPANY_MESSAGES, mayOrder } from '../../shared/company';
import type { Member } from '../domain/company-member';

export interface PlacedOrder {
  order: OrderSummary;
  /** True when the Idempotency-Key had already placed this order. */
  replayed: boolean;
}

export interface StatusChange {
  to: OrderStatus;
  source: StatusChangeSource;
  /** The account that asked (null from the command line, the server's sweep and 1С's file). */
  byUserId: number | null;
  /** The manager's words, for the buyer too (the order's history and the status letter). */
  comment?: string | null;
  /** With «Отправлен» only: the carrier (src/shared/carriers.ts) and the parcel's tracking number. */
  carrier?: string | null;
  trackingNumber?: string | null;
  /** Why the server itself made the change, for the buyer (the history and the letter say it). */
  reason?: string;
  /** Set for a buyer's cancel: another company's order is "not found". */
  companyId?: number;
}

/**
 * The order an Idempotency-Key already placed, for its retry; a different request under the same
 * key is refused.
 */
async function replayedOrder(
  orders: OrdersRepository,
  earlier: NonNullable<PlacingFacts['earlier']>,
  digest: string,
): Promise<OrderSummary> {
  if (earlier.digest !== digest) throw new IdempotencyConflictError();
  return (await orders.findSummary(earlier.id))!;
}

/**
 * Refuses a new order when the buyer already has the most unpaid orders allowed (a proven buyer
 * more), or placed the most allowed in the last 24 hours.
 */
function assertWithinOrderLimits(
  facts: PlacingFacts,
  limits: BuyerLimits,
  buyer: BuyerStanding,
  contactEmail: string,
): void {
  const maxUnpaid = maxUnpaidOrdersOf(buyer, limits);
  if (facts.unpaid >= maxUnpaid) throw new UnpaidOrdersLimitError(maxUnpaid);
  const { nthNewest } = facts;
  if (nthNewest?.withinDay)
    throw new DailyOrdersLimitError(limits.maxOrdersPerDay, new Date(nthNewest.freedAt), contactEmail);
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
  const orders = createOrdersRepository(tx);
  const order = await orders.lockForChange(orderId);
  if (!order || (change.companyId !== undefined && order.companyId !== change.companyId))
    throw new OrderNotFoundError();
  const from = order.status;
  assertStatusChange(order.id, from, change.to, change.source);
  const carrier = change.carrier || null;
  const trackingNumber = change.trackingNumber?.trim() || null;
  assertShipment(change.to, { carrier, trackingNumber });
  if (change.to === CANCELLED_STATUS) await orders.returnStock(order.id, order.unproven);
  const paid = change.to === PAID_STATUS;
  // A paid order holds nothing for an unproven buyer any more, and makes its company proven.
  if (paid && order.unproven) await orders.releaseUnprovenHold(order.id);
  if (paid && order.companyId !== null) await orders.markCompanyPaid(order.companyId);
  const comment = change.comment?.trim() || null;
  // 1С's own changes are not sent back to it; every other moves the order's exchange mark.
  await orders.setStatus(order.id, change.to, { paid, exchangeChanged: change.source !== '1c' });
  await orders.recordChange({
    orderId: order.id,
    fromStatus: from,
    toStatus: change.to,
    byUserId: change.byUserId,
    comment,
    reason: change.reason ?? null,
    carrier,
    trackingNumber,
  });
  if (change.source !== 'invoice') {
    await queueStatusChanged(tx, shop, order.id, {
      status: change.to,
      reason: change.reason,
      comment,
      tracking: trackingOf(carrier, trackingNumber),
    });
  }
  return { id: order.id, status: change.to };
}

export function createOrderService(
  db: Database,
  shop: ShopMail,
  {
    buyerLimits,
    reservation,
    requireEmailConfirmation,
  }: Pick<AppConfig, 'buyerLimits' | 'reservation' | 'requireEmailConfirmation'>,
) {
  return {
    /**
     * Places an order for the buyer's company (an owner's or a purchaser's, never the accountant's) in
     * one transaction of five statements whatever its size: the company's lock; one read of the
     * buyer's standing and the company's limits (confirmed, proven, blocked, unpaid orders, orders a day),
     * the ordered variants (locked in id order, so concurrent orders cannot deadlock) and the
     * letters' recipients; then, in TypeScript, the confirmation, the limits, the prices from the
     * database, the stock and, for an unproven buyer, the share of it one order may take and the
     * unproven buyers' pool, and the letters; one write of it all (the stock and the unproven
     * holding, the order, the cart, the letters); the commit. An order from the server cart is refused
     * when the cart's revision (read with the rest) is not the version it was made from. A retry with the Idempotency-Key of an
     * order already placed gets that order, whatever the limits say now.
     */
    async place(order: NewOrder, member: Pick<Member, 'role'>): Promise<PlacedOrder> {
      if (!mayOrder(member.role)) throw new CompanyRoleError(COMPANY_MESSAGES.accountantCannotOrder);
      const ordered = mergeLines(order.items);
      const variantIds = [...ordered.keys()].sort((a, b) => a - b);
      return db.transaction(async (tx) => {
        const orders = createOrdersRepository(tx);
        await orders.lockCompany(order.companyId);
        const facts = await orders.readForPlacing(order, variantIds, buyerLimits);
        if (facts.earlier)
          return { order: await replayedOrder(orders, facts.earlier, order.idempotency!.digest), replayed: true };
        // After the replay: placing the order took its lines out of the cart, so its retry finds another revision.
        if (order.cartVersion !== undefined && order.cartVersion !== facts.cartRevision) throw new CartChangedError();
        const buyer = facts.buyer ?? { confirmed: false, proven: false, blocked: false };
        // Read under the company's lock: a block committed a moment ago refuses this order.
        if (buyer.blocked) throw new CompanyBlockedError();
        if (requireEmailConfirmation && !buyer.confirmed) throw new EmailNotConfirmedError();
        assertWithinOrderLimits(facts, buyerLimits, buyer, shop.contactEmail);
        // A product off sale is named as such only to a buyer who has it in the cart; to anyone else
        // naming its variant it is unknown (domain/on-sale.ts). Read only when one is hidden.
        const hiddenNotInCart = await orders.hiddenVariantsNotInCart(order.userId, facts.variants);
        const locked = new Map(
          facts.variants.filter((variant) => !hiddenNotInCart.has(variant.id)).map((variant) => [variant.id, variant]),
        );
        const { priceTypes } = facts;
        const priced = priceOrder(variantIds, ordered, locked, {
          types: { typeId: priceTypes.typeId, defaultTypeId: priceTypes.defaultTypeId },
          tiers: new TierIndex(facts.tiers),
          typeNames: new Map(Object.entries(priceTypes.names).map(([id, name]) => [Number(id), name])),
        });
        const minimum = decimalToKopecks(priceTypes.minOrderSum);
        if (priced.totalKopecks < minimum) {
          throw new MinOrderSumError(
            minOrderSumMessage(kopecksToRubles(minimum), kopecksToRubles(minimum - priced.totalKopecks)),
          );
        }
        const lineSharePercent = lineSharePercentOf(buyer, buyerLimits);
        if (lineSharePercent !== null) assertWithinStockShare(priced.lines, lineSharePercent, shop.contactEmail);
        if (!buyer.proven) {
          const held = new Map(facts.variants.map((variant) => [variant.id, variant.unprovenHeld]));
          assertWithinUnprovenPool(priced.lines, held, buyerLimits.unprovenStockSharePercent, shop.contactEmail);
        }
        const written = {
          id: facts.orderId,
          createdAt: new Date(facts.createdAt),
          totalPrice: kopecksToDecimal(priced.totalKopecks),
          unproven: !buyer.proven,
        };
        const mail = orderPlacedMail(
          shop,
          {
            ...order,
            ...written,
            lines: priced.lines.map(({ variant, quantity, unitPrice }) => ({
              art: locked.get(variant.id)!.art,
              name: variant.productName,
              color: variant.color,
              size: variant.size,
              price: unitPrice,
              quantity,
            })),
          },
          facts.recipients,
        );
        await orders.write(order, written, priced, mail);
        return {
          order: {
            id: written.id,
            total_price: kopecksToRubles(priced.totalKopecks),
            status: NEW_ORDER_STATUS,
            created_at: written.createdAt.toISOString(),
            items_count: priced.itemsCount,
            invoice: null,
            placed_by: { user_id: order.userId, name: order.placedByName },
            legal_entity_id: order.legalEntityId,
          },
          replayed: false,
        };
      });
    },

    /**
     * A buyer's cancel of the company's order (while it is unpaid): the goods go back on the shelf.
     * The accountant, who places no orders, cancels none either.
     */
    cancel(member: Member, orderId: number): Promise<OrderStatusAnswer> {
      if (!mayOrder(member.role)) throw new CompanyRoleError(COMPANY_MESSAGES.accountantCannotOrder);
      return db.transaction((tx) =>
        changeStatusLocked(
          tx,
          orderId,
          { to: CANCELLED_STATUS, source: 'buyer', byUserId: member.userId, companyId: member.companyId },
          shop,
        ),
      );
    },

    /** A manager's step along the state machine (the back office and the command line). */
    changeStatus(orderId: number, change: StatusChange): Promise<OrderStatusAnswer> {
      return db.transaction((tx) => changeStatusLocked(tx, orderId, change, shop));
    },

    /**
     * Cancels one unpaid order whose reservation has lapsed (RESERVATION_HOURS, or
     * RESERVATION_HOURS_UNPROVEN for one placed unproven; see
     * lockLapsedOrder) in a transaction of its own, as the buyer's cancel would: the goods go back
     * on the shelf, the history and the buyer's letter say why. Returns its id, or null when no
     * lapsed order is left. Several processes may sweep at once: an order one of them holds is
     * skipped by the others, and once cancelled it is no longer unpaid, so each order is cancelled
     * and its stock returned once.
     */
    cancelLapsedReservation(): Promise<number | null> {
      return db.transaction(async (tx) => {
        const order = await createOrdersRepository(tx).lockLapsed(reservation);
        if (!order) return null;
        const reason = lapseReason(order.status, order.unproven ? reservation.unprovenHours : reservation.hours);
        await changeStatusLocked(
          tx,
          order.id,
          { to: CANCELLED_STATUS, source: 'expiry', byUserId: null, reason },
          shop,
        );
        return order.id;
      });
    },
  };
}

export type OrderService = ReturnType<typeof createOrderService>;
