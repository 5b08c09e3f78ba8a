import { useMemo } from 'react';

/** The one checkout of this tab: which items it is for, and the key of every attempt to place it. */
interface Draft {
  items: string;
  /** Sent with every attempt to place this order, so the server places it once however often it is retried. */
  idempotencyKey: string;
}

const STORAGE_KEY = 'checkoutDraft';

function read(): Draft | null {
  try {
    const draft = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? 'null') as Draft | null;
    return typeof draft?.idempotencyKey === 'string' && typeof draft.items === 'string' ? draft : null;
  } catch {
    return null;
  }
}

/**
 * The Idempotency-Key of the checkout of `items` (a signature of the lines: article, variant,
 * count), in sessionStorage (this tab): a reload, a lost connection or a failed submit keep it, so a
 * retry never places a second order; another set of items gets a new key, so it never replays an
 * old order. One draft a tab, not one per set of items: a 5 000-line cart's signature is long.
 * `discard` after a success: the next checkout is a new intent with a new key. What was typed is
 * kept apart, per account (checkoutFields.ts).
 */
export function useCheckoutDraft(items: string) {
  return useMemo(() => {
    const kept = read();
    const draft = kept?.items === items ? kept : { items, idempotencyKey: crypto.randomUUID() };
    try {
      sessionStorage.setItem(STORAGE_KEY, JSON.stringify(draft));
    } catch {
      // A full or blocked storage costs only the key's surviving a reload.
    }
    return { idempotencyKey: draft.idempotencyKey, discard: () => sessionStorage.removeItem(STORAGE_KEY) };
  }, [items]);
}
