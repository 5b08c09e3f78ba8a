import { useMemo } from 'react';
import type { RequisitesFields } from '@shared/api';
import type { CheckoutItem } from '@shared/paths';

export interface CheckoutFields extends RequisitesFields {
  address?: string;
  saveRequisites?: boolean;
}

interface Draft {
  /** What the buyer typed; null until they type anything. */
  fields: CheckoutFields | null;
  /** Sent with every attempt to place this order, so the server places it once however often it is retried. */
  idempotencyKey: string;
}

const storageKey = (items: CheckoutItem[]) =>
  `checkoutDraft:${items.map(({ art, variantId, count }) => `${art}:${variantId}:${count}`).join(',')}`;

function read(key: string): Draft | null {
  try {
    const draft = JSON.parse(sessionStorage.getItem(key) ?? 'null') as Draft | null;
    return typeof draft?.idempotencyKey === 'string' ? draft : null;
  } catch {
    return null;
  }
}

function write(key: string, draft: Draft): void {
  try {
    sessionStorage.setItem(key, JSON.stringify(draft));
  } catch {
    // A full or blocked storage costs only the draft's surviving a reload; the order still goes.
  }
}

/**
 * The checkout of these items as a draft in sessionStorage (this tab, this checkout): a reload, a
 * lost connection or a failed submit never lose what was typed, and every retry carries the same
 * Idempotency-Key. `discard` after a success: the next checkout is a new intent with a new key.
 */
export function useCheckoutDraft(items: CheckoutItem[]) {
  const key = storageKey(items);
  return useMemo(() => {
    const draft = read(key) ?? { fields: null, idempotencyKey: crypto.randomUUID() };
    write(key, draft);
    return {
      fields: draft.fields,
      idempotencyKey: draft.idempotencyKey,
      keep: (fields: CheckoutFields) => write(key, { ...draft, fields }),
      discard: () => sessionStorage.removeItem(key),
    };
  }, [key]);
}
