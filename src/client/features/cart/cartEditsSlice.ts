import { createAction, createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { TIMINGS, type CartItem } from '@shared/api';
import type { AppStartListening } from '@/app/listeners';
import { cartApi } from './cartApi';

/**
 * Quantities the shopper has set but the server has not confirmed yet (0 means "delete").
 * The cart shows these over the server's numbers, so edits appear at once and survive the
 * cart reloading underneath them.
 */
export interface CartEditsState {
  pending: Record<number, number>;
  /** What is on its way to the server now, so a second save does not send it again. */
  sending: Record<number, number>;
  failure: string | null;
}

const initialState: CartEditsState = { pending: {}, sending: {}, failure: null };

type Edits = Record<number, number>;

export const cartEditsSlice = createSlice({
  name: 'cartEdits',
  initialState,
  reducers: {
    cartQuantityEdited(state, action: PayloadAction<{ itemId: number; count: number }>) {
      // SPEC §4: a quantity below 1 deletes the line.
      state.pending[action.payload.itemId] = Math.max(0, action.payload.count);
    },
    cartEditsSending(state, action: PayloadAction<Edits>) {
      Object.assign(state.sending, action.payload);
    },
    cartEditsSettled(state, action: PayloadAction<{ sent: Edits; failed: number[]; failure: string | null }>) {
      for (const [key, count] of Object.entries(action.payload.sent)) {
        const itemId = Number(key);
        if (state.sending[itemId] === count) delete state.sending[itemId];
        // A failed edit is dropped too: the line shows the server's number again (the rollback).
        if (state.pending[itemId] === count || action.payload.failed.includes(itemId)) delete state.pending[itemId];
      }
      if (action.payload.failure) state.failure = action.payload.failure;
    },
    cartFailureShown(state) {
      state.failure = null;
    },
  },
  selectors: {
    selectPendingEdits: (state) => state.pending,
    /** The shopper's unsaved quantity of one line, if any: a line re-renders when its own changes. */
    selectPendingCount: (state, itemId: number): number | undefined => state.pending[itemId],
    /** Lines the shopper has deleted; a new array each time, so compare it with shallowEqual. */
    selectDeletedLines: (state) =>
      Object.entries(state.pending)
        .filter(([, count]) => count === 0)
        .map(([itemId]) => Number(itemId)),
    selectCartFailure: (state) => state.failure,
  },
});

export const { cartQuantityEdited, cartEditsSending, cartEditsSettled, cartFailureShown } = cartEditsSlice.actions;
export const { selectPendingEdits, selectPendingCount, selectDeletedLines, selectCartFailure } =
  cartEditsSlice.selectors;

/** The cart as the shopper sees it: unsaved edits over the server's numbers, deleted lines gone. */
export function linesWithEdits(
  items: CartItem[],
  pending: Record<number, number>,
): { item: CartItem; count: number }[] {
  return items.map((item) => ({ item, count: pending[item.id] ?? item.count })).filter((line) => line.count > 0);
}

const saveRequested = createAction('cartEdits/saveRequested');
const CART_RELOAD_WAIT_MS = 5000;
const CART_SAVE_FAILED = 'Не удалось сохранить изменения корзины. Показаны последние сохранённые данные.';

/**
 * SPEC §4/§9: edits are sent 500 ms after the last one (every pending line at once), then the cart
 * reloads (about 600 ms after the change) and the confirmed edits give way to the server's numbers.
 */
export function addCartEditsListeners(startAppListening: AppStartListening): void {
  startAppListening({
    actionCreator: cartQuantityEdited,
    effect: async (_action, listenerApi) => {
      listenerApi.cancelActiveListeners();
      await listenerApi.delay(TIMINGS.cartDebounceMs);
      listenerApi.dispatch(saveRequested());
    },
  });

  // Not cancelled by later edits: a save that has started always settles.
  startAppListening({
    actionCreator: saveRequested,
    effect: async (_action, listenerApi) => {
      const { pending, sending } = listenerApi.getState().cartEdits;
      const entries = Object.entries(pending)
        .map(([itemId, count]) => [Number(itemId), count] as const)
        .filter(([itemId, count]) => sending[itemId] !== count);
      if (entries.length === 0) return;
      const sent = Object.fromEntries(entries);
      listenerApi.dispatch(cartEditsSending(sent));

      const reloaded = listenerApi.condition(cartApi.endpoints.getCart.matchFulfilled, CART_RELOAD_WAIT_MS);
      const results = await Promise.allSettled(
        entries.map(([itemId, count]) =>
          count < 1
            ? listenerApi.dispatch(cartApi.endpoints.removeCartItem.initiate(itemId)).unwrap()
            : listenerApi.dispatch(cartApi.endpoints.setCartCount.initiate({ itemId, count })).unwrap(),
        ),
      );
      const failed = entries.filter((_entry, index) => results[index]!.status === 'rejected').map(([itemId]) => itemId);
      if (failed.length === entries.length) listenerApi.dispatch(cartApi.util.invalidateTags(['Cart']));
      // Wait for the reload the mutations caused, so confirmed numbers never flash back to old ones.
      await reloaded;
      listenerApi.dispatch(cartEditsSettled({ sent, failed, failure: failed.length > 0 ? CART_SAVE_FAILED : null }));
    },
  });
}
