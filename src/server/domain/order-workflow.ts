import type { OrderStatus } from '../../shared/api';
import { InvoiceRequiredError, OrderNotCancellableError, OrderTransitionError } from './errors';

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
/** A buyer may take back an order until it is paid; after that only a manager can cancel it. */
const BUYER_CANCELLABLE: readonly OrderStatus[] = [NEW_ORDER_STATUS, AWAITING_PAYMENT_STATUS];

/** Who asks for a change decides which of the allowed ones they may make. */
export type StatusChangeSource = 'manager' | 'invoice' | 'buyer';

export const allowedNextStatuses = (from: OrderStatus): readonly OrderStatus[] => NEXT[from];

/** Whether the order's buyer may still cancel it (the profile shows «Отменить заказ» then). */
export const buyerMayCancel = (status: OrderStatus): boolean => BUYER_CANCELLABLE.includes(status);

/** Throws the domain error that says why `from` → `to` is refused to `source`; returns when allowed. */
export function assertStatusChange(
  orderId: number,
  from: OrderStatus,
  to: OrderStatus,
  source: StatusChangeSource,
): void {
  if (source === 'buyer') {
    if (to !== CANCELLED_STATUS || !buyerMayCancel(from)) throw new OrderNotCancellableError(orderId, from);
    return;
  }
  if (!NEXT[from].includes(to)) throw new OrderTransitionError(orderId, from, to);
  if (to === AWAITING_PAYMENT_STATUS && source !== 'invoice') throw new InvoiceRequiredError(orderId);
}
