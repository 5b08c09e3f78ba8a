import { createAction, createSlice, isAnyOf, type ListenerEffectAPI, type PayloadAction } from '@reduxjs/toolkit';
import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import { TIMINGS, type CartCountConflict, type CartItem } from '@shared/api';
import { LIMITS } from '@shared/limits';
import type { AppStartListening } from '@/app/listeners';
import type { AppDispatch, RootState } from '@/app/store';
import { cartApi } from './cartApi';
import { announceCartSaved } from './cartChannel';

/** A quantity the shopper has set that the server has not confirmed yet. */
export interface LineEdit {
  /** What the shopper wants the line to hold; 0 deletes it. */
  count: number;
  /** The server's count the edit started from, sent as `expected`: another tab's change meanwhile is a 409. */
  base: number;
  /** Typed into the field: the number is the intent. From − / + the difference from `base` is. */
  typed: boolean;
  /** The last attempt to save it found no connection. */
  unsaved: boolean;
  /** When it was last sent: a cart reload that started earlier may not include it. */
  sentAt?: number;
}

/**
 * The cart shows these edits over the server's numbers, so a change appears at once and survives
 * the cart reloading underneath it (docs/decisions.md, "A cart that loses nothing").
 */
export interface CartEditsState {
  pending: Record<number, LineEdit>;
  /** The count on its way to the server, per line: one request per line at a time. */
  sending: Record<number, number>;
  failure: string | null;
  /** Saving has found no connection since the last save that went through. */
  offline: boolean;
  /** Attempts in a row that found no connection: the wait before the next one grows with them. */
  offlineAttempts: number;
}

const initialState: CartEditsState = { pending: {}, sending: {}, failure: null, offline: false, offlineAttempts: 0 };

const CART_SAVE_FAILED = 'Не удалось сохранить изменения корзины. Показаны последние сохранённые данные.';

const withinCartLimits = (count: number) => Math.min(LIMITS.maxCartCount, Math.max(LIMITS.minQuantity, count));

export const cartEditsSlice = createSlice({
  name: 'cartEdits',
  initialState,
  reducers: {
    /** `serverCount`: the line's count as this tab last loaded it; `typed` for the numeric field. */
    cartQuantityEdited(
      state,
      action: PayloadAction<{ itemId: number; count: number; serverCount: number; typed?: boolean }>,
    ) {
      const { itemId, count, serverCount, typed = false } = action.payload;
      const earlier = state.pending[itemId];
      state.pending[itemId] = {
        // SPEC §4: a quantity below 1 deletes the line.
        count: Math.min(LIMITS.maxCartCount, Math.max(0, count)),
        base: earlier?.base ?? serverCount,
        // Once a number is typed, later − / + adjust that number: the whole edit is absolute.
        typed: (earlier?.typed ?? false) || typed,
        unsaved: earlier?.unsaved ?? false,
        sentAt: earlier?.sentAt,
      };
    },
    cartEditSending: {
      reducer(state, action: PayloadAction<{ itemId: number; count: number; at: number }>) {
        const { itemId, count, at } = action.payload;
        state.sending[itemId] = count;
        const edit = state.pending[itemId];
        if (edit) edit.sentAt = at;
      },
      prepare: (change: { itemId: number; count: number }) => ({ payload: { ...change, at: Date.now() } }),
    },
    /** The server holds `count` now: a newer edit of the line starts from it. */
    cartEditSaved(state, action: PayloadAction<{ itemId: number; count: number }>) {
      const { itemId, count } = action.payload;
      delete state.sending[itemId];
      const edit = state.pending[itemId];
      if (edit) {
        edit.base = count;
        edit.unsaved = false;
        // Saved whole: the shopper's next change is a new one, − / + or typed as it comes.
        if (edit.count === count) edit.typed = false;
      }
      state.offline = false;
      state.offlineAttempts = 0;
    },
    /**
     * Another tab changed the line (409): the edit is carried over onto the count it holds now.
     * − / + keep their difference (27 there, +1 here: 28); a typed number stays what was typed.
     */
    cartEditRebased(state, action: PayloadAction<{ itemId: number; serverCount: number }>) {
      const { itemId, serverCount } = action.payload;
      delete state.sending[itemId];
      const edit = state.pending[itemId];
      if (!edit) return;
      if (!edit.typed) edit.count = withinCartLimits(serverCount + edit.count - edit.base);
      edit.base = serverCount;
    },
    /** The server refused the edit: it is dropped, and the line shows the server's number again. */
    cartEditFailed(state, action: PayloadAction<{ itemId: number }>) {
      delete state.sending[action.payload.itemId];
      delete state.pending[action.payload.itemId];
      state.failure = CART_SAVE_FAILED;
    },
    /** No connection: the edit stays on screen, marked, to be sent again. */
    cartEditUnsent(state, action: PayloadAction<{ itemId: number }>) {
      delete state.sending[action.payload.itemId];
      const edit = state.pending[action.payload.itemId];
      if (edit) edit.unsaved = true;
    },
    cartSaveFoundNoConnection(state) {
      state.offline = true;
      state.offlineAttempts += 1;
    },
    /**
     * A reload that started after an edit was sent shows the server's count: a saved edit has nothing
     * left to tell and gives way to it, and so has an edit back to where it started.
     */
    cartReloaded(state, action: PayloadAction<{ startedAt: number }>) {
      for (const [key, edit] of Object.entries(state.pending)) {
        const itemId = Number(key);
        const settled = edit.count === edit.base && !(itemId in state.sending) && !edit.unsaved;
        if (settled && (edit.sentAt ?? 0) <= action.payload.startedAt) delete state.pending[itemId];
      }
    },
    cartFailureShown(state) {
      state.failure = null;
    },
  },
  selectors: {
    selectPendingEdits: (state) => state.pending,
    /** The shopper's unsaved quantity of one line, if any: a line re-renders when its own changes. */
    selectPendingCount: (state, itemId: number): number | undefined => state.pending[itemId]?.count,
    selectLineUnsaved: (state, itemId: number): boolean => state.pending[itemId]?.unsaved ?? false,
    /** Lines the shopper has deleted; a new array each time, so compare it with shallowEqual. */
    selectDeletedLines: (state) =>
      Object.entries(state.pending)
        .filter(([, edit]) => edit.count === 0)
        .map(([itemId]) => Number(itemId)),
    selectCartFailure: (state) => state.failure,
    selectCartOffline: (state) => state.offline,
  },
});

