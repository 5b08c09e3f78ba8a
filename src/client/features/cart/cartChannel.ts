/**
 * Tells the shopper's other tabs which lines were saved, so they show the new counts at once and
 * reload the cart instead of waiting until they are next looked at (docs/decisions.md, "A cart that
 * loses nothing").
 */
const CHANNEL = 'myagkiy-opt:cart';

/** This page: its own announcements reach its own listener too (another channel object), and are ignored. */
const THIS_PAGE = `${Date.now()}-${Math.random()}`;

/** Line id → the count the server now holds (0: deleted). */
export type SavedCounts = Record<number, number>;

interface CartSaved {
  from: string;
  saved: SavedCounts;
}

const channelsAvailable = () => typeof BroadcastChannel !== 'undefined';

export function announceCartSaved(saved: SavedCounts): void {
  if (!channelsAvailable()) return;
  const channel = new BroadcastChannel(CHANNEL);
  channel.postMessage({ from: THIS_PAGE, saved } satisfies CartSaved);
  channel.close();
}

/** Calls `listener` when another tab announces a save; returns the way to stop listening. */
export function listenForCartSavesElsewhere(listener: (saved: SavedCounts) => void): () => void {
  if (!channelsAvailable()) return () => {};
  const channel = new BroadcastChannel(CHANNEL);
  channel.onmessage = (event: MessageEvent<CartSaved>) => {
    if (event.data.from !== THIS_PAGE) listener(event.data.saved);
  };
  return () => channel.close();
}
