import { setupListeners } from '@reduxjs/toolkit/query/react';
import { useEffect } from 'react';
import type { Cart } from '@shared/api';
import { useAppDispatch } from '@/hooks/reduxHooks';
import { cartApi } from './cartApi';
import { listenForCartSavesElsewhere, type SavedCounts } from './cartChannel';
import { cartFlushRequested, connectionRestored } from './cartEditsSlice';

/** Another tab's saved counts, shown at once: the reload that follows brings the rest of the cart. */
function withSavedCounts(cart: Cart, saved: SavedCounts): void {
  cart.items = cart.items.filter((item) => saved[item.id] !== 0);
  for (const item of cart.items) {
    const count = saved[item.id];
    if (count === undefined) continue;
    item.count = count;
    item.item_total = item.variant.price * count;
  }
}

/**
 * Keeps the cart in step with the server and the shopper's other tabs (docs/decisions.md, "A cart
 * that loses nothing"): a pending change goes at once when the page is hidden or closed, unsent ones
 * when the connection returns, and the cart shows and reloads what another tab saved, and reloads
 * when this one is looked at again (the cart query's refetchOnFocus).
 */
export function useCartSync(userId: number) {
  const dispatch = useAppDispatch();
  useEffect(() => {
    const flush = () => dispatch(cartFlushRequested());
    const flushWhenHidden = () => {
      if (document.visibilityState === 'hidden') flush();
    };
    const reconnected = () => dispatch(connectionRestored());
    window.addEventListener('pagehide', flush);
    document.addEventListener('visibilitychange', flushWhenHidden);
    window.addEventListener('online', reconnected);
    const stopFocusListeners = setupListeners(dispatch);
    const stopListening = listenForCartSavesElsewhere((saved) => {
      dispatch(cartApi.util.updateQueryData('getCart', userId, (cart) => withSavedCounts(cart, saved)));
      dispatch(cartApi.util.invalidateTags(['Cart']));
    });
    return () => {
      window.removeEventListener('pagehide', flush);
      document.removeEventListener('visibilitychange', flushWhenHidden);
      window.removeEventListener('online', reconnected);
      stopFocusListeners();
      stopListening();
    };
  }, [dispatch, userId]);
}