export const { cartQuantityEdited, cartFailureShown } = cartEditsSlice.actions;
const {
  cartEditSending,
  cartEditSaved,
  cartEditRebased,
  cartEditFailed,
  cartEditUnsent,
  cartSaveFoundNoConnection,
  cartReloaded,
} = cartEditsSlice.actions;
export const {
  selectPendingEdits,
  selectPendingCount,
  selectLineUnsaved,
  selectDeletedLines,
  selectCartFailure,
  selectCartOffline,
} = cartEditsSlice.selectors;

/** Some quantity the server does not hold yet: waiting for its turn, on its way, or found no connection. */
const editWaits = (state: CartEditsState) =>
  Object.values(state.pending).some((edit) => edit.unsaved || edit.count !== edit.base);

/**
 * A waiting edit that closing the page would lose: sending it as the page goes (pagehide) cannot
 * work without a connection.
 */
const editWouldBeLost = (state: CartEditsState) =>
  editWaits(state) && (state.offline || !navigator.onLine || Object.values(state.pending).some((edit) => edit.unsaved));

/** The cart as the shopper sees it: unsaved edits over the server's numbers, deleted lines gone. */
export function linesWithEdits(
  items: CartItem[],
  pending: Record<number, LineEdit>,
): { item: CartItem; count: number }[] {
  return items.map((item) => ({ item, count: pending[item.id]?.count ?? item.count })).filter((line) => line.count > 0);
}

/** The page is being hidden or closed: what is pending goes now, with `keepalive`. */
export const cartFlushRequested = createAction('cartEdits/flushRequested');
/** The browser says the connection is back. */
export const connectionRestored = createAction('cartEdits/connectionRestored');
const saveRequested = createAction('cartEdits/saveRequested');
/** A save went through while the shopper changed the line again: that change is due in its turn. */
const editOvertaken = createAction('cartEdits/editOvertaken');

/** A line that keeps changing elsewhere: after this many rebased attempts the edit is given up. */
const MAX_ATTEMPTS = 3;
const RETRY_FIRST_MS = 1000;
const RETRY_LONGEST_MS = 30_000;

type CartListenerApi = ListenerEffectAPI<RootState, AppDispatch>;
/** `saved` with the count the server holds now. */
type SaveOutcome = { saved: number } | 'unsent' | 'failed';

const errorStatus = (error: unknown) => (error as Partial<FetchBaseQueryError>).status;

