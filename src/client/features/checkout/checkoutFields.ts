import type { RequisitesFields } from '@shared/api';
import type { AppStartListening } from '@/app/listeners';
import { loggedOut } from '@/features/session/sessionSlice';

export interface CheckoutFields extends RequisitesFields {
  /** The company's legal entity the order is for, when the company has any. */
  legal_entity_id?: string | null;
  address?: string;
  saveRequisites?: boolean;
}

/**
 * What a buyer typed at checkout, per account in localStorage: whichever items the next checkout
 * holds (a line fixed in the cart is a new set of items), in every tab, through a reload, until an
 * order is placed, the buyer logs out or deletes the account. Apart from the Idempotency-Key's
 * draft (checkoutDraft.ts), which belongs to one set of items.
 */
const storageKey = (userId: number) => `checkoutFields:${userId}`;

export function readCheckoutFields(userId: number): CheckoutFields | null {
  try {
    const fields = JSON.parse(localStorage.getItem(storageKey(userId)) ?? 'null') as unknown;
    return fields !== null && typeof fields === 'object' ? (fields as CheckoutFields) : null;
  } catch {
    return null;
  }
}

export function keepCheckoutFields(userId: number, fields: CheckoutFields): void {
  try {
    localStorage.setItem(storageKey(userId), JSON.stringify(fields));
  } catch {
    // A full or blocked storage costs only the fields' surviving; the order still goes.
  }
}

export function forgetCheckoutFields(userId: number): void {
  localStorage.removeItem(storageKey(userId));
}

/**
 * Logout forgets them (deleting the account ends in a logout too): the next person at this browser,
 * or the same one under another account, never finds them. The account is the one logged out,
 * read from the state before the action.
 */
export function addCheckoutFieldsListeners(startAppListening: AppStartListening): void {
  startAppListening({
    actionCreator: loggedOut,
    effect: (_action, listenerApi) => {
      const user = listenerApi.getOriginalState().session.user;
      if (user) forgetCheckoutFields(user.id);
    },
  });
}
