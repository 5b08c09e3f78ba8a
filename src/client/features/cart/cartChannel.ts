/**
 * Tells the shopper's other tabs that the cart changed on the server, so they reload it at once
 * instead of when they are next looked at (docs/decisions.md, "A cart that loses nothing").
 */
const CHANNEL = 'myagkiy-opt:cart';

/** This page: its own announcements reach its own listener too (another channel object), and are ignored. */
const THIS_PAGE = `${Date.now()}-${Math.random()}`;

interface CartChanged {
  from: string;
}

const channelsAvailable = () => typeof BroadcastChannel !== 'undefined';

export function announceCartChanged(): void {
  if (!channelsAvailable()) return;
  const channel = new BroadcastChannel(CHANNEL);
  channel.postMessage({ from: THIS_PAGE } satisfies CartChanged);
  channel.close();
}

/** Calls `listener` when another tab announces a change; returns the way to stop listening. */
export function listenForCartChangesElsewhere(listener: () => void): () => void {
  if (!channelsAvailable()) return () => {};
  const channel = new BroadcastChannel(CHANNEL);
  channel.onmessage = (event: MessageEvent<CartChanged>) => {
    if (event.data.from !== THIS_PAGE) listener();
  };
  return () => channel.close();
}