/** Sends one line's edit; on a 409 rebases it on the line as it is now and sends it again. */
async function saveLine(api: CartListenerApi, itemId: number, keepalive: boolean): Promise<SaveOutcome> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const edit = api.getState().cartEdits.pending[itemId];
    if (!edit) return 'failed';
    const { count, base } = edit;
    api.dispatch(cartEditSending({ itemId, count }));
    try {
      await api
        .dispatch(
          count < 1
            ? cartApi.endpoints.removeCartItem.initiate({ itemId, keepalive })
            : cartApi.endpoints.setCartCount.initiate({ itemId, count, expected: base, keepalive }),
        )
        .unwrap();
      api.dispatch(cartEditSaved({ itemId, count }));
      return { saved: count };
    } catch (error) {
      const status = errorStatus(error);
      if (status === 409) {
        const { item } = (error as { data: CartCountConflict }).data;
        api.dispatch(cartEditRebased({ itemId, serverCount: item.count }));
      } else if (status === 'FETCH_ERROR') {
        api.dispatch(cartEditUnsent({ itemId }));
        return 'unsent';
      } else {
        break;
      }
    }
  }
  api.dispatch(cartEditFailed({ itemId }));
  return 'failed';
}

/**
 * SPEC §4/§9: edits are sent 500 ms after the last one (every pending line at once), and the cart
 * reloads after them (about 600 ms after the change). Sending is conditional, rebased on conflict,
 * kept through a lost connection, and hurried when the page is hidden (docs/decisions.md, "A cart
 * that loses nothing").
 */
export function addCartEditsListeners(startAppListening: AppStartListening): void {
  startAppListening({
    matcher: isAnyOf(cartQuantityEdited, editOvertaken),
    effect: async (_action, listenerApi) => {
      listenerApi.cancelActiveListeners();
      await listenerApi.delay(TIMINGS.cartDebounceMs);
      listenerApi.dispatch(saveRequested());
    },
  });

  // Not cancelled by later edits: a save that has started always settles.
  startAppListening({
    matcher: isAnyOf(saveRequested, cartFlushRequested),
    effect: async (action, listenerApi) => {
      const { pending, sending } = listenerApi.getState().cartEdits;
      const due = Object.entries(pending)
        .filter(([itemId, edit]) => !(itemId in sending) && edit.count !== edit.base)
        .map(([itemId]) => Number(itemId));
      if (due.length === 0) return;
      const keepalive = cartFlushRequested.match(action);
      const outcomes = await Promise.all(due.map((itemId) => saveLine(listenerApi, itemId, keepalive)));
      const saved = Object.fromEntries(
        due.flatMap((itemId, index) => {
          const outcome = outcomes[index]!;
          return typeof outcome === 'object' ? [[itemId, outcome.saved]] : [];
        }),
      );
      if (Object.keys(saved).length > 0) announceCartSaved(saved);
      if (outcomes.includes('unsent')) listenerApi.dispatch(cartSaveFoundNoConnection());
      const { pending: now, sending: nowSending } = listenerApi.getState().cartEdits;
      const overtaken = due.some((itemId) => {
        const edit = now[itemId];
        return edit && !edit.unsaved && !(itemId in nowSending) && edit.count !== edit.base;
      });
      if (overtaken) listenerApi.dispatch(editOvertaken());
    },
  });

  // Without a connection: again when the browser says it is back, or after a wait that doubles.
  startAppListening({
    actionCreator: cartSaveFoundNoConnection,
    effect: async (_action, listenerApi) => {
      listenerApi.cancelActiveListeners();
      const attempts = listenerApi.getState().cartEdits.offlineAttempts;
      const wait = Math.min(RETRY_LONGEST_MS, RETRY_FIRST_MS * 2 ** (attempts - 1));
      await listenerApi.condition(connectionRestored.match, wait);
      listenerApi.dispatch(saveRequested());
    },
  });

  // Closing the tab while offline lost an unsaved edit without a word. While an edit
  // waits, the browser asks before the page goes if it would be lost; only then, as a
  // beforeunload listener keeps a page out of some browsers' back-forward cache.
  startAppListening({
    predicate: (_action, current, previous) => editWaits(current.cartEdits) && !editWaits(previous.cartEdits),
    effect: async (_action, listenerApi) => {
      const ask = (event: BeforeUnloadEvent) => {
        if (editWouldBeLost(listenerApi.getState().cartEdits)) event.preventDefault();
      };
      window.addEventListener('beforeunload', ask);
      try {
        await listenerApi.condition((_next, state) => !editWaits(state.cartEdits));
      } finally {
        window.removeEventListener('beforeunload', ask);
      }
    },
  });

  startAppListening({
    matcher: cartApi.endpoints.getCart.matchFulfilled,
    effect: (action, listenerApi) => {
      const query = cartApi.endpoints.getCart.select(action.meta.arg.originalArgs)(listenerApi.getState());
      listenerApi.dispatch(cartReloaded({ startedAt: query.startedTimeStamp ?? 0 }));
    },
  });
}
