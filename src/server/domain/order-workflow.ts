import type { OrderStatus } from '../../shared/order-statuses';
import {
  ShipmentDetailsError,
  InvoiceRequiredError,
  OrderNotCancellableError,
  OrderTransitionError,
} from './domain-errors';

/**
 * The one order state machine, for the API, the back office and the command line alike. The
 * statuses with no way out (Доставлен, Отменён) are final.
 */
const NEXT: Readonly<Record<OrderStatus, readonly OrderStatus[]>> = {
  Создан: ['Ожидает оплаты', 'Отменён'],
  'Ожидает оплаты': ['Оплачен', 'Отменён'],
  Оплачен: ['Отправлен', 'Отменён'],
  Отправлен: ['Доставлен'],
  Доставлен: [],
  Отменён: [],
};

export const NEW_ORDER_STATUS: OrderStatus = 'Создан';
export const CANCELLED_STATUS: OrderStatus = 'Отменён';
/** Only issuing the invoice moves an order here: the invoice is what the buyer is waiting to pay. */
export const AWAITING_PAYMENT_STATUS: OrderStatus = 'Ожидает оплаты';
/**
 * An order here holds its goods without having been paid: the buyer may still take it back (after
 * that only a manager can cancel it), it counts against the buyer's unpaid orders, and it is
 * cancelled by the server when its reservation lapses.
 */
export const UNPAID_STATUSES: readonly OrderStatus[] = [NEW_ORDER_STATUS, AWAITING_PAYMENT_STATUS];
/**
 * The buyer has paid: the only way on from «Ожидает оплаты» but the cancel, and every status after
 * it (Отправлен, Доставлен) passed through it. The first order of a buyer's to reach it makes the
 * buyer proven (users.first_paid_at), for good: a later cancel of it is a refund, not a buyer who
 * never paid.
 */
export const PAID_STATUS: OrderStatus = 'Оплачен';

/**
 * Who asks for a change decides which of the allowed ones they may make; `expiry` is the server
 * cancelling an unpaid order whose reservation lapsed, which may do what the buyer may; `1c` is a
 * status read from 1С's orders file (type=sale&mode=file).
 */
export type StatusChangeSource = 'manager' | 'invoice' | 'buyer' | 'expiry' | '1c';

/**
 * What 1С may do: pay (an order it invoiced itself may go from «Создан» straight to «Оплачен»),
 * ship a paid order, cancel one not yet shipped. «Ожидает оплаты» stays the shop's invoice's, and
 * «Доставлен» the manager's: 1С knows neither.
 */
const ONE_C_NEXT: Readonly<Record<OrderStatus, readonly OrderStatus[]>> = {
  Создан: ['Оплачен', 'Отменён'],
  'Ожидает оплаты': ['Оплачен', 'Отменён'],
  Оплачен: ['Отправлен', 'Отменён'],
  Отправлен: [],
  Доставлен: [],
  Отменён: [],
};

/** How far along the way an order is: a status reached stays reached (Отменён stands apart). */
const PROGRESS: readonly OrderStatus[] = ['Создан', 'Ожидает оплаты', 'Оплачен', 'Отправлен', 'Доставлен'];

/** What 1С's file says of an order. */
export interface OneCOrderState {
  paid: boolean;
  shipped: boolean;
  cancelled: boolean;
}

/**
 * The steps that bring an order from `from` to what 1С says, each one 1С may make; [] when the order
 * is there already (applying the same file twice changes nothing); `refused` when 1С's state cannot
 * be reached from the shop's (shipped unpaid, cancelled after shipping, paid after the shop's cancel).
 */
export function stepsFromOneC(
  from: OrderStatus,
  state: OneCOrderState,
): { steps: OrderStatus[] } | { refused: string } {
  if (state.cancelled) {
    if (from === CANCELLED_STATUS) return { steps: [] };
    return ONE_C_NEXT[from].includes(CANCELLED_STATUS)
      ? { steps: [CANCELLED_STATUS] }
      : { refused: `в 1С заказ отменён, а на сайте он в статусе «${from}»` };
  }
  if (!state.paid && !state.shipped) return { steps: [] };
  if (from === CANCELLED_STATUS) return { refused: 'в 1С заказ оплачен или отгружен, а на сайте он отменён' };
  const at = PROGRESS.indexOf(from);
  const steps: OrderStatus[] = [];
  if (at < PROGRESS.indexOf(PAID_STATUS)) {
    if (!state.paid) return { refused: `в 1С заказ отгружен без оплаты, а на сайте он в статусе «${from}»` };
    steps.push(PAID_STATUS);
  }
  if (state.shipped && at < PROGRESS.indexOf(SHIPPED_STATUS)) steps.push(SHIPPED_STATUS);
  return { steps };
}

export const allowedNextStatuses = (from: OrderStatus): readonly OrderStatus[] => NEXT[from];

/** Whether the order's buyer may still cancel it (the profile shows «Отменить заказ» then). */
export const buyerMayCancel = (status: OrderStatus): boolean => UNPAID_STATUSES.includes(status);

/** Throws the domain error that says why `from` → `to` is refused to `source`; returns when allowed. */
export function assertStatusChange(
  orderId: number,
  from: OrderStatus,
  to: OrderStatus,
  source: StatusChangeSource,
): void {
  if (source === '1c') {
    if (!ONE_C_NEXT[from].includes(to)) throw new OrderTransitionError(orderId, from, to);
    return;
  }
  if (source === 'buyer' || source === 'expiry') {
    if (to !== CANCELLED_STATUS || !buyerMayCancel(from)) throw new OrderNotCancellableError(orderId, from);
    return;
  }
  if (!NEXT[from].includes(to)) throw new OrderTransitionError(orderId, from, to);
  if (to === AWAITING_PAYMENT_STATUS && source !== 'invoice') throw new InvoiceRequiredError(orderId);
}

/** «Отправлен»: the status whose change may name the carrier and the tracking number. */
export const SHIPPED_STATUS: OrderStatus = 'Отправлен';

/** How an order was shipped, as the manager gave it. */
export interface Shipment {
  carrier?: string | null;
  trackingNumber?: string | null;
}

/** Throws unless the shipment's details go with «Отправлен», and a tracking number with its carrier. */
export function assertShipment(to: OrderStatus, { carrier, trackingNumber }: Shipment): void {
  if (!carrier && !trackingNumber) return;
  if (to !== SHIPPED_STATUS)
    throw new ShipmentDetailsError(
      `Перевозчик и трек-номер указываются только при смене статуса на «${SHIPPED_STATUS}»`,
    );
  if (trackingNumber && !carrier) throw new ShipmentDetailsError('Укажите перевозчика, которому передан трек-номер');
}
